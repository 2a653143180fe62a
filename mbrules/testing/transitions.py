"""What one accepted action must have done, by the rulings (Play, Coup fourré, End of the hand).

``check_transition(before, action, after)`` checks the draw, each kind of play, a safety's extra
turn, the coup fourré window and its effect, and the extension question; ``Before(state)`` is the
cheap copy it needs. :class:`Checker` runs it and :func:`~mbrules.testing.checker.check` after
every action of a match it observes; :func:`checked_replay` replays a scenario file so.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mbrules.engine import Action, Observer
from mbrules.vocab import BOTH_PILES  # noqa: E402
from mbrules.vocab import (
    BATTLE,
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    DISTANCE,
    DRAW,
    EXTEND,
    FAST_PLAY,
    HAZARD,
    KARMA,
    MULLIGAN,
    OWN,
    PLAY,
    REMEDY,
    SPEED,
    SAFETY,
    STOP,
    DecisionKind,
)

from .checker import check, stacked_in_force
from .oracle import position_start
from .oracle import HandStart
from .view import KeptView, View, _view

if TYPE_CHECKING:
    from mbrules.engine import Game, State
    from mbrules.engine.notation import ActionLike
    from mbrules.scenario.replay import ScenarioResult

__all__ = ["Checker", "check_transition", "checked_replay"]


def _next_turn(before: View, after: View, p: int, q: int | None = None) -> int:
    """Who should have the next turn after ``p`` (or, given ``q``, from ``q`` on): the left neighbour;
    once nothing can be drawn, the next player holding cards or able to refill (-1: nobody, the hand
    is over). Queued coup fourré turns (coup_fourre.bonus_turn: queued) come first, then play goes on
    from the attacker's left."""
    N = before.game.players
    if q is None:
        if before.resume >= 0:
            if before.queued:
                q = before.queued[0]
                if after.can_draw() or ((after.hands[q] or after.can_refill(q)) and not _pile_out_ends(after, q)):
                    return q
                return _after(after, q, N)
            p = before.resume
        q = (p + 1) % N
    if after.can_draw():
        return q
    return _after(after, q, N)


def _after(after: View, q: int, N: int) -> int:
    """The first player from ``q`` on holding cards or able to refill (nothing left to draw), or -1
    (turn.draw_pile_out_ends_hand: -1 as soon as nothing can be drawn)."""
    if after.can_draw():
        return q
    if _pile_out_ends(after, q):
        return -1
    for _ in range(N):
        if after.hands[q] or after.can_refill(q):
            return q
        q = (q + 1) % N
    return -1


def _pile_out_ends(after: View, q: int) -> bool:
    """turn.draw_pile_out_ends_hand: nothing can be drawn (nor refilled for ``q``), so the hand is over."""
    return after.game.ruleset.turn.draw_pile_out_ends_hand.value and not after.can_draw() and not after.can_refill(q)


def _replaced(before: View, g: Game) -> bool:
    """play.safety_replacement_draw: a safety played in turn now is replaced at once from the draw pile, as
    the draw of its extra turn (none without play.safety_extra_turn)."""
    play = g.ruleset.play
    return play.safety_replacement_draw.value and play.safety_extra_turn.value and not _ptd(g) and before.can_draw()


def _ptd(g: Game) -> bool:
    return g.ruleset.turn.order.value == "play_then_draw"


def _turn_passes(out: list[str], before: View, after: View, p: int, what: _What | str, then: int | None = None) -> None:
    """``p``'s play is done: the turn passes to ``then`` (default: the left neighbour); play then draw
    (turn.order): ``p`` first draws, if a card can be drawn."""
    g = before.game
    if _ptd(g) and after.can_draw():
        if after.decision != (DecisionKind.TURN, p, False):
            out.append(f"{what}: play then draw: {g.player_names[p]} should draw now, got {after.decision}")
        return
    _expect_turn(out, after, _next_turn(before, after, p, then), what)


