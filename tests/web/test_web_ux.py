"""The browser table as friends use it: headless Chromium (Debian's chromium and chromium-driver, driven
by Selenium) at a desktop's 1280×800 and a phone's 390×844, against a server in this process. One
browser and one server for the module; each test opens its own tables.

What is checked is what a player sees and can do: nothing overflows a phone and a turn fits its
screen; the host keeps control of seats and links; a tab taken over says so; the keyboard plays a
whole turn; cards are focusable and named, reasons and turns are announced, and axe-core finds no
accessibility violation (contrast included); a move in flight, a lost connection and an absent player
show; a match ends on a summary with "play again"; the setup says what each option does, and the
front page loads without a Content-Security-Policy error."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import re
import shutil
import time
from pathlib import Path

import pytest

from web_helpers import InProcessServer, SeatClient, my_move, path

selenium = pytest.importorskip(
    "selenium", reason="the browser test needs Selenium: pip install 'mbrules[web]'", exc_type=ImportError
)
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

pytestmark = pytest.mark.slow  # a browser (about 40 s for the module)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
DESK, PHONE = (1280, 800), (390, 844)

# Sockets the test can cut: with window.__offline set, a new socket goes nowhere (the server looks down).
# The host's page refreshes (table-host.js's REFRESH_MS, 2 s: test_the_host_page_refreshes_every_2_s pins it)
# every 0.2 s here, and counts its refreshes (window.__polls): the tests wait for refreshes, not for seconds.
HOST_REFRESH_MS = 2000
SOCKET_HOOKS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = []; window.__offline = false;
  function Tracked(url, ...rest) {
    const ws = new Native(window.__offline ? "ws://127.0.0.1:9/" : url, ...rest);
    window.__sockets.push(ws); return ws;
  }
  Tracked.prototype = Native.prototype;
  Object.assign(Tracked, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Tracked;
  if (location.pathname.startsWith("/host/")) {  // the host page: its refresh every 0.2 s, not 2 s, and counted
    const nativeTimeout = window.setTimeout, nativeFetch = window.fetch;
    window.__polls = 0;
    window.setTimeout = (f, ms, ...rest) => nativeTimeout(f, ms === HOST_REFRESH_MS ? 200 : ms, ...rest);
    window.fetch = (url, ...rest) => {
      if (typeof url === "string" && url.startsWith("/api/host/") && !rest.length) window.__polls++;  // a refresh's GET
      return nativeFetch(url, ...rest);
    };
  }
})();
"""


ONE_WORKER_FIXTURES = ("srv",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    from mbrules.web.lobby import Lobby
    from mbrules.web.store import Store

    server = InProcessServer(Lobby(Store(tmp_path_factory.mktemp("ux") / "t.sqlite3")))
    yield server
    server.close()


@pytest.fixture(scope="module")
def d():
    if not Path(CHROMIUM).exists() or not Path(DRIVER).exists():
        pytest.skip("no chromium and chromium-driver (apt-get install chromium chromium-driver; .ci/run does)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"):  # fmt: skip
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=opts, service=Service(DRIVER))
    hooks = SOCKET_HOOKS.replace("HOST_REFRESH_MS", str(HOST_REFRESH_MS))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": hooks})
    yield driver
    driver.quit()


@pytest.fixture
def b(d):
    """The module's browser on one tab at desktop size; extra tabs are closed afterwards."""
    size(d, DESK)
    yield d
    for h in d.window_handles[1:]:
        d.switch_to.window(h)
        d.close()
    d.switch_to.window(d.window_handles[0])
    d.get("about:blank")


def size(d, wh: tuple[int, int]) -> None:
    """A desktop window, or a phone's screen emulated (Chromium's window is never narrower than 500 px)."""
    if wh == DESK:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    else:
        d.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": wh[0], "height": wh[1], "deviceScaleFactor": 1, "mobile": True},
        )


def attr(d, key: str) -> str:
    """The page's ``data-KEY`` (one call to the browser, not two: the tests ask it often)."""
    return d.execute_script("return document.body.getAttribute(arguments[0])", f"data-{key}") or ""


