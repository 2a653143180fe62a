"""The server's boundary against a real server process on 127.0.0.1 (the module's runs as behind a proxy
there): a message or a body nested deeper than the JSON parser goes is refused like any malformed one (the
socket kept), and JSON's ``true`` is no number anywhere a number is asked (a seat, a seed, a pause, a player
count, a version)."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import pytest

from web_helpers import SeatClient, client, module_server, path, posing_as_many

SEATS = ["person", "heuristic", "heuristic", "person"]
DEEP = "[" * 3000 + "]" * 3000  # 6,000 bytes: under the 16 KiB bound, past the parser's recursion limit


ONE_WORKER_FIXTURES = ("server",)  # one server under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The module's server, run as behind a proxy on 127.0.0.1 (``--forwarded-allow-ips 127.0.0.1``): the
    forwarded-addresses test poses as many addresses through it; the other tests send no X-Forwarded-For, so
    each is still the address it connects from (a server of its own for that test was 0.8 CPU-s of a Python
    start; issue 46 point 7). A server believing no one is test_web_security's."""
    yield from module_server(tmp_path_factory, args=("--forwarded-allow-ips", "127.0.0.1"))


@pytest.fixture()
def table(server):
    """A new table whose first decision is p1's (a person), its page connected."""
    t = server.open_table(seats=SEATS, seed=5)
    p1 = SeatClient(t["seats"][0]["url"])
    p1.until(lambda m: m["type"] == "state" and bool(m["moves"]))
    yield t, p1
    p1.close()


def test_a_deeply_nested_message_is_refused_in_words_and_the_socket_kept(server, table):
    """3,000 brackets raise RecursionError in the parser: that is a malformed message (not-a-move), not a
    socket closed with a traceback; the seat goes on playing on the same socket."""
    t, p1 = table
    before = p1.view["version"]
    for raw in (DEEP, '{"type": "act", "action": ' + DEEP + ', "version": %d}' % before):
        p1.send(raw)
        answer = p1.until(lambda m: m["type"] == "refused")
        assert answer["code"] == "not-a-move"
    p1.act(p1.view["moves"][0]["action"])  # the same socket still plays
    assert p1.until(lambda m: m["type"] == "state" and m["version"] > before)


def test_a_deeply_nested_request_body_is_refused_400(server):
    """A body nested past the parser's limit is a malformed request: 400 with a sentence, no 500."""
    for url in ("/api/preview", "/api/tables"):
        r = server.http.post(url, content=DEEP, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json() == {"errors": ["the request's JSON is nested too deeply"]}


def test_json_true_is_no_number_when_a_table_is_opened(server):
    """``true`` for the players, the seed or the bots' pause is refused (Python's bool is an int; JSON's is not)."""
    base = {"ruleset": "winning-moves", "options": [], "players": 4, "seats": SEATS, "pace": 0}
    with client(server.url, "127.0.0.7") as h:
        for change, words in (
            ({"seed": True}, "a seed is a whole number from 0"),
            ({"pace": True}, "the bots' pause is a number of seconds"),
            ({"pace": "1"}, "the bots' pause is a number of seconds"),
            ({"players": True, "seats": SEATS[:1]}, "players is a whole number from 1 to 12"),
        ):
            r = h.post("/api/tables", json={**base, **change})
            assert (r.status_code, r.json()) == (400, {"errors": [words]}), change
        r = h.post("/api/tables", json={**base, "upload": {"name": True, "text": "ruleset: x"}})
        assert r.status_code == 422 and "both strings" in r.text


def test_json_true_is_no_seat_for_the_host(server, table):
    """``"seat": true`` named no seat (it gave p2 to a bot): refused, the table unchanged."""
    t, _ = table
    api = path(t["host_url"]).replace("/host/", "/api/host/")
    for what, body in (("bot", {"seat": True, "bot": "random"}), ("new-link", {"seat": True})):
        r = server.http.post(f"{api}/{what}", json=body)
        assert (r.status_code, r.json()) == (400, {"errors": ["seat is a seat number from 0"]}), what
    assert [s["kind"] for s in server.host(t)["seats"]] == SEATS


def test_json_true_is_no_version(server, table):
    """A move naming the version ``true`` is stale even at version 1 (true == 1 in Python)."""
    t, p1 = table
    assert p1.view["version"] == 1  # the case that was taken: the deal's first draw, then p1 decides
    p1.send({"type": "act", "action": p1.view["moves"][0]["action"], "version": True})
    assert p1.until(lambda m: m["type"] == "refused")["code"] == "stale"
    assert server.host(t)["version"] == 1


def test_forwarded_addresses_are_believed_when_the_host_asks(server):
    """With ``--forwarded-allow-ips 127.0.0.1`` (a proxy there: the module's server), each forwarded address
    has its own bounds. By default they are not believed: test_web_security's
    test_one_address_cannot_pose_as_many_by_forwarding_addresses (on its module's server, which believes no
    one: a server started for it here was 0.8 CPU-s of a Python start; issue 46 point 7)."""
    from mbrules.web.guard import HTTP_BURST

    codes = posing_as_many(server, 2 * HTTP_BURST + 50)
    assert set(codes) == {404} and len(codes) == 2 * HTTP_BURST + 50


def test_a_forwarded_allow_ips_that_names_no_address_is_a_usage_error():
    """The command refuses the flag before it starts anything: run in this process (tests/cli_runs.py)."""
    from cli_runs import run_in_process
    from web_helpers import ROOT

    r = run_in_process(["serve", "--port", "0", "--forwarded-allow-ips", "proxy.lan"], ROOT)
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode("utf-8").strip() == (
        "mbrules: --forwarded-allow-ips: 'proxy.lan' is not an IP address or network (e.g. 127.0.0.1,10.0.0.0/8, or '*')"
    )