def _expect_turn(out: list[str], after: View, who: int, why: _What | str) -> None:
    d = after.decision
    g = after.game
    if who < 0:
        if d.kind not in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER):
            out.append(f"{why}: every hand is empty and the draw pile is out, but the hand goes on ({d.kind})")
        return
    if d.kind != DecisionKind.TURN or d.player != who:
        out.append(
            f"{why}: expected {g.player_names[who]}'s turn, got {d.kind} for "
            f"{g.player_names[d.player] if d.player >= 0 else 'nobody'}"
        )
    else:
        if _ptd(g):  # the turn opens with the play; an empty hand's turn is its draw
            want = bool(after.hands[who]) or not (after.can_draw() or after.can_refill(who))
        else:
            want = not (after.can_draw() or after.can_refill(who))
        if d.drawn != want:
            out.append(
                f"{why}: {g.player_names[who]}'s turn {'has drawn' if d.drawn else 'waits for a draw'} "
                f"with {len(after.draw)} cards to draw"
            )


def _removed_one(before: list[int], after: list[int], c: int) -> bool:
    if len(after) != len(before) - 1:
        return False
    b = list(before)
    if c not in b:
        return False
    b.remove(c)
    return b == after or sorted(b) == sorted(after)


class _What:
    """'p2 play d25': built only when a message needs it (the check runs after every action)."""

    __slots__ = ("g", "p", "a")

    def __init__(self, g: Game, p: int, a: Action) -> None:
        self.g, self.p, self.a = g, p, a

    def __str__(self) -> str:
        return f"{self.g.player_names[self.p] if self.p >= 0 else '?'} {self.g.describe(self.a)}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __add__(self, other: str) -> str:
        return str(self) + other


def check_transition(
    before: State | View, action: ActionLike, after: State | View, player: int | None = None
) -> list[str]:
    """What ``action`` (accepted) must have done, from ``before`` (``Before(state)`` taken before it,
    or a clone) to ``after``."""
    before = _view(before)
    after = _view(after)
    g = before.game
    out: list[str] = []
    action = g.action(action)
    op, c, ts = action.op, action.card_index, action.side_index
    d = before.decision
    p = d.player if player is None else player
    ps = g.side_of[p] if p >= 0 else -1
    if op == PLAY:  # the history keeps a play in its shortest words: a hazard names its side, nothing else does
        if g.kind[c] == HAZARD:
            if ts == OWN:
                ts = [t for t in range(g.sides) if t != ps][0]  # accepted, so the only opposing side
            action = g.play_action[c][ts]
        else:
            action = g.play_own[c]
    what = _What(g, p, action)
    if len(after.history) != len(before.history) + 1 or after.history[-1] != (p, action):
        out.append(f"{what}: history did not record ({p}, {action}) once")
    if op == DRAW:
        _check_draw(out, before, after, p, action, what)
        return out
    if op == MULLIGAN:
        _check_mulligan(out, before, after, p, c, what)
        return out
    hand_a = after.hands[p]
    # play.safety_replacement_draw: the replacement card is the hand's last (none when the safety's own miles,
    # option safety-distance, completed the trip: the hand is over, no extra turn to draw for)
    safety_trip = g.safety_distance and after.miles[g.side_of[p]] >= after.target
    if op == PLAY and g.kind[c] == SAFETY and _replaced(before, g) and not safety_trip:
        hand_a = hand_a[:-1]
    if op in (PLAY, DISCARD) and not _removed_one(before.hands[p], hand_a, c):
        out.append(f"{what}: the card did not leave the hand (exactly one copy)")
    if op == DISCARD:
        _check_discard(out, before, after, p, c, what)
        return out
    if op == PLAY:
        _check_play(out, before, after, p, ps, c, ts, what)
        return out
    if op == COUP_FOURRE:
        _check_coup_fourre(out, before, after, p, c, what)
        return out
    if op == DECLINE:
        _check_decline(out, before, after, what)
        return out
    if op == FAST_PLAY:  # a remedy out of turn (rulings: fast play)
        _check_fast_play(out, before, after, p, c, what)
        return out
    if op == EXTEND:
        if after.target != g.extension_to or after.extension_called_by != p:
            out.append(f"{what}: the target is {after.target}, called by {after.extension_called_by}")
        _turn_passes(out, before, after, p, what)
        return out
    if op == STOP:
        if not after.hand_over:
            out.append(f"{what}: the hand goes on after the extension was declined")
    return out


