"""Which bundled option goes with which bundled edition: every pair either composes or is refused with a
sentence, and the refused pairs are listed here with the reason, so that nobody is surprised.

An option is a patch written for the editions it was taken from; laid over another edition it can ask
for what that edition does not have (a six-player table on Mille Bornes Express, which is played by 2
to 4) or produce a ruleset that cannot be played (combination-remedies' card counts, written for the
106-card deck, over Express's 66 cards; a match to 5,000 points over a race without points). The
composition refuses those with ``FILE:LINE:COL: option 'X' cannot go with ...`` and exit code 2, never a
traceback or a silently different game. Every test that walks option x edition pairs
(``mbrules.testing.drivers.configurations``, tests/test_narrate.py, ...) skips exactly these.
"""

from __future__ import annotations

import re
import warnings

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app
from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset

# (edition, option) -> why it is refused: words the refusal must say
SCORES_NOTHING = "it changes only the score, and 'express' scores nothing"  # Express is a race: scoring off
REFUSED = {
    # Express (66 cards, 2 to 4 players each for himself, a race without points)
    (
        "express",
        "combination-remedies",
    ): "box.total says 66",  # its absolute counts (5 Gas, 12 Rolls, ...) are the 106-card deck's less one
    (
        "express",
        "each-for-himself",
    ): "it changes the table for 6 players, and 'express' has none",  # and Express is each for himself at 4
    ("express", "three-vs-three"): "it changes the table for 6 players, and 'express' has none",
    ("express", "longer-game"): "scoring is off, so no hand scores a point and the match never ends",
    ("express", "single-hand"): "scoring is off, so every side ends with 0 and every match is a draw",
    ("express", "fixed-hands"): "scoring is off, so every side ends with 0 and every match is a draw",
    ("express", "all-safeties-700"): SCORES_NOTHING,
    ("express", "cf-200"): SCORES_NOTHING,
    ("express", "extension-bonus-to-finisher"): SCORES_NOTHING,
    ("express", "french-end-bonuses"): SCORES_NOTHING,
    ("express", "french-extension-end-bonuses"): SCORES_NOTHING,
    ("express", "no-100-no-200-bonus"): SCORES_NOTHING,
    ("express", "no-delayed-action"): SCORES_NOTHING,
    ("express", "shutout-per-opponent"): SCORES_NOTHING,
    ("express", "shutout-to-each-opponent"): SCORES_NOTHING,
    # wikipedia applies hazard-on-hazard and roll-after-safety: each has an option of its group against it
    ("wikipedia", "stacked-hazards"): "both are in the group 'covered-hazards'",
    ("wikipedia", "remedy-restarts"): "both are in the group 'roll-after-fix'",
    # the programs' profiles (issue 43) apply options of a group: another option of that group is refused
    ("playaural", "empty-pile-ends-hand"): "both are in the group 'trip-length'",
    ("playaural", "extension-1200"): "both are in the group 'trip-length'",
    ("playaural", "simpler-game"): "both are in the group 'trip-length'",
    ("playaural", "three-vs-three"): "both are in the group 'table'",
    ("sisyphus-bbs", "empty-pile-ends-hand"): "both are in the group 'trip-length'",
    ("sisyphus-bbs", "extension-1200"): "both are in the group 'trip-length'",
    ("sisyphus-bbs", "simpler-game"): "both are in the group 'trip-length'",
    ("sisyphus-bbs", "fixed-hands"): "both are in the group 'game-mode'",
    ("sisyphus-bbs", "longer-game"): "both are in the group 'game-mode'",
    ("sisyphus-bbs", "single-hand"): "both are in the group 'game-mode'",
    ("sisyphus-bbs", "tie-another-hand"): "both are in the group 'tie-break'",
}

LOCATED = re.compile(r"^\S+\.yaml:\d+:\d+: option '[a-z0-9-]+' cannot go with (ruleset|option) '[a-z0-9-]+'")


def _outcome(rid: str, oid: str) -> RulesetError | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            load_ruleset(rid, [oid])
        except RulesetError as exc:
            return exc
    return None


@pytest.mark.parametrize("rid", bundled_ruleset_ids())
def test_each_option_composes_onto_the_edition_or_is_refused_as_listed(rid):
    """A pair composes, or it is one of REFUSED and its refusal is a located sentence that says why (exit 2)."""
    composed, refused = [], {}
    for oid in bundled_option_ids():
        exc = _outcome(rid, oid)
        if exc is None:
            composed.append(oid)
            continue
        assert exc.refusal and exc.usage, f"{rid} + {oid}: not a refusal: {exc}"
        assert all(LOCATED.match(line) for line in exc.lines), exc.lines
        refused[oid] = str(exc)
    listed = {o: why for (r, o), why in REFUSED.items() if r == rid}
    assert set(refused) == set(listed), f"{rid}: refused {sorted(refused)}, listed {sorted(listed)}"
    for oid, why in listed.items():
        assert why in refused[oid], refused[oid]
    assert composed, f"no option composes onto {rid}"


