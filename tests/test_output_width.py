"""Output fits the terminal: one width rule (cli.common.output_width) for every command."""

import io

import pytest

from mbrules.cli.common import DEFAULT_WIDTH, output_width


class _Tty(io.StringIO):
    def isatty(self):
        return True

    def fileno(self):
        raise OSError("no real terminal")


@pytest.mark.parametrize("columns, expected", [("100", 100), ("80", 80), ("12", 40), ("99999", 240)])
def test_columns_environment_sets_the_width_within_bounds(monkeypatch, columns, expected):
    """Tests and users pin the width with COLUMNS; absurd values are taken as the nearest bound."""
    monkeypatch.setenv("COLUMNS", columns)
    assert output_width(io.StringIO()) == expected


@pytest.mark.parametrize("columns", ["", "abc", "-5", "1e9"])
def test_piped_output_without_columns_is_80_wide(monkeypatch, columns):
    """Piped output (no terminal) and a COLUMNS that is not a whole number give 80, never a crash."""
    monkeypatch.setenv("COLUMNS", columns)
    assert output_width(io.StringIO()) == DEFAULT_WIDTH == 80


def test_a_terminal_whose_size_cannot_be_read_is_80_wide(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert output_width(_Tty()) == 80


# -- every command a person reads lays its text out for that width (issue 34 item 2) ---------------------
import re  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from mbrules.cli.app import app  # noqa: E402
from mbrules.text import fold  # noqa: E402

BOX = re.compile(r"[─━│┃┏┓┗┛┡┩┢┪└┘┌┐├┤┬┴┼╇╈╭╮╰╯]")


def _run(columns: int, *args: str) -> str:
    res = CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    return res.stdout


_WIDE: dict[str, str] = {}


def _wide(command: str) -> str:
    """COMMANDS[command] at 240 columns, run once a module: the test below reads it at 80 and at 60 (the
    same inputs print the same bytes: test_the_same_inputs_print_the_same_bytes_at_the_same_width)."""
    if command not in _WIDE:
        _WIDE[command] = _run(240, *COMMANDS[command])
    return _WIDE[command]


def _tokens(text: str) -> set[str]:
    return set(BOX.sub(" ", text).split())


COMMANDS = {
    "play": ("play", "--hands", "1"),
    "simulate": ("simulate", "--games", "4", "--workers", "1"),
    "ladder": ("ladder", "--bot", "random", "--bot", "heuristic", "--games", "2", "--workers", "1"),
    "show": ("show", "winning-moves", "-p", "2"),
    "show --explain": ("show", "parker-1971", "--explain"),
    "diff": ("diff", "parker-1971", "wikipedia"),
    "rulesets": ("rulesets",),
}


@pytest.mark.parametrize(
    "command,columns", [(c, w) for w in (80, 60) for c in sorted(COMMANDS) if not (c == "ladder" and w < 80)]
)  # below: a line a row (see after)
def test_output_fits_the_width_and_breaks_no_word(command, columns):
    """Every line fits COLUMNS, and no word is cut: each word shown at this width is a word of the same
    output laid out at 240 columns (a word broken in two would show its halves)."""
    narrow = _run(columns, *COMMANDS[command])
    wide = _wide(command)
    for line in narrow.splitlines():  # a word longer than the width (an address) stays whole, on a line of its own
        assert len(line) <= columns or len(line.split()) == 1 or len(line) - len(line.split()[-1]) < columns // 2, line
    assert max(len(line) for line in wide.splitlines()) > columns  # the width is really followed
    timing = re.compile(r"^[\d.,]+$")  # simulate's timings differ between two runs
    cut = {t for t in _tokens(narrow) - _tokens(wide) if not timing.match(t)}
    assert not cut, cut


def test_make_play_first_screen_at_80_columns():
    """`make play`'s first screen: the header folds between words, each hand's rule is one line of 80."""
    out = _run(80, "play", "--hands", "1")
    lines = out.splitlines()
    assert lines[1].startswith("4 players, sides A (p1, p3); B (p2, p4). Bots: ")
    assert lines[1].endswith(" ") or lines[2].split()[0] in ("heuristic,", "heuristic.", "p4", "p3")
    rule = next(line for line in lines if "Hand 1" in line)
    assert len(rule) == 80 and rule.strip("─ ") == "Hand 1"


@pytest.mark.parametrize("columns", [80, 120])
def test_the_same_inputs_print_the_same_bytes_at_the_same_width(columns):
    assert _run(columns, "play", "--hands", "2", "--seed", "5") == _run(columns, "play", "--hands", "2", "--seed", "5")


def test_another_width_changes_only_the_layout():
    """At 120 columns the same game is told: the same words in the same order outside the tables."""

    def words(text: str) -> list[str]:
        return [w for line in text.splitlines() if not BOX.search(line) for w in line.split()]

    assert words(_run(80, "play", "--hands", "1")) == words(_run(120, "play", "--hands", "1"))


def test_fold_keeps_words_whole_and_goes_on_under_its_text():
    text = "  a key = " + "word " * 30 + "/a/very/long/path/that/does/not/fit/in/forty/columns/at/all.yaml"
    out = fold(text, 40)
    lines = out.splitlines()
    assert " ".join(out.split()) == " ".join(text.split())  # the same words, in order
    assert all(line.startswith("    ") for line in lines[1:])  # under its text: indent + 2
    assert "/a/very/long/path/that/does/not/fit/in/forty/columns/at/all.yaml" in lines[-1]
    assert fold("  short", 40) == "  short" and fold(text, 40, hang=0).splitlines()[1][0] != " "


def test_a_narrow_ladder_prints_a_line_a_row_with_every_figure_whole():
    """At 60 columns the ladder's tables do not fit: each bot and each pair is one sentence folded between
    words, every figure of the report whole in it (never a number cut in a cell)."""
    pytest.importorskip("openskill", reason="the bots extra (pip install 'mbrules[bots]') is not installed")
    import json

    args = COMMANDS["ladder"]
    text = _run(60, *args)
    doc = json.loads(_run(60, *args, "--json"))
    assert max(len(line) for line in text.splitlines()) <= 60
    words = set(text.replace(",", " ").replace("(", " ").replace(")", " ").split())
    for row in doc["bots"]:
        assert f"{row['win_rate']:.1%}" in words and f"{row['rating']['ordinal']:.2f}" in words
        lo, hi = row["ci95"]
        assert f"{100 * lo:.1f}–{100 * hi:.1f}" in words
    for row in doc["pairs"]:
        assert f"{row['a']} (A) against {row['b']} (B):" in " ".join(text.split())


def test_train_reports_within_the_width(tmp_path):
    """train's three lines (what was learned, the held-out fit, where the model went) fold between words."""
    pytest.importorskip("sklearn", reason="the learn extra (pip install 'mbrules[learn]') is not installed")
    out = _run(60, "train", "winning-moves", "-p", "2", "--games", "3", "--out", str(tmp_path / "m.json"))
    assert max(len(line) for line in out.splitlines()) <= 60 and "held-out fit" in out
    assert str(tmp_path / "m.json") in " ".join(out.split()) or (tmp_path / "m.json").name in out


def _columns(line: str) -> int:
    """The columns ``line`` takes on a terminal: a wide (East Asian) character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def _show_runs() -> list[tuple[str, ...]]:
    from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids, load_ruleset

    runs: list[tuple[str, ...]] = []
    for rid in bundled_ruleset_ids():
        most = max(load_ruleset(rid).player_counts, key=int)  # the longest sides (partners p1+p4, ...)
        runs += [("show", rid, "--explain"), ("show", rid, "-p", most)]
    for oid in bundled_option_ids():
        runs.append(("show", "winning-moves", "--option", oid))
    return runs


def test_every_line_show_prints_fits_80_columns_for_every_bundled_ruleset_and_option():
    """Issue 46: ``mbrules show`` of every bundled ruleset (with --explain; with its largest player count,
    every count's line is in each) and of winning-moves with each bundled option prints no line wider than 80 columns, where
    piped output is laid out (a rule's words, a citation, a path: all folded between words)."""
    wide = []
    for args in _show_runs():
        res = CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})
        assert res.exit_code == 0, (args, res.output)
        wide += [(" ".join(args), line) for line in res.stdout.splitlines() if _columns(line) > 80]
    assert not wide, wide