def _check_mulligan(out: list[str], before: View, after: View, p: int, c: int, what: _What) -> None:
    """A mulligan's card: from the hand to the top of the discard pile, the mulligan still open for more."""
    if not _removed_one(before.hands[p], after.hands[p], c) or after.discard != before.discard + [c]:
        out.append(f"{what}: the card did not go from the hand to the top of the discard pile")
    if after.decision != (DecisionKind.MULLIGAN, p, False):
        out.append(f"{what}: the mulligan should stay open for more cards, got {after.decision}")


def _check_play(out: list[str], before: View, after: View, p: int, ps: int, c: int, ts: int, what: _What) -> None:
    """A card played on the table (its leaving the hand checked already), by its kind."""
    g = before.game
    k = g.kind[c]
    if k == DISTANCE:
        _check_distance_play(out, before, after, p, ps, c, what)
    elif k == HAZARD:
        if before.karma[ps]:  # ruleset 'karma': an attacker with karma loses it, both do if the target has it
            if _check_karma_attack(out, before, after, p, ps, c, ts, what):
                return
        elif after.karma != before.karma:
            out.append(f"{what}: an attacker without karma changed a side's karma")
        _check_hazard_play(out, before, after, p, c, ts, what)
    elif k == KARMA:
        if not after.karma[ps] or after.karma_cards[ps] != before.karma_cards[ps] + [c]:
            out.append(f"{what}: the karma card did not give its side its karma back and stay on its table")
        _turn_passes(out, before, after, p, what)
    elif k == REMEDY:
        _check_remedy_play(out, before, after, p, ps, c, what)
    else:  # a safety played normally
        _check_safety_play(out, before, after, p, ps, c, what)


def _check_discard(out: list[str], before: View, after: View, p: int, c: int, what: _What) -> None:
    """A discard: the card on top of the discard pile, the stall count (turn.stall_discards) grown by one or started
    again and ending the hand at its limit, else the turn passes."""
    g = before.game
    if after.discard != before.discard + [c]:
        out.append(f"{what}: the card is not on top of the discard pile")
    if g.stall_checked:  # the stall rule (turn.stall_discards): a count that grows by one or starts again
        if after.stall not in (1, before.stall + 1):
            out.append(f"{what}: the stall count went from {before.stall} to {after.stall}")
        if after.stall >= g.stall_discards:
            if not after.hand_over:
                out.append(f"{what}: {after.stall} discards in a row with no progress, but the hand goes on")
            return
    _turn_passes(out, before, after, p, what)


def _check_distance_play(out: list[str], before: View, after: View, p: int, ps: int, c: int, what: _What) -> None:
    """A distance card: the side's miles grow by its value; a completed trip asks the extension question of the
    player who completed it (where one is open) or ends the hand; else the turn passes."""
    g = before.game
    if after.miles[ps] != before.miles[ps] + g.miles[c]:
        out.append(f"{what}: miles went from {before.miles[ps]} to {after.miles[ps]}")
    if after.miles[ps] >= before.target:  # past it only with option overshoot
        ext_open = g.extension_to is not None and before.extension_called_by < 0 and before.target < g.extension_to
        if ext_open:
            if after.decision != (DecisionKind.EXTENSION, p, True):
                out.append(
                    f"{what}: the trip is complete; the extension question should go to the "
                    f"player whose card completed it, got {after.decision}"
                )
        elif not after.hand_over:
            out.append(f"{what}: the trip is complete and the hand goes on")
    else:
        _turn_passes(out, before, after, p, what)


