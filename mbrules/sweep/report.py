"""A sweep's outputs: the ``--json`` document (``points``: one per value, each with its metrics and
intervals), the CSV, the response chart (PNG and SVG) and ``index.html`` (the headline and the curve
first). The folder is written whole, as compare's (:mod:`mbrules.safe_output`)."""

from __future__ import annotations

import csv
import html
import io
import os
from typing import TYPE_CHECKING, Any, Sequence

from ..compare.figures import round_figure, fmt, fmt_ci, fmt_diff, fmt_diff_ci, page_top
from .values import fmt_value, numeric

if TYPE_CHECKING:
    from .run import Sweep

CHART_FILES = ("response.png", "response.svg")
DATA_FILES = ("sweep.json", "points.csv", "index.html")


def report_names(charts: bool) -> list[str]:
    return list(DATA_FILES) + (list(CHART_FILES) if charts else [])


def _r(v: Any) -> Any:
    if isinstance(v, list):
        return [_r(x) for x in v]
    if isinstance(v, dict):
        return {k: _r(x) for k, x in v.items()}
    return round_figure(v)


def document(sw: Sweep) -> dict[str, Any]:
    return {
        "command": "sweep",
        "settings": sw.settings,
        "headline": sw.headline,
        "summary": sw.summary,
        "interrupted": sw.interrupted,
        "matches_per_value": sw.seeds_done,
        "points": [_r(p) for p in sw.points],
        "trend": [_r(t) for t in sw.trend],
        "target": _r(sw.target) if sw.target else None,
        "seconds": {k: round(v, 3) for k, v in sw.seconds.items()},
    }


def points_csv(doc: dict[str, Any]) -> str:
    """One row a value and metric: the value(s) set, the metric, its estimate and 95% interval, the
    difference from the value before (paired) and its interval."""
    buf = io.StringIO()
    paths = [s["path"] for s in doc["settings"]["sets"]]
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [*paths, "metric", "value", "ci95_low", "ci95_high", "n", "diff_prev", "diff_prev_low", "diff_prev_high"]
    )
    for p in doc["points"]:
        for key, m in p["metrics"].items():
            ci = m["ci95"] or [None, None]
            dci = m.get("diff_prev_ci95") or [None, None]
            w.writerow(
                [
                    *(fmt_value(p["values"][path]) for path in paths),
                    key,
                    _cell(m["value"]),
                    _cell(ci[0]),
                    _cell(ci[1]),
                    m["n"],
                    _cell(m.get("diff_prev")),
                    _cell(dci[0]),
                    _cell(dci[1]),
                ]
            )
    return buf.getvalue()


def _cell(v: object) -> object:
    return "" if v is None else v


