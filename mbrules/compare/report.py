"""The comparison document (``--json``), its HTML page, and the files of ``--out DIR``.

The report is made as a dict ``{file name: text, bytes or writer}`` (a writer is a callable that
writes the file's bytes to a binary file object: the per-match records streamed to spill files while
the matches ran are copied that way, never held in memory) and written whole by :func:`write_report`."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Sequence, cast

from ..matches.intervals import FAMILY_ALPHA
from .figures import round_figure, fmt, fmt_ci, fmt_diff, fmt_diff_ci, fmt_p, page_top
from ..text import plural

if TYPE_CHECKING:
    from ..matches.records import MatchRecord
    from .metrics import FocusRow, MetricRow
    from .run import Comparison

METHODS = (
    "Intervals are 95%. A share of matches: Wilson score interval. Every other figure is a ratio of sums "
    "over matches (the match is the unit, its hands are not independent): normal interval with the "
    "delta-method standard error, cut to what the figure can be (at least 0; at most 1 for a share). The difference B - A is paired by seed (both arms play the same "
    f"seeds): normal interval on the per-pair linearised differences. A difference is flagged when Holm's "
    f"step-down procedure rejects 'no difference' at a family-wise error rate of {FAMILY_ALPHA:.0%} over "
    "all the metrics tested; the intervals themselves are not adjusted."
)


def _jl(v: Sequence[float] | None) -> list[float | None] | None:
    return [round_figure(x) for x in v] if v else None


def _rounded_arms(r: MetricRow | FocusRow) -> dict[str, Any]:
    """Both arms' figures and their difference, each with its interval, rounded as the document writes them
    (a metric row and a ladder or restriction row alike; a row's keys keep their order when merged in)."""
    return {
        "a": round_figure(r["a"]),
        "a_ci95": _jl(r["a_ci95"]),
        "b": round_figure(r["b"]),
        "b_ci95": _jl(r["b_ci95"]),
        "diff": round_figure(r["diff"]),
        "ci95": _jl(r["ci95"]),
    }


def _doc_row(key: str, m: dict[str, Any]) -> MetricRow:
    """A metric of the ``--json`` document as the row it was written from (the keys the headline reads)."""
    return cast("MetricRow", {**m, "key": key})


def document(cmp: Comparison) -> dict[str, Any]:
    """The ``--json`` document: settings, the rule change, ``summary`` (the headline), every metric with
    ``a``, ``b``, ``diff``, ``ci95`` (and ``robust`` on each flagged one), the ladder and the restricted play."""
    metrics = {}
    for r in cmp.rows:
        m = {
            "name": r["name"],
            "label": r["label"],
            "scope": r["scope"],
            "compared": r["compared"],
            **_rounded_arms(r),
            "method": r["method"],
            "n_a": r["n_a"],
            "n_b": r["n_b"],
            "pairs": r["pairs"],
            "p": round_figure(r["p"]) if r["compared"] else None,
            "p_holm": round_figure(r["p_holm"]),
            "flagged": r["flagged"],
            "excludes_zero": r["excludes_zero"],
        }
        if r["flagged"]:
            m["robust"] = r.get("robust")
            m["robust_verdict"] = r.get("robust_verdict")
            m["robust_checks"] = [
                {**c, "diff": round_figure(c["diff"]), "ci95": _jl(c["ci95"])} for c in r.get("robust_checks", [])
            ]
        metrics[r["key"]] = m

    def focus(f: FocusRow) -> dict[str, Any]:
        return {**f, **_rounded_arms(f), "se": round_figure(f["se"]), "p_holm": round_figure(f["p_holm"])}

    return {
        "settings": cmp.settings,
        "arms": {"a": cmp.arm_names[0], "b": cmp.arm_names[1]},
        "rule_changes": cmp.rule_changes,
        "headline": cmp.headline,
        "summary": cmp.summary,
        "method": METHODS,
        "family_alpha": FAMILY_ALPHA,
        "pairs": cmp.pairs_done,
        "flagged": [r["key"] for r in cmp.rows if r["flagged"]],
        "metrics": metrics,
        "ladder": [focus(f) for f in cmp.ladder],
        "restricted": [focus(f) for f in cmp.restricted],
        "seconds": {k: round(v, 3) for k, v in cmp.seconds.items()},
        "interrupted": cmp.interrupted,
    }


def _prefix_ids(svg: str, prefix: str) -> str:
    """Give every id of one inline SVG a prefix (and every reference to it): two charts on one page
    would otherwise share ids such as ``figure_1`` and a marker of one could be drawn in the other."""
    import re

    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r'(xlink:href|href)="#([^"]+)"', lambda m: f'{m.group(1)}="#{prefix}{m.group(2)}"', svg)
    return re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)