def wait(d, pred, timeout: float = 20):
    """``pred`` true within ``timeout`` s (a page re-rendered under a lookup is looked at again)."""
    return WebDriverWait(d, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(lambda _: pred())


def open_table(srv, seats, options=(), seed=1, pace=0) -> dict:
    r = srv.http.post(
        "/api/tables",
        json={
            "ruleset": "winning-moves",
            "options": list(options),
            "players": len(seats),
            "seats": seats,
            "seed": seed,
            "pace": pace,
        },
    )
    assert r.status_code == 201, r.text
    return r.json()


def seat_page(d, srv, t: dict, p: int) -> None:
    d.get(srv.url + path(t["seats"][p]["url"]))
    wait(d, lambda: attr(d, "version") not in ("", "-1"))


def refreshed(d, times: int = 1) -> None:
    """The host's page has refreshed ``times`` more times (asked the server for the table and shown it)."""
    polls = d.execute_script("return window.__polls")
    wait(d, lambda: d.execute_script("return window.__polls") >= polls + times + 1)  # +1: the one asked is shown


def my_turn(d, timeout: float = 20) -> None:
    wait(d, lambda: attr(d, "decide") == "yes" and attr(d, "inflight") != "yes", timeout)


def overflow(d) -> int:
    """How far the page reaches past the screen's right edge (0: nothing to scroll sideways)."""
    return d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")


def out_of_view(d, css: str) -> list[str]:
    """The elements matching ``css`` not wholly on the screen as it is (no scrolling)."""
    return d.execute_script(
        """return [...document.querySelectorAll(arguments[0])].filter((e) => e.offsetParent !== null).filter((e) => {
             const r = e.getBoundingClientRect();
             return r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth;
           }).map((e) => e.id || e.textContent.slice(0, 40));""",
        css,
    )


def play_out(srv, t: dict, p: int) -> dict:
    """Seat ``p`` plays the tests' policy over its socket until the hand (or the match) is over."""
    c = SeatClient(srv.url + path(t["seats"][p]["url"]))
    try:
        c.until(lambda m: m["type"] == "state")
        for _ in range(400):
            v = c.view
            if v["hand_over"] or v["match_over"]:
                return v
            if v["moves"]:
                c.act(my_move(v))
            c.until(lambda m: m["type"] == "state", timeout=20)
        raise AssertionError("the hand did not end")
    finally:
        c.close()


def axe(d) -> list[str]:
    """axe-core's violations of WCAG 2 A and AA on the page as it is (the script ships with selenium-axe-python)."""
    selenium_axe_python = pytest.importorskip(
        "selenium_axe_python", reason="the accessibility check needs selenium-axe-python: pip install 'mbrules[web]'"
    )
    script = Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js"
    d.execute_script(script.read_text(encoding="utf-8"))
    found = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        ".then((r) => done(r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ') + ' ' + "
        "(n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)).slice(0, 4).join(' | '))))"
    )
    return list(found)


# -- 1. a phone ------------------------------------------------------------------------------------


def test_phone_width_nothing_overflows_and_a_turn_fits_the_screen(b, srv):
    """At 390×844 the front page (house rules open) scrolls no way but down, and on a turn the hand, its
    moves and a prompt's answers are on the screen as it opens: no scrolling to play."""
    size(b, PHONE)
    b.get(srv.url + "/")
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "#options input"))
    b.find_element(By.CSS_SELECTOR, "#form details summary").click()
    assert overflow(b) <= 0
    t = open_table(srv, ["person", "heuristic", "heuristic", "heuristic"], ["draw-from-discard"], seed=3)
    b.get(t["host_url"])  # the host's page of the table: its links fit too
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "button[data-relink='0']"))
    assert overflow(b) <= 0
    seat_page(b, srv, t, 0)
    prompts = turns = 0
    for _ in range(40):
        my_turn(b)
        assert overflow(b) <= 0
        if b.find_element(By.ID, "prompt").get_attribute("data-kind") == "draw":
            assert out_of_view(b, "#answers button, #hand button.card") == []
            prompts += 1
            b.find_element(By.TAG_NAME, "body").send_keys("p")
        else:
            assert out_of_view(b, "#hand button.card, #moves button") == []
            turns += 1
            before = attr(b, "version")
            b.find_element(By.CSS_SELECTOR, "#moves button.move").click()
            wait(b, lambda: attr(b, "version") != before)
        if prompts >= 2 and turns >= 3:
            break
    assert prompts >= 2 and turns >= 3


