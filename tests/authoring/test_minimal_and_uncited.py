"""A minimal file {id, name, extends} is valid; plain values are accepted and shown as uncited; the
bundled files cite every value."""

from __future__ import annotations

import pytest

from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids, check_file, load_ruleset

from authoring_helpers import ROOT, run, write


def test_a_minimal_file_with_id_name_and_extends_validates(tmp_path):
    f = write(tmp_path / "mine.yaml", "id: mine\nname: Mine\nextends: winning-moves\n")
    assert check_file(f).ok
    rs = load_ruleset(f)
    assert rs.description is None and rs.source is None
    result = run("show", f)
    assert result.exit_code == 0 and "(no description)" in result.stdout


def test_a_file_without_a_name_is_refused_at_the_top(tmp_path):
    f = write(tmp_path / "mine.yaml", "id: mine\nextends: winning-moves\n")
    diags = check_file(f).diagnostics
    assert [(d.line, d.col) for d in diags] == [(1, 1)] and "missing key 'name'" in diags[0].message


def test_a_plain_value_is_accepted_and_shown_uncited(tmp_path):
    f = write(tmp_path / "p.yaml", "id: p\nname: P\nextends: winning-moves\nplay:\n  hazard_on_hazard: true\n")
    rs = load_ruleset(f)
    assert rs.play.hazard_on_hazard.value is True
    assert rs.play.hazard_on_hazard.uncited.endswith("p.yaml:5")
    out = run("show", f).stdout
    assert "a hazard may cover another hazard: yes (uncited)" in out


def _cited_everywhere(data, path=()):
    """Paths of cited objects without source or decided in a raw bundled file."""
    bad = []
    if isinstance(data, dict):
        if ("value" in data or "count" in data or "sides" in data or "cards" in data) and not (
            "source" in data or "decided" in data
        ):
            bad.append(".".join(map(str, path)))
        for k, v in data.items():
            bad += _cited_everywhere(v, (*path, k))
    return bad


@pytest.mark.parametrize("option", [False, True])
def test_bundled_files_cite_every_value(option):
    import yaml

    ids = bundled_option_ids() if option else bundled_ruleset_ids()
    for ident in ids:
        rs = load_ruleset("winning-moves", [ident]) if option else load_ruleset(ident)
        assert "uncited" not in str(rs.model_dump()).replace("'uncited': None", ""), ident
        folder = ROOT / "rulesets" / ("options" if option else "")
        # libyaml's reader where installed: the same data as safe_load's pure-Python one (the same
        # constructors and resolver), at a tenth of its ~40 ms a bundled ruleset
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        raw = yaml.load((folder / f"{ident}.yaml").read_text(encoding="utf-8"), Loader=loader)
        rules = {k: v for k, v in raw.items() if k in ("box", "play", "coup_fourre", "scoring", "match")}
        for section, fields in rules.items():
            for name, value in (fields or {}).items():
                if name != "reference_cards":
                    assert isinstance(value, dict), f"{ident}: {section}.{name} is a plain value (uncited)"
        assert _cited_everywhere({k: v for k, v in raw.items() if k != "display"}) == [], ident