def test_the_refused_pairs_name_bundled_ids():
    """The list stays true: every pair in it names a bundled edition and a bundled option."""
    for rid, oid in REFUSED:
        assert rid in bundled_ruleset_ids() and oid in bundled_option_ids()


@pytest.mark.parametrize("rid,oid", sorted(REFUSED))
def test_a_refused_pair_exits_2_with_the_sentence_through_the_command(rid, oid):
    """Through the real command: no traceback, the located sentence on stderr, exit code 2 (a usage error)."""
    result = CliRunner().invoke(app, ["play", "--ruleset", rid, "--option", oid, "-p", "2", "--seed", "1"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert re.search(r"\.yaml:\d+:\d+: option '[a-z0-9-]+' cannot go with", result.stderr), result.stderr
    assert REFUSED[(rid, oid)] in result.stderr


def test_an_option_that_gives_a_whole_table_may_add_it():
    """The table check refuses only an option that changes a table it cannot make (no trip given): one that
    gives every value of a new table adds it, as a ruleset file may."""
    from pathlib import Path
    from tempfile import TemporaryDirectory

    with TemporaryDirectory() as tmp:
        opt = Path(tmp) / "five.yaml"
        opt.write_text(
            "kind: option\nid: five-players\nname: Five each for himself\n"
            "player_counts:\n  \"5\": {sides: 5, target: 1000, extension_to: null, decided: test}\n"
        )
        rs = load_ruleset("express", [opt])
        assert rs.player_counts["5"].sides == 5


def test_an_option_that_turns_the_score_off_is_not_refused_for_scoring_nothing(tmp_path):
    """The 'changes only the score' refusal is for an option whose score changes cannot be read; one that
    turns scoring off itself (with a race for a match) is what it says."""
    opt = tmp_path / "race.yaml"
    opt.write_text("kind: option\nid: no-points\nname: No points\nscoring:\n  enabled: {value: false, decided: test}\n")
    with pytest.raises(RulesetError) as caught:  # over the reference edition's points match: an invalid option
        load_ruleset("winning-moves", [opt])  # (mbrules validate says so too): exit 1, not a refusal
    assert not caught.value.usage and "scoring is off" in str(caught.value)
    assert not load_ruleset("express", [opt]).scoring.enabled.value


def test_a_ruleset_file_with_a_one_hand_match_and_no_score_is_invalid(tmp_path):
    """The semantic check behind single-hand and fixed-hands over express: in a file, exit 1 at its line."""
    path = tmp_path / "draws.yaml"
    path.write_text("id: draws\nname: Draws\nextends: express\nmatch:\n  mode: {value: single_hand, decided: test}\n")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "draws.yaml:5:" in result.output and "every match is a draw" in result.output


def test_an_option_the_edition_already_plays_is_taken_with_a_warning_that_it_changes_nothing():
    """draw-from-discard over asmodee-2014 (whose turn draws from the discard pile already) is no mistake,
    but its user is told it made no difference; an option that changes something says nothing of the kind."""
    with pytest.warns(
        UserWarning,
        match=r"draw-from-discard\.yaml:\d+:\d+: warning: option 'draw-from-discard' "
        r"changes nothing in ruleset 'asmodee-2014'",
    ):
        load_ruleset("asmodee-2014", ["draw-from-discard"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_ruleset("winning-moves", ["draw-from-discard"])
        load_ruleset("asmodee-2014", ["hazard-on-hazard"])


def test_a_broken_option_file_is_invalid_not_refused(tmp_path):
    """A refusal (exit 2) is for a valid option that a ruleset cannot take; an option file that is itself
    invalid (mbrules validate: applied over the reference edition) stays exit 1, wherever it is applied."""
    opt = tmp_path / "broken.yaml"
    opt.write_text(
        "kind: option\nid: broken\nname: Broken\n"
        "cards:\n  new_remedy: {kind: remedy, name: New, fixes: [stop], decided: test}\n"
    )
    for rid in ("winning-moves", "express"):
        with pytest.raises(RulesetError) as caught:
            load_ruleset(rid, [opt])
        assert not caught.value.usage and not caught.value.refusal, caught.value
        assert "missing key 'count'" in str(caught.value)