# -- 2. the host in control ------------------------------------------------------------------------


def test_the_host_keeps_the_picked_bot_confirms_a_new_link_and_hands_a_seat_back(b, srv):
    """The picker keeps the host's choice across the page's refreshes; a seat given to a bot can be asked
    back from its page and handed back by the host; "new link" asks first, and the replaced link says so."""
    t = open_table(srv, ["person", "person", "heuristic", "heuristic"], seed=5)
    b.get(t["host_url"])
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "select[data-pick='1']"))
    Select(b.find_element(By.CSS_SELECTOR, "select[data-pick='1']")).select_by_value("expert")
    p1 = SeatClient(srv.url + path(t["seats"][0]["url"]))  # p1 comes: a refresh redraws the seats, pickers too
    p1.until(lambda m: m["type"] == "state")
    wait(b, lambda: "p1 (side A) · here" in b.find_element(By.ID, "seats").text)
    refreshed(b, 2)
    assert b.execute_script("return document.querySelector(\"select[data-pick='1']\").value") == "expert"
    b.find_element(By.CSS_SELECTOR, "button[data-give='1']").click()
    wait(b, lambda: "the expert bot" in b.find_element(By.ID, "seats").text)
    host = b.current_window_handle
    b.switch_to.new_window("tab")
    seat_page(b, srv, t, 1)
    wait(b, lambda: b.find_element(By.ID, "botseat").is_displayed())
    assert "expert bot" in b.find_element(By.ID, "botseat-text").text
    b.find_element(By.ID, "ask-back").click()
    wait(b, lambda: "you asked the host" in b.find_element(By.ID, "botseat-text").text)
    seat = b.current_window_handle
    b.switch_to.window(host)
    wait(b, lambda: "asks for the seat back" in b.find_element(By.ID, "seats").text, 10)
    b.find_element(By.CSS_SELECTOR, "button[data-give-back='1']").click()
    b.switch_to.window(seat)
    wait(b, lambda: not b.find_element(By.ID, "botseat").is_displayed())
    b.switch_to.window(host)
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "button[data-relink='0']"))
    old = t["seats"][0]["url"]
    b.find_element(By.CSS_SELECTOR, "button[data-relink='0']").click()
    assert "Replace p1's link?" in b.find_element(By.ID, "seats").text
    p1.close()  # p1 leaves: the next refresh redraws the seats, and keeps the question
    wait(b, lambda: "p1 (side A) · away" in b.find_element(By.ID, "seats").text)
    refreshed(b)
    assert "Replace p1's link?" in b.find_element(By.ID, "seats").text
    assert srv.http.get(path(old)).status_code == 200, "nothing is replaced before the host says yes"
    b.find_element(By.CSS_SELECTOR, "button[data-relink-yes='0']").click()
    wait(b, lambda: b.find_element(By.CSS_SELECTOR, "[data-seat='0'] input").get_attribute("value") != old)
    r = srv.http.get(path(old))
    assert r.status_code == 410 and "replaced by the host" in r.text
    b.get(old)
    assert "replaced by the host" in b.find_element(By.TAG_NAME, "body").text


