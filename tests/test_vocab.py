"""The public vocabulary (mbrules.vocab): each name defined once, its words today's, used by every tool."""

from __future__ import annotations

import ast
import re
import json
from pathlib import Path

import mbrules
from mbrules import vocab
from mbrules.vocab import CardKind, DecisionKind, Op, Pile, Reason, ScoreLine, Termination

ROOT = Path(__file__).resolve().parents[1]


def test_the_words_are_the_ones_files_and_reports_already_use():
    assert [k.value for k in CardKind] == ["distance", "hazard", "remedy", "safety", "karma"]
    assert [p.value for p in Pile] == ["battle", "speed"]
    # fast play (option fast-play-remedy, issue 35): a word and a decision added after the contract's; the turn
    # rules (issue 35) add the op 'mulligan' (code 8: the action's op field is 4 bits), the decision 'mulligan'
    # and two reason codes
    assert [o.value for o in Op] == [
        "draw",
        "play",
        "discard",
        "coup-fourre",
        "decline",
        "extend",
        "stop",
        "fast-play",
        "mulligan",
    ]
    assert [d.value for d in DecisionKind] == [
        "turn",
        "coup_fourre",
        "extension",
        "mulligan",
        "hand_over",
        "match_over",
        "fast_play",
    ]
    assert [t.value for t in Termination] == ["win", "draw", "unfinished"]
    assert vocab.SCORE_LINES == (
        "milestones",
        "safeties",
        "all_safeties",
        "coup_fourres",
        "trip_completed",
        "delayed_action",
        "safe_trip",
        "shutout",
        "extension",
        "total",
    )
    assert len(Reason) >= 17 and Reason.MUST_PLAY == "must-play" and Reason.NO_FAST_PLAY == "no-fast-play"
    assert [r.value for r in Reason][:16] == [  # the contract's sixteen, then the ones options add (docs/api.md)
        "not-your-turn",
        "not-in-hand",
        "hand-over",
        "cannot-move",
        "speed-limit",
        "over-target",
        "too-many-200",
        "protected",
        "not-rolling",
        "already-limited",
        "bad-target",
        "nothing-to-fix",
        "no-coup-fourre",
        "no-extension",
        "extension-pending",
        "must-play",
    ]
    assert {"rolling-safety", "same-hazard", "other-hazard", "not-discardable", "playable-card"} <= set(Reason)
    assert (Reason.NO_DISCARD_DRAW, Reason.NO_MULLIGAN) == ("no-discard-draw", "no-mulligan")
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


# the text every 'from mbrules.engine... import' or 'from .engine... import' (any number of dots) holds: the
# files without it are not parsed (parsing and walking every module was 2 CPU-s)
FROM_ENGINE = re.compile(r"\bfrom[\s\\]+[.\w]*\bengine\b")


def test_no_tool_imports_a_constant_from_an_engine_module():
    """Outside mbrules/engine/, no constant (an UPPER_CASE name) is imported from the engine: the
    constants come from mbrules.vocab."""
    bad = []
    for path in [*(ROOT / "mbrules").rglob("*.py"), *(ROOT / "cli").rglob("*.py")]:
        if (ROOT / "mbrules" / "engine") in path.parents:
            continue
        text = path.read_text(encoding="utf-8")
        if not FROM_ENGINE.search(text):  # no 'from ...engine' anywhere: no such import to parse for
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                if (
                    mod == "mbrules.engine"
                    or mod.startswith("mbrules.engine.")
                    or (node.level and (mod == "engine" or mod.startswith("engine.")))
                ):
                    consts = [a.name for a in node.names if a.name.isupper()]
                    if consts:
                        bad.append(f"{path.relative_to(ROOT)}: from {'.' * node.level}{mod} import {consts}")
    assert bad == []


def test_the_engine_uses_the_vocab_names_and_gives_them_no_second_name():
    """Issue 37: mbrules.engine.actions re-bound the decision kinds and reason codes under names of its
    own (COUP_FOURRE_WINDOW for DecisionKind.COUP_FOURRE, HAND_OVER_CODE for Reason.HAND_OVER...). A
    module of the engine may bind a vocab enum's member once for speed, but only under the member's own
    name, and no module re-exports them from actions.py."""
    import ast
    from pathlib import Path

    import mbrules.engine
    from mbrules import vocab

    enums = {n for n in dir(vocab) if isinstance(getattr(vocab, n), type) and hasattr(getattr(vocab, n), "__members__")}
    bad = []
    for path in sorted(Path(mbrules.engine.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                pairs = isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                names = target.elts if pairs else [target]
                values = node.value.elts if pairs else [node.value]
                for name, value in zip(names, values):
                    if (
                        isinstance(value, ast.Attribute)
                        and isinstance(value.value, ast.Name)
                        and value.value.id in enums
                        and isinstance(name, ast.Name)
                        and name.id != value.attr
                    ):
                        bad.append(f"{path.name}:{node.lineno}: {name.id} = {value.value.id}.{value.attr}")
    assert not bad, "second names of vocab members:\n" + "\n".join(bad)
    import mbrules.engine.actions as actions

    assert not [n for n in vars(actions) if n.isupper()], "actions.py binds vocab names again"


def test_the_int_codes_written_out_are_the_enums_positions():
    """The engine's int codes are written as literal Finals (a compiled module holds them as constants): each
    must stay the position of its member in CardKind, Pile and Op, which Game's tables and Action.op use."""
    assert tuple(k.code for k in vocab.CardKind) == (
        vocab.DISTANCE,
        vocab.HAZARD,
        vocab.REMEDY,
        vocab.SAFETY,
        vocab.KARMA,
    )
    assert tuple(p.code for p in vocab.Pile) == (vocab.BATTLE, vocab.SPEED)
    assert [o.code for o in vocab.Op] == [
        vocab.DRAW,
        vocab.PLAY,
        vocab.DISCARD,
        vocab.COUP_FOURRE,
        vocab.DECLINE,
        vocab.EXTEND,
        vocab.STOP,
        vocab.FAST_PLAY,
        vocab.MULLIGAN,
    ]
    assert vocab.NO_LIMIT == 1 << 30