def settings_words(doc: dict[str, Any]) -> list[str]:
    """The settings as sentences."""
    s = doc["settings"]
    arms = doc["arms"]
    lines = [
        f"A: {arms['a']}, {plural(s['a']['players'], 'player')} in {plural(s['a']['sides'], 'side')} "
        f"(ruleset {s['a']['ruleset']})",
        f"B: {arms['b']}, {plural(s['b']['players'], 'player')} in {plural(s['b']['sides'], 'side')} "
        f"(ruleset {s['b']['ruleset']})",
        f"{s['games']} paired matches asked, {doc['pairs']} played: match i of both arms is dealt from seed "
        f"({s['seed']}, i)",
        f"Main lineup: {', '.join(s['bots'])}",
    ]
    if s["robust_bots"]:
        pairs = s.get("robust_pairs") or {b: s["robust_games"] for b in s["robust_bots"]}
        lines.append(
            "Each flagged effect measured again with "
            + " and ".join(f"{b} on the first {pairs.get(b, s['robust_games']):,} pairs" for b in s["robust_bots"])
        )
    else:
        lines.append("No other lineup measured (robustness not checked)")
    if s["skill_games"]:
        from mbrules.bots import is_slow

        slow = list(dict.fromkeys(r.partition(":")[0] for r in s["ladder"] if is_slow(r)))
        lines.append(
            f"Skill ladder {' < '.join(s['ladder'])}: {s['skill_games']} matches per arm and rung"
            + (f" ({s['robust_games']} with the {' and the '.join(slow)})" if slow else "")
        )
    if s["restricted_games"]:
        lines.append(f"Restricted play: {s['restricted_games']} matches per arm and restriction")
    workers = s["workers"]
    lines.append(f"{workers} worker process{'' if workers == 1 else 'es'}; the figures are the same for any number")
    return lines


def page_title(doc: dict[str, Any]) -> str:
    """ "What hazard-on-hazard changes in <ruleset>" when B is A with options added, else "What B changes against A"."""
    s, arms = doc["settings"], doc["arms"]
    extra = s["b"]["applied_options"][len(s["a"]["applied_options"]) :]
    if (
        s["a"]["ruleset_id"] == s["b"]["ruleset_id"]
        and extra
        and s["b"]["applied_options"][: len(s["a"]["applied_options"])] == s["a"]["applied_options"]
        and s["a"]["players"] == s["b"]["players"]
    ):
        return f"What {' + '.join(extra)} changes in {arms['a']}"
    return f"What {arms['b']} changes against {arms['a']}"


def html_page(doc: dict[str, Any], charts: dict[str, str] | None) -> str:
    """One self-contained page (no network, no other file): the headline first (the rule change in
    words, then its effects as sentences), then the ladder, restricted play, charts, every metric,
    the settings in words and the method."""
    e = html.escape
    title = page_title(doc)
    changes = (
        "".join(f"<li>{e(c)}</li>" for c in doc["rule_changes"])
        or "<li>No rule differs: both arms play the same rules.</li>"
    )
    effects, quiet_html = _effects_html(doc)
    rows = _metric_rows_html(doc["metrics"])
    charts_html = _charts_html(charts)
    settings_html = "".join(f"<li>{e(x)}</li>" for x in settings_words(doc))
    top = page_top("<!DOCTYPE html>", title, _STYLE, _subtitle(doc), doc.get("headline", []))
    return (
        top
        + f"""<h2>The rule change</h2>
<ul class="rule">{changes}</ul>
<h2>What it does to play</h2>
<ul class="effects">{effects}</ul>
{quiet_html}
<h2>Skill ladder: does the variant make skill matter more?</h2>
<p>The stronger bot seated on one side, the weaker everywhere else (sides in turn): the stronger side's share of matches won.</p>
{_focus_table(doc['ladder'], 'rung') or '<p>(not played)</p>'}
<h2>Restricted play: which decisions weigh more?</h2>
<p>The heuristic on one side against itself forbidden one kind of decision everywhere else (after Jaffe et al., AIIDE 2012): the unrestricted side's share of matches won. A larger share under B: that decision weighs more under B. The ladder's and these differences are tested together with Holm's correction (family-wise 5%).</p>
{_focus_table(doc['restricted'], 'restriction') or '<p>(not played)</p>'}
{charts_html}
<h2>Every metric</h2>
<table><tr><th>metric</th><th>A [95%]</th><th>B [95%]</th><th>B − A [95%]</th><th>p (Holm)</th><th>with other bots</th></tr>
{rows}
</table>
<h2>Settings</h2>
<ul>{settings_html}</ul>
<h2>Method</h2>
<p>{e(doc['method'])} An effect "holds with every bot" when, measured again with every other lineup, its difference has the same sign and a 95% interval that excludes 0; it "depends on the bots" when a lineup's interval excludes the main run's difference without confirming it (the effect is clearly smaller, absent or reversed with those bots); it is "not confirmed" when a lineup's interval holds both 0 and the main run's difference (too few pairs to tell). The sentences at the top say "clearly" for an effect flagged and held with every bot, "probably" for one flagged but not confirmed, "not shown" for one not flagged.</p>
</body></html>
"""
    )


