"""The public vocabulary (mbrules.vocab): each name defined once, its words today's, used by every tool."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import mbrules
from mbrules import vocab
from mbrules.vocab import CardKind, DecisionKind, Op, Pile, Reason, ScoreLine, Termination

ROOT = Path(__file__).resolve().parents[1]


def test_the_words_are_the_ones_files_and_reports_already_use():
    assert [k.value for k in CardKind] == ["distance", "hazard", "remedy", "safety"]
    assert [p.value for p in Pile] == ["battle", "speed"]
    # fast play (option fast-play-remedy, issue 35): a word and a decision added after the contract's
    assert [o.value for o in Op] == ["draw", "play", "discard", "coup-fourre", "decline", "extend", "stop",
                                     "fast-play"]
    assert [d.value for d in DecisionKind] == ["turn", "coup_fourre", "extension", "hand_over", "match_over",
                                               "fast_play"]
    assert [t.value for t in Termination] == ["win", "draw", "unfinished"]
    assert vocab.SCORE_LINES == ("milestones", "safeties", "all_safeties", "coup_fourres", "trip_completed",
                                 "delayed_action", "safe_trip", "shutout", "extension", "total")
    assert len(Reason) == 17 and Reason.MUST_PLAY == "must-play" and Reason.NO_FAST_PLAY == "no-fast-play"
    assert json.dumps({ScoreLine.TOTAL: Termination.DRAW}) == '{"total": "draw"}'
    assert f"{DecisionKind.COUP_FOURRE}" == "coup_fourre" and str(Op.COUP_FOURRE) == "coup-fourre"


def test_the_int_codes_are_the_engine_tables_own():
    game = mbrules.load_game("winning-moves", players=2)
    for c, cid in enumerate(game.card_ids):
        kind = game.ruleset.cards[cid].kind
        assert game.kind[c] == CardKind(kind).code and CardKind.of(game.kind[c]) == kind
        if kind == "hazard":
            assert Pile.of(game.pile[c]) == game.ruleset.cards[cid].pile
    st = game.new_match(seed=3)
    for _ in range(40):
        for a in st.legal_actions():
            assert Op.of(a.op) == str(a).split()[0]
        st.apply(st.legal_actions()[-1])
    assert (vocab.DISTANCE, vocab.HAZARD, vocab.REMEDY, vocab.SAFETY) == (0, 1, 2, 3)


def test_decisions_refusals_and_outcomes_carry_the_vocabulary():
    game = mbrules.load_game("winning-moves", players=2)
    st = game.new_match(seed=1)
    assert st.decision.kind is DecisionKind.TURN
    try:
        st.apply("stop")
    except mbrules.IllegalAction as e:
        assert isinstance(e.code, Reason)
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    assert isinstance(st.outcome.termination, Termination)
    assert st.outcome.to_dict()["termination"] in {"win", "draw"}


def test_the_vocabulary_is_exported_from_mbrules():
    for name in ("CardKind", "DecisionKind", "Op", "Pile", "Reason", "ScoreLine", "Termination"):
        assert getattr(mbrules, name) is getattr(vocab, name) and name in mbrules.__all__


def test_no_tool_imports_a_constant_from_an_engine_module():
    """Outside mbrules/engine/, no constant (an UPPER_CASE name) is imported from the engine: the
    constants come from mbrules.vocab."""
    bad = []
    for path in [*(ROOT / "mbrules").rglob("*.py"), *(ROOT / "cli").rglob("*.py")]:
        if (ROOT / "mbrules" / "engine") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                if mod == "mbrules.engine" or mod.startswith("mbrules.engine.") or (
                        node.level and (mod == "engine" or mod.startswith("engine."))):
                    consts = [a.name for a in node.names if a.name.isupper()]
                    if consts:
                        bad.append(f"{path.relative_to(ROOT)}: from {'.' * node.level}{mod} import {consts}")
    assert bad == []
