"""The browser table's setup for the rules of issue 43: a table that will rarely finish is said so before
it opens, naming the option that fixes it; the programs' tables (playaural) open and play through a server
(in this process: what it answers is checked, not its process)."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import pytest
from web_helpers import module_in_process_server

server = pytest.fixture(scope="module", name="server")(module_in_process_server)


def test_preview_warns_that_four_cars_without_a_reshuffle_rarely_finish(server):
    """Each for himself at four with no reshuffle: the draw pile runs out first in most hands."""
    r = server.http.post(
        "/api/preview", json={"ruleset": "winning-moves", "options": ["each-for-himself"], "players": 4}
    )
    assert r.status_code == 200, r.text
    warning = r.json()["warning"]
    assert warning and "reshuffle-discard" in warning
    r = server.http.post(
        "/api/preview",
        json={"ruleset": "winning-moves", "options": ["each-for-himself", "reshuffle-discard"], "players": 4},
    )
    assert r.json()["warning"] is None
    r = server.http.post("/api/preview", json={"ruleset": "playaural", "players": 4})
    assert r.status_code == 200 and r.json()["warning"] is None  # PlayAural reshuffles


def test_a_playaural_table_opens_with_bots_and_plays_its_first_hand_out(server):
    """PlayAural's table (four cars, a reshuffled pile, safeties replaced at once) opens; its bots play."""
    t = server.open_table(
        ruleset="playaural", players=4, seats=["person", "heuristic", "heuristic", "heuristic"], seed=1
    )
    h = server.host(t)
    assert [s["kind"] for s in h["seats"]] == ["person", "heuristic", "heuristic", "heuristic"]
    assert h["ruleset"] == "PlayAural's Mile by Mile, as a new table starts" and h["players"] == 4


def test_a_karma_table_shows_each_side_s_karma_and_its_false_virtue_card(server):
    """Option karma: the seat's view carries each side's karma (and the karma cards played), which the page's
    table draws (table-view.js: 'Karma: yes' / 'Karma: lost'); the rules it is sent name False Virtue."""
    from web_helpers import SeatClient

    t = server.open_table(
        ruleset="winning-moves", options=["karma"], players=3, seats=["person", "heuristic", "heuristic"], seed=2
    )
    p1 = SeatClient(t["seats"][0]["url"])
    try:
        view = p1.until(lambda m: m["type"] == "state" and bool(m["moves"]))
        welcome = next(m for m in p1.received if m["type"] == "welcome")
        assert welcome["cards"]["false_virtue"] == {"name": "False Virtue", "kind": "karma"}
        sides = view["obs"]["sides"]
        assert {s: v["karma"] for s, v in sides.items()} == {"A": True, "B": True, "C": True}
        assert all(v["karma_cards"] == [] for v in sides.values())
    finally:
        p1.close()
    script = server.http.get("/static/table-view.js").text
    assert "Karma: lost (shunned)" in script
