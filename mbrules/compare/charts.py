"""Charts of a comparison, drawn with matplotlib (the optional ``plots`` extra).

Each chart is rendered to PNG bytes and SVG text; nothing here writes a file (the caller writes them
whole with :mod:`mbrules.safe_output`). SVG output is made reproducible (fixed hash salt, no date).
"""

from __future__ import annotations

import io
from collections import Counter
from typing import TYPE_CHECKING, Any

from .._paths import install_hint

if TYPE_CHECKING:
    from .metrics import Distribution, MetricRow

INSTALL_HINT = f"charts need matplotlib: {install_hint('plots')} (or give --no-charts)"

COLOR_A = "#1f77b4"
COLOR_B = "#d62728"
COLOR_UNADJ = "#b8a07a"
COLOR_UP = "#1a7f37"  # a flagged difference B > A
COLOR_DOWN = "#b3261e"  # a flagged difference B < A


class ChartsUnavailable(RuntimeError):
    pass


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ChartsUnavailable(INSTALL_HINT) from None
    matplotlib.use("Agg", force=True)
    matplotlib.rcParams["svg.hashsalt"] = "mbrules"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in the SVG
    import matplotlib.pyplot as plt

    return plt


def available() -> bool:
    try:
        pyplot()
    except ChartsUnavailable:
        return False
    return True


def svg_of(fig: Any) -> tuple[bytes, str]:
    plt = pyplot()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=110, metadata={"Software": None})
    svg = io.StringIO()
    fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return png.getvalue(), svg.getvalue()


def _hist(
    ax: Any, a: Counter[int], b: Counter[int], label_a: str, label_b: str, title: str, xlabel: str, discrete: bool
) -> None:
    """``a`` and ``b`` count each value (a Counter): the histograms are drawn from the counts."""
    import math

    vals = sorted(set(a) | set(b))
    if not vals:
        ax.set_title(title + " (no data)")
        return
    lo, hi = min(vals), max(vals)
    if discrete and hi - lo <= 60:
        bins = [x - 0.5 for x in range(lo, hi + 2)]
    else:
        # bins a whole number of the values' common step wide (points come in 25s): no aliasing
        step = 0
        for v in vals:
            step = math.gcd(step, int(v) - int(lo))
        step = max(1, step)
        total = sum(a.values()) + sum(b.values())
        k = max(10, min(50, int(math.sqrt(total))))
        width = step * max(1, math.ceil((hi - lo) / k / step))
        start = lo - width / 2
        bins = [start + i * width for i in range(int((hi - start) // width) + 2)]
    for counts, label, style in (
        (a, label_a, dict(histtype="stepfilled", alpha=0.35, color=COLOR_A)),
        (b, label_b, dict(histtype="step", linewidth=1.8, color=COLOR_B)),
    ):
        n = sum(counts.values())
        if not n:
            continue
        xs = sorted(counts)
        mean = sum(x * counts[x] for x in xs) / n
        ax.hist(xs, bins=bins, weights=[counts[x] / n for x in xs], label=f"{label} (mean {mean:.1f}, n={n})", **style)
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.legend(fontsize=8, loc="upper right")


def distributions_chart(dist_a: Distribution, dist_b: Distribution, label_a: str, label_b: str) -> tuple[bytes, str]:
    """Three histograms, A filled and B outlined, each normalised to shares: hand length in turns,
    points per hand and side, match length in hands."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), layout="constrained")
    _hist(
        axes[0],
        dist_a["turns_per_hand"],
        dist_b["turns_per_hand"],
        label_a,
        label_b,
        "Hand length",
        "turns per hand (cards played or discarded)",
        discrete=False,
    )
    _hist(
        axes[1],
        dist_a["points_per_hand"],
        dist_b["points_per_hand"],
        label_a,
        label_b,
        "Points per hand and side",
        "points",
        discrete=False,
    )
    _hist(
        axes[2],
        dist_a["hands_per_match"],
        dist_b["hands_per_match"],
        label_a,
        label_b,
        "Match length",
        "hands per match",
        discrete=True,
    )
    return svg_of(fig)


def differences_chart(rows: list[MetricRow], label_a: str, label_b: str) -> tuple[bytes, str]:
    """Each metric's difference B − A as a percentage of A's value, with its 95% interval (scaled the
    same way); flagged differences (Holm, family-wise 5%) in colour, the others grey."""
    plt = pyplot()
    from .figures import fmt_diff, fmt_diff_ci, known, known_ci

    measured = [r for r in rows if r["diff"] is not None and r["ci95"] is not None and r["a"]]
    up_down = {True: COLOR_UP, False: COLOR_DOWN}
    # a figure near 0 in A (draws, say) has no meaningful relative change: its interval would span
    # hundreds of percent and squash the rest; the table still has it
    shown = [r for r in measured if (known_ci(r["ci95"])[1] - known_ci(r["ci95"])[0]) / 2 <= abs(known(r["a"]))]
    left_out = [(r.get("name") or r["key"]) for r in measured if r not in shown]
    height = max(2.5, 0.34 * len(shown) + 1.6)
    fig, ax = plt.subplots(figsize=(11, height), layout="constrained")
    ys = list(range(len(shown)))[::-1]
    reach = 1.0
    for y, r in zip(ys, shown):
        scale = 100 / abs(known(r["a"]))
        d = known(r["diff"]) * scale
        lo, hi = (x * scale for x in known_ci(r["ci95"]))
        reach = max(reach, abs(lo), abs(hi))
        color = up_down[d > 0] if r["flagged"] else COLOR_UNADJ if r.get("excludes_zero") else "#888888"
        ax.plot([lo, hi], [y, y], color=color, linewidth=2.2, solid_capstyle="butt")
        ax.plot([lo, lo], [y - 0.18, y + 0.18], color=color, linewidth=1.2)
        ax.plot([hi, hi], [y - 0.18, y + 0.18], color=color, linewidth=1.2)
        ax.plot([d], [y], "o", color=color, markersize=5)
        ax.annotate(
            f"{fmt_diff(r['diff'], r['key'])}  {fmt_diff_ci(r['ci95'], r['key'])}",
            xy=(1.01, y),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize=7.5,
            color=color,
        )
    ax.set_xlim(-reach * 1.08, reach * 1.08)
    ax.set_ylim(-0.8, len(shown) - 0.2)
    ax.axvline(0, color="black", linewidth=0.8)
    from matplotlib.lines import Line2D

    ax.legend(
        handles=[
            Line2D([], [], color=COLOR_UP, marker="o", label="flagged up (Holm, family-wise 5%)"),
            Line2D([], [], color=COLOR_DOWN, marker="o", label="flagged down"),
            Line2D([], [], color=COLOR_UNADJ, marker="o", label="interval excludes 0, not after Holm"),
            Line2D([], [], color="#888888", marker="o", label="no difference shown"),
        ],
        fontsize=8,
        loc="lower right",
    )
    ax.set_yticks(ys)
    ax.set_yticklabels([r.get("name") or r["key"] for r in shown], fontsize=8)
    ax.set_xlabel(
        f"difference {label_b} − {label_a}, % of {label_a}'s value (95% interval); "
        "right: the difference in the metric's own unit"
    )
    title = f"What the variant changes: {label_b} − {label_a}"
    if left_out:
        title += "\n(not drawn, A near 0: " + ", ".join(left_out) + "; see the table)"
    ax.set_title(title, fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    return svg_of(fig)
