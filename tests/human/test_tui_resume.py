"""Save and resume: a --record file of a match left in the middle continues where it stopped."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

import mbrules  # noqa: E402
from mbrules.scenario.record import Recorder, record_match  # noqa: E402
from mbrules.tui.app import MatchDriver, MilleBornesApp, ScoreSheet  # noqa: E402
from mbrules.tui.resume import ResumeError, recorded_match, replay_record  # noqa: E402


def play_keys(driver, keys, sheets_to_pass=0):
    app = MilleBornesApp(driver)

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            passed = 0
            for k in keys:
                if isinstance(app.screen, ScoreSheet):
                    if passed == sheets_to_pass:
                        break
                    passed += 1
                    await pilot.press("enter")
                else:
                    await pilot.press(k)
                # (no pilot.pause() more: press() itself waits for the app to be idle twice, then for the screen)
            await pilot.press("q", "y")
            await pilot.pause()

    asyncio.run(main())


@pytest.mark.parametrize("keys,sheets", [(["1"] * 12, 0), (["1"] * 50, 1)], ids=["inside hand 1", "in hand 2"])
def test_a_recorded_match_left_midway_continues_where_it_stopped(tmp_path, keys, sheets):
    game = mbrules.load_game("winning-moves", players=2)
    rec = Recorder()
    first = MatchDriver(game, 41, ["heuristic"], [0], observers=[rec])
    play_keys(first, keys, sheets)
    assert first.hands_done == sheets and not first.state.hand_over  # left inside a hand
    path = tmp_path / "game.yaml"
    path.write_text(record_match(rec, first.state, "winning-moves", [], 2, 41, out_dir=tmp_path), encoding="utf-8")
    assert recorded_match(path) == ("winning-moves", 2, 41)

    again = MatchDriver(game, 41, ["heuristic"], [0], observers=[Recorder()])
    done = replay_record(again.state, path)
    assert done == sheets
    if again.state.hand_over:
        again.next_hand()
    assert again.advance() == "human"  # the draw the person had made is made again: the same card
    assert again.state.snapshot().hands == first.state.snapshot().hands
    assert again.state.snapshot().sides == first.state.snapshot().sides
    assert again.state.hand_no == first.state.hand_no
    assert list(again.narrator.lines) == list(first.narrator.lines)


def test_a_record_of_another_seed_is_refused(tmp_path):
    game = mbrules.load_game("winning-moves", players=2)
    rec = Recorder()
    first = MatchDriver(game, 41, ["heuristic"], [0], observers=[rec])
    play_keys(first, ["1"] * 5)
    path = tmp_path / "game.yaml"
    path.write_text(record_match(rec, first.state, "winning-moves", [], 2, 41, out_dir=tmp_path), encoding="utf-8")
    other = MatchDriver(game, 7, ["heuristic"], [0])
    with pytest.raises(ResumeError, match="hand 1 was dealt other cards"):
        replay_record(other.state, path)


def test_an_undone_move_leaves_the_record_as_if_it_was_never_played(tmp_path):
    game = mbrules.load_game("winning-moves", players=2)
    rec = Recorder()
    d = MatchDriver(game, 41, ["heuristic"], [0], observers=[rec])
    assert d.advance() == "human"
    d.play(0, d.state.legal_actions()[0])
    assert d.advance() == "human"
    kept = [list(h["actions"]) for h in rec.hands]
    d.play(0, d.state.legal_actions()[-1])  # a discard
    d.advance()
    d.undo()
    assert [list(h["actions"]) for h in rec.hands] == kept
    d.play(0, d.state.legal_actions()[0])  # played again: recorded once, after the kept moves
    assert [a for _, a in rec.hands[-1]["actions"]][: len(kept[-1])] == [a for _, a in kept[-1]]
    assert len(rec.hands[-1]["actions"]) == len(kept[-1]) + 1
