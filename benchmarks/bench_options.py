"""What each bundled option does to play: the table of docs/rulesets.md ("What each option does to play").

    .venv/bin/python benchmarks/bench_options.py [--games 300] [--seed 0] [--write docs/rulesets.md] [--only OPTION ...]

For every bundled option, ``compare`` plays its base edition against the same edition with the option,
on the same seeds (paired matches, heuristic bots in every seat, no robustness, ladder or restricted play),
at the player count where the option matters, and reads two metrics: turns per hand and the winner's
margin in points, each arm with its 95% interval and the paired difference B - A with its 95% interval.
Without ``--write`` the table is printed; with it, the table replaces the part of the page between the
markers ``<!-- option-effects:start -->`` and ``<!-- option-effects:end -->``, so the page is regenerated,
never edited by hand. The whole run at 300 matches an option is a few CPU-minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from mbrules.compare import run_compare  # noqa: E402
from mbrules.ruleset.listing import bundled_ids  # noqa: E402

# the edition an option is measured on (default winning-moves) and the player count where it matters
# (default 4: partnerships to 1000 miles, the edition's headline game)
BASE = {"simpler-game": "kids-115", "longer-game": "kids-115"}
PLAYERS = {
    "full-deck": 2,
    "trip-1000": 2,
    "extension-1200": 4,
    "each-for-himself": 4,
    "three-vs-three": 6,
    "shutout-per-opponent": 3,
    "coup-fourre-any-player": 4,
    "extension-bonus-to-finisher": 2,
}
# options measured where they matter: both arms also play these (the option's effect shows at such a table)
WITH = {
    "reshuffle-discard": ("each-for-himself",),
    "refill-empty-hand": ("each-for-himself",),
    "no-duplicate-draws": ("each-for-himself",),
    "discard-draw-must-play": ("draw-from-discard",),  # it bounds the discard-pile draw; alone it changes nothing
}
# options with no row: what they change has no "without" arm at any table the edition has (docs/rulesets.md)
SKIP = {"solo"}  # one player: the edition has no one-player table to compare with; at 4 players it changes nothing
START, END = "<!-- option-effects:start -->", "<!-- option-effects:end -->"
METRICS = (
    ("turns_per_hand", "Turns per hand", 1),
    ("trip_completed_share", "Hands whose trip completes (%)", 0),
    ("margin", "Winner's margin (points)", 0),
)
PERCENT = {"trip_completed_share"}  # shares shown as percentages


def _cell(row: dict, digits: int, scale: float = 1.0) -> str:
    f = f"{{:.{digits}f}}"
    row = {k: (v * scale if isinstance(v, (int, float)) else v) for k, v in row.items()}
    lo, hi = (x * scale for x in row["ci95"])
    return (
        f"{f.format(row['a'])} → {f.format(row['b'])}; B − A {f.format(row['diff'])} [{f.format(lo)}, {f.format(hi)}]"
    )


def table(games: int, seed: int, workers: int) -> str:
    options = [o for o in bundled_ids(True) if o not in SKIP]
    return "\n".join([*_header(games, seed), *rows(options, games, seed, workers)]) + "\n"


def _header(games: int, seed: int) -> list[str]:
    return [
        f"Measured by `python benchmarks/bench_options.py --games {games} --seed {seed}` "
        f"({time.strftime('%Y-%m-%d')}): {games} paired matches an option (seeds {seed}..{seed + games - 1}), "
        "the heuristic bot in every seat; each cell is the edition without the option → with it, then the "
        "paired difference B − A with its 95% interval (delta method). A difference whose interval holds 0 "
        "is not shown by this many matches.",
        "",
        "| option | base, players | " + " | ".join(name for _, name, _ in METRICS) + " |",
        "|---|---|" + "---|" * len(METRICS),
    ]


def rows(options: list[str], games: int, seed: int, workers: int) -> list[str]:
    """One table row an option: its base, players, and each metric's cell."""
    lines: list[str] = []
    for option in options:
        base, players = BASE.get(option, "winning-moves"), PLAYERS.get(option, 4)
        also = WITH.get(option, ())
        where = " + ".join((base, *also))
        try:
            cmp = run_compare(
                base,
                options_a=list(also),
                options_b=[*also, option],
                players=players,
                games=games,
                seed=seed,
                robust_bots=[],
                skill_games=0,
                charts=False,
                workers=workers,
            )
        except Exception as e:  # an option that cannot be measured this way is said, not skipped silently
            lines.append(
                f"| `{option}` | {where}, {players} | "
                + " | ".join(["not measured: " + str(e).splitlines()[0]] * len(METRICS))
                + " |"
            )
            continue
        metrics = cmp.document()["metrics"]
        cells = [_cell(metrics[key], digits, 100.0 if key in PERCENT else 1.0) for key, _, digits in METRICS]
        lines.append(f"| `{option}` | {where}, {players} | " + " | ".join(cells) + " |")
        print(lines[-1], file=sys.stderr)
    return lines


def splice(page: str, new_rows: list[str], note: str) -> str:
    """``page`` with the marked table's rows of the options in ``new_rows`` replaced (a new option's row put
    in its alphabetical place) and ``note`` added after the table, inside the markers."""
    pattern = re.compile(re.escape(START) + "\n(.*?)" + re.escape(END), re.S)
    found = pattern.search(page)
    if not found:
        sys.exit(f"no {START} ... {END} markers to replace")
    lines = found.group(1).rstrip("\n").split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("|---"))
    last = max(i for i, line in enumerate(lines) if line.startswith("| `"))
    table_rows = {line.split("`")[1]: line for line in lines[first + 1 : last + 1]}
    table_rows.update({line.split("`")[1]: line for line in new_rows})
    body = [*lines[: first + 1], *(table_rows[k] for k in sorted(table_rows)), *lines[last + 1 :], "", note]
    return page[: found.start()] + START + "\n" + "\n".join(body) + "\n" + END + page[found.end() :]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--write", type=Path, help="the page whose marked part the table replaces")
    ap.add_argument(
        "--only",
        action="append",
        metavar="OPTION",
        help="measure only this option (repeatable); with --write only its row is replaced and a note says so",
    )
    args = ap.parse_args()
    if args.only:
        new_rows = rows(args.only, args.games, args.seed, args.workers)
        if args.write is None:
            print("\n".join(new_rows))
            return
        note = (
            f"Re-measured {time.strftime('%Y-%m-%d')} by `python benchmarks/bench_options.py --games {args.games} "
            f"--seed {args.seed} " + " ".join(f"--only {o}" for o in args.only) + f"` ({args.games} paired matches "
            f"an option, seeds {args.seed}..{args.seed + args.games - 1}): the rows of "
            + ", ".join(f"`{o}`" for o in args.only)
            + "."
        )
        args.write.write_text(splice(args.write.read_text(encoding="utf-8"), new_rows, note), encoding="utf-8")
        return
    text = table(args.games, args.seed, args.workers)
    if args.write is None:
        print(text)
        return
    page = args.write.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(page):
        sys.exit(f"{args.write}: no {START} ... {END} markers to replace")
    args.write.write_text(pattern.sub(lambda _: f"{START}\n{text}{END}", page), encoding="utf-8")


if __name__ == "__main__":
    main()