def _metric_names(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, name) of every metric the points hold, in their order (the registry's, then a ruleset's own lines)."""
    points = doc["points"]
    return [(k, m["name"]) for k, m in points[0]["metrics"].items()] if points else []


def response_chart(doc: dict[str, Any]) -> tuple[bytes, str]:
    """One panel a curve metric: its value at each swept value with the 95% interval; the target as a
    dashed line."""
    from ..compare.charts import pyplot, svg_of

    plt = pyplot()
    keys = doc["settings"]["metrics"]
    pts = doc["points"]
    xs_raw = [p["value"] for p in pts]
    num = numeric(xs_raw)
    xs = xs_raw if num else list(range(len(pts)))
    fig, axes = plt.subplots(1, len(keys), figsize=(4.2 * len(keys), 3.1), squeeze=False)
    for ax, key in zip(axes[0], keys):
        ms = [p["metrics"][key] for p in pts]
        share = key.endswith("_share")
        scale = 100 if share else 1
        ys, lo, hi, xx = [], [], [], []
        for x, m in zip(xs, ms):
            if m["value"] is None:
                continue
            ci = m["ci95"] or [m["value"], m["value"]]
            xx.append(x)
            ys.append(m["value"] * scale)
            lo.append((m["value"] - ci[0]) * scale)
            hi.append((ci[1] - m["value"]) * scale)
        ax.errorbar(xx, ys, yerr=[lo, hi], fmt="o-", color="#1f77b4", ecolor="#1f77b4", capsize=4, lw=1.6)
        t = doc.get("target")
        if t and t["metric"] == key:
            ax.axhline(t["value"] * scale, ls="--", color="#d62728", lw=1.2, label=f"target {fmt(t['value'], key)}")
            ax.legend(loc="best", fontsize=8)
        ax.set_title(ms[0]["name"] + (" (%)" if share else ""), fontsize=10)
        ax.set_xlabel(doc["settings"]["sets"][0]["path"], fontsize=9)
        if not num:
            ax.set_xticks(xs)
            ax.set_xticklabels([fmt_value(v) for v in xs_raw], fontsize=8)
        ax.grid(alpha=0.3)
    fig.suptitle(
        f"Response with 95% intervals ({doc['matches_per_value']} matches per value, the same seeds)", fontsize=10
    )
    fig.tight_layout()
    return svg_of(fig)


def html_page(doc: dict[str, Any], svg: str | None) -> str:
    """One self-contained page: the headline and the trends first, the curve and its table, the slopes,
    the paired steps from one value to the next, then every metric at every value."""
    e = html.escape
    s = doc["settings"]
    sets = " and ".join(f"{x['words']} ({x['path']})" if x.get("words") else x["path"] for x in s["sets"])
    title = f"Sweep of {sets} in {s['ruleset']}" + "".join(f" + {o}" for o in s["options"])
    heads = "".join(f"<li>{e(x['text'])}</li>" for x in doc["summary"] if x.get("kind") in ("target", "curve"))
    others = "".join(f"<li>{e(x['text'])}</li>" for x in doc["summary"] if x.get("kind") == "other")
    others = f"<h2>Other trends</h2><ul>{others}</ul>" if others else ""
    keys = s["metrics"]
    value_head, curve_head, curve_rows = _curve_table(doc)
    all_head = "".join(f"<th>{e(p['label'])}</th>" for p in doc["points"])
    trend_rows = "".join(_trend_row(t) for t in doc["trend"])
    chart = f'<figure class="chart">{svg}</figure>' if svg else ""
    top = page_top("<!doctype html>", title, _STYLE, _subtitle(doc), doc.get("headline", []))
    return (
        top
        + f"""<h2>The trends</h2>
<ul class="head">{heads}</ul>
{chart}
<table><thead><tr><th>{e(value_head)}</th>{curve_head}</tr></thead><tbody>{curve_rows}</tbody></table>
{others}
<h2>Trend over {e(s['sets'][0]['path'])}</h2>
<p>The least-squares slope of each metric over the values (a unit of {e(s['sets'][0]['path'])}), paired by seed
(the delta method, the seed as the unit); flagged by Holm's correction over the metrics.</p>
<table><thead><tr><th>metric</th><th>slope</th><th>95%</th><th>p (Holm)</th><th></th></tr></thead>
<tbody>{trend_rows}</tbody></table>
<h2>From one value to the next (paired)</h2>
<table><thead><tr><th>value</th>{''.join(f"<th>{e(doc['points'][0]['metrics'][k]['name'])}</th>" for k in keys)}</tr></thead>
<tbody>{_diff_rows(doc)}</tbody></table>
<h2>Every metric</h2>
<table><thead><tr><th>metric</th>{all_head}</tr></thead><tbody>{_every_metric_rows(doc)}</tbody></table>
<p><small>Shares of matches: Wilson intervals; other figures: delta method, the match as the unit. Seed {s['seed']};
files: sweep.json (points), points.csv{', response.png, response.svg' if svg else ''}.</small></p>
</body></html>
"""
    )


_STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}
h1{font-size:1.4em;margin-bottom:.2em} .sub{color:#555;margin-top:0} h2{font-size:1.15em;margin:1.2em 0 .4em}
ul.head li{margin:.3em 0;font-size:1.05em} ul.headline{font-size:1.25em;line-height:1.45;padding-left:1.2em} figure.chart{margin:.5em 0}
table{border-collapse:collapse;margin:.8em 0} th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:right}
th:first-child{text-align:left} small{color:#666} figure.chart svg{max-width:100%;height:auto}
"""


def _subtitle(doc: dict[str, Any]) -> str:
    """The line under the title: the ruleset, players, matches per value, bots (and whether the run was stopped)."""
    s = doc["settings"]
    sub = (
        f"{s['ruleset_name']}; {s['players']} players; {doc['matches_per_value']} matches per value, every value dealt the same "
        f"seeds; bots {', '.join(s['bots'])}"
    )
    if doc["interrupted"]:
        sub += " — interrupted: the figures are those of the seeds every value finished"
    return sub