_STYLE = """body { font-family: system-ui, sans-serif; margin: 1.5em 2em; max-width: 1200px; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } .sub { color: #555; margin-top: 0; }
h2 { font-size: 1.15em; margin: 1.2em 0 0.4em; }
.rule li { font-size: 1.1em; }
ul.effects { list-style: none; padding-left: 0; }
ul.headline { font-size: 1.25em; line-height: 1.45; padding-left: 1.2em; margin: 0.8em 0 1em; }
ul.effects li { padding: 6px 10px; margin: 4px 0; border-left: 6px solid #bbb; background: #f6f6f6; }
ul.effects li.up { border-color: #1a7f37; background: #eaf6ec; }
ul.effects li.down { border-color: #b3261e; background: #fbeceb; }
.badge { font-size: 0.85em; padding: 1px 6px; border-radius: 8px; margin-left: 6px; white-space: nowrap; }
.badge.robust { background: #1a7f37; color: white; } .badge.fragile { background: #8a6d00; color: white; }
.badge.unchecked { background: #888; color: white; }
.quiet { color: #555; }
table { border-collapse: collapse; margin: 0.6em 0; }
td, th { border-bottom: 1px solid #ddd; padding: 4px 10px; text-align: left; vertical-align: top; }
td:nth-child(n+2) { text-align: right; }
tr.up td { background: #eaf6ec; } tr.down td { background: #fbeceb; }
small { color: #666; }
figure { margin: 1.5em 0; } figure svg { max-width: 100%; height: auto; }
"""


def _subtitle(doc: dict[str, Any]) -> str:
    """The line under the title: players, pairs played, the main lineup (and whether the run was stopped)."""
    s = doc["settings"]
    players = (
        f"{s['players']} players"
        if s["players"] == s["players_b"]
        else f"{s['players']} players (A) and {s['players_b']} (B)"
    )
    sub = f"{players}; {doc['pairs']} paired matches; main lineup {', '.join(s['bots'])}"
    if doc["interrupted"]:
        sub += " — interrupted: the figures are those of the matches both arms finished"
    return sub


def _effects_html(doc: dict[str, Any]) -> tuple[str, str]:
    """The effects on play as list items (each summary sentence, a flagged one with its badge), and the
    paragraphs of the metrics that show no difference."""
    from .headline import badge, effect_sentence, holm_sentence, no_difference, robust_words

    e = html.escape
    effects = []
    metrics = doc["metrics"]
    for item in doc["summary"]:
        m = metrics.get(item["metric"])
        if m is not None and m["flagged"]:
            cls = "up" if (m["diff"] or 0) > 0 else "down"
            row = _doc_row(item["metric"], m)
            label = badge(row)
            bcls = {"holds": "robust", "differs": "fragile"}.get(m.get("robust_verdict"), "unchecked")
            detail = robust_words(row)[len(label) :].strip()
            effects.append(
                f'<li class="{cls}">{e(effect_sentence(row))} <span class="badge {bcls}">{e(label)}</span>'
                f' <small>{e(detail)}</small></li>'
            )
        else:
            effects.append(f'<li class="none">{e(item["text"])}</li>')
    if not any(m["flagged"] for m in metrics.values()):
        effects.insert(
            0,
            '<li class="none"><strong>No effect on play shown</strong> (no metric flagged '
            'after Holm\'s correction).</li>',
        )
    doc_rows = [_doc_row(k, m) for k, m in metrics.items()]
    quiet = no_difference(doc_rows)
    quiet_html = f"<p class=quiet>No difference shown in: {e(', '.join(quiet))}.</p>" if quiet else ""
    turned = holm_sentence(doc_rows)
    if turned:
        quiet_html += f"<p class=quiet>{e(turned)}</p>"
    return "".join(effects), quiet_html