def test_the_host_page_refreshes_every_2_s():
    """The period the browser tests shorten (SOCKET_HOOKS) is the page's own: 2 s, one constant, used."""
    js = (Path(__file__).resolve().parents[2] / "mbrules" / "web" / "static" / "table-host.js").read_text("utf-8")
    assert re.findall(r"const REFRESH_MS = (\d+);", js) == [str(HOST_REFRESH_MS)] and HOST_REFRESH_MS == 2000
    assert "setTimeout(poll, REFRESH_MS);" in js and "setTimeout(poll, 2" not in js


# -- 3. two tabs of one seat -----------------------------------------------------------------------


def test_a_tab_taken_over_says_so_has_no_live_button_and_can_take_the_seat_back(b, srv):
    t = open_table(srv, ["person", "heuristic"], seed=7)
    seat_page(b, srv, t, 0)
    first = b.current_window_handle
    b.switch_to.new_window("tab")
    seat_page(b, srv, t, 0)
    second = b.current_window_handle
    b.switch_to.window(first)
    wait(b, lambda: b.find_element(By.ID, "gone").is_displayed())
    assert "opened in another page" in b.find_element(By.ID, "gone-text").text
    assert b.execute_script("return document.getElementById('game').inert") is True  # no button in it answers
    assert "YOUR TURN" not in b.find_element(By.ID, "turn").text
    assert b.find_elements(By.CSS_SELECTOR, "#moves button, #answers button") == []
    b.find_element(By.ID, "take-back").click()
    wait(b, lambda: b.find_element(By.ID, "conn").text == "connected")
    assert not b.find_element(By.ID, "gone").is_displayed()
    b.switch_to.window(second)
    wait(b, lambda: b.find_element(By.ID, "gone").is_displayed())


# -- 4. the keyboard -------------------------------------------------------------------------------


def test_keys_play_after_a_draw_prompt_reach_moves_past_nine_and_deal_on(b, srv):
    """After the draw prompt the focus is on a card that can be played, so Enter plays it; move 10 is
    typed as 1 then 0; at the hand's end (on a phone: the sheet and "Next hand" on the screen) Enter
    deals on."""
    t = open_table(srv, ["person", "heuristic"], ["draw-from-discard"], seed=5)
    seat_page(b, srv, t, 0)
    keys = b.find_element(By.TAG_NAME, "body")
    after_prompt = ten = 0
    for _ in range(60):
        wait(b, lambda: attr(b, "hand-over") == "yes" or (attr(b, "decide") == "yes" and attr(b, "inflight") != "yes"))
        if attr(b, "hand-over") == "yes":
            break
        before = attr(b, "version")
        if b.find_element(By.ID, "prompt").get_attribute("data-kind") == "draw":
            keys.send_keys("p")
            wait(b, lambda: attr(b, "version") != before)
            my_turn(b)
            focused = b.switch_to.active_element
            if b.find_elements(By.CSS_SELECTOR, "#hand button.card:not(.dead)"):
                assert "card" in focused.get_attribute("class") and "dead" not in focused.get_attribute("class")
                before = attr(b, "version")
                focused.send_keys(Keys.ENTER)
                wait(b, lambda: attr(b, "version") != before)
                assert attr(b, "sent").startswith("play ")
                after_prompt += 1
            continue
        numbered = [  # the move numbers on the hand's cards, read in one call to the browser
            int(n)
            for moves in b.execute_script(
                "return [...document.querySelectorAll('#hand button.card')].map((c) => c.dataset.moves || '')"
            )
            for n in moves.split(",")
            if n
        ]
        if max(numbered, default=0) >= 10 and not ten:
            card = next(
                c
                for c in b.find_elements(By.CSS_SELECTOR, "#hand button.card")
                if "10" in c.get_attribute("data-moves").split(",")
            )
            card.click()
            want = b.find_element(By.CSS_SELECTOR, "#moves button[data-n='10']").get_attribute("data-action")
            ActionChains(b).send_keys("1").send_keys("0").perform()
            wait(b, lambda: attr(b, "version") != before)
            assert attr(b, "sent") == want
            ten += 1
        else:
            keys.send_keys("1")
            wait(b, lambda: attr(b, "version") != before)
        if after_prompt >= 2 and ten:
            break
    assert after_prompt >= 2 and ten == 1
    b.get("about:blank")
    play_out(srv, t, 0)
    size(b, PHONE)
    seat_page(b, srv, t, 0)
    wait(b, lambda: attr(b, "hand-over") == "yes")
    assert out_of_view(b, "#sheet-title, #next-hand") == []  # a phone: the sheet and Next hand come first
    b.find_element(By.TAG_NAME, "body").send_keys(Keys.ENTER)
    wait(b, lambda: "Hand 2" in b.find_element(By.ID, "trip").text)


