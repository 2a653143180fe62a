"""The browser table at one seat (option solo): the setup previews a one-player table, a person plays a
whole hand alone (every view built, the record replays), and the server opens such a table."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

from mbrules.scenario.replay import replay_file
from mbrules.web.rules import bundled_choice
from mbrules.web.store import Store
from mbrules.web.table import Table, table_setup

from test_web_table import play
from web_helpers import served_in_process


def test_solo_a_person_plays_a_whole_hand_alone_and_the_record_replays(tmp_path):
    rules = bundled_choice("winning-moves", ["solo"])
    setup = table_setup(rules, 1, ["person"], 7, 0)
    store = Store(tmp_path / "t.sqlite3")
    store.add_table("t", setup)
    t = Table("t", setup, rules, store)
    play(t, 2000)  # the person plays the tests' policy until nobody decides: the hand is over
    assert t.state.hand_over
    view = t.view(0)
    assert view["hand_over"] and view["status"]
    path = tmp_path / "solo.yaml"
    path.write_text(t.export())
    assert [r.passed for r in replay_file(path)] == [True]


def test_solo_the_server_previews_and_opens_a_one_seat_table(tmp_path):
    """In this process (web_helpers.served_in_process: what the server answers, not its process)."""
    with served_in_process(tmp_path) as s:
        r = s.http.post("/api/preview", json={"ruleset": "winning-moves", "options": ["solo"], "players": 1})
        assert r.status_code == 200, r.text
        assert any("1 side, trip of 1000 miles" in c and "own side" in c for c in r.json()["changes"])
        t = s.open_table(ruleset="winning-moves", options=["solo"], players=1, seats=["person"], seed=1)
        h = s.host(t)
        assert [seat["kind"] for seat in h["seats"]] == ["person"] and h["players"] == 1
