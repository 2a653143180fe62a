"""A browser table in process (no server): the engine decides, refusals are the terminal game's words,
the record in SQLite rebuilds the table exactly, exports replay, uploads are checked as files are."""
from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import json

import pytest

from mbrules.scenario.replay import replay_file
from mbrules.testing import bundled_ids
from mbrules.vocab import DISTANCE
from mbrules.web.rules import MAX_UPLOAD, RulesChoiceError, bundled_choice, uploaded_choice
from mbrules.web.seats import BotSeat, BrowserSeat, Seat
from mbrules.web.store import Store
from mbrules.web.table import Table, table_setup

from web_helpers import check_nothing_leaked, my_move, window_seed

SEATS = ["person", "heuristic", "person", "heuristic"]


def new_table(tmp_path, seed=3, seats=SEATS, options=(), store=True, players=4):
    rules = bundled_choice("winning-moves", list(options))
    setup = table_setup(rules, players, seats, seed, 0)
    st = Store(tmp_path / "t.sqlite3") if store else None
    if st is not None:
        st.add_table("t", setup)
    return Table("t", setup, rules, st), st


def play(t: Table, person_moves: int) -> None:
    """The bots and draws run; the persons play my_move, ``person_moves`` times (or until the hand ends)."""
    for _ in range(person_moves):
        while t.step_once():
            pass
        p = t.deciding()
        if p < 0:
            return
        assert t.act(p, my_move(t.view(p)), t.version) is None
    while t.step_once():
        pass


def test_both_kinds_of_seat_stand_behind_the_one_seat_protocol(tmp_path):
    t, _ = new_table(tmp_path, store=False)
    assert all(isinstance(s, Seat) for s in t.seats)
    assert [type(s) for s in t.seats] == [BrowserSeat, BotSeat, BrowserSeat, BotSeat]
    p = t.deciding()
    while t.step_once():
        pass
    p = t.deciding()
    assert t.seats[p].decide(t.state.observation(p), t.state.legal_actions()) is None  # a person: later


def test_a_refused_card_is_told_in_the_terminal_games_words(tmp_path):
    """Distance before any Roll: 'you are not rolling yet: play a Roll! first' (mbrules.tui.words)."""
    t, _ = new_table(tmp_path, store=False)
    while t.step_once():
        pass
    p = t.deciding()
    hand = t.state.observation(p).hand
    dist = [c for c in hand if t.game.kind[c] == DISTANCE]
    assert dist, "this deal holds a distance card"
    before = t.version
    why = t.act(p, f"play {t.game.card_ids[dist[0]]}", t.version)
    assert (why.code, why.message) == ("cannot-move", "you are not rolling yet: play a Roll! first")
    assert t.version == before
    other = 2 - p if p in (0, 2) else 0
    why = t.act(other, "discard " + t.game.card_ids[t.state.observation(other).hand[0]], t.version)
    assert why.code == "not-your-turn" and why.message == f"it is not your turn: p{p + 1} plays now"


def test_an_action_naming_an_old_version_is_refused_as_stale(tmp_path):
    t, _ = new_table(tmp_path, store=False)
    play(t, 1)
    p = t.deciding()
    assert t.act(p, my_move(t.view(p)), t.version - 1).code == "stale"


def test_the_stored_steps_rebuild_the_table_exactly(tmp_path):
    """Every accepted step is in SQLite before it is applied: dealing the seed again and playing them
    reaches the same position (hidden cards included), the same narration, the same step count."""
    seed, person = window_seed(SEATS, within=30)
    t, store = new_table(tmp_path, seed=seed)
    for _ in range(200):
        while t.step_once():
            pass
        p = t.deciding()
        if p < 0 or t.view(p)["obs"]["decision"]["kind"] == "coup_fourre":
            break
        assert t.act(p, my_move(t.view(p)), t.version) is None
    assert t.deciding() == person  # the window is open: the rebuilt table must be inside it too
    again = Table("t", store.load("t").setup, t.rules, store)
    again.restore(store.load("t").steps)
    assert again.state.snapshot() == t.state.snapshot()
    assert again.steps == t.steps == store.count_steps("t")
    assert list(again.narrator.lines) == list(t.narrator.lines)
    assert again.view(person)["question"].startswith("COUP FOURRÉ?")


def test_a_hand_played_to_its_end_exports_a_scenario_that_replays(tmp_path):
    t, store = new_table(tmp_path, seed=5, options=["hazard-on-hazard"])
    for _ in range(400):
        play(t, 1)
        if t.state.hand_over:
            break
    assert t.state.hand_over
    view = t.view(0)
    assert view["hand_over"] and view["sheets"]["hands"] and view["status"]
    path = tmp_path / "record.yaml"
    path.write_text(t.export())
    results = replay_file(path)
    assert [r.passed for r in results] == [True]
    assert t.press_next_hand(0) is False and t.press_next_hand(2) is True  # every person pressed
    assert t.state.hand_no == 1


def test_the_host_gives_an_absent_seat_to_a_bot_and_a_restart_keeps_it(tmp_path):
    t, store = new_table(tmp_path)
    t.give_to_bot(2, "random")
    assert t.act(2, "stop", t.version).code == "not-yours"
    stored = store.load("t")
    assert stored.setup["seats"] == ["person", "heuristic", "random", "heuristic"]
    again = Table("t", stored.setup, t.rules, store)
    assert isinstance(again.seats[2], BotSeat)


def test_a_replaced_link_is_stored_so_a_restart_keeps_it(tmp_path):
    t, store = new_table(tmp_path)
    old = t.setup["secrets"][0]
    t.new_link(0)
    again = Table("t", store.load("t").setup, t.rules, store)
    assert again.seat_for(old) is None and again.seat_for(t.setup["secrets"][0]) == 0
    assert again.seat_for(t.setup["secrets"][2]) == 2