def _check_hazard_play(out: list[str], before: View, after: View, p: int, c: int, ts: int, what: _What) -> None:
    """A hazard: on top of the attacked side's pile, and a coup fourré window opened for the first eligible holder
    of a protecting safety in seating order, or (none eligible) a fast-play window or the next turn."""
    g = before.game
    pile = after.battle if g.pile[c] == BATTLE else after.speed
    bpile = before.battle if g.pile[c] == BATTLE else before.speed
    if after.decision.kind == DecisionKind.COUP_FOURRE:
        if pile[ts] != bpile[ts] + [c]:
            out.append(f"{what}: the hazard is not on top of side {g.side_names[ts]}'s pile")
        q = after.decision.player
        eligible = [
            x
            for x in ((p + k2) % g.players for k2 in range(1, g.players))
            if (g.coup_fourre_any_player or g.side_of[x] == ts) and any(sc in before.hands[x] for sc in g.protectors[c])
        ]
        if not g.coup_fourre_enabled or not eligible or q != eligible[0]:
            out.append(
                f"{what}: coup fourré window for {g.player_names[q]}; eligible in seating order: "
                f"{[g.player_names[x] for x in eligible]}"
            )
    else:
        eligible = [
            x
            for x in range(g.players)
            if x != p
            and (g.coup_fourre_any_player or g.side_of[x] == ts)
            and any(sc in before.hands[x] for sc in g.protectors[c])
        ]
        if g.coup_fourre_enabled and eligible:
            out.append(
                f"{what}: {[g.player_names[x] for x in eligible]} hold the safety but no coup fourré window opened"
            )
        if pile[ts] != bpile[ts] + [c]:
            out.append(f"{what}: the hazard is not on top of side {g.side_names[ts]}'s pile")
        _expect_fast_play_or_turn(out, before, after, p, c, ts, what)


def _check_karma_attack(
    out: list[str], before: View, after: View, p: int, ps: int, c: int, ts: int, what: _What
) -> bool:
    """Ruleset 'karma' (PlayAural game.py _play_hazard): an attacker with karma loses it; a target with karma too
    loses it and the hazard goes to the discard pile, the turn passing with no window. Whether it was neutralised."""
    g = before.game
    if after.karma[ps]:
        out.append(f"{what}: side {g.side_names[ps]} attacked with its karma and kept it")
    if not before.karma[ts]:
        return False
    if after.karma[ts]:
        out.append(f"{what}: the attack between two sides with karma left side {g.side_names[ts]} its karma")
    pile = after.battle if g.pile[c] == BATTLE else after.speed
    bpile = before.battle if g.pile[c] == BATTLE else before.speed
    if pile[ts] != bpile[ts] or after.discard[-1:] != [c]:
        out.append(f"{what}: the neutralised hazard is not on top of the discard pile")
    _turn_passes(out, before, after, p, what)
    return True


def _check_remedy_play(out: list[str], before: View, after: View, p: int, ps: int, c: int, what: _What) -> None:
    """A remedy: on top of its pile (a combination remedy on whichever pile it went to), a go card sets the side
    rolling, and the turn passes."""
    g = before.game
    pile = after.battle if g.pile[c] == BATTLE else after.speed
    if g.pile[c] == BOTH_PILES:  # a combination remedy: on whichever pile it went to
        grew = len(after.battle[ps]) > len(before.battle[ps])
        pile = after.battle if grew and after.battle[ps][-1:] == [c] else after.speed
    if not pile[ps] or pile[ps][-1] != c:
        out.append(f"{what}: the remedy is not on top of its pile")
    if g.pile[c] == BATTLE and not after.rolling[ps] and g.is_go[c]:
        out.append(f"{what}: a go card was played and the side is not rolling")
    _turn_passes(out, before, after, p, what)


