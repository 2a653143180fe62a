"""`show --explain` on a user's file lists what the file and its options change (issue 29 item 3):
not all of the edition's values; no citation pinned on a value another file set; bundled files by id."""

from __future__ import annotations

import json
import re

from authoring_helpers import run, write

FILE = (
    'id: mine\nname: Mine\nextends: winning-moves\noptions: [extension-1200]\n'
    'play:\n  hazard_on_hazard: {value: true, decided: "we like it nasty"}\n'
    'player_counts:\n  "4": {sides: 4, decided: "each for himself"}\n'
)
VALUE = re.compile(r"^  (\S+) = (.*?) +\((\S+):\d+:\d+\)(?: +\[(.*)\])?$")


def explained(*args) -> list[tuple[str, str, str, str | None]]:
    """Each value's line (a line folded to the width goes on indented deeper: joined back here)."""
    res = run("show", *args)
    assert res.exit_code == 0, res.output
    lines: list[str] = []
    for line in res.stdout.splitlines():
        if line.startswith("    ") and lines and lines[-1].startswith("  "):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return [m.groups() for line in lines if (m := VALUE.match(line))]


def test_a_user_file_lists_only_what_it_and_its_options_set(tmp_path):
    f = write(tmp_path / "mine.yaml", FILE)
    rows = explained(f, "--explain")
    files = {r[2] for r in rows}
    assert files == {str(f), "extension-1200"}
    paths = {r[0] for r in rows}
    assert {"play.hazard_on_hazard.value", "player_counts.4.sides", "player_counts.2.extension_to"} <= paths
    assert "play.hand_size.value" not in paths  # the edition's own value, unchanged
    assert len(rows) < len(explained(f, "--explain", "--all")) / 5


def test_all_lists_every_value_and_changed_is_the_default_for_a_file_only(tmp_path):
    f = write(tmp_path / "mine.yaml", FILE)
    every = explained(f, "--explain", "--all")
    assert "play.hand_size.value" in {r[0] for r in every}
    bundled = explained("winning-moves", "--explain")
    assert len(bundled) > 100 and {r[2] for r in bundled} == {"winning-moves"}
    assert explained(f, "--explain", "--changed") == explained(f, "--explain")


def test_a_patch_citation_is_not_pinned_on_values_an_option_set_beside_it(tmp_path):
    f = write(tmp_path / "mine.yaml", FILE)
    rows = {r[0]: r for r in explained(f, "--explain")}
    assert rows["player_counts.4.sides"][3] == "decided: each for himself"
    for key in ("player_counts.4.target", "player_counts.4.extension_to"):
        assert rows[key][2] == "extension-1200"
        assert rows[key][3] is None or "each for himself" not in rows[key][3]
    assert rows["player_counts.2.extension_to"][3].startswith("source: ")  # the option's own citation


def test_bundled_files_are_shown_by_id_never_by_install_path(tmp_path):
    f = write(tmp_path / "mine.yaml", FILE)
    res = run("show", f, "--explain", "--all")
    assert "rulesets/" not in res.stdout and "/options/" not in res.stdout
    assert "(winning-moves:" in res.stdout and "(extension-1200:" in res.stdout


def test_json_says_which_view_and_holds_only_its_values(tmp_path):
    f = write(tmp_path / "mine.yaml", FILE)
    changed = json.loads(run("show", f, "--explain", "--json").stdout)
    every = json.loads(run("show", f, "--explain", "--all", "--json").stdout)
    assert changed["explain"] == "changed" and every["explain"] == "all"
    assert {o["path"] for o in changed["origins"]} < {o["path"] for o in every["origins"]}


def test_changed_without_explain_is_a_usage_error():
    res = run("show", "winning-moves", "--changed")
    assert res.exit_code == 2 and "--explain" in res.output
