"""Take the screenshots of the full-screen game in docs/play.md (Textual's save_screenshot, SVG).

    .venv/bin/python docs/img/play_screenshots.py      # writes docs/img/play-*.svg

Each is a real match (winning-moves, 2 players, bots heuristic) driven by keys through Textual's
pilot, at 80×24 (the classic terminal) and 120×40.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import mbrules
from mbrules.tui.app import MatchDriver, MilleBornesApp, TableScreen

HERE = Path(__file__).resolve().parent


async def shoot(name: str, seed: int, keys: list[str], size: tuple[int, int], players: int = 2) -> None:
    game = mbrules.load_game("winning-moves", players=players)
    app = MilleBornesApp(MatchDriver(game, seed, ["heuristic"], [0], max_hands=1))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for k in keys:
            if k == "1" and isinstance(app.screen, TableScreen) and len(app.driver.state.legal_actions()) >= 10:
                await pilot.press("1", "enter")
            else:
                await pilot.press(k)
            await pilot.pause()
        app.save_screenshot(f"{name}.svg", str(HERE))
        print(HERE / f"{name}.svg")


async def main() -> None:
    await shoot("play-80x24", 41, ["1"] * 6 + ["right", "enter"], (80, 24))
    await shoot("play-coup-fourre-80x24", 13, ["1"] * 8, (80, 24))
    await shoot("play-score-sheet-80x24", 41, ["1"] * 60, (80, 24))
    await shoot("play-6-players-120x40", 5, ["1"] * 4, (120, 40), players=6)


if __name__ == "__main__":
    asyncio.run(main())