def _curve_table(doc: dict[str, Any]) -> tuple[str, str, str]:
    """The curve metrics' table: the value column's head, the metrics' heads, and a row a value (the values
    that hold the target marked)."""
    e = html.escape
    s = doc["settings"]
    keys = s["metrics"]
    curve_head = "".join(f"<th>{e(doc['points'][0]['metrics'][k]['name'])}</th><th>95%</th>" for k in keys)
    single = len(s["sets"]) == 1
    value_head = s["sets"][0]["path"] if single else "values"
    held = set(doc["target"]["held_by"]) if doc.get("target") else set()
    curve_rows = "".join(
        f"<tr><th>{e(fmt_value(p['value']) if single else p['label'])}{' ◀ target' if p['label'] in held else ''}</th>"
        + "".join(
            f"<td>{e(fmt(p['metrics'][k]['value'], k))}</td><td>{e(fmt_ci(p['metrics'][k]['ci95'], k))}</td>"
            for k in keys
        )
        + "</tr>"
        for p in doc["points"]
    )
    return value_head, curve_head, curve_rows


def _every_metric_rows(doc: dict[str, Any]) -> str:
    """A row a metric, a cell a value: its estimate and 95% interval."""
    e = html.escape
    return "".join(
        f"<tr><th>{e(name)}</th>"
        + "".join(
            f"<td>{e(fmt(p['metrics'][key]['value'], key))}<br><small>{e(fmt_ci(p['metrics'][key]['ci95'], key))}"
            f"</small></td>"
            for p in doc["points"]
        )
        + "</tr>"
        for key, name in _metric_names(doc)
    )


def _diff_rows(doc: dict[str, Any]) -> str:
    """A row a value after the first: each curve metric's paired difference from the value before."""
    e = html.escape
    keys = doc["settings"]["metrics"]
    return "".join(
        f"<tr><th>{e(p['label'])}</th>"
        + "".join(
            f"<td>{e(fmt_diff(p['metrics'][k].get('diff_prev'), k))}<br><small>"
            f"{e(fmt_diff_ci(p['metrics'][k].get('diff_prev_ci95'), k))}</small></td>"
            for k in keys
        )
        + "</tr>"
        for p in doc["points"][1:]
    )


def _trend_row(t: dict[str, Any]) -> str:
    e = html.escape
    ci = "" if not t["ci95"] else f"[{t['ci95'][0]:+.4g}, {t['ci95'][1]:+.4g}]"
    p = "" if t["p_holm"] is None else f"{t['p_holm']:.2g}"
    slope = f"{t['slope']:+.4g}"
    mark = "trend" if t["flagged"] else ""
    return f"<tr><th>{e(t['name'])}</th><td>{slope}</td><td>{ci}</td><td>{p}</td><td>{mark}</td></tr>"


def report_files(sw: Sweep, charts: bool) -> dict[str, str | bytes]:
    import json

    doc = document(sw)
    files: dict[str, str | bytes] = {
        "sweep.json": json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
        "points.csv": points_csv(doc),
    }
    svg = None
    if charts:
        png, svg = response_chart(doc)
        files["response.png"], files["response.svg"] = png, svg
        svg = svg[svg.find("<svg") :]
    files["index.html"] = html_page(doc, svg)
    return files


def check_out(out: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]] = (), charts: bool = True) -> None:
    """Refuse (OutputPathError) the report folder, or a file it will hold, before any match; refuse
    (ChartsUnavailable) charts without matplotlib."""
    from ..safe_output import check_output_folder

    check_output_folder(out, report_names(True), inputs, "--out", marker="sweep.json")
    if charts:
        from ..compare import charts as charts_mod

        if not charts_mod.available():
            raise charts_mod.ChartsUnavailable(charts_mod.INSTALL_HINT)


def write_report(
    sw: Sweep, out: str | os.PathLike[str], charts: bool, inputs: Sequence[str | os.PathLike[str]] = ()
) -> None:
    """The folder whole, the old report or the new one and never a mix
    (:func:`mbrules.safe_output.write_output_folder`); the charts of an earlier report are removed under
    ``charts=False``, the user's files kept."""
    from ..safe_output import write_output_folder

    write_output_folder(
        out, report_files(sw, charts), owned=report_names(True), inputs=inputs, flag="--out", marker="sweep.json"
    )
