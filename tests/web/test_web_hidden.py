"""What a seat receives never depends on another seat's hidden cards, against a server on 127.0.0.1 (in
this process: the messages are checked, not the process): a coup fourré window let pass sends the other
seats no message and moves no version of theirs, and the host's export of a match in play holds neither
the hand in play nor the seed."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import pytest

from web_helpers import SeatClient, ServerApi, module_in_process_server, path

SEATS = ["person", "person", "person", "person"]
# Seeds of winning-moves where p1's first move is a Speed Limit on side B (p2's): p2 holds Right of Way
# on seed 40 (a coup fourré window opens for p2) and not on seed 2 (tests/web: found by dealing seeds).
WINDOW, NO_WINDOW, HAZARD = 40, 2, "play speed_limit on B"


server = pytest.fixture(scope="module", name="server")(module_in_process_server)


def what_p1_sees(server: ServerApi, seed: int) -> tuple[list[int], bool]:
    """p1 plays the Speed Limit on p2, p2 lets a window pass if one opens; until p2 is asked its turn, the
    version steps of the views p1's socket received, and whether a window opened."""
    t = server.open_table(seats=SEATS, seed=seed)
    p1, p2 = SeatClient(t["seats"][0]["url"]), SeatClient(t["seats"][1]["url"])
    try:
        p1.until(lambda m: m["type"] == "state" and any(x["action"] == HAZARD for x in m["moves"]))
        p2.until(lambda m: m["type"] == "state")
        p1.settle(0.3)
        start, mark = p1.view["version"], len(p1.received)
        p1.act(HAZARD)
        asked = p2.until(lambda m: m["type"] == "state" and bool(m["moves"]))
        window = asked["obs"]["decision"]["kind"] == "coup_fourre"
        if window:
            p2.act(next(x["action"] for x in asked["moves"] if x["op"] == "decline"))
            p2.until(lambda m: m["type"] == "state" and bool(m["moves"]) and m["obs"]["decision"]["kind"] == "turn")
        p1.settle(0.5)
        versions = [start] + [m["version"] for m in p1.received[mark:] if m["type"] == "state"]
        return [b - a for a, b in zip(versions, versions[1:])], window
    finally:
        p1.close()
        p2.close()


def test_a_window_let_pass_sends_the_other_seats_nothing(server):
    """The same messages and version steps reach p1 whether p2 held the safety (and let the window pass) or
    not: before, p1 received one view more and its version moved by one more."""
    with_window, opened = what_p1_sees(server, WINDOW)
    without, not_opened = what_p1_sees(server, NO_WINDOW)
    assert opened and not not_opened  # the two deals are the two cases
    assert with_window == without, (with_window, without)


def test_the_hosts_export_of_a_match_in_play_shows_no_hand_in_play_nor_the_seed(server):
    """The host may play a seat: mid-match the export holds the hands that are over only (here none: 409),
    and the host's page does not show the seed (it deals every hand to come)."""
    t = server.open_table(seats=SEATS, seed=NO_WINDOW)
    p1 = SeatClient(t["seats"][0]["url"])
    try:
        p1.until(lambda m: m["type"] == "state" and bool(m["moves"]))
        r = server.http.get(path(t["export_url"]))
        assert r.status_code == 409 and "no hand is over yet" in r.text
        assert server.host(t)["seed"] is None and t["seed"] is None
    finally:
        p1.close()


def test_a_bot_letting_a_window_pass_is_no_step_the_others_see_or_wait_for():
    """The random bot at p2 lets seed 40's window pass: the table reports the step as 'hidden' (the lobby
    neither broadcasts it nor waits the bots' pause for it, as it does for a bot's play), and p1's version
    does not move; p2's own next play is a 'bot' step p1 sees."""
    from mbrules.web.rules import bundled_choice
    from mbrules.web.table import Table, table_setup

    rules = bundled_choice("winning-moves", [])
    t = Table("t", table_setup(rules, 4, ["person", "random", "person", "person"], WINDOW, 0), rules, None)
    while t.step_once():
        pass
    assert t.act(0, HAZARD, t.version_for(0)) is None
    seen = t.version_for(0)
    assert t.view(1)["obs"]["decision"]["kind"] == "coup_fourre"
    assert t.step_once() == "hidden" and t.version_for(0) == seen  # the window let pass
    assert [t.step_once(), t.step_once()] == ["draw", "bot"] and t.version_for(0) == seen + 2