# -- 5. screen readers and contrast ----------------------------------------------------------------


def test_cards_are_focused_named_and_explained_turns_are_announced_and_axe_finds_nothing(b, srv):
    """←/→ move the focus (not only a highlight) and the card says its state; a card that cannot be played
    says why in text; the turn is a banner and an aria-live announcement; axe-core finds no WCAG A/AA
    violation on the front page, the host's page and a seat's page (on its turn, off it, with a coup
    fourré prompt and safeties shown), at both widths."""
    for wh in (DESK, PHONE):
        size(b, wh)
        b.get(srv.url + "/")
        wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "#options input"))
        b.find_element(By.CSS_SELECTOR, "#form details summary").click()
        assert axe(b) == [], wh
    size(b, DESK)
    t = open_table(srv, ["person", "person"], seed=13)
    b.get(t["host_url"])
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "select[data-pick='1']"))
    assert axe(b) == []
    seat_page(b, srv, t, 0)
    my_turn(b)
    assert b.find_element(By.ID, "turn").text.startswith("YOUR TURN")
    assert "your turn" in b.find_element(By.ID, "announce").get_attribute("textContent").lower()
    b.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    focused = b.switch_to.active_element
    assert "card" in focused.get_attribute("class") and focused.get_attribute("aria-current") == "true"
    assert focused.get_attribute("data-index") == b.find_element(By.CSS_SELECTOR, "#hand .card.selected").get_attribute(
        "data-index"
    )
    dead = b.find_elements(By.CSS_SELECTOR, "#hand button.card.dead")
    assert dead, "the seeded deal holds a card that cannot be played on the first turn"
    reason = dead[0].find_element(By.CSS_SELECTOR, ".sr-only").get_attribute("textContent")
    assert "cannot be played" in reason and len(reason) > 25
    for _ in range(8):  # the focus walks to the dead card and its reason shows in words
        if b.switch_to.active_element.get_attribute("data-index") == dead[0].get_attribute("data-index"):
            break
        b.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert "cannot be played" in b.find_element(By.ID, "why").text
    assert axe(b) == []
    b.switch_to.active_element.send_keys("1")
    wait(b, lambda: attr(b, "turn") == "theirs")  # p2 never comes: it stays p2's turn
    assert "p2 plays now" in b.find_element(By.ID, "announce").get_attribute("textContent")
    b.execute_script(  # what a window and a finished hand show, put on the page to check their colours
        """document.getElementById('prompt').classList.add('open');
           document.getElementById('answers').innerHTML = '<button class="yes"><span class="n">y</span> · call it</button><button><span class="n">n</span> · let it pass</button>';
           document.getElementById('discard').insertAdjacentHTML('beforeend', '<span class="chip k-safety">Right of Way</span><span class="chip k-safety cf">Ace</span><span class="chip k-remedy">Roll</span><span class="chip k-hazard">Stop</span><span class="chip k-distance">25</span>');"""
    )
    for wh in (DESK, PHONE):
        size(b, wh)
        assert axe(b) == [], wh


# -- 6. feedback -----------------------------------------------------------------------------------


