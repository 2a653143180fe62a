"""Removing a card in an extending file: null or remove: [...], with what still uses it reported at the
line that removed it (the 2- and 3-player removals included)."""

from __future__ import annotations

from mbrules.ruleset import check_file, load_ruleset

from authoring_helpers import write


def test_removing_a_card_still_used_is_an_error_at_the_removing_line(tmp_path):
    f = write(tmp_path / "n.yaml", "id: n\nname: N\nextends: winning-moves\ncards:\n  out_of_gas: null\n")
    diags = [d for d in check_file(f).diagnostics if d.file.endswith("n.yaml")]
    assert [(d.line, d.col) for d in diags] == [(5, 3)]
    message = diags[0].message
    for words in (
        "remedy 'gasoline' fixes it",
        "safety 'extra_tank' protects against it",
        "the removals for 2 players take it out",
        "the removals for 3 players take it out",
    ):
        assert words in message


def test_remove_list_takes_cards_out_and_star_fixes_the_removals(tmp_path):
    f = write(
        tmp_path / "n.yaml",
        'id: n\nname: N\nextends: winning-moves\n'
        'remove: [out_of_gas, gasoline, extra_tank]\n'
        'removals:\n  "*": {cards: {out_of_gas: null}, decided: no gas}\n'
        'box:\n  total: {value: 100, decided: ten fewer}\n',
    )
    assert check_file(f).ok, check_file(f).diagnostics
    rs = load_ruleset(f)
    assert not {"out_of_gas", "gasoline", "extra_tank"} & set(rs.cards)
    assert all("out_of_gas" not in r.cards for r in rs.removals.values())
    assert rs.removals["2"].cards["stop"] == 1


def test_remove_list_error_points_at_the_list_item(tmp_path):
    f = write(tmp_path / "n.yaml", "id: n\nname: N\nextends: winning-moves\nremove: [stop]\n")
    diags = [d for d in check_file(f).diagnostics if d.file.endswith("n.yaml")]
    assert (diags[0].line, diags[0].col) == (4, 10) and "card 'stop' is removed here" in diags[0].message