def _share(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _share_ci(ci: Sequence[float] | None) -> str:
    return "" if not ci else f"[{100 * ci[0]:.1f}%, {100 * ci[1]:.1f}%]"


def _diff_pt(f: dict[str, Any]) -> str:
    if f["diff"] is None:
        return "–"
    lo, hi = f["ci95"]
    return f"{100 * f['diff']:+.1f} pt<br><small>[{100 * lo:+.1f}, {100 * hi:+.1f}]</small>".replace("-", "−")


def _focus_table(items: list[dict[str, Any]], head: str) -> str:
    """The ladder's rungs or the restrictions: the focus side's win share in each arm and B − A ("" for none)."""
    if not items:
        return ""
    e = html.escape
    body = "".join(
        f"<tr><td>{e(f['focus'])} vs {e(f['other'])}</td><td>{f['pairs']}</td>"
        f"<td>{_share(f['a'])}<br><small>{_share_ci(f['a_ci95'])}</small></td>"
        f"<td>{_share(f['b'])}<br><small>{_share_ci(f['b_ci95'])}</small></td><td>{_diff_pt(f)}</td></tr>"
        for f in items
    )
    return f"<table><tr><th>{head}</th><th>matches per arm</th><th>A</th><th>B</th><th>B − A</th></tr>{body}</table>"


def _metric_rows_html(metrics: dict[str, dict[str, Any]]) -> str:
    """Every metric's table row: both arms, B − A (or why not), Holm's p and the other lineups' verdict."""
    from .headline import badge

    e = html.escape
    rows = []
    for key, m in metrics.items():
        if m["flagged"]:
            cls = ' class="up"' if (m["diff"] or 0) > 0 else ' class="down"'
        else:
            cls = ""
        diff_cell = (
            f"{e(fmt_diff(m['diff'], key))}<br><small>{e(fmt_diff_ci(m['ci95'], key))}</small>"
            if m["compared"]
            else "–"
            if m["a"] is None or m["b"] is None  # does not apply to an arm
            else "<small>shown per arm (seated differently)</small>"
        )
        rob = badge(_doc_row(key, m)) if m["flagged"] else ""
        rows.append(
            f"<tr{cls}><td>{e(m['name'])}<br><small><code>{e(key)}</code></small></td>"
            f"<td>{e(fmt(m['a'], key))}<br><small>{e(fmt_ci(m['a_ci95'], key))}</small></td>"
            f"<td>{e(fmt(m['b'], key))}<br><small>{e(fmt_ci(m['b_ci95'], key))}</small></td>"
            f"<td>{diff_cell}</td><td>{fmt_p(m['p_holm'])}</td><td>{e(rob)}</td></tr>"
        )
    return "".join(rows)


def _charts_html(charts: dict[str, str] | None) -> str:
    """Each chart's SVG inline, its ids made its own (or a line saying --no-charts was given)."""
    if not charts:
        return "<p>(charts not drawn: --no-charts was given)</p>"
    out = ""
    for k, (name, svg) in enumerate(charts.items()):
        start = svg.find("<svg")
        svg = _prefix_ids(svg[start:] if start >= 0 else svg, f"c{k}-")
        out += f"<figure>{svg}<figcaption>{html.escape(name)}</figcaption></figure>\n"
    return out


# -- the folder -----------------------------------------------------------------------------------
CHART_FILES = ("distributions.png", "distributions.svg", "differences.png", "differences.svg")
DATA_FILES = ("compare.json", "matches.jsonl", "matches.csv", "hands.csv", "index.html")


def report_names(charts: bool) -> list[str]:
    return list(DATA_FILES) + (list(CHART_FILES) if charts else [])


def check_out(out: str | os.PathLike[str], inputs: Sequence[str | os.PathLike[str]] = (), charts: bool = True) -> None:
    """Refuse (OutputPathError) a report folder, or any file it will hold or remove, before any match;
    refuse (ChartsUnavailable) charts without matplotlib."""
    from ..safe_output import check_output_folder

    check_output_folder(out, report_names(True), inputs, "--out", marker="compare.json")
    if charts:
        from . import charts as charts_mod

        if not charts_mod.available():
            raise charts_mod.ChartsUnavailable(charts_mod.INSTALL_HINT)


class RecordSpill:
    """The per-match records of the main phase, written to temporary files as they arrive (JSONL,
    one CSV row per match, one per hand), so that memory does not grow with the number of matches."""

    def __init__(self, sides: int):
        import csv
        import tempfile

        from mbrules.vocab import SIDE_NAMES

        self.dir = tempfile.TemporaryDirectory(prefix="mbrules-compare-")
        self.names = tuple(SIDE_NAMES[s] for s in range(sides))
        d = Path(self.dir.name)
        self._files = {
            n: open(d / n, "w", encoding="utf-8", newline="") for n in ("matches.jsonl", "matches.csv", "hands.csv")
        }
        self._mcsv = csv.writer(self._files["matches.csv"], lineterminator="\n")
        self._hcsv = csv.writer(self._files["hands.csv"], lineterminator="\n")
        from . import export

        self._mcsv.writerow(export.match_header(self.names))
        self._hcsv.writerow(export.hand_header(self.names))

    def add(self, arm: str, i: int, rec: MatchRecord, names: Sequence[str]) -> None:
        from . import export

        row = {**export.match_row(rec, names, arm, i), "kind": "main"}
        self._files["matches.jsonl"].write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._mcsv.writerow(export.match_cells(arm, i, "main", rec, names, len(self.names)))
        self._hcsv.writerows(export.hand_cells(arm, i, "main", rec, names, self.names))

    def finish(self) -> dict[str, Callable[[BinaryIO], None]]:
        """Close the files; a writer per file, copying it in blocks."""
        for f in self._files.values():
            f.close()
        d = Path(self.dir.name)

        def copier(path: Path) -> Callable[[BinaryIO], None]:
            def write(fh: BinaryIO) -> None:
                import shutil

                with open(path, "rb") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)

            return write

        return {n: copier(d / n) for n in self._files}

    def close(self) -> None:
        for f in self._files.values():
            if not f.closed:
                f.close()
        self.dir.cleanup()


