"""A killed server loses nothing; a dropped page rejoins where it was; many tables at once keep memory
flat; the contract's start line, /health and exit codes. Real server processes on 127.0.0.1."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import signal
import time

import pytest

from web_helpers import (
    HOUSE_DECISIONS,
    HOUSE_RULES,
    InProcessServer,
    SeatClient,
    Server,
    allowed_observations,
    check_nothing_leaked,
    house_move,
    house_seed,
    my_move,
    path,
    window_seed,
)

SEATS = ["person", "heuristic", "person", "heuristic"]


def until_a_person_decides(server, t: dict, clients: dict, timeout: float = 30) -> None:
    """Read the persons' sockets until table ``t`` waits for one of them (a move offered in its newest view,
    or the hand over for all) and each holds the view of the table as it now is (at least the version the
    host's API gives): the bots' and draws' steps in between are over. A condition, not a quiet period."""
    end = time.monotonic() + timeout
    while True:
        for c in clients.values():
            try:
                while True:
                    c.recv(0.01)
            except TimeoutError:
                pass
        views = [c.view for c in clients.values()]
        if any(my_move(v) and not v["hand_over"] for v in views) or all(v["hand_over"] for v in views):
            break
        assert time.monotonic() < end, f"no person asked in {timeout} s"
    version = server.host(t)["version"]
    for c in clients.values():
        if c.view["version"] < version:
            c.until(lambda m: m["type"] == "state" and m["version"] >= version)


def play_persons(server, t: dict, clients: dict, moves: int) -> None:
    """The persons play ``moves`` moves between them (my_move), whoever is asked."""
    done = 0
    for _ in range(moves * 20):
        if done >= moves:
            return
        until_a_person_decides(server, t, clients)
        for c in clients.values():
            move = my_move(c.view)
            if move and not c.view["hand_over"]:
                v0 = c.view["version"]
                c.act(move)
                msg = c.until(lambda m: m["type"] == "refused" or (m["type"] == "state" and m["version"] > v0))
                assert msg["type"] == "state", msg
                done += 1
                break
        else:
            if all(c.view["hand_over"] or c.view["match_over"] for c in clients.values()):
                return


def open_window(server, t: dict, person: int) -> dict:
    """The persons' sockets (p1, p3) at table ``t``, played (my_move) until the coup fourré window the
    seeded deal opens for ``person`` is open."""
    clients = {p: SeatClient(t["seats"][p]["url"]) for p in (0, 2)}
    for c in clients.values():
        c.until(lambda m: m["type"] == "state")
    holder = clients[person]
    for _ in range(200):
        until_a_person_decides(server, t, clients)
        if holder.view["question"]:
            break
        for c in clients.values():
            if c.view["moves"]:
                v0 = c.view["version"]
                c.act(my_move(c.view))
                c.until(lambda m: m["type"] == "refused" or (m["type"] == "state" and m["version"] > v0))
                break
    assert holder.view["obs"]["decision"]["kind"] == "coup_fourre"
    return clients


@pytest.mark.slow  # two server processes
def test_a_server_killed_mid_hand_resumes_every_table_at_its_last_step(tmp_path):
    db = tmp_path / "tables.sqlite3"
    server = Server(db, tmp_path / "log")
    tables, seen = [], {}
    for seed, options in ((11, []), (12, ["hazard-on-hazard"]), (13, ["cf-200"])):
        t = server.open_table(seats=SEATS, seed=seed, options=options)
        clients = {p: SeatClient(t["seats"][p]["url"]) for p in (0, 2)}
        for c in clients.values():
            c.until(lambda m: m["type"] == "state")
        play_persons(server, t, clients, 5)
        until_a_person_decides(server, t, clients)
        for p, c in clients.items():
            seen[(t["table"], p)] = c.view
            c.close()
        tables.append((t, server.steps(t), server.host(t)["version"]))
    server.kill()  # SIGKILL mid-hand: no handler runs
    again = Server(db, tmp_path / "log")
    try:
        assert again.resumed == 3
        for t, record, _ in tables:
            assert again.steps(t) == record  # every step, every hand, as before the kill
            for p in (0, 2):
                c = SeatClient(again.seat_url(t, p))  # the same link works after the restart
                view = c.until(lambda m: m["type"] == "state")
                before = seen[(t["table"], p)]
                assert view["obs"] == before["obs"]
                assert view["moves"] == before["moves"]
                assert view["narration"] == before["narration"]
                c.close()
        # and the game goes on
        t = tables[0][0]
        clients = {p: SeatClient(again.seat_url(t, p)) for p in (0, 2)}
        for c in clients.values():
            c.until(lambda m: m["type"] == "state")
        steps = len(again.steps(t))
        play_persons(again, t, clients, 2)
        assert len(again.steps(t)) > steps
    finally:
        code, out = again.stop(signal.SIGTERM)
    assert code == 143
    assert out.strip().endswith(f"stopped (SIGTERM); 3 tables saved in {db}")


@pytest.mark.slow  # a server process
def test_a_page_that_reconnects_inside_a_coup_fourre_window_is_asked_again(tmp_path):
    seed, person = window_seed(SEATS, within=30)
    server = Server(tmp_path / "t.sqlite3", tmp_path / "log")
    try:
        t = server.open_table(seats=SEATS, seed=seed)
        clients = open_window(server, t, person)
        holder = clients[person]
        question, version = holder.view["question"], holder.view["version"]
        holder.close()  # the tab is closed inside the window
        time.sleep(0.3)
        back = SeatClient(t["seats"][person]["url"])
        view = back.until(lambda m: m["type"] == "state")
        assert view["question"] == question and view["version"] == version
        call = next(m for m in view["moves"] if m["op"] == "coup-fourre")
        back.act(call["action"])
        after = back.until(lambda m: m["type"] == "state" and m["version"] > version)
        assert after["obs"]["sides"][after["obs"]["side"]]["coup_fourres"]
        assert any("COUP FOURRÉ" in line for line in after["narration"])
        back.close()
        clients[2 - person].close()
    finally:
        code, _ = server.stop(signal.SIGINT)
    assert code == 130


@pytest.mark.slow  # two server processes
def test_a_coup_fourre_window_let_pass_just_before_a_kill_is_not_asked_again(tmp_path):
    """The holder lets the window pass; the server is killed (SIGKILL) the moment the page has seen it
    taken, and started again: the table resumes past the window (the 'let it pass' was written before
    it was applied), the holder is not asked again, and the record is the one before the kill. Before,
    a decline was implicit in the record and the restarted table opened the window once more."""
    seed, person = window_seed(SEATS, within=30)
    db = tmp_path / "t.sqlite3"
    server = Server(db, tmp_path / "log")
    again = None
    try:
        t = server.open_table(seats=SEATS, seed=seed)
        clients = open_window(server, t, person)
        holder = clients[person]
        version = holder.view["version"]
        let_pass = next(m for m in holder.view["moves"] if m["op"] == "decline")
        holder.act(let_pass["action"])
        holder.until(lambda m: m["type"] == "state" and m["version"] > version)
        until_a_person_decides(server, t, clients)  # the bots and draws up to the next person's decision
        after = holder.view
        assert after["obs"]["decision"]["kind"] != "coup_fourre"
        record = server.steps(t)
        for c in clients.values():
            c.close()
        port = int(server.url.rsplit(":", 1)[1])
        server.kill()  # SIGKILL: nothing gets to run
        again = Server(db, tmp_path / "log", port=port)
        assert again.resumed == 1
        back = SeatClient(again.seat_url(t, person))
        view = back.until(lambda m: m["type"] == "state")
        assert view["obs"]["decision"]["kind"] != "coup_fourre" and not (view["question"] or "").startswith(
            "COUP FOURRÉ?"
        ), "the window the holder let pass is asked again after the restart"
        assert view["obs"] == after["obs"] and view["moves"] == after["moves"]
        assert again.steps(t) == record
        back.close()
    finally:
        if again is not None:
            again.stop()
        else:
            server.stop()


@pytest.mark.slow  # about 20 seconds of a server playing many tables (benchmarks/bench_web.py soak: 50 for a minute)
def test_many_tables_at_once_keep_the_servers_memory_flat(tmp_path):
    """Twelve tables of bots at once (the person's seat given to a bot by the host) for about 20 seconds,
    a new table opened whenever a match ends: the server's resident memory after the first seconds
    does not keep growing (a finished match leaves memory; it stays in the store)."""
    server = Server(tmp_path / "t.sqlite3", tmp_path / "log")
    seeds = iter(range(100, 10_000))
    opened = [0]

    def new_table() -> dict:
        opened[0] += 1
        t = server.open_table(seats=["person", "heuristic", "random", "heuristic"], seed=next(seeds), pace=0.05)
        r = server.host_post(t, "bot", {"seat": 0, "bot": "random"})
        assert r.status_code == 200, r.text
        return t

    try:
        tables = [new_table() for _ in range(12)]
        watcher = SeatClient(tables[0]["seats"][0]["url"])  # a page still open on a seat given away
        watcher.until(lambda m: m["type"] == "state")
        played = [0]

        def deal_on() -> None:
            """The host deals the next hand where one is over; a finished match makes room for a new table."""
            for i, t in enumerate(tables):
                h = server.host(t)
                if h["match_over"]:
                    played[0] += h["version"]
                    tables[i] = new_table()
                elif h["hand_over"]:
                    server.host_post(t, "next-hand")

        for _ in range(2):
            time.sleep(1.5)
            deal_on()
        samples, counts = [], []
        for _ in range(5):
            deal_on()
            samples.append(server.rss_kib())
            counts.append(opened[0])
            time.sleep(2)
        assert counts[-1] > counts[0] and played[0] > 0  # matches ended and new tables came in the window
        assert server.http.get("/health").status_code == 200
        watcher.settle(0.2)
        watcher.close()
        print("resident memory (KiB) every 2 s:", samples, "tables opened:", counts)
        growth = samples[-1] - samples[0]
        assert growth < 20 * 1024, f"resident memory grew {growth} KiB over the run: {samples}"
    finally:
        server.stop()


@pytest.mark.slow  # a server process
def test_the_start_line_health_and_sigint(tmp_path):
    db = tmp_path / "sub" / "tables.sqlite3"
    server = Server(db, tmp_path / "log")
    assert server.db == str(db) and server.resumed == 0
    r = server.http.get("/health")
    assert (r.status_code, r.text) == (200, "ok\n")
    code, out = server.stop(signal.SIGINT)
    assert code == 130
    assert out.strip() == f"mbrules serve: stopped (SIGINT); 0 tables saved in {db}"


# -- the house rules' decisions across a dropped socket, and a seat given to a bot mid-mulligan -----------


def house_table(tmp_path, seats: list[str]):
    """An in-process server (its lobby keeps every message it sends) and a table with
    :data:`~web_helpers.HOUSE_RULES` on the seed :func:`~web_helpers.house_seed` finds for ``seats``."""
    from mbrules.web.lobby import Lobby
    from mbrules.web.store import Store

    seed, _ = house_seed(seats)
    lobby = Lobby(Store(tmp_path / "t.sqlite3"), keep_sent=True)
    server = InProcessServer(lobby)
    r = server.http.post(
        "/api/tables",
        json={
            "ruleset": "winning-moves",
            "options": HOUSE_RULES,
            "players": 4,
            "seats": seats,
            "seed": seed,
            "pace": 0,
        },
    )
    assert r.status_code == 201, r.text
    return server, lobby, r.json()


def my_view(c: SeatClient, newer_than: int = -1) -> dict:
    """The seat's view once the table waits for it (or the hand is over), newer than ``newer_than``."""
    c.until(lambda m: m["type"] == "state" and m["version"] > newer_than)
    while not (c.view["moves"] or c.view["hand_over"] or c.view["match_over"]):
        c.until(lambda m: m["type"] == "state")
    return c.view


def rejoin(c: SeatClient, url: str, before: dict) -> SeatClient:
    """Close the seat's socket (a dropped connection), open it again: the view is the one it had."""
    c.close()
    time.sleep(0.2)
    back = SeatClient(url)
    back.received = c.received  # one seat, one record of what it was sent
    view = back.until(lambda m: m["type"] == "state")
    for key in ("version", "obs", "moves", "question", "why_not"):
        assert view[key] == before[key], f"{key} differs after the reconnect"
    return back


def test_a_socket_dropped_inside_a_fast_play_window_or_a_mulligan_is_asked_again(tmp_path):
    """A seat's socket drops inside a fast-play window and again inside a mulligan (a card thrown,
    the draw back not yet made): reconnected, the seat is asked the same question with the same moves
    (the engine is mid-decision: nothing was decided for it), answers, and the table goes on; the
    mulligan ends with a full hand and both decisions are narrated. Nothing any message showed the
    seat is outside what its observation allows, and the record rebuilds the table mid-mulligan."""
    from mbrules.web.rules import choice_from_setup
    from mbrules.web.table import Table

    seats = ["person", "heuristic", "heuristic", "heuristic"]
    server, lobby, t = house_table(tmp_path, seats)
    url = server.url + path(t["seats"][0]["url"])
    c = SeatClient(url)
    try:
        done: set[str] = set()
        seen = {"fast_play": 0, "mulligan": 0}
        version, after = -1, None
        for _ in range(40):
            view = my_view(c, version)
            if view["hand_over"] or view["match_over"] or done >= HOUSE_DECISIONS and seen["mulligan"]:
                after = view
                break
            kind = view["obs"]["decision"]["kind"]
            if kind in seen and not seen[kind]:
                seen[kind] += 1
                if kind == "mulligan":  # a card thrown, the draw back to come; and the record says so
                    assert len(view["obs"]["hand"]) == 5 and view["question"].startswith("MULLIGAN:")
                    stored = lobby.store.load(t["table"])
                    again = Table(t["table"], stored.setup, choice_from_setup(stored.setup), None)
                    again.restore(stored.steps)
                    assert again.view(0)["obs"] == view["obs"] and again.view(0)["moves"] == view["moves"]
                else:
                    assert view["question"].startswith("FAST PLAY?")
                c = rejoin(c, url, view)
                view = c.view
            version = view["version"]
            c.act(house_move(view, done))
        assert seen == {"fast_play": 1, "mulligan": 1}, "the seed brings both decisions"
        assert after is not None
        assert after["obs"]["decision"]["kind"] != "mulligan" and len(after["obs"]["hand"]) >= 6
        text = "\n".join(after["narration"])
        assert "(fast play)" in text and "(mulligan)" in text
        c.settle(0.3)
        allowed = allowed_observations(str(tmp_path / "t.sqlite3"), t["table"], 0)
        assert check_nothing_leaked(c.received, allowed, "p1") > 0
        assert check_nothing_leaked(lobby.sent_log[(t["table"], 0)], allowed, "p1") > 0
    finally:
        c.close()
        server.close()


def mid_mulligan(c: SeatClient, throws: int = 2) -> dict:
    """Play the seat (:func:`~web_helpers.house_move`) to its mulligan and throw ``throws`` cards of it
    away, the draw back not made: the view then."""
    done: set[str] = set()
    version = -1
    for _ in range(40):
        view = my_view(c, version)
        assert not view["hand_over"], "the seed brings a mulligan"
        move = house_move(view, done)
        if move.startswith("mulligan "):
            break
        version = view["version"]
        c.act(move)
    for _ in range(throws):
        version = view["version"]
        c.act(move)
        view = my_view(c, version)
        assert view["obs"]["decision"]["kind"] == "mulligan"
        move = f"mulligan {view['obs']['hand'][0]}"
    return view


def test_a_seat_away_inside_a_mulligan_is_given_to_a_bot_that_finishes_it_legally(tmp_path):
    """A person throws two cards in a mulligan and goes away before drawing back; the host gives the
    absent seat to a bot, which takes the mulligan where it stands (more throws or the draw back,
    each checked by the engine as every action is), and the bots play the hand to its end. The record
    replays (``mbrules replay``'s check) with the person's two throws in it, and nothing the person's
    socket was sent shows more than its observation."""
    from mbrules.scenario.replay import replay_file

    seats = ["person", "heuristic", "heuristic", "heuristic"]
    server, lobby, t = house_table(tmp_path, seats)
    c = SeatClient(server.url + path(t["seats"][0]["url"]))
    host = path(t["host_url"]).replace("/host/", "/api/host/")
    try:
        view = mid_mulligan(c)
        assert len(view["obs"]["hand"]) == 4
        thrown = [line for line in view["narration"] if line.startswith("p1 ") and "(mulligan)" in line]
        assert len(thrown) == 2
        c.close()
        for _ in range(100):
            if not server.http.get(host).json()["seats"][0]["here"]:
                break
            time.sleep(0.05)
        r = server.http.post(host + "/bot", json={"seat": 0, "bot": "heuristic"})
        assert r.status_code == 200, r.text
        for _ in range(200):
            h = server.http.get(host).json()
            if h["hand_over"] or h["match_over"]:
                break
            time.sleep(0.05)
        assert h["hand_over"] or h["match_over"], "the bots play the hand to its end (an illegal move stops it)"
        assert h["seats"][0]["kind"] == "heuristic"
        record = server.http.get(path(t["export_url"]))
        assert record.status_code == 200
        text = record.text
        assert text.count("{player: p1, mulligan: ") >= 2, "the person's two throws are in the record"
        (tmp_path / "record.yaml").write_text(text)
        assert [r.passed for r in replay_file(tmp_path / "record.yaml")] == [True]
        allowed = allowed_observations(str(tmp_path / "t.sqlite3"), t["table"], 0)
        assert check_nothing_leaked(c.received, allowed, "p1") > 0
        assert check_nothing_leaked(lobby.sent_log[(t["table"], 0)], allowed, "p1") > 0
    finally:
        c.close()
        server.close()