def _check_safety_play(out: list[str], before: View, after: View, p: int, ps: int, c: int, what: _What) -> None:
    """A safety played normally: among the side's safeties, the hazards it protects against discarded where the
    ruleset says so, the hand size after a replacement draw, and the extra turn (a play, a draw, or none) by the
    ruleset's rules."""
    g = before.game
    if after.safeties[ps] != before.safeties[ps] + [c]:
        out.append(f"{what}: the safety is not among the side's safeties")
    if g.safety_distance and after.miles[ps] >= after.target:  # option safety-distance completed the trip
        return
    for piles, name in ((after.battle, "battle"), (after.speed, "speed")):
        top = piles[ps][-1] if piles[ps] else -1
        if g.safety_discards_hazard and top >= 0 and g.kind[top] == HAZARD and after.prot[ps] >> top & 1:
            out.append(f"{what}: a hazard it protects against still shows on the {name} pile")
    needs_stock = g.ruleset.play.safety_extra_turn_needs_draw_pile.value
    # only while the draw pile lasts, where the ruleset says so (a reshuffle it allows keeps it going)
    lasts = bool(before.draw) or not needs_stock or after.can_draw()
    # play.safety_replacement_draw: the safety replaced at once from the draw pile, the extra turn a play
    repl = _replaced(before, g)
    if len(after.hands[p]) != len(before.hands[p]) - 1 + repl:
        out.append(f"{what}: the player holds {len(after.hands[p])} cards after the safety")
    if repl and g.safety_extra_turn and lasts:
        if after.decision != (DecisionKind.TURN, p, True):
            out.append(f"{what}: the replaced safety's extra turn should be a play, got {after.decision}")
    elif g.safety_extra_turn and lasts and _ptd(g) and after.can_draw():
        _turn_passes(out, before, after, p, what + " (another turn after the draw)")
    elif g.safety_extra_turn and lasts:
        # the extra turn is p's while p can draw or play (turn.draw_pile_out_ends_hand: nothing to draw ends the hand)
        who = _after(after, p, g.players) if after.hands[p] or after.can_refill(p) else _next_turn(before, after, p)
        _expect_turn(out, after, who, what + " (another turn)")
    else:
        _turn_passes(out, before, after, p, what)


def _check_coup_fourre(out: list[str], before: View, after: View, p: int, c: int, what: _What) -> None:
    """A coup fourré: the safety laid crosswise, the hazard taken off (only on the caller's own side), the caller's
    replacement draw, and the turn that follows (queued, the caller's own, or passed on)."""
    g = before.game
    q = p
    qs = g.side_of[q]
    if after.coups[qs] != before.coups[qs] + [c]:
        out.append(f"{what}: the safety is not laid crosswise")
    hz = before.cf_hazard
    pile_b = (before.battle if g.pile[hz] == BATTLE else before.speed)[before.cf_side]
    pile_a = (after.battle if g.pile[hz] == BATTLE else after.speed)[before.cf_side]
    if before.cf_side == qs:
        if pile_a[-1:] == [hz] and pile_b[-1:] == [hz] and len(pile_a) >= len(pile_b):
            out.append(f"{what}: the hazard was not taken to the discard pile")
    elif pile_a != pile_b:
        out.append(f"{what}: the hazard moved although it was played on another side")
    drew = 1 if (g.coup_fourre_replacement_draw and before.can_draw()) else 0
    if len(after.hands[q]) != len(before.hands[q]) - 1 + drew:
        out.append(f"{what}: the caller holds {len(after.hands[q])} cards, expected {len(before.hands[q]) - 1 + drew}")
    if g.safety_distance and after.miles[qs] >= after.target:  # option safety-distance completed the trip
        return
    queued = g.ruleset.coup_fourre.bonus_turn.value == "queued"
    if g.coup_fourre_extra_turn and queued:
        # the window outlives the attacker's turn (PlayAural _action_dirty_trick): the turn passes as if the
        # window were let pass (to the first queued turn, else the attacker's left); a caller who is not that
        # turn's player is queued after it and play then goes on from the caller's left; a caller whose turn
        # it is gets nothing queued
        owner = _next_turn(before, after, before.cf_attacker)
        _turn_passes(out, before, after, before.cf_attacker, what + " (the turn in progress)")
        waits = owner >= 0 and owner != q
        if after.decision.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER):
            return
        want_queue = before.queued[1:] + ([q] if waits else [])  # the turn now starting was the queue's first
        if after.queued != want_queue:
            out.append(f"{what}: queued turns {after.queued}, expected {want_queue}")
        if waits and after.resume != q:
            out.append(f"{what}: play should resume after {g.player_names[q]}, not after player {after.resume}")
    elif g.coup_fourre_extra_turn:
        # the caller's turn while it can draw or play (turn.draw_pile_out_ends_hand: nothing to draw ends the hand)
        who = _after(after, q, g.players) if after.hands[q] or after.can_refill(q) else _next_turn(before, after, q)
        _expect_turn(out, after, who, what + " (the caller's turn)")
    else:
        _turn_passes(out, before, after, before.cf_attacker, what)


