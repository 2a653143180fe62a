"""How compare prints a figure: the one place that turns numbers into the text of the terminal table, the
page, the charts' labels and the headline ("–" for a figure that does not apply, shares as percentages,
differences signed, p-values as ``<0.001``). A leaf of the compare package, so that the report, the charts
and the headline can all use it without importing one another."""

from __future__ import annotations

import math
from typing import Any, Sequence


def round_figure(v: Any, digits: int = 6) -> Any:
    """A figure as JSON holds it: a float rounded to ``digits``, NaN and infinities as None, anything else as it is."""
    if v is None:
        return None
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        return round(v, digits)
    return v


def known(v: float | None) -> float:
    """A figure a measured row has (a flagged difference's, a charted one's): never None there."""
    assert v is not None, "a measured difference has its figures"
    return v


def known_ci(ci: Sequence[float] | None) -> tuple[float, float]:
    """The 95% interval a measured difference has."""
    assert ci is not None, "a measured difference has its interval"
    return ci[0], ci[1]


def fmt(v: float | None, key: str = "") -> str:
    """A figure as printed: shares as percentages, small ratios with 3 decimals, points whole."""
    if v is None:
        return "–"
    if key.endswith("_share"):
        return f"{100 * v:.1f}%"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def fmt_ci(ci: Sequence[float] | None, key: str = "") -> str:
    if not ci:
        return ""
    return f"[{fmt(ci[0], key)}, {fmt(ci[1], key)}]"


def fmt_diff(v: float | None, key: str = "") -> str:
    if v is None:
        return "–"
    s = fmt(v, key)
    if key.endswith("_share"):
        s = s[:-1] + " pt"
    return s if s.startswith("-") else "+" + s


def fmt_diff_ci(ci: Sequence[float] | None, key: str = "") -> str:
    if not ci:
        return ""
    return f"[{fmt_diff(ci[0], key)}, {fmt_diff(ci[1], key)}]"


def fmt_p(p: float | None) -> str:
    """A p-value as printed: ``<0.001`` below a thousandth, else three significant digits; "–" if none."""
    if p is None:
        return "–"
    if p < 0.001:
        return "<0.001"
    return f"{p:.3g}"


def page_top(doctype: str, title: str, style: str, sub: str, headline: Sequence[str]) -> str:
    """The top of a report page (compare's and sweep's ``index.html``): the head with the page's own CSS,
    the title, the line under it and the headline's sentences."""
    from html import escape as e

    items = "".join(f"<li>{e(x)}</li>" for x in headline)
    return f"""{doctype}
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
{style}</style></head><body>
<h1>{e(title)}</h1>
<p class="sub">{e(sub)}</p>
<ul class="headline">{items}</ul>
"""