def test_the_leak_check_sees_a_view_of_another_seat(tmp_path):
    """The check the security tests run on every message can fail: p3's view sent to p1 is caught."""
    t, _ = new_table(tmp_path, store=False)
    while t.step_once():
        pass
    allowed = {json.dumps(t.state.observation(0).to_dict(), sort_keys=True)}
    ok = json.loads(json.dumps(t.view(0)))
    assert check_nothing_leaked([ok], allowed, "p1") == 1
    leaked = json.loads(json.dumps(t.view(2)))
    leaked["seat"] = "p1"
    with pytest.raises(AssertionError):
        check_nothing_leaked([leaked], allowed, "p1")
    extra = dict(ok, hands={"p3": []})
    with pytest.raises(AssertionError):
        check_nothing_leaked([extra], allowed, "p1")


GOOD = """id: house
name: Our house rules
extends: winning-moves
options: [hazard-on-hazard]
scoring:
  safe_trip: {value: 500, decided: "our table, since 1990"}
"""


def test_an_uploaded_ruleset_is_checked_and_its_changes_told_in_words():
    rules = uploaded_choice("C:\\Users\\me\\house.yaml", GOOD.encode())
    assert rules.upload_name == "house.yaml"
    changes = rules.changes()
    assert any("hazard" in c for c in changes) and any("500" in c for c in changes)
    assert "Our house rules" in rules.rules_text(4)


def test_an_invalid_upload_is_told_file_line_col_under_its_own_name():
    bad = GOOD.replace("value: 500", "value: lots")
    with pytest.raises(RulesChoiceError) as e:
        uploaded_choice("house.yaml", bad.encode())
    assert e.value.lines and all(line.startswith("house.yaml:6:") for line in e.value.lines), e.value.lines


def test_an_upload_past_the_size_bound_is_refused():
    with pytest.raises(RulesChoiceError) as e:
        uploaded_choice("big.yaml", GOOD.encode() + b"#" * MAX_UPLOAD)
    assert e.value.lines[0].startswith("big.yaml:1:1: the file is")


def test_bundled_choices_name_only_bundled_ids(tmp_path):
    with pytest.raises(RulesChoiceError):
        bundled_choice("/etc/passwd.yaml", [])
    with pytest.raises(RulesChoiceError):
        bundled_choice("winning-moves", [str(tmp_path / "x.yaml")])


def test_the_extension_question_is_put_to_the_seat_that_completed_the_trip(tmp_path):
    """Two players, a trip of 700 with an extension to 1000 (winning-moves): the person whose side
    completes the trip is asked in words, with 'extend' and 'stop' as its only moves."""
    for seed in range(60):
        t, _ = new_table(tmp_path, seed=seed, seats=["person", "heuristic"], players=2, store=False)
        for _ in range(300):
            while t.step_once():
                pass
            if t.deciding() != 0:
                break
            view = t.view(0)
            if view["obs"]["decision"]["kind"] == "extension":
                assert view["question"].startswith("EXTENSION? Your side has completed the trip of 700 miles.")
                assert [m["action"] for m in view["moves"]] == ["extend", "stop"]
                assert [m["words"] for m in view["moves"]] == ["extend the trip to 1000 miles",
                                                              "stop at 700 miles: the hand ends"]
                assert t.act(0, "stop", t.version) is None
                assert t.state.hand_over
                return
            assert t.act(0, my_move(view), t.version) is None
    raise AssertionError("no seed of 60 put the extension question to the person")


@pytest.mark.parametrize("ruleset", bundled_ids()[0])
def test_every_bundled_edition_plays_a_hand_at_every_player_count(ruleset, tmp_path):
    """A host may choose any bundled edition: at each of its player counts a person plays a whole
    hand against bots, every view is built on the way, and the record replays."""
    rules = bundled_choice(ruleset, [])
    for players in sorted(int(k) for k in rules.ruleset.player_counts):
        seats = ["person"] + ["random"] * (players - 1)
        setup = table_setup(rules, players, seats, players, 0)
        store = Store(tmp_path / f"{players}.sqlite3")
        store.add_table("t", setup)
        t = Table("t", setup, rules, store)
        for _ in range(2000):
            while t.step_once():
                pass
            if t.deciding() < 0:
                break
            for p in range(players):
                t.view(p)
            assert t.act(0, my_move(t.view(0)), t.version) is None
        assert t.state.hand_over, (ruleset, players)
        assert t.view(0)["status"]
        path = tmp_path / f"{players}.yaml"
        path.write_text(t.export())
        assert [r.passed for r in replay_file(path)] == [True], (ruleset, players)


@pytest.mark.parametrize("option", ["draw-from-discard", "mulligan"])
def test_a_draw_that_is_a_choice_is_offered_to_the_person_and_taken(option, tmp_path):
    """With draw-from-discard (or mulligan) the draw is a choice, not the lone move the seat loop takes for a
    seat: the page lists the draws and the server takes the one the person sends (before, the draws were
    hidden from the page and refused from it, and the table waited for ever)."""
    t, _ = new_table(tmp_path, store=False, options=[option])
    for _ in range(400):
        while t.step_once():
            pass
        p = t.deciding()
        if p < 0:
            break
        moves = [m["action"] for m in t.view(p)["moves"]]
        draws = [m for m in moves if m.startswith("draw")]
        if draws:
            assert "draw" in moves and (("draw discard" in moves) or any(m.startswith("mulligan") for m in moves))
            before = t.version
            assert t.act(p, draws[-1], t.version) is None
            assert t.version != before
            return
        assert t.act(p, my_move(t.view(p)), t.version) is None
    pytest.fail("no draw choice came up")
