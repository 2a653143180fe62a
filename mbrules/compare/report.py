"""The comparison document (``--json``), its HTML page, and the files of ``--out DIR``."""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

from .metrics import distributions
from ..matches.intervals import FAMILY_ALPHA

METHODS = (
    "Intervals are 95%. A share of matches: Wilson score interval. Every other figure is a ratio of sums "
    "over matches (the match is the unit, its hands are not independent): normal interval with the "
    "delta-method standard error, cut to what the figure can be (at least 0; at most 1 for a share). The difference B - A is paired by seed (both arms play the same "
    f"seeds): normal interval on the per-pair linearised differences. A difference is flagged when Holm's "
    f"step-down procedure rejects 'no difference' at a family-wise error rate of {FAMILY_ALPHA:.0%} over "
    "all the metrics tested; the intervals themselves are not adjusted."
)


def _round(v, digits=6):
    if v is None:
        return None
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return None
        return round(v, digits)
    return v


def document(settings: dict, rows: list[dict], seconds: dict, interrupted: bool) -> dict:
    """The ``--json`` document: settings, method, and every metric with ``a``, ``b``, ``diff``, ``ci95``."""
    metrics = {}
    for r in rows:
        metrics[r["key"]] = {
            "label": r["label"],
            "a": _round(r["a"]), "a_ci95": [_round(x) for x in r["a_ci95"]] if r["a_ci95"] else None,
            "b": _round(r["b"]), "b_ci95": [_round(x) for x in r["b_ci95"]] if r["b_ci95"] else None,
            "diff": _round(r["diff"]), "ci95": [_round(x) for x in r["ci95"]] if r["ci95"] else None,
            "method": r["method"], "n_a": r["n_a"], "n_b": r["n_b"],
            "p": _round(r["p"]), "p_holm": _round(r["p_holm"]), "flagged": r["flagged"],
            "excludes_zero": r["excludes_zero"],
        }
    return {
        "settings": settings,
        "method": METHODS,
        "family_alpha": FAMILY_ALPHA,
        "flagged": [r["key"] for r in rows if r["flagged"]],
        "metrics": metrics,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "interrupted": interrupted,
    }


def fmt(v, key: str = "") -> str:
    """A figure as printed: shares as percentages, small ratios with 3 decimals, points whole."""
    if v is None:
        return "–"
    if key.endswith("_share"):
        return f"{100 * v:.1f}%"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3f}"


def fmt_ci(ci, key: str = "") -> str:
    if not ci:
        return ""
    return f"[{fmt(ci[0], key)}, {fmt(ci[1], key)}]"


def fmt_diff(v, key: str = "") -> str:
    if v is None:
        return "–"
    s = fmt(v, key)
    if key.endswith("_share"):
        s = s[:-1] + " pt"
    return s if s.startswith("-") else "+" + s


def fmt_diff_ci(ci, key: str = "") -> str:
    if not ci:
        return ""
    return f"[{fmt_diff(ci[0], key)}, {fmt_diff(ci[1], key)}]"


def _prefix_ids(svg: str, prefix: str) -> str:
    """Give every id of one inline SVG a prefix (and every reference to it): two charts on one page
    would otherwise share ids such as ``figure_1`` and a marker of one could be drawn in the other."""
    import re

    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r'(xlink:href|href)="#([^"]+)"', lambda m: f'{m.group(1)}="#{prefix}{m.group(2)}"', svg)
    return re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)


def html_page(doc: dict, charts: dict[str, str] | None, title: str) -> str:
    """One self-contained page (no network, no other file): the settings, the charts (inline SVG) and the table."""
    e = html.escape
    s = doc["settings"]
    rows = []
    for key, m in doc["metrics"].items():
        cls = ' class="flag"' if m["flagged"] else ""
        p_holm = "" if m["p_holm"] is None else f"{m['p_holm']:.3g}"
        rows.append(
            f"<tr{cls}><td><code>{e(key)}</code><br><small>{e(m['label'])}</small></td>"
            f"<td>{e(fmt(m['a'], key))}<br><small>{e(fmt_ci(m['a_ci95'], key))}</small></td>"
            f"<td>{e(fmt(m['b'], key))}<br><small>{e(fmt_ci(m['b_ci95'], key))}</small></td>"
            f"<td>{e(fmt_diff(m['diff'], key))}<br><small>{e(fmt_diff_ci(m['ci95'], key))}</small></td>"
            f"<td>{'yes' if m['flagged'] else ''}</td>"
            f"<td>{p_holm}</td></tr>"
        )
    charts_html = ""
    if charts:
        for k, (name, svg) in enumerate(charts.items()):
            start = svg.find("<svg")
            svg = _prefix_ids(svg[start:] if start >= 0 else svg, f"c{k}-")
            charts_html += f'<figure>{svg}<figcaption>{e(name)}</figcaption></figure>\n'
    else:
        charts_html = "<p>(charts not drawn: matplotlib was not installed or --no-charts was given)</p>"
    settings_html = "".join(f"<tr><th>{e(str(k))}</th><td>{e(json.dumps(v, ensure_ascii=False))}</td></tr>"
                            for k, v in s.items())
    flagged = ", ".join(doc["flagged"]) or "none"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; max-width: 1300px; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; vertical-align: top; }}
td:nth-child(n+2) {{ text-align: right; }}
tr.flag td {{ background: #fdecea; }}
small {{ color: #666; }}
figure {{ margin: 1.5em 0; }} figure svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>{e(title)}</h1>
<p><strong>Flagged differences:</strong> {e(flagged)}.</p>
<p>{e(doc['method'])}</p>
{charts_html}
<h2>Metrics</h2>
<table><tr><th>metric</th><th>A [95%]</th><th>B [95%]</th><th>B − A [95%]</th><th>flagged</th><th>p (Holm)</th></tr>
{''.join(rows)}
</table>
<h2>Settings</h2>
<table>{settings_html}</table>
</body></html>
"""


def out_files(doc: dict, arms, rows, names, charts_wanted: bool, title: str) -> dict[str, str | bytes]:
    """Every file of ``--out DIR``, by name: the JSON document, the HTML report, charts (PNG and SVG),
    the per-match JSONL and the per-match and per-hand CSV."""
    from . import export

    a, b = arms
    files: dict[str, str | bytes] = {}
    svgs: dict[str, str] | None = None
    if charts_wanted:
        from . import charts

        svgs = {}
        png, svg = charts.distributions_chart(distributions(a.records), distributions(b.records), "A", "B")
        files["distributions.png"], files["distributions.svg"] = png, svg
        svgs["Distributions: A filled, B outlined (shares of hands or matches)"] = svg
        png, svg = charts.differences_chart(rows, "A", "B")
        files["differences.png"], files["differences.svg"] = png, svg
        svgs["Differences B − A with 95% intervals, as % of A"] = svg
    files["compare.json"] = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

    def items():
        for arm in (a, b):
            for i, r in enumerate(arm.records):
                yield arm.label, i, "main", r
            for i, r in enumerate(arm.skill_records):
                yield arm.label, i, "skill", r

    files["matches.jsonl"] = export.jsonl(
        {**export.match_row(r, names, arm, i), "kind": kind} for arm, i, kind, r in items())
    files["matches.csv"] = export.matches_csv(items(), names)
    files["hands.csv"] = export.hands_csv(items(), names)
    files["index.html"] = html_page(doc, svgs, title)
    return files