def test_a_move_in_flight_a_lost_connection_and_an_absent_player_show(b, srv):
    """A double-click plays once and says no "Refused"; a click while the server cannot be reached says
    so; a player who left shows as away with the time counting."""
    t = open_table(srv, ["person", "person", "heuristic", "heuristic"], seed=17)
    p2 = SeatClient(srv.url + path(t["seats"][1]["url"]))
    p2.until(lambda m: m["type"] == "state")
    p2.close()
    seat_page(b, srv, t, 0)
    wait(b, lambda: re.search(r"p2 · \d+ cards · away 0:0\d", b.find_element(By.ID, "sides").text))
    first = re.search(r"away 0:(\d\d)", b.find_element(By.ID, "sides").text).group(1)
    wait(b, lambda: re.search(r"away 0:(\d\d)", b.find_element(By.ID, "sides").text).group(1) != first, 5)
    my_turn(b)
    # the server cannot be reached: the page says so when a move is tried
    b.execute_script("window.__offline = true; window.__sockets[window.__sockets.length - 1].close()")
    wait(b, lambda: b.find_element(By.ID, "conn").text == "reconnecting…")
    b.find_element(By.CSS_SELECTOR, "#moves button.move").click()
    assert "Not connected" in b.find_element(By.ID, "message").text
    b.execute_script("window.__offline = false")
    wait(b, lambda: b.find_element(By.ID, "conn").text == "connected", 30)
    my_turn(b)
    before = int(attr(b, "version"))
    ActionChains(b).double_click(b.find_element(By.CSS_SELECTOR, "#moves button.move")).perform()
    wait(b, lambda: int(attr(b, "version")) > before)
    time.sleep(0.5)
    assert "Refused" not in b.find_element(By.ID, "message").text
    assert b.find_element(By.CSS_SELECTOR, "#log li:last-child").text


# -- 7. the end of a match -------------------------------------------------------------------------


def test_a_match_ends_on_a_summary_with_the_record_and_play_again(b, srv):
    """One hand decides: its page shows each hand's sheet, who won, the record to download and "play again
    with the same rules and seats", which opens a new table whose link each seat is given."""
    t = open_table(srv, ["person", "heuristic"], ["single-hand"], seed=19)
    play_out(srv, t, 0)
    size(b, PHONE)
    seat_page(b, srv, t, 0)
    wait(b, lambda: attr(b, "match-over") == "yes")
    assert b.find_element(By.ID, "sheet-title").text == "The match is over"
    assert "Hand 1" in b.find_element(By.ID, "sheet").text and "Total" in b.find_element(By.ID, "sheet").text
    assert re.search(r"wins|draw|tie", b.find_element(By.ID, "status").text, re.I)
    assert out_of_view(b, "#sheet-title, #export, #again") == []
    record = srv.http.get(path(b.find_element(By.ID, "export").get_attribute("href")))
    assert record.status_code == 200 and "hands:" in record.text or "steps" in record.text
    b.find_element(By.ID, "again").click()
    wait(b, lambda: b.find_element(By.ID, "again-link").is_displayed())
    b.find_element(By.ID, "again-link").click()
    wait(b, lambda: attr(b, "version") not in ("", "-1") and attr(b, "match-over") == "no")
    assert "Hand 1" in b.find_element(By.ID, "trip").text
    assert path(t["seats"][0]["url"]) not in b.current_url


# -- 8. words --------------------------------------------------------------------------------------


def test_the_setup_says_what_each_option_does_and_the_front_page_loads_without_a_csp_error(b, srv):
    b.get_log("browser")  # what came before
    b.get(srv.url + "/")
    wait(b, lambda: b.find_elements(By.CSS_SELECTOR, "#options input"))
    catalog = srv.http.get("/api/catalog").json()
    b.find_element(By.CSS_SELECTOR, "#form details summary").click()
    for o in catalog["options"]:
        label = b.find_element(By.CSS_SELECTOR, f"label[data-option-label='{o['id']}']")
        what = label.find_element(By.CSS_SELECTOR, ".what")
        assert what.is_displayed() and what.text == o["description"]
        assert label.find_element(By.CSS_SELECTOR, ".name").text == o["name"]
    logs = [
        e["message"]
        for e in b.get_log("browser")
        if e["level"] == "SEVERE" or "Content Security Policy" in e["message"]
    ]
    assert logs == []
