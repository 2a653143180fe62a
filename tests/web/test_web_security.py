"""Attacks on a table, one test each, against a real server process on 127.0.0.1: each is refused,
the table is unchanged (its version, its stored steps, its record), and nothing leaks (every message
each seat received is checked against what that seat's observation allows, at the end)."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from mbrules.ruleset.listing import bundled_ids

from web_helpers import (
    SeatClient,
    allowed_observations,
    check_nothing_leaked,
    client,
    module_server,
    my_move,
    path,
    posing_as_many,
)

SEATS = ["person", "heuristic", "person", "heuristic"]


server = pytest.fixture(scope="module", name="server")(module_server)
ONE_WORKER_FIXTURES = ("server",)  # one server under make test's workers (tests/conftest.py), its tests in order


@pytest.fixture(scope="module")
def table(server):
    """A table with two persons (p1, p3) and two bots, played a few moves in."""
    t = server.open_table(seats=SEATS, seed=3)
    p1, p3 = SeatClient(t["seats"][0]["url"]), SeatClient(t["seats"][2]["url"])
    clients = {0: p1, 2: p3}
    for c in clients.values():
        c.until(lambda m: m["type"] == "state")
    for _ in range(4):  # a few person moves, whoever is asked
        for c in clients.values():
            c.settle(0.3)
        for c in clients.values():
            move = my_move(c.view)
            if move:
                c.act(move)
                break
    waiting_seat({"clients": clients})  # the table waits for a person: nothing changes it but the tests
    yield {"info": t, "clients": clients}
    # Nothing leaked, over every message of every test of this module.
    for p, c in clients.items():
        c.settle(0.3)
        c.close()
        allowed = allowed_observations(server.db, t["table"], p)
        assert check_nothing_leaked(c.received, allowed, f"p{p + 1}") > 0


def snapshot(server, table) -> tuple:
    """What must not change under an attack: the version, the steps stored."""
    h = server.host(table["info"])
    return h["version"], server.steps(table["info"])


def waiting_seat(table) -> tuple[int, SeatClient, SeatClient]:
    """(the person who decides now, their client, the other person's client)."""
    cl = table["clients"]
    end = time.monotonic() + 30  # the bots think in a worker process: a person is asked once they have played
    while time.monotonic() < end:
        for c in cl.values():
            c.settle(0.3)
        for p, c in cl.items():
            if c.view["moves"]:
                other = next(o for q, o in cl.items() if q != p)
                return p, c, other
    raise AssertionError("no person decides")


def test_a_guessed_or_wrong_link_gets_nothing(server, table):
    """A link is a seat's secret: a guessed one, another table's, or a seat link of another table opens
    no page and no socket (the handshake is refused before anything is sent)."""
    info = table["info"]
    before = snapshot(server, table)
    other = server.open_table(seats=["person", "random"], players=2, seed=1)
    guesses = [
        f"{server.url}/play/{info['table']}/AAAAAAAAAAAAAAAAAAAAAAAA",
        f"{server.url}/play/{info['table']}/{other['seats'][0]['url'].rsplit('/', 1)[1]}",  # another table's seat
        f"{server.url}/play/{info['table']}/{info['seats'][0]['url'].rsplit('/', 1)[1][:-1]}",  # one letter short
        f"{server.url}/play/nosuchtable/{info['seats'][0]['url'].rsplit('/', 1)[1]}",
    ]
    for url in guesses:
        page = server.http.get(url.replace(server.url, ""))
        assert page.status_code == 404 and "table" not in page.text
        with pytest.raises(InvalidStatus):
            SeatClient(url)
        assert server.http.get(url.replace(server.url, "").replace("/play/", "/export/")).status_code == 404
        assert server.http.get(url.replace(server.url, "").replace("/play/", "/api/host/")).status_code == 404
    assert snapshot(server, table) == before


def test_an_action_out_of_turn_is_refused_in_player_words(server, table):
    p, mine, other = waiting_seat(table)
    before = snapshot(server, table)
    hand = other.view["obs"]["hand"]
    other.act(f"play {hand[0]}")
    msg = other.until(lambda m: m["type"] == "refused")
    assert msg["code"] == "not-your-turn"
    assert msg["message"].startswith("it is not your turn")
    assert snapshot(server, table) == before


def test_a_forged_action_for_another_seat_is_refused(server, table):
    """The seat is the socket's, never a field of the message: naming the deciding seat does not help."""
    p, mine, other = waiting_seat(table)
    before = snapshot(server, table)
    move = my_move(mine.view)
    other.send(
        {"type": "act", "action": move, "version": other.view["version"], "seat": f"p{p + 1}", "player": f"p{p + 1}"}
    )
    msg = other.until(lambda m: m["type"] == "refused")
    assert msg["code"] in ("not-your-turn", "not-in-hand", "no-coup-fourre", "no-extension")
    assert snapshot(server, table) == before


def test_a_replayed_action_is_refused_as_stale(server, table):
    p, mine, other = waiting_seat(table)
    move = my_move(mine.view)
    sent = {"type": "act", "action": move, "version": mine.view["version"]}
    mine.send(sent)
    mine.until(lambda m: m["type"] == "state" and m["version"] > sent["version"])
    for c in table["clients"].values():
        c.settle(0.5)
    before = snapshot(server, table)
    mine.send(sent)  # the same message again
    msg = mine.until(lambda m: m["type"] == "refused")
    assert msg["code"] == "stale"
    assert snapshot(server, table) == before


def test_asking_for_another_seats_observation_gets_ones_own(server, table):
    p, mine, other = waiting_seat(table)
    before = snapshot(server, table)
    for ask in (
        {"type": "view", "seat": f"p{p + 1}"},
        {"type": "view", "player": p},
        {"type": "observation", "seat": "p2"},
    ):
        other.send(ask)
    got = other.until(lambda m: m["type"] == "state")
    assert got["seat"] == other.view["seat"] != f"p{p + 1}"
    assert got["obs"]["player"] == other.view["seat"]
    other.until(lambda m: m["type"] == "refused")  # 'observation' is no message of the protocol
    assert snapshot(server, table) == before


def test_a_10_mb_message_closes_the_socket_and_changes_nothing(server, table):
    info = table["info"]
    before = snapshot(server, table)
    attacker = SeatClient(info["seats"][0]["url"])  # p1's own link, in a second page
    attacker.until(lambda m: m["type"] == "state")
    with pytest.raises(ConnectionClosed) as closed:
        attacker.send(json.dumps({"type": "act", "action": "x" * (10 * 1024 * 1024)}))
        for _ in range(50):
            attacker.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    assert server.http.get("/health").status_code == 200
    assert snapshot(server, table) == before
    table["clients"][0].__init__(info["seats"][0]["url"])  # p1 opens the page again (the attacker replaced it)
    table["clients"][0].until(lambda m: m["type"] == "state")


def test_a_thousand_messages_a_second_are_dropped_and_the_socket_closed(server, table):
    info = table["info"]
    p, mine, other = waiting_seat(table)
    before = snapshot(server, table)
    flood = SeatClient(info["seats"][2 if p == 0 else 0]["url"])  # the person who is not asked, flooding
    flood.until(lambda m: m["type"] == "state")
    t0 = time.monotonic()
    with pytest.raises(ConnectionClosed) as closed:
        for i in range(1000):
            flood.send({"type": "act", "action": "play d200", "version": 10**9 + i})
        for _ in range(2000):
            flood.recv(5)
    assert time.monotonic() - t0 < 30
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    refused = [m for m in flood.received if m["type"] == "refused"]
    assert len(refused) < 100  # the burst is read and refused (refusals coalesce); the rest dropped unread
    assert server.http.get("/health").status_code == 200
    assert snapshot(server, table) == before
    seat = 2 if p == 0 else 0
    table["clients"][seat].__init__(info["seats"][seat]["url"])
    table["clients"][seat].until(lambda m: m["type"] == "state")


def test_a_yaml_bomb_upload_is_refused_with_its_place(server):
    tables = len(server.http.get("/api/catalog").json()["editions"])  # the server answers
    bomb = (
        "extends: winning-moves\n"
        + "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
            f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
            for i in range(9)
        )
    )
    for url in ("/api/preview", "/api/tables"):
        r = server.http.post(url, json={"upload": {"name": "bomb.yaml", "text": bomb}, "players": 4, "seats": SEATS})
        assert r.status_code == 422
        errors = r.json()["errors"]
        assert errors and all(e.startswith("bomb.yaml:") for e in errors)
        assert any("alias" in e for e in errors), errors
    assert len(server.http.get("/api/catalog").json()["editions"]) == tables