def report_files(cmp: Comparison, spill: RecordSpill, charts: bool) -> dict[str, Any]:
    """Every file of the report folder, by name: text, bytes, or a writer ``(binary file) -> None``."""
    doc = cmp.document()
    files: dict[str, Any] = {}  # name -> text, bytes or a writer
    svgs: dict[str, str] | None = None
    if charts:
        from . import charts as ch

        svgs = {}
        a, b = cmp.arm_names
        png, svg = ch.distributions_chart(cmp.distributions[0], cmp.distributions[1], "A", "B")
        files["distributions.png"], files["distributions.svg"] = png, svg
        svgs[f"Distributions: A ({a}) filled, B ({b}) outlined (shares of hands or matches)"] = svg
        png, svg = ch.differences_chart(cmp.rows, "A", "B")
        files["differences.png"], files["differences.svg"] = png, svg
        svgs["Differences B − A with 95% intervals, as % of A; green: B higher, red: B lower"] = svg
    files["compare.json"] = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    files.update(spill.finish())
    files["index.html"] = html_page(doc, svgs)
    return files


def write_report(
    cmp: Comparison,
    out: str | os.PathLike[str],
    spill: RecordSpill,
    charts: bool,
    inputs: Sequence[str | os.PathLike[str]] = (),
) -> None:
    """Write the report folder whole, the old report or the new one and never a mix
    (:func:`mbrules.safe_output.write_output_folder`): the records stream from the spill's temporary
    files, the charts of an earlier report are removed under ``charts=False``, the user's files kept."""
    from ..safe_output import write_output_folder

    try:
        write_output_folder(
            out,
            report_files(cmp, spill, charts),
            owned=report_names(True),
            inputs=inputs,
            flag="--out",
            marker="compare.json",
        )
    finally:
        spill.close()
