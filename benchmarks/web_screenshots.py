"""The screenshots of docs/web.md, taken the way a user sees the pages: headless Chromium (Debian's
chromium and chromium-driver) against a real ``mbrules serve`` on 127.0.0.1.

    python benchmarks/web_screenshots.py [OUT_DIR]     # default docs/img

Writes web-host.png (the host's page with the rule changes, desktop), web-table.png (a seat's page
mid-hand, desktop), web-phone-window.png (the coup fourré prompt at a phone's width, 390 px) and
web-phone-sheet.png (the score sheet at the end of the hand, phone width). The deal is seeded so
that the window opens; the persons play the tests' policy (tests/web/web_helpers.py).
With draw-from-discard, mulligan and fast-play-remedy (a second table, phone width):
web-phone-draw.png (where to draw from), web-phone-mulligan.png (two cards chosen to throw away)
and web-phone-fast.png (a hazard answered out of turn). Then web-phone-host.png (the front page, house
rules open), web-phone-turn.png (a turn: the hand and its moves on the screen), web-host-table.png (the
host's page of a table: a seat given to a bot, a new link being confirmed), web-phone-replaced.png (a
page whose seat was opened in another) and web-phone-summary.png (a match's end). Phones are 390×844.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from web_helpers import HOUSE_RULES, SeatClient, Server, house_move, house_seed, my_move, window_seed  # noqa: E402

SEATS = ["person", "heuristic", "person", "expert"]


def driver(width: int, height: int):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
    ):
        opts.add_argument(arg)
    if width < 600:  # a phone: Chromium's window is never narrower than 500 px, its emulated screen is
        opts.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1}}
        )
    return webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    seed, holder = window_seed(SEATS, options=["hazard-on-hazard"], within=40)
    with tempfile.TemporaryDirectory() as d:
        server = Server(Path(d) / "t.sqlite3", Path(d) / "log")
        desk = driver(1280, 860)
        try:
            desk.get(server.url + "/")
            WebDriverWait(desk, 20).until(lambda _: desk.find_elements(By.CSS_SELECTOR, "#edition option"))
            Select(desk.find_element(By.ID, "players")).select_by_value("4")
            Select(desk.find_element(By.CSS_SELECTOR, "#seats select[data-seat='2']")).select_by_value("person")
            Select(desk.find_element(By.CSS_SELECTOR, "#seats select[data-seat='3']")).select_by_value("expert")
            desk.find_element(By.CSS_SELECTOR, "details summary").click()
            for o in ("hazard-on-hazard", "extension-1200"):
                desk.find_element(By.CSS_SELECTOR, f"input[data-option='{o}']").click()
            desk.find_element(By.ID, "preview").click()
            WebDriverWait(desk, 20).until(lambda _: desk.find_element(By.ID, "preview-panel").is_displayed())
            desk.find_element(By.CSS_SELECTOR, "details summary").click()  # fold the options again
            desk.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.3)
            desk.save_screenshot(str(out / "web-host.png"))
            t = server.open_table(seats=SEATS, seed=seed, options=["hazard-on-hazard"])
            clients = {p: SeatClient(t["seats"][p]["url"]) for p in (0, 2)}
            for c in clients.values():
                c.until(lambda m: m["type"] == "state")
            shown = False
            for _ in range(400):
                for c in clients.values():
                    c.settle(0.15)
                if clients[holder].view["question"] and not shown:
                    phone = driver(390, 844)
                    phone.get(t["seats"][holder]["url"])
                    time.sleep(1.5)
                    phone.save_screenshot(str(out / "web-phone-window.png"))
                    phone.quit()
                    desk.get(t["seats"][2 - holder]["url"])
                    time.sleep(1.5)
                    desk.save_screenshot(str(out / "web-table.png"))
                    desk.get("about:blank")
                    shown = True
                    for p in (0, 2):  # a page opened on a seat takes it over: the players' sockets come back
                        clients[p] = SeatClient(t["seats"][p]["url"])
                        clients[p].until(lambda m: m["type"] == "state")
                    continue
                if all(c.view["hand_over"] for c in clients.values()):
                    break
                for c in clients.values():
                    if c.view["moves"]:
                        c.act(my_move(c.view))
                        break
            phone = driver(390, 844)
            phone.get(t["seats"][2]["url"])
            time.sleep(1.5)
            phone.save_screenshot(str(out / "web-phone-sheet.png"))  # at a hand's end the sheet comes first
            phone.quit()
            house_shots(server, out)
            more_shots(server, out, desk)
        finally:
            desk.quit()
            server.stop()
    print("\n".join(str(p) for p in sorted(out.glob("web-*.png"))))


def house_shots(server: Server, out: Path) -> None:
    """The house rules' prompts at a phone's width: the seat is played by the tests' policy through its
    socket, and the page is opened at each decision (a page opened on a seat takes it over)."""
    seats = ["person", "heuristic", "heuristic", "heuristic"]
    seed, within = house_seed(seats)
    t = server.open_table(seats=seats, seed=seed, options=HOUSE_RULES)
    url = t["seats"][0]["url"]
    client = SeatClient(url)
    client.until(lambda m: m["type"] == "state")
    done: set[str] = set()
    shot: set[str] = set()
    for _ in range(8 * within):
        v = client.settle(0.15)
        if not v["moves"]:
            continue
        kind = v["obs"]["decision"]["kind"]
        draw_choice = (
            kind == "turn"
            and any(m["op"] == "mulligan" for m in v["moves"])
            and any(m["action"] == "draw discard" for m in v["moves"])
        )
        want = "fast" if kind == "fast_play" else "draw" if draw_choice and "discard" in done else ""
        if want and want not in shot:
            phone = driver(390, 844)
            phone.get(url)
            time.sleep(1.5)
            phone.save_screenshot(str(out / f"web-phone-{want}.png"))
            if want == "draw":
                phone.find_element(By.ID, "mulligan-start").click()
                for i in (0, 2):
                    phone.find_element(By.CSS_SELECTOR, f"#hand button.card[data-index='{i}']").click()
                time.sleep(0.3)
                phone.save_screenshot(str(out / "web-phone-mulligan.png"))
            phone.quit()
            shot.add(want)
            client = SeatClient(url)
            client.until(lambda m: m["type"] == "state")
            continue
        if done >= {"fast", "mulligan", "discard", "pile"} and shot >= {"fast", "draw"}:
            break
        client.act(house_move(v, done))
    client.close()


def more_shots(server: Server, out: Path, desk) -> None:
    """The front page at a phone's width, a turn at a phone's width, the host's page of a table (a seat
    given to a bot), a tab taken over by another, and a match's summary."""
    phone = driver(390, 844)
    try:
        phone.get(server.url + "/")
        WebDriverWait(phone, 20).until(lambda _: phone.find_elements(By.CSS_SELECTOR, "#options input"))
        phone.find_element(By.CSS_SELECTOR, "#form details summary").click()
        time.sleep(0.3)
        phone.save_screenshot(str(out / "web-phone-host.png"))
        t = server.open_table(seats=["person", "person", "heuristic"], seed=4, players=3)
        phone.get(t["seats"][0]["url"])
        WebDriverWait(phone, 20).until(
            lambda _: phone.find_element(By.TAG_NAME, "body").get_attribute("data-decide") == "yes"
        )
        time.sleep(0.5)
        phone.save_screenshot(str(out / "web-phone-turn.png"))
        server.host_post(t, "bot", {"seat": 1, "bot": "expert"})
        desk.get(t["host_url"])
        WebDriverWait(desk, 20).until(lambda _: desk.find_elements(By.CSS_SELECTOR, "button[data-relink='0']"))
        desk.find_element(By.CSS_SELECTOR, "button[data-relink='0']").click()
        time.sleep(0.5)
        desk.save_screenshot(str(out / "web-host-table.png"))
        other = SeatClient(t["seats"][0]["url"])  # the seat opened elsewhere: the phone's page is taken over
        time.sleep(1.0)
        phone.save_screenshot(str(out / "web-phone-replaced.png"))
        other.close()
        one = server.open_table(seats=["person", "heuristic"], seed=19, players=2, options=["single-hand"])
        c = SeatClient(one["seats"][0]["url"])
        c.until(lambda m: m["type"] == "state")
        for _ in range(400):
            v = c.settle(0.05)
            if v["match_over"]:
                break
            if v["moves"]:
                c.act(my_move(v))
        c.close()
        phone.get(one["seats"][0]["url"])
        WebDriverWait(phone, 20).until(
            lambda _: phone.find_element(By.TAG_NAME, "body").get_attribute("data-match-over") == "yes"
        )
        time.sleep(0.5)
        phone.save_screenshot(str(out / "web-phone-summary.png"))
    finally:
        phone.quit()


if __name__ == "__main__":
    main()