@pytest.mark.parametrize("ref", ["/etc/passwd.yaml", "../../secret.yaml", "rules/other.yaml", "no-such-edition"])
def test_an_upload_that_extends_a_file_is_refused(server, ref):
    text = f"id: mine\nname: Mine\nextends: {ref}\n"
    r = server.http.post(
        "/api/tables", json={"upload": {"name": "mine.yaml", "text": text}, "players": 4, "seats": SEATS}
    )
    assert r.status_code == 422
    assert r.json()["errors"] == [
        f"mine.yaml:3:10: 'extends' may only name a bundled edition here ({', '.join(bundled_ids(False))}), "
        f"never a file (got '{ref}')"
    ]


def test_an_upload_naming_an_option_file_is_refused(server):
    text = "id: mine\nname: Mine\nextends: winning-moves\noptions: [hazard-on-hazard, ./evil.yaml]\n"
    r = server.http.post("/api/preview", json={"upload": {"name": "mine.yaml", "text": text}})
    assert r.status_code == 422
    assert r.json()["errors"][0].startswith("mine.yaml:4:29: an uploaded file's 'options' may only name bundled")


def test_an_oversized_upload_is_refused_before_it_is_read(server):
    r = server.http.post(
        "/api/tables", content=b"{" + b" " * (1024 * 1024) + b"}", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413


def test_a_seats_link_is_no_host_link_and_only_an_absent_seat_goes_to_a_bot(server):
    t = server.open_table(seats=SEATS, seed=9)
    seat_secret = t["seats"][0]["url"].rsplit("/", 1)[1]
    host_api = f"/api/host/{t['table']}/{seat_secret}"
    assert server.http.get(host_api).status_code == 404
    assert server.http.post(host_api + "/bot", json={"seat": 2, "bot": "random"}).status_code == 404
    assert server.http.get(f"/export/{t['table']}/{seat_secret}").status_code == 403  # the match is not over
    p1 = SeatClient(t["seats"][0]["url"])
    p1.until(lambda m: m["type"] == "state")
    r = server.host_post(t, "bot", {"seat": 0, "bot": "random"})
    assert r.status_code == 400 and "at the table" in r.json()["errors"][0]
    r = server.host_post(t, "bot", {"seat": 2, "bot": "random"})
    assert r.status_code == 200 and r.json()["seats"][2]["kind"] == "random"
    p3 = SeatClient(t["seats"][2]["url"])  # the link still shows the seat, but it plays no more
    view = p3.until(lambda m: m["type"] == "state")
    assert view["moves"] == []
    p3.act("stop")
    assert p3.until(lambda m: m["type"] == "refused")["code"] == "not-yours"
    p1.close()
    p3.close()


def test_the_pages_run_only_their_own_scripts(server):
    """An uploaded ruleset's names are shown as text (never markup); the Content-Security-Policy is the
    second wall: no inline or foreign script, no connection to another server, no framing."""
    for url in ("/",):
        csp = server.http.get(url).headers["content-security-policy"]
        assert "script-src 'self'" in csp and "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
    for name in ("play.js", "host.js", "table-host.js"):
        js = server.http.get(f"/static/{name}").text
        assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js


def test_a_link_the_host_replaced_opens_nothing(server):
    """A link that went to the wrong person: the host gives the seat a new one; the old link's page is
    closed and the old link opens no page (it says it was replaced, 410) and no socket."""
    t = server.open_table(seats=SEATS, seed=10)
    old = SeatClient(t["seats"][0]["url"])
    old.until(lambda m: m["type"] == "state")
    r = server.host_post(t, "new-link", {"seat": 0})
    assert r.status_code == 200
    new_url = r.json()["seats"][0]["url"]
    assert new_url != t["seats"][0]["url"] and r.json()["seats"][2]["url"] == t["seats"][2]["url"]
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(50):
            old.recv(5)
    assert closed.value.rcvd.code == 4001
    gone = server.http.get(path(t["seats"][0]["url"]))
    assert gone.status_code == 410 and "replaced by the host" in gone.text  # says why, opens nothing
    with pytest.raises(InvalidStatus):
        SeatClient(t["seats"][0]["url"])
    fresh = SeatClient(new_url)
    assert fresh.until(lambda m: m["type"] == "state")["seat"] == "p1"
    fresh.close()


def drain(client, most: int = 1000) -> None:
    """Requests from ``client`` as fast as one connection goes, until the first 429 (at most ``most``)."""
    for _ in range(most):
        if client.get("/").status_code == 429:
            return
    raise AssertionError(f"{most} requests in a row were served: no rate limit")


def test_a_burst_of_requests_from_one_address_is_answered_429_and_others_are_served(server, table):
    """HTTP requests are bounded per client as socket messages are: past HTTP_BURST at once (refilled at
    HTTP_RATE a second) an address gets 429 with Retry-After and nothing else runs; another address,
    /health, and the table are untouched; after the wait the address is served again."""

    from mbrules.web.app import HTTP_BURST, HTTP_RATE

    before = snapshot(server, table)
    attacker = client(server.url, "127.0.0.2")
    try:
        t0 = time.monotonic()
        codes = []
        for _ in range(20 * HTTP_BURST):  # as fast as one connection goes, until the first refusal
            codes.append(attacker.get("/").status_code)
            if codes[-1] != 200:
                break
        took = time.monotonic() - t0
        assert codes[-1] == 429 and set(codes[:-1]) == {200}
        assert HTTP_BURST <= len(codes) - 1 <= HTTP_BURST + HTTP_RATE * took + 1
        # Any path is refused right after a 429 (a token refills every 1/HTTP_RATE s, so on a busy machine the
        # next request may come after one: drain again, at most 5 times, as the socket check below does).
        for _ in range(5):
            drain(attacker)
            r = attacker.get("/api/catalog")
            if r.status_code == 429:
                break
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert r.json()["errors"][0].startswith("too many requests from your address: try again in ")
        assert attacker.get("/health").status_code == 200  # never limited
        assert server.http.get("/api/catalog").status_code == 200  # another address is served
        from websockets.sync.client import connect

        # A socket's handshake is a request too: right after a 429 it is refused unopened (403). Its own
        # table, since a handshake let through (a token refilled meanwhile: one every 1/HTTP_RATE s)
        # takes the seat over; a valid link, so that only the bound can refuse it.
        spare = server.open_table(seats=["person", "random"], players=2, seed=5)
        link = spare["seats"][0]["url"].replace("http://", "ws://").replace("/play/", "/ws/")
        refused = []
        for _ in range(5):
            drain(attacker)
            try:
                connect(link, source_address=("127.0.0.2", 0), open_timeout=20).close()
            except InvalidStatus as e:
                refused.append(e.response.status_code)
                break
        assert refused == [403]
        with connect(link, open_timeout=20) as ws:  # from another address the same link opens
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
        time.sleep(int(r.headers["Retry-After"]))
        assert attacker.get("/").status_code == 200
    finally:
        attacker.close()
    assert snapshot(server, table) == before


def test_tables_opened_past_the_bound_from_one_address_are_refused_429(server):
    """A client may open OPEN_BURST tables at once (then one every 1/OPEN_RATE s): the next is answered 429
    with the wait, and no table is made for it."""

    from mbrules.web.app import OPEN_BURST

    body = {"ruleset": "winning-moves", "players": 2, "seats": ["person", "random"], "pace": 0}
    host = client(server.url, "127.0.0.3")
    try:
        codes = [host.post("/api/tables", json=body).status_code for _ in range(OPEN_BURST + 5)]
        assert codes[:OPEN_BURST] == [201] * OPEN_BURST
        r = host.post("/api/tables", json=body)
        assert r.status_code == 429 and "too many tables opened from your address" in r.json()["errors"][0]
        assert host.get("/api/catalog").status_code == 200  # other requests are still served
    finally:
        host.close()
    assert server.http.post("/api/tables", json=body).status_code == 201  # another address opens one


# last in the module: it leaves 127.0.0.1 without request tokens on the module's server
def test_one_address_cannot_pose_as_many_by_forwarding_addresses(server):
    """By default (no --forwarded-allow-ips) the server believes no X-Forwarded-For, not even from 127.0.0.1
    as uvicorn would: past the burst one address is answered 429 whatever it forwards. With the flag each
    forwarded address has its own bounds: test_web_boundary."""
    from mbrules.web.guard import HTTP_BURST

    codes = posing_as_many(server, 4 * HTTP_BURST)
    assert codes[-1] == 429 and len(codes) > HTTP_BURST
