"""Composition: a file that extends another changes only what it names; options apply in order."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mbrules.ruleset.loader import RulesetWarning
from mbrules.ruleset import RulesetError, clear_cache, load_ruleset

HEAD = "id: {id}\nname: {id}\ndescription: a test ruleset\nsource: tests\nextends: {parent}\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def option(path: Path, ident: str, body: str) -> Path:
    return write(path, f"kind: option\nid: {ident}\nname: {ident}\ndescription: test option\nsource: tests\n{body}")


def without_root(rs) -> dict:
    data = rs.model_dump(mode="json")
    for key in ("id", "name", "description", "source", "applied_options"):
        data.pop(key)
    return data


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()
    yield
    clear_cache()


def test_child_that_changes_one_rule_keeps_every_other_rule(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves")
        + "play:\n  hazard_on_hazard: {value: true, decided: house rule}\n",
    )
    wm, rs = load_ruleset("winning-moves"), load_ruleset(child)
    assert rs.id == "child" and rs.name == "child" and rs.source == "tests"
    assert rs.play.hazard_on_hazard.value is True
    expected = without_root(wm)
    expected["play"]["hazard_on_hazard"] = {"value": True, "source": None, "decided": "house rule", "uncited": None}
    assert without_root(rs) == expected


def test_cards_merge_by_id_and_a_cited_card_is_replaced_whole(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves")
        + """\
box:
  total: {value: 113, decided: three more cards}
cards:
  d25: {kind: distance, name: "25 Kilometres", miles: 25, count: 11, decided: one more}
  fog: {kind: hazard, name: Fog, pile: battle, count: 1, decided: a new hazard}
  fog_lights: {kind: remedy, name: Fog Lights, fixes: [fog], count: 1, decided: its remedy}
  radar: {kind: safety, name: Radar, protects: [fog], count: 0, decided: its safety}
""",
    )
    rs = load_ruleset(child)
    wm = load_ruleset("winning-moves")
    assert rs.cards["d25"].name == "25 Kilometres" and rs.cards["d25"].count == 11
    assert rs.cards["d25"].source is None  # replaced whole: the parent's citation is gone
    assert set(rs.cards) == set(wm.cards) | {"fog", "fog_lights", "radar"}
    assert rs.cards["d200"] == wm.cards["d200"]
    assert sum(c.count for c in rs.cards.values()) == 109


def test_integer_and_text_player_count_keys_are_the_same(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves")
        + "player_counts:\n  4: {sides: 2, target: 700, extension_to: 1000, decided: shorter}\n",
    )
    rs = load_ruleset(child)
    assert rs.player_counts["4"].target == 700
    assert rs.player_counts["2"].target == 700 and rs.player_counts["6"].sides == 3


def test_options_apply_in_order_file_options_then_file_body_then_given(tmp_path):
    seven = option(tmp_path / "seven.yaml", "seven", "play:\n  hand_size: {value: 7, decided: seven}\n")
    eight = option(tmp_path / "eight.yaml", "eight", "play:\n  hand_size: {value: 8, decided: eight}\n")
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves")
        + "options: [seven.yaml, hazard-on-hazard]\nplay:\n  hand_size: {value: 5, decided: five}\n",
    )
    rs = load_ruleset(child)
    assert rs.play.hand_size.value == 5  # the file's options, then its own body: the file's values win
    assert rs.applied_options == ("seven", "hazard-on-hazard")
    assert rs.play.hazard_on_hazard.value is True
    with pytest.warns(RulesetWarning, match=r"child.yaml:\d+:\d+: warning: option 'eight' .* changes play.hand_size"):
        rs = load_ruleset(child, [eight])  # given last: it wins, and says it overrode the file
    assert rs.play.hand_size.value == 8
    assert rs.applied_options == ("seven", "hazard-on-hazard", "eight")
    rs = load_ruleset("winning-moves", [eight, seven])
    assert rs.play.hand_size.value == 7 and rs.applied_options == ("eight", "seven")


def test_parent_options_come_before_the_childs_body(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="wikipedia") + "play:\n  hazard_on_hazard: {value: false, decided: not here}\n",
    )
    rs = load_ruleset(child)
    assert load_ruleset("wikipedia").play.hazard_on_hazard.value is True
    assert rs.play.hazard_on_hazard.value is False
    assert rs.applied_options[0] == "hazard-on-hazard"


def test_extends_a_path_relative_to_the_file(tmp_path):
    write(
        tmp_path / "base" / "parent.yaml",
        HEAD.format(id="parent", parent="winning-moves") + "play:\n  hand_size: {value: 7, decided: seven}\n",
    )
    child = write(
        tmp_path / "deep" / "child.yaml",
        HEAD.format(id="child", parent="../base/parent.yaml") + "scoring:\n  shutout: {value: 600, decided: more}\n",
    )
    rs = load_ruleset("deep/child.yaml", base_dir=tmp_path)
    assert rs.play.hand_size.value == 7 and rs.scoring.shutout.value == 600
    assert rs == load_ruleset(child)


def test_an_option_is_refused_as_a_ruleset_and_a_ruleset_as_an_option(tmp_path):
    opt = option(tmp_path / "o.yaml", "o", "play:\n  hand_size: {value: 7, decided: seven}\n")
    with pytest.raises(RulesetError) as info:
        load_ruleset(opt)
    assert not info.value.usage and "this file is an option (kind: option), not a ruleset" in info.value.lines[0]
    child = write(tmp_path / "child.yaml", HEAD.format(id="child", parent="winning-moves"))
    with pytest.raises(RulesetError) as info:
        load_ruleset("winning-moves", [child])
    assert not info.value.usage and "is not an option" in info.value.lines[0]


def test_resolved_rulesets_are_cached_until_a_file_changes(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves") + "play:\n  hand_size: {value: 7, decided: seven}\n",
    )
    first = load_ruleset(child)
    for _ in range(200):
        assert load_ruleset(child) is first  # the same object: not resolved again
    write(child, child.read_text().replace("value: 7", "value: 8"))
    os.utime(child, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert load_ruleset(child).play.hand_size.value == 8


def test_yaml_anchors_and_merge_keys_work(tmp_path):
    child = write(
        tmp_path / "child.yaml",
        HEAD.format(id="child", parent="winning-moves")
        + """\
play:
  hazard_on_hazard: &house {value: true, decided: our house rules}
  speed_limit_stacking: {<<: *house}
""",
    )
    rs = load_ruleset(child)
    assert rs.play.speed_limit_stacking.value is True
    assert rs.play.speed_limit_stacking.decided == "our house rules"