def _check_decline(out: list[str], before: View, after: View, what: _What) -> None:
    """A window let pass: to the next eligible player, else (a coup fourré window) a fast-play window or the turn,
    else the turn passes from the attacker."""
    g = before.game
    rest = before.cf_queue[1:]
    if rest:
        if after.decision != (before.decision.kind, rest[0], True):
            out.append(f"{what}: the window should pass to {g.player_names[rest[0]]}, got {after.decision}")
    elif before.decision.kind == DecisionKind.COUP_FOURRE:
        _expect_fast_play_or_turn(out, before, after, before.cf_attacker, before.cf_hazard, before.cf_side, what)
    else:
        _turn_passes(out, before, after, before.cf_attacker, what)


def _check_fast_play(out: list[str], before: View, after: View, p: int, c: int, what: _What) -> None:
    """A fast play (rulings: fast play): the remedy on top of its pile, answering the window's hazard on its own
    side, the replacement draw, and the turn passing from the attacker."""
    g = before.game
    q = p
    qs = g.side_of[q]
    # on the pile of the hazard it answers (a combination remedy fixes hazards of both piles)
    pile = after.battle if g.pile[before.cf_hazard] == BATTLE else after.speed
    if not pile[qs] or pile[qs][-1] != c:
        out.append(f"{what}: the remedy is not on top of the pile of the hazard it answers")
    if not (g.fixes_mask[c] >> before.cf_hazard & 1) or before.cf_side != qs:
        out.append(f"{what}: the remedy does not answer the window's hazard on its own side")
    drew = 1 if (g.ruleset.fast_play.replacement_draw.value and before.can_draw()) else 0
    if len(after.hands[q]) != len(before.hands[q]) - 1 + drew:
        out.append(
            f"{what}: the fast player holds {len(after.hands[q])} cards, expected {len(before.hands[q]) - 1 + drew}"
        )
    _turn_passes(out, before, after, before.cf_attacker, what)


