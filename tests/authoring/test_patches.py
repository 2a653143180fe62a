"""Options and child files patch single fields; '*' patches every player count; the order is parent,
the file's options, the file's body, then options given (which are reported when they override the file)."""

from __future__ import annotations

import warnings

import pytest

from mbrules.ruleset import RulesetWarning, load_report, load_ruleset

from authoring_helpers import write


def test_a_patch_changes_one_field_of_a_player_count_and_keeps_the_rest(tmp_path):
    f = write(tmp_path / "h.yaml", 'id: h\nname: H\nextends: winning-moves\nplayer_counts:\n  "4": {sides: 4}\n')
    rs = load_ruleset(f)
    wm = load_ruleset("winning-moves")
    assert rs.player_counts["4"].sides == 4
    assert rs.player_counts["4"].target == wm.player_counts["4"].target
    assert rs.player_counts["4"].extension_to == wm.player_counts["4"].extension_to
    assert rs.player_counts["4"].uncited is not None  # no citation in the patch: the object is uncited


def test_the_files_own_values_win_over_the_options_it_names(tmp_path):
    # The case: "4": {sides: 4} plus options: [extension-1200] loaded with sides = 2.
    f = write(
        tmp_path / "h.yaml",
        'id: h\nname: H\nextends: winning-moves\noptions: [extension-1200]\nplayer_counts:\n  "4": {sides: 4}\n',
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to report: the file's body comes after its options
        rs = load_ruleset(f)
    assert rs.player_counts["4"].sides == 4
    assert rs.player_counts["4"].extension_to == 1200  # the option's field the file did not set
    assert rs.applied_options == ("extension-1200",)


def test_star_patches_every_player_count_and_a_named_count_wins(tmp_path):
    f = write(
        tmp_path / "s.yaml",
        'id: s\nname: S\nextends: winning-moves\nplayer_counts:\n'
        '  "*": {target: 500, extension_to: null, decided: short}\n'
        '  "4": {target: 800, decided: four}\n',
    )
    rs = load_ruleset(f)
    assert {k: pc.target for k, pc in rs.player_counts.items()} == {"2": 500, "3": 500, "4": 800, "6": 500}
    assert all(pc.extension_to is None for pc in rs.player_counts.values())
    assert rs.player_counts["6"].sides == 3 and rs.player_counts["6"].decided == "short"


def test_extension_option_names_only_the_fields_it_changes():
    rs = load_ruleset("winning-moves", ["extension-1200"])
    wm = load_ruleset("winning-moves")
    for key, pc in rs.player_counts.items():
        assert (pc.target, pc.extension_to, pc.sides) == (1000, 1200, wm.player_counts[key].sides)


def test_an_option_given_last_that_overrides_the_files_value_is_reported(tmp_path):
    f = write(
        tmp_path / "h.yaml",
        "id: h\nname: H\nextends: winning-moves\nplay:\n  hazard_on_hazard: false\n"
        "  hand_size: {value: 5, decided: small}\n",
    )
    opt = write(
        tmp_path / "o.yaml", "kind: option\nid: big-hands\nname: Big\nplay:\n  hand_size: {value: 8, decided: big}\n"
    )
    with pytest.warns(RulesetWarning) as record:
        rs = load_ruleset(f, [opt, "hazard-on-hazard"])
    assert rs.play.hand_size.value == 8 and rs.play.hazard_on_hazard.value is True
    messages = sorted(str(w.message) for w in record)
    assert any("h.yaml:6:" in m and "option 'big-hands'" in m and "play.hand_size" in m for m in messages)
    assert any("h.yaml:5:" in m and "option 'hazard-on-hazard'" in m for m in messages)
    report = load_report(f, [opt])
    assert len(report.warnings) == 1 and report.files[-1].endswith("o.yaml")


def test_show_explain_says_where_each_value_came_from(tmp_path):
    from authoring_helpers import run

    f = write(
        tmp_path / "h.yaml",
        'id: h\nname: H\nextends: winning-moves\noptions: [extension-1200]\n'
        'player_counts:\n  "4": {sides: 4}\nplay:\n  hazard_on_hazard: true\n',
    )
    result = run("show", f, "--explain", "--all", "--json")
    assert result.exit_code == 0, result.output
    import json

    doc = json.loads(result.stdout)
    origins = {o["path"]: o for o in doc["origins"]}
    assert origins["player_counts.4.sides"]["file"].endswith("h.yaml") and origins["player_counts.4.sides"]["line"] == 6
    assert origins["player_counts.2.extension_to"]["file"].endswith("extension-1200.yaml")
    assert origins["play.hazard_on_hazard.value"]["citation"] == "uncited"
    assert origins["play.hand_size.value"]["citation"].startswith("source: ")
    assert [p.rsplit("/", 1)[-1] for p in doc["files"]] == ["winning-moves.yaml", "extension-1200.yaml", "h.yaml"]
    text = run("show", f, "--explain", "--all")
    assert "Where each value comes from" in text.stdout and "[uncited]" in text.stdout
