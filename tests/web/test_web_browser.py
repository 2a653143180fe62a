"""A whole hand in a real browser: headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium; nothing is downloaded) opens a table on the host's page, two tabs join by their links and
play p1 by clicking cards and moves, p3 by keys, against two bots; the coup fourré window that the
seeded deal opens is answered on its prompt; then the server is killed (SIGKILL) mid-hand and started
again, and both pages reconnect by themselves and show the table as it was; the hand ends on the
score sheet."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import shutil
import time
from pathlib import Path

import pytest

from web_helpers import (
    HOUSE_DECISIONS,
    HOUSE_RULES,
    InProcessServer,
    Server,
    allowed_observations,
    check_nothing_leaked,
    house_seed,
    path,
    window_seed,
)

selenium = pytest.importorskip(
    "selenium", reason="the browser test needs Selenium: pip install 'mbrules[web]'", exc_type=ImportError
)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

pytestmark = pytest.mark.slow  # a browser and a server process a test: make test-fast leaves it out

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SEATS = ["person", "heuristic", "person", "heuristic"]


def chromium(width: int = 1280, height: int = 900):
    """Headless Chromium through Debian's driver, or a skip saying what is missing (never a download).
    Narrower than 500 px (Chromium's least window), a phone's screen is emulated at that width."""
    if not Path(CHROMIUM).exists() or not Path(DRIVER).exists():
        pytest.skip("no chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
    ):
        opts.add_argument(arg)
    if width < 500:
        opts.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1}}
        )
    return webdriver.Chrome(options=opts, service=Service(DRIVER))


def body(d, key: str) -> str:
    return d.find_element(By.TAG_NAME, "body").get_attribute(f"data-{key}") or ""


@pytest.mark.long
def test_two_browser_seats_and_two_bots_play_a_whole_hand(tmp_path):
    seed, holder = window_seed(SEATS, within=40)
    server = Server(tmp_path / "t.sqlite3", tmp_path / "log")
    d = chromium()
    try:
        # The host opens the table on the page, seeing the rule changes first.
        d.get(server.url + "/")
        wait = WebDriverWait(d, 20)
        wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, "#edition option"))
        Select(d.find_element(By.ID, "edition")).select_by_value("winning-moves")
        Select(d.find_element(By.ID, "players")).select_by_value("4")
        for i, kind in enumerate(SEATS):
            Select(d.find_element(By.CSS_SELECTOR, f"#seats select[data-seat='{i}']")).select_by_value(kind)
        Select(d.find_element(By.ID, "pace")).select_by_value("0")
        d.find_element(By.ID, "seed").send_keys(str(seed))
        d.find_element(By.CSS_SELECTOR, "details summary").click()
        d.find_element(By.CSS_SELECTOR, "input[data-option='hazard-on-hazard']").click()
        d.find_element(By.ID, "preview").click()
        wait.until(lambda _: d.find_element(By.ID, "preview-panel").is_displayed())
        assert "a hazard may cover another hazard: no → yes" in d.find_element(By.ID, "preview-changes").text
        d.find_element(By.CSS_SELECTOR, "input[data-option='hazard-on-hazard']").click()  # back to the edition
        d.find_element(By.ID, "open").click()
        wait.until(lambda _: d.find_elements(By.CSS_SELECTOR, "input[data-link]"))
        links = {
            e.get_attribute("data-link"): e.get_attribute("value")
            for e in d.find_elements(By.CSS_SELECTOR, "input[data-link]")
        }
        assert sorted(links) == ["p1", "p3"]
        # Two tabs join by their links.
        d.get(links["p1"])
        tabs = {0: d.current_window_handle}
        d.switch_to.new_window("tab")
        d.get(links["p3"])
        tabs[2] = d.current_window_handle
        for h in tabs.values():
            d.switch_to.window(h)
            wait.until(lambda _: body(d, "version") not in ("", "-1"))
        answered_window = restarted = False
        moves = {0: 0, 2: 0}
        for _ in range(400):
            if answered_window and not restarted and sum(moves.values()) >= 12:
                # The server is killed (SIGKILL) mid-hand and started again on the same port and file:
                # both pages reconnect by themselves and show the table where it was.
                d.switch_to.window(tabs[0])
                shown = {p: None for p in tabs}
                for p, h in tabs.items():
                    d.switch_to.window(h)
                    shown[p] = (
                        d.find_element(By.ID, "hand").text,
                        d.find_element(By.ID, "sides").text,
                        d.find_element(By.ID, "log").text,
                    )
                port = int(server.url.rsplit(":", 1)[1])
                server.kill()
                server = Server(tmp_path / "t.sqlite3", tmp_path / "log", port=port)
                assert server.resumed == 1
                for p, h in tabs.items():
                    d.switch_to.window(h)
                    WebDriverWait(d, 30).until(lambda _: d.find_element(By.ID, "conn").text == "connected")
                    WebDriverWait(d, 10).until(
                        lambda _: (
                            (
                                d.find_element(By.ID, "hand").text,
                                d.find_element(By.ID, "sides").text,
                                d.find_element(By.ID, "log").text,
                            )
                            == shown[p]
                        )
                    )
                restarted = True
            acted = False
            for p, h in tabs.items():
                d.switch_to.window(h)
                if body(d, "hand-over") == "yes":
                    continue
                if body(d, "decide") != "yes":
                    continue
                before = body(d, "version")
                prompt = d.find_element(By.ID, "prompt")
                if "open" in prompt.get_attribute("class"):
                    buttons = prompt.find_elements(By.CSS_SELECTOR, "button[data-action]")
                    calls = [b for b in buttons if b.get_attribute("data-action").startswith("coup-fourre")]
                    if calls:
                        assert p == holder and "COUP FOURRÉ?" in d.find_element(By.ID, "question").text
                        answered_window = True
                    (calls or buttons)[0].click()
                elif p == 0:  # p1 clicks the card of the first move, then that move
                    card = next(
                        c
                        for c in d.find_elements(By.CSS_SELECTOR, "#hand button.card")
                        if "1" in (c.get_attribute("data-moves") or "").split(",")
                    )
                    card.click()
                    d.find_element(By.CSS_SELECTOR, "#moves button.move[data-n='1']").click()
                else:  # p3 plays by keys: 1 is the first move
                    d.find_element(By.TAG_NAME, "body").send_keys("1")
                WebDriverWait(d, 20).until(lambda _: body(d, "version") != before)
                moves[p] += 1
                acted = True
            if not acted:
                d.switch_to.window(tabs[0])
                if body(d, "hand-over") == "yes":
                    break
                time.sleep(0.1)
        assert answered_window, "the seeded deal's coup fourré window was answered on its prompt"
        assert restarted, "the server was killed and started again mid-hand"
        assert moves[0] > 5 and moves[2] > 5
        for p, h in tabs.items():
            d.switch_to.window(h)
            WebDriverWait(d, 20).until(lambda _: body(d, "hand-over") == "yes")
            sheet = d.find_element(By.ID, "sheet").text
            assert "Points for distance" in sheet and "Total (hand)" in sheet and "Match" in sheet
            assert d.find_element(By.ID, "status").text
            assert "COUP FOURRÉ" in d.find_element(By.ID, "log").text
            d.find_element(By.ID, "next-hand").click()
        d.switch_to.window(tabs[0])
        WebDriverWait(d, 20).until(lambda _: "Hand 2" in d.find_element(By.ID, "trip").text)
    finally:
        d.quit()
        server.stop()


HOUSE_SEATS = ["person", "heuristic", "heuristic", "heuristic"]


def test_house_rule_decisions_are_prompts_answered_by_click_and_key_at_phone_width(tmp_path):
    """With draw-from-discard, mulligan and fast-play-remedy, a person decides where to draw from, takes
    a mulligan (chooses the cards, then draws back) and answers a hazard out of turn (fast play): each
    is a prompt on the page, answered here in a phone-width Chromium, by mouse and by key, in the order
    tests/web/web_helpers.house_move plays them on the seeded deal (the seed is found by that policy,
    so the page must send what the table expects or the decisions do not come)."""
    seed, within = house_seed(HOUSE_SEATS)
    server = Server(tmp_path / "t.sqlite3", tmp_path / "log")
    d = chromium(390, 900)
    try:
        t = server.open_table(seats=HOUSE_SEATS, seed=seed, options=HOUSE_RULES)
        d.get(server.url + "/play/" + t["seats"][0]["url"].split("/play/", 1)[1])
        wait = WebDriverWait(d, 20)
        wait.until(lambda _: body(d, "version") not in ("", "-1"))
        assert d.execute_script("return document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
        done: set[str] = set()
        by_key = 0
        thrown = None

        def key(k: str) -> None:
            d.find_element(By.TAG_NAME, "body").send_keys(k)

        for _ in range(4 * within):
            if done >= HOUSE_DECISIONS or body(d, "hand-over") == "yes":
                break
            if body(d, "decide") != "yes":
                time.sleep(0.05)
                continue
            before = int(body(d, "version"))
            prompt = d.find_element(By.ID, "prompt")
            kind = prompt.get_attribute("data-kind") if "open" in prompt.get_attribute("class") else ""
            question = d.find_element(By.ID, "question").text
            answers = {b.get_attribute("data-key"): b for b in prompt.find_elements(By.CSS_SELECTOR, "#answers button")}
            steps = 1
            if kind == "fast_play":  # out of turn: a bot's hazard on this side, the remedy in hand
                assert "FAST PLAY?" in question and set(answers) == {"y", "n"}
                assert "keep the remedy" in answers["n"].text
                answers["y"].click()
                done.add("fast")
            elif kind == "draw":
                assert question.startswith("YOUR TURN:") and "p" in answers
                if "discard" in done and "mulligan" not in done and "m" in answers:
                    answers["m"].click()  # mulligan…: choose the cards in the hand, then draw back
                    wait.until(lambda _: prompt.get_attribute("data-kind") == "mulligan")
                    go = d.find_element(By.ID, "mulligan-go")
                    assert not go.is_enabled(), "a mulligan throws a card at least"
                    first = d.find_element(By.CSS_SELECTOR, "#hand button.card[data-index='0']")
                    thrown = first.find_element(By.CSS_SELECTOR, ".name").text
                    first.click()
                    again = d.find_element(By.CSS_SELECTOR, "#hand button.card[data-index='0']")  # drawn anew
                    assert "thrown" in again.get_attribute("class") and again.get_attribute("aria-pressed") == "true"
                    assert "throw 1 card away" in d.find_element(By.ID, "mulligan-go").text
                    key(Keys.ENTER)  # the mulligan, then the draw back: two steps
                    steps = 2
                    done.add("mulligan")
                elif "t" in answers and "discard" not in done:
                    assert "from the discard pile" in answers["t"].text.lower()
                    top = d.find_element(By.ID, "discard").text
                    assert (
                        top.startswith("Discard pile: ")
                        and answers["t"].text.split("take ", 1)[1].split(" from")[0] in top
                    )
                    key("t")
                    by_key += 1
                    done.add("discard")
                else:
                    answers["p"].click()
                    done.add("pile")
            elif kind:  # a coup fourré window (called) or the extension: the first answer, as my_move
                (answers.get("y") or next(iter(answers.values()))).click()
            else:  # a turn's play: the first move, by key
                key("1")
                by_key += 1
            WebDriverWait(d, 20).until(lambda _: int(body(d, "version") or -1) >= before + steps)
        assert done >= HOUSE_DECISIONS, f"decisions taken in the page: {sorted(done)}"
        assert by_key > 0
        log = d.find_element(By.ID, "log").text
        assert "from the discard pile" in log.lower() and "(mulligan)" in log and "(fast play)" in log
        assert f"throws {thrown} away (mulligan)" in log
        assert d.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        d.quit()
        server.stop()


# Run in every document the browser opens, before the page's scripts: the page's sockets are kept in
# window.__sockets (the test closes one, as a dropped connection does), and a message containing
# window.__hold is not sent (window.__held counts them): a page reloaded after sending the first
# step of a mulligan and before the next.
SOCKET_HOOKS = """
(() => {
  const Native = window.WebSocket, send = Native.prototype.send;
  window.__sockets = []; window.__hold = null; window.__held = 0;
  Native.prototype.send = function (data) {
    if (window.__hold && String(data).includes(window.__hold)) { window.__held += 1; return; }
    return send.call(this, data);
  };
  function Tracked(...args) { const ws = new Native(...args); window.__sockets.push(ws); return ws; }
  Tracked.prototype = Native.prototype;
  Object.assign(Tracked, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Tracked;
})();
"""


def test_a_page_dropped_or_reloaded_inside_a_fast_play_window_or_a_mulligan_asks_again(tmp_path):
    """Inside the fast-play window, then inside a mulligan (a card thrown, the draw back not sent: the page
    went away between the two), the page's socket drops and reconnects by itself, then the page is
    reloaded: each time it shows the same decision again as its prompt (the mulligan's: the hand without
    the card thrown, "draw back now" open, no way back to the draw), and the person finishes it on
    the page. Every message the seat was sent shows only what its observation allows."""
    from mbrules.web.lobby import Lobby
    from mbrules.web.store import Store

    seed, within = house_seed(HOUSE_SEATS)
    lobby = Lobby(Store(tmp_path / "t.sqlite3"), keep_sent=True)
    server = InProcessServer(lobby)
    d = chromium()
    try:
        r = server.http.post(
            "/api/tables",
            json={
                "ruleset": "winning-moves",
                "options": HOUSE_RULES,
                "players": 4,
                "seats": HOUSE_SEATS,
                "seed": seed,
                "pace": 0,
            },
        )
        assert r.status_code == 201, r.text
        t = r.json()
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOCKET_HOOKS})
        d.get(server.url + path(t["seats"][0]["url"]))
        wait = WebDriverWait(d, 20)
        wait.until(lambda _: body(d, "version") not in ("", "-1"))
        prompt = d.find_element(By.ID, "prompt")

        def key(k: str) -> None:
            d.find_element(By.TAG_NAME, "body").send_keys(k)

        def shown() -> tuple:
            p = d.find_element(By.ID, "prompt")
            return (
                body(d, "version"),
                p.get_attribute("data-kind") if "open" in p.get_attribute("class") else "",
                d.find_element(By.ID, "question").text,
                d.find_element(By.ID, "hand").text,
                tuple(b.text for b in p.find_elements(By.CSS_SELECTOR, "#answers button")),
            )

        def asked_again(before: tuple) -> None:
            """The socket drops (the page reconnects by itself), then the page is reloaded: the same prompt."""
            sockets = d.execute_script("return window.__sockets.length")
            d.execute_script("window.__sockets[window.__sockets.length - 1].close()")
            wait.until(lambda _: d.execute_script("return window.__sockets.length") > sockets)
            wait.until(lambda _: d.find_element(By.ID, "conn").text == "connected")
            wait.until(lambda _: shown() == before)
            d.refresh()
            wait.until(lambda _: d.find_element(By.ID, "conn").text == "connected")
            wait.until(lambda _: shown() == before)

        done: set[str] = set()
        again = {"fast_play": False, "mulligan": False}
        for _ in range(4 * within):
            if done >= HOUSE_DECISIONS or body(d, "hand-over") == "yes":
                break
            if body(d, "decide") != "yes":
                time.sleep(0.05)
                continue
            before = int(body(d, "version"))
            prompt = d.find_element(By.ID, "prompt")
            kind = prompt.get_attribute("data-kind") if "open" in prompt.get_attribute("class") else ""
            answers = {b.get_attribute("data-key"): b for b in prompt.find_elements(By.CSS_SELECTOR, "#answers button")}
            steps = 1
            if kind == "fast_play":
                assert "FAST PLAY?" in d.find_element(By.ID, "question").text
                asked_again(shown())
                again["fast_play"] = True
                key("y")
                done.add("fast")
            elif kind == "draw" and "discard" in done and "mulligan" not in done and "m" in answers:
                answers["m"].click()
                wait.until(lambda _: d.find_element(By.ID, "prompt").get_attribute("data-kind") == "mulligan")
                d.find_element(By.CSS_SELECTOR, "#hand button.card[data-index='0']").click()
                d.execute_script("window.__hold = '\"action\": \"draw\"'.replace(' ', '')")  # the draw back is lost
                key(Keys.ENTER)
                wait.until(lambda _: d.execute_script("return window.__held") == 1)
                assert int(body(d, "version")) == before + 1
                mid = shown()
                # The socket drops after the throw was taken and before the draw back went: once it is back, the
                # page asks again (before, a rejoin on the same version showed the engine's raw moves instead).
                sockets = d.execute_script("return window.__sockets.length")
                d.execute_script("window.__sockets[window.__sockets.length - 1].close()")
                wait.until(lambda _: d.execute_script("return window.__sockets.length") > sockets)
                wait.until(lambda _: d.find_element(By.ID, "conn").text == "connected")
                wait.until(lambda _: shown()[1] == "mulligan")
                view = shown()
                assert view[0] == mid[0] and view[2].startswith("MULLIGAN: choose more cards"), view
                assert len(d.find_elements(By.CSS_SELECTOR, "#hand button.card")) == 5
                go = d.find_element(By.ID, "mulligan-go")
                assert go.is_enabled() and "draw back now" in go.text
                assert not d.find_elements(By.ID, "mulligan-back"), "a mulligan under way has no way back"
                asked_again(view)
                again["mulligan"] = True
                key(Keys.ENTER)  # draw back now
                done.add("mulligan")
            elif kind == "draw":
                if "t" in answers and "discard" not in done:
                    key("t")
                    done.add("discard")
                else:
                    key("p")
                    done.add("pile")
            elif kind:
                (answers.get("y") or next(iter(answers.values()))).click()
            else:
                key("1")
            WebDriverWait(d, 20).until(lambda _: int(body(d, "version") or -1) >= before + steps)
        assert again == {"fast_play": True, "mulligan": True} and done >= HOUSE_DECISIONS
        wait.until(lambda _: "(mulligan)" in d.find_element(By.ID, "log").text and body(d, "decide") == "yes")
        log = d.find_element(By.ID, "log").text
        assert "p1 (A) throws" in log and "(fast play)" in log
        server_table = lobby.get(t["table"])
        assert server_table is not None and server_table.state.decision.kind != "mulligan"
        allowed = allowed_observations(str(tmp_path / "t.sqlite3"), t["table"], 0)
        assert check_nothing_leaked(lobby.sent_log[(t["table"], 0)], allowed, "p1") > 0
    finally:
        d.quit()
        server.close()