def _check_draw(out: list[str], before: View, after: View, p: int, action: Action, what: _What) -> None:
    """A draw, by the ruleset's turn rules: where the card came from, the reshuffle, the cards passed
    over, a refill, a mulligan's draw back, and whose decision follows."""
    g = before.game
    t = g.ruleset.turn
    hs = g.hand_size
    hand_b, hand_a = before.hands[p], after.hands[p]
    if action.from_discard:
        if not hand_b and t.refill_empty_hand.value:  # a refill first (it may reshuffle the rest of the pile)
            if hand_a[-1:] != before.discard[-1:] or len(hand_a) > hs + 1:
                out.append(f"{what}: the top card of the discard pile did not go to the refilled hand")
        elif hand_a != hand_b + before.discard[-1:] or after.discard != before.discard[:-1]:
            out.append(f"{what}: the top card of the discard pile did not go to the player's hand")
    elif before.decision.kind == DecisionKind.MULLIGAN:
        if len(hand_a) != hs and after.can_draw():
            out.append(f"{what}: the mulligan drew back to {len(hand_a)} cards, the hand size is {hs}")
        if hand_a[: len(hand_b)] != hand_b:
            out.append(f"{what}: the mulligan's draw back changed the cards kept")
    else:
        pool = list(before.draw)
        if not pool:  # the draw pile was out: the whole discard pile became the draw pile
            if sorted(after.draw + hand_a[len(hand_b) :]) != sorted(before.discard) or after.discard:
                out.append(f"{what}: the draw pile was out but the discard pile was not shuffled into a new one")
            if after.reshuffles != before.reshuffles + 1:
                out.append(f"{what}: reshuffles went from {before.reshuffles} to {after.reshuffles}")
        elif not hand_b and t.refill_empty_hand.value:
            if len(hand_a) > hs + 1 or (len(hand_a) < hs and after.can_draw()):
                out.append(f"{what}: an empty hand was refilled to {len(hand_a)} cards (hand size {hs})")
        else:
            n = t.pass_over_held.value
            top = len(pool) - 1
            want = top
            for i in range(top, max(top - n, 0) - 1, -1) if n else ():
                if pool[i] not in hand_b:
                    want = i
                    break
            card = pool.pop(want)
            if hand_a != hand_b + [card] or after.draw != pool:
                out.append(
                    f"{what}: the card drawn is not the "
                    + (
                        "first the player does not hold among the cards it may pass over"
                        if n
                        else "top card of the draw pile"
                    )
                )
    if _ptd(g) or before.decision.kind == DecisionKind.MULLIGAN:
        if after.decision.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER):
            if not (t.draw_pile_out_ends_hand.value and not after.can_draw()):  # the last card drawn ends it
                out.append(f"{what}: a draw ended the hand")
        elif (
            _ptd(g)
            and after.decision.player != before.after_draw
            and before.after_draw >= 0
            and after.decision.kind == DecisionKind.TURN
            and after.hands[before.after_draw]
        ):
            out.append(
                f"{what}: after the draw the turn should be {g.player_names[before.after_draw]}'s, got {after.decision}"
            )
    elif after.decision != (DecisionKind.TURN, p, True):
        out.append(f"{what}: after the draw, {after.decision}")


def _expect_fast_play_or_turn(
    out: list[str], before: View, after: View, attacker: int, hazard: int, ts: int, what: _What
) -> None:
    """After a hazard that no coup fourré answered: a fast-play window for the first player of the side hit
    (from the attacker's left; never the attacker) who holds a remedy for it, where the ruleset has fast play; else the next turn."""
    g = before.game
    rs = g.ruleset
    eligible = []
    if rs.fast_play.enabled.value and hazard >= 0 and (after.bhaz[ts] == hazard or after.lhaz[ts] == hazard):
        name = g.card_ids[hazard]
        fixers = {
            g.card_ids.index(cid) for cid, card in rs.cards.items() if card.kind == "remedy" and name in card.fixes
        }
        for k in range(1, g.players + 1):
            x = (attacker + k) % g.players
            if (
                g.side_of[x] == ts
                and x != attacker  # one never answers one's own hazard (a one-side table: rulings of solo)
                and any(f in after.hands[x] for f in fixers)
                and any(f in after.hands[x] and _may_lay(after, ts, f) for f in fixers)
            ):
                eligible.append(x)
    if eligible:
        if after.decision.kind != DecisionKind.FAST_PLAY or after.decision.player != eligible[0]:
            out.append(
                f"{what}: a fast-play window for {g.player_names[eligible[0]]} (holds a remedy), got {after.decision}"
            )
        return
    _turn_passes(out, before, after, attacker, what)


