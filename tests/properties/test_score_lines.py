"""The score oracle catches bugs in score lines given as data and in match ends (issue 36).

``scoring.lines`` (a condition, points, recipients) is evaluated by the engine in
``mbrules/engine/scorelines.py`` and, independently, by ``mbrules.testing.oracle.score_oracle`` from
the ruleset model; ``match.mode`` fixed_hands / finisher and ``match.tie_break`` by
``State._match_winner`` and ``expected_winner``. Each test puts one bug into the engine (monkeypatched
here only) and asserts that ``check`` reports it, on random games of the options that use these
rules (every player count, a few seeds, two hands a match) or on the options' conformance scenarios
replayed under the checker; the real engine gives no report on either.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mbrules.engine import State, scorelines
from mbrules.ruleset.model import ScoringRules
from mbrules.testing import check, checked_replay, game_of, load_rules
from real_replays import replayed

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "conformance" / "options"
LINE_OPTIONS = (
    "shutout-to-each-opponent",
    "no-100-no-200-bonus",
    "french-end-bonuses",
    "french-extension-end-bonuses",
)
MATCH_OPTIONS = ("fixed-hands", "finisher-wins", "tie-first-seat", "tie-another-hand")
SEEDS = range(6)
HANDS_PER_MATCH = 2
DISAGREES = "the rulings give"  # how check words a score line the oracle does not give
WINNER = "the match rules give"  # how check words a winner the match rules do not give


def _configurations():
    for option in LINE_OPTIONS + MATCH_OPTIONS:
        rs = load_rules("winning-moves", (option,))
        for n in sorted(int(k) for k in rs.player_counts):
            yield ("winning-moves", (option,), n)


def _greedy(state, rng):
    """A random player that mostly plays distance, so trips get completed (and their lines scored)."""
    acts = state.legal_actions()
    kind = state.game.kind
    distance = [a for a in acts if a.op == 1 and kind[a.card_index] == 0]
    if distance and rng.random() < 0.8:
        return rng.choice(distance)
    return rng.choice(acts)


@pytest.fixture(scope="module")
def hands():
    """(configuration, seed, state at a hand's end) for every game played (the first two hands of each)."""
    return _play(_configurations())


def _play(configurations):
    out = []
    for cfg in configurations:
        for seed in SEEDS:
            st = State.new_match(game_of(cfg), seed, deal_next=False)
            rng = random.Random(seed)
            for h in range(HANDS_PER_MATCH):
                while not st.hand_over:
                    # step: apply's game without the record, which nothing here reads
                    st.step(_greedy(st, rng) if seed % 2 == 0 else rng.choice(st.legal_actions()))
                out.append((cfg, seed, st.clone()))
                if st.match_over or h == HANDS_PER_MATCH - 1:
                    break
                st.next_hand()
    return out


def _caught(hands, word=DISAGREES):
    return [(cfg, seed, b) for cfg, seed, st in hands for b in check(st) if word in b]


def _caught_in_scenarios(word=DISAGREES, names=("opt-*.yaml",), real=False):
    """Replay the options' conformance scenarios under the checker: the reports containing ``word`` (a tuple:
    any of its words). ``real``: the engine is not patched, so test_conformance_invariants' replays of the same
    files, run earlier in the process, answer (real_replays.py); a mutant's test always replays afresh."""
    words = word if isinstance(word, tuple) else (word,)
    out = []
    for pattern in names:
        for path in sorted(SCENARIOS.glob(pattern)):
            _, problems, _ = replayed(path) if real else checked_replay(path)
            out += [(path.name, p) for p in problems if any(w in p for w in words)]
    return out


def test_the_real_engine_agrees_with_the_oracle_on_lines_and_match_ends(hands):
    assert not [(cfg, seed, b) for cfg, seed, st in hands for b in check(st)][:3]
    assert not _caught_in_scenarios((DISAGREES, WINNER), real=True)  # one replay of the scenarios for both words


def test_the_games_score_the_new_lines(hands):
    """The mutants below are only caught if the games score these lines somewhere."""
    seen = {k for _, _, st in hands for line in st.score_sheet() for k, v in line.items() if v}
    assert {"shutout", "fin_contrat"} <= seen  # the rarer ones are replayed from the options' scenarios


# -- score lines: one mutant per rule ----------------------------------------------------------


def _without(cond, code, want=None):
    """A compiled condition less its checks of ``code`` (those expecting ``want`` only, if given)."""
    return tuple(c for c in cond if not (c[0] == code and (want is None or c[1] == want)))


def test_a_blank_side_is_not_paid_for_another_blank_side(hands, monkeypatch):
    real = scorelines.holds

    def any_recipient(st, s, cond, done):  # mutant: to_when (the recipient's own condition) ignored
        return True if (scorelines.BLANK, False) in cond else real(st, s, cond, done)

    monkeypatch.setattr(scorelines, "holds", any_recipient)
    assert _caught(hands)
    assert _caught_in_scenarios(names=("opt-shutout-to-each-opponent-two-blank.yaml",))


def test_a_line_paying_on_a_contract_line_replaces_its_standard_rule(monkeypatch):
    def both(self):  # mutant: the standard shutout kept beside the data's (both paid on the line)
        std = {f"std_{k}": v.model_copy(update={"line": v.line or k}) for k, v in self.standard_lines().items()}
        return {**std, **self.lines}

    monkeypatch.setattr(ScoringRules, "all_lines", both)
    assert _caught_in_scenarios(names=("opt-shutout-to-each-opponent*.yaml",))


def test_none_played_is_judged_from_the_cards_played(monkeypatch):
    real = scorelines.holds

    def ignores_cards(st, s, cond, done):  # mutant: the 'none of these cards' condition dropped
        return real(st, s, _without(cond, scorelines.NONE_PLAYED), done)

    monkeypatch.setattr(scorelines, "holds", ignores_cards)
    assert _caught_in_scenarios(names=("opt-no-100-no-200-bonus-a-100.yaml",))


def test_exactly_one_safety_means_one(hands, monkeypatch):
    real = scorelines.holds

    def at_least(st, s, cond, done):  # mutant: 'safeties: 1' read as at least one
        want = dict(cond).get(scorelines.SAFETIES)
        if want is not None and len(st._safeties[s]) + len(st._coups[s]) >= want:
            return real(st, s, _without(cond, scorelines.SAFETIES), done)
        return real(st, s, cond, done)

    monkeypatch.setattr(scorelines, "holds", at_least)
    assert _caught_in_scenarios(names=("opt-french-extension-end-bonuses-two-safeties.yaml",))


def test_an_empty_hand_at_the_end_is_the_last_players_own(monkeypatch):
    """'0 en main' (french-end-bonuses' Fin du contrat) is the hand of the player whose card ended the hand,
    not every side whose hands are empty: at an exhausted deck every hand is empty, one side is paid."""
    real = scorelines.holds

    def any_empty_side(st, s, cond, done):  # mutant: the old reading, every player of the side holds no card
        want = dict(cond).get(scorelines.ENDED_EMPTY)
        if want is None:
            return real(st, s, cond, done)
        rest = _without(cond, scorelines.ENDED_EMPTY)
        return real(st, s, ((scorelines.EMPTY, want), *rest), done)

    monkeypatch.setattr(scorelines, "holds", any_empty_side)
    assert _caught_in_scenarios(names=("opt-french-end-bonuses-exhaustion.yaml",))


def test_alternatives_pay_one_line(monkeypatch):
    """The score sheet app's primes are alternatives (1,800 is not 800 + 1,000): of the lines of one
    exclusive name, a side is paid the first that holds only."""
    real = scorelines.compile_entries

    def no_groups(entries, names, index):  # mutant: every line paid as if it had no exclusive name
        return tuple((*line[:-1], -1) for line in real(entries, names, index))

    monkeypatch.setattr(scorelines, "compile_entries", no_groups)
    assert _caught_in_scenarios(names=("opt-french-extension-end-bonuses.yaml",))


def test_no_distance_counts_distance_cards_not_miles(monkeypatch):
    """Rulings of the options (docs/conformance.md): a safety's miles (safety-distance) are no distance
    card, so a side with only those is still blank for the capot, as for the book's shutout."""
    real = scorelines.holds

    def by_miles(st, s, cond, done):  # mutant: 'no distance' read from the miles
        want = dict(cond).get(scorelines.BLANK)
        if want is not None and (st._miles[s] == 0) != want:
            return False
        return real(st, s, _without(cond, scorelines.BLANK), done)

    monkeypatch.setattr(scorelines, "holds", by_miles)
    assert _caught_in_scenarios(names=("opt-safety-distance-capot.yaml",))


def test_line_points_come_from_the_ruleset(hands, monkeypatch):
    for _, _, st in hands:  # mutant: a compile bug doubles every line's points
        g = st.game
        if g.scoring_lines and not getattr(g, "_doubled", False):
            monkeypatch.setattr(g, "scoring_lines", tuple((n, 2 * p, *rest) for n, p, *rest in g.scoring_lines))
            monkeypatch.setattr(g, "_doubled", True, raising=False)
    assert _caught(hands)


# -- match ends ------------------------------------------------------------------------------


def test_a_match_of_fixed_hands_does_not_end_early(monkeypatch):
    real = State._match_winner

    def after_one(self):  # mutant: the compiled length read as one hand
        if self.game.match_mode == "fixed_hands":
            return self._tie_break(self._match_totals)
        return real(self)

    monkeypatch.setattr(State, "_match_winner", after_one)
    assert _caught(_play([c for c in _configurations() if c[1] == ("fixed-hands",)]), WINNER)


def test_a_match_of_fixed_hands_ends_after_its_last(monkeypatch):
    real = State._match_winner

    def never(self):  # mutant: a fixed-hands match never ends by its length
        return None if self.game.match_mode == "fixed_hands" else real(self)

    monkeypatch.setattr(State, "_match_winner", never)
    assert _caught_in_scenarios(WINNER, names=("opt-fixed-hands.yaml",))


def test_the_finisher_wins_with_fewer_points(monkeypatch):
    real = State._match_winner

    def most_points(self):  # mutant: finisher-wins judged as a plain single hand
        if self.game.match_mode == "finisher":
            return self._tie_break([line["total"] for line in self._hand_sheets[-1]])
        return real(self)

    monkeypatch.setattr(State, "_match_winner", most_points)
    assert _caught_in_scenarios(WINNER, names=("opt-finisher-wins.yaml",))


@pytest.mark.parametrize(
    ("option", "scenario"),
    [("tie-first-seat", "opt-tie-first-seat*.yaml"), ("tie-another-hand", "opt-tie-another-hand.yaml")],
)
def test_a_tie_is_broken_as_the_ruleset_says(option, scenario, monkeypatch):
    real = State._tie_break

    def a_draw(self, values):  # mutant: every tie a draw, whatever match.tie_break says
        best = max(values)
        leaders = [i for i, v in enumerate(values) if v == best]
        return leaders[0] if len(leaders) == 1 else real.__globals__["Termination"].DRAW

    monkeypatch.setattr(State, "_tie_break", a_draw)
    assert _caught_in_scenarios(WINNER, names=(scenario,))


# -- the contract's lines as data ----------------------------------------------------------------


def test_the_standard_lines_cite_the_values_they_are_built_from():
    """Every bundled edition and option: each standard entry's points are its scoring value and carry that
    value's source or decided (so show, --explain and diff, which read the values, say what the sheet pays)."""
    from mbrules.ruleset.model import STANDARD_LINE_VALUES
    from mbrules.testing import configurations

    seen = set()
    for rid, options, _ in configurations():
        if (rid, options) in seen:
            continue
        seen.add((rid, options))
        sc = load_rules(rid, options).scoring
        for key, line in sc.standard_lines().items():
            value = getattr(sc, STANDARD_LINE_VALUES[line.line or key][0])
            assert line.points == value.value, (rid, options, key)
            assert (line.source, line.decided, line.uncited) == (value.source, value.decided, value.uncited)


def test_an_editions_own_value_is_the_compiled_line():
    """cf-200 (the 2014 box's coup fourré) and no-delayed-action change the compiled lines, nothing else."""
    base = game_of(("winning-moves", (), 4))
    g = game_of(("winning-moves", ("cf-200", "no-delayed-action"), 4))
    slot = g.score_line_names.index
    coup = [line for line in g.scoring_lines if line[0] == slot("coup_fourres")]
    assert [line[1] for line in coup] == [200]
    assert not [line for line in g.scoring_lines if line[0] == slot("delayed_action")]  # worth 0: not compiled
    rest = [line for line in base.scoring_lines if line[0] not in (slot("coup_fourres"), slot("delayed_action"))]
    assert rest == [line for line in g.scoring_lines if line[0] != slot("coup_fourres")]
