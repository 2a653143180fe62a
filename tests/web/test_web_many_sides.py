"""A table of nine (ruleset playaural: 9 sides, each for himself) in headless Chromium, one person and 8 bots: at
desktop width the nine sides and the hand show at once (nine cards of five lines, two a row, put the hand
below the fold, and the page, scrolling to the hand, hid the sides), and at phone
width the score sheet's figures are whole ('Side A' and '1000' were broken over lines: 'Si/de A', '10/00')."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import time

import pytest

from web_helpers import Server

pytest.importorskip(
    "selenium", reason="the browser test needs Selenium: pip install 'mbrules[web]'", exc_type=ImportError
)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from test_web_browser import body, chromium  # noqa: E402

pytestmark = pytest.mark.slow  # a browser, a server process and a whole hand of nine: make test-fast leaves it out

TOPS = """
const top = (id) => document.getElementById(id).getBoundingClientRect().top;
return [top('sides'), top('hand'), window.innerHeight];
"""
CELLS_ON_ONE_LINE = """
const cells = [...document.querySelectorAll('#sheet table.sheet tr > :not(:first-child)')];
const line = parseFloat(getComputedStyle(cells[0]).lineHeight);
return [cells.length, cells.filter((c) => c.getBoundingClientRect().height > 1.5 * line + 8).map((c) => c.textContent)];
"""


def _play_to_the_hand_s_end(d, limit: int = 900) -> None:
    """Click the first move offered (or answer) at each of the person's decisions until the hand is over."""
    for _ in range(limit):
        if body(d, "hand-over") == "yes":
            return
        if body(d, "decide") == "yes":
            buttons = [b for b in d.find_elements(By.CSS_SELECTOR, "#moves button, #answers button") if b.is_enabled()]
            if buttons:
                buttons[0].click()
        time.sleep(0.05)
    raise AssertionError("the hand did not end")


def test_nine_sides_leave_the_hand_above_the_fold_and_the_phone_score_sheet_whole(tmp_path):
    server = Server(tmp_path / "t.sqlite3", tmp_path / "log")
    d = chromium(1280, 900)
    try:
        t = server.open_table(ruleset="playaural", players=9, seats=["person"] + ["heuristic"] * 8, seed=1)
        d.get(server.url + "/play/" + t["seats"][0]["url"].split("/play/", 1)[1])
        WebDriverWait(d, 20).until(lambda _: body(d, "version") not in ("", "-1"))
        assert len(d.find_elements(By.CSS_SELECTOR, "#sides .side")) == 9
        time.sleep(1)  # the page scrolls the hand into view on the person's turn
        sides_top, hand_top, room = d.execute_script(TOPS)
        assert sides_top >= 0 and hand_top < room, (sides_top, hand_top, room)  # the whole table and the hand at once
        d.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
        )
        _play_to_the_hand_s_end(d)
        WebDriverWait(d, 10).until(lambda _: d.find_elements(By.CSS_SELECTOR, "#sheet table.sheet"))
        assert d.execute_script("return document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
        n, broken = d.execute_script(CELLS_ON_ONE_LINE)
        assert n >= 9 * 3 and broken == []
        heads = [
            th.get_attribute("textContent")
            for th in d.find_elements(By.CSS_SELECTOR, "#sheet table.sheet tr:first-of-type th")
        ]
        assert heads[1:] == [f"Side {s}" for s in "ABCDEFGHI"]  # what a screen reader reads
    finally:
        d.quit()
        server.stop()