def _may_lay(view: View, s: int, c: int) -> bool:
    """Whether side ``s`` may lay remedy ``c`` now: one of its hazards shows on top of the remedy's pile.
    With stacked hazards, a battle remedy fixes any hazard in force (not only the top one), and a go card
    comes last: a Roll answers a Stop only when no other hazard is in force (option stacked-hazards:
    PlayAural refuses a Roll while another problem remains), so a Stop on a side already out of gas
    opens no fast-play window for a Roll."""
    g = view.game
    if g.pile[c] == BOTH_PILES:  # a combination remedy: on either pile, where a hazard it fixes shows
        return _may_lay_on(view, s, c, BATTLE) or _may_lay_on(view, s, c, SPEED)
    return _may_lay_on(view, s, c, g.pile[c])


def _may_lay_on(view: View, s: int, c: int, pile: int) -> bool:
    """Whether side ``s`` may lay remedy ``c`` on ``pile`` now (see :func:`_may_lay`)."""
    g = view.game
    if g.stacked_hazards and pile == BATTLE:
        fixes = g.fixes_mask[c]
        active = stacked_in_force(g, view.battle[s], view.prot[s])
        if not any(fixes >> h & 1 for h in active):
            return False
        return not (g.is_go[c] and any(not fixes >> h & 1 for h in active))
    top = (view.bhaz if pile == BATTLE else view.lhaz)[s]
    return top >= 0 and bool(g.fixes_mask[c] >> top & 1)


class Checker(Observer):
    """An observer that runs :func:`check_transition` and :func:`check` after every accepted action.

    The first action it sees records the violations already present in the starting position
    (``positions``) and the hand's :func:`position_start` for the score oracle; each later
    violation lands in ``problems`` with the action that caused it.

    One copy of the state (a :class:`View`) an action: the copy taken after an action, which both checks
    read, is the next action's "before" (:class:`KeptView`: the engine's own State; a deal in between starts
    a new copy).
    """

    def __init__(self, *, dealt: bool = False, totals: bool = False) -> None:
        self.dealt, self.totals = dealt, totals
        self.problems: list[str] = []
        self.positions: list[str] = []
        self._baseline: set[str] | None = None
        self._start: HandStart | None = None
        self._before: View | None = None
        self._kept = KeptView()

    def hand_start(self, state: State) -> None:
        self._kept.forget()  # dealt: the state is not the last action's any more

    def before_action(self, state: State, player: int, action: Action) -> None:
        if self._baseline is None:
            first = self._kept.current(state)
            start = check(first, dealt=self.dealt, totals=self.totals)
            self._baseline = set(start)
            self._start = position_start(first)
            self.positions.extend(f"starting position: {b}" for b in start)
        self._before = self._kept.before(state)

    def after_action(self, state: State, player: int, action: Action) -> None:
        prior = self._before
        baseline = self._baseline
        assert prior is not None and baseline is not None  # before_action ran first (the engine calls both)
        after = self._kept.after(state)  # one copy of the state after the action, read by both checks
        bad = check_transition(prior, action, after, player)
        bad += [b for b in check(after, dealt=self.dealt, totals=self.totals, start=self._start) if b not in baseline]
        if bad:
            g = state.game
            self.problems.extend(f"after {g.player_names[player]} {g.describe(action)}: {b}" for b in bad)


def checked_replay(path: str | Path, *, dealt: bool = False) -> tuple[list[ScenarioResult], list[str], list[str]]:
    """Replay a scenario file with :func:`check_transition` and :func:`check` run after every
    accepted action (a :class:`Checker` on each scenario's state). Returns the replay's results,
    the violations the actions caused (with the action), and the violations already present in a
    scenario's starting position.

    ``dealt=False`` (default): a scenario's position may have short hands and a running match.
    """
    from mbrules.scenario.replay import replay_file

    checkers: list[Checker] = []

    def watch(state: State) -> None:
        ck = Checker(dealt=dealt)
        checkers.append(ck)
        state.add_observer(ck)

    results = replay_file(path, watch)
    problems = [p for ck in checkers for p in ck.problems]
    positions = [p for ck in checkers for p in ck.positions]
    return results, problems, positions
