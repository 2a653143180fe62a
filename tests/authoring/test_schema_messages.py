"""Schema messages: a card is checked as its kind; a citation never 'valid under each of'."""

from __future__ import annotations

from mbrules.ruleset import check_file

from authoring_helpers import write

HEAD = "id: x\nname: X\nextends: winning-moves\n"


def messages(tmp_path, body):
    return [str(d) for d in check_file(write(tmp_path / "x.yaml", HEAD + body)).diagnostics]


def test_a_card_is_checked_as_its_kind(tmp_path):
    out = messages(tmp_path, "cards:\n  fog: {kind: hazard, name: Fog, pile: battle, count: 0, fixes: [stop]}\n")
    assert len(out) == 1 and "unknown key 'fixes' in cards.fog" in out[0] and "pile" in out[0]


def test_a_card_without_citation_is_not_an_unexpected_key_error(tmp_path):
    out = messages(tmp_path, "cards:\n  fog_lamp: {kind: remedy, name: Lamp, fixes: [stop], count: 0}\n")
    assert out == []  # uncited, and valid


def test_a_non_object_citation_is_never_valid_under_each(tmp_path):
    out = messages(tmp_path, "play:\n  hazard_on_hazard: [true]\n")
    assert out and not any("valid under each" in m for m in out)
    assert "play.hazard_on_hazard" in out[0]


def test_both_source_and_decided_is_one_clear_error(tmp_path):
    out = messages(tmp_path, "play:\n  hazard_on_hazard: {value: true, source: a, decided: b}\n")
    assert len(out) == 1 and "not both" in out[0] and "x.yaml:5:3" in out[0]
