"""Effects: what a card does when it lands, and what a side's piles then allow.

Decides: where a played or discarded card goes (``_play``, ``_discard_card``), what a
safety protects and sweeps (``_protect``), and the derived state of a side read by
legality and by play-out policies (``_refresh``: rolling, the hazards showing, the speed
limit), with ``_can``/``_hit`` emptied whenever it changes; with stacked hazards, the set of
battle hazards in force (``_stack_positions``, ``_bmask``, ``battle_hazards``); the pile a
combination remedy goes to (``_fixes_battle``); a safety's miles (``_safety_miles``).

Reads: the position and the Game's card tables (``kind``, ``pile``, ``miles``,
``is_go``, ``moves``, ``fixes_mask``, ``protects_mask``, ``grants_rolling``, ``bit``, ``limit``)
and the play rules ``safety_discards_hazard``, ``roll_after_safety``, ``safety_extra_turn``,
``safety_extra_turn_needs_draw_pile`` (and whether the draw pile is empty), ``stacked_hazards``,
``safety_distance``.

May change: hands, the discard pile, a side's piles, miles, played counts, safeties,
protection, ``_face_up`` and the history; then hands the turn on through the turn room
(``_start_turn``/``_end_turn``) or a reaction (``_open_coup_fourre``,
``_trip_reached``); a discard writes out ``_end_turn``'s commonest case itself (``_player``, ``_phase``:
the next player draws), a call fewer at most turns. Checks nothing: legality has accepted the action before.
"""

from __future__ import annotations

from typing import Any

from ..vocab import BATTLE, DISTANCE, HAZARD, KARMA, NO_LIMIT, REMEDY, SPEED
from .fields import UNJUDGED, StateFields, trait
from .phases import P_DRAW

# what the current action did to karma (ruleset 'karma'), in State._note beside the turn room's draw notes
# (turn.py: 1, 2, 4, 8): its attacker shunned; the attack neutralised (both sides lose karma); karma given back
KARMA_SHUNNED = 16
KARMA_NEUTRALISED = 32
KARMA_REGAINED = 64


@trait
class Effects(StateFields):
    """The effects room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _refresh(self, s: int) -> None:
        """Recompute what a side's piles allow: rolling, the active hazards, the speed limit; and legality's memo
        of the side's answers (``_can``, ``_hit``): emptied, or (Game.rows_by_state) the rows judged once for
        this side state (:meth:`_judged_rows`)."""
        g = self.game
        b = self._battle[s]
        top = b[-1] if b else -1
        prot = self._prot[s]
        if g.stacked_hazards:
            bh = self._refresh_stack(s)  # option stacked-hazards: every hazard in force, not only the top one
        else:
            bh = top if (top >= 0 and g.kind[top] == HAZARD and not prot & g.bit[top]) else -1
        self._bhaz[s] = bh
        if bh >= 0:
            rolling = False  # a hazard showing stops the side (WM §6A)
        elif self._needs_go[s] and not self._row[s]:
            rolling = False  # option roll-after-safety: a go card must follow
        elif top >= 0 and g.moves[top]:
            rolling = True  # Roll on top (WM §6A); option remedy-restarts: a restarting remedy too
        else:
            rolling = self._row[s]  # Right of Way: rolling with no Roll (WM §6B)
        self._rolling[s] = rolling
        sp = self._speed[s]
        t = sp[-1] if sp else -1
        if t >= 0 and g.kind[t] == HAZARD and not prot & g.bit[t]:
            self._lhaz[s] = t
            self._limit[s] = g.limit[t]
        else:
            self._lhaz[s] = -1
            self._limit[s] = NO_LIMIT
        if g.rows_by_state:
            # all that _play_reason reads of side s but for the distance checks (rolling follows from these)
            key = (bh, self._bmask[s], self._lhaz[s], prot, self._row[s], self._needs_go[s], top >= 0 and g.moves[top])
            rows = g.side_rows.get(key)
            if rows is None:
                rows = g.side_rows[key] = self._judged_rows(s)
            self._can[s] = list(rows[0])
            self._hit[s] = list(rows[1])
        else:
            self._can[s] = [UNJUDGED] * g.n_cards
            self._hit[s] = [UNJUDGED] * g.n_cards

    def _judged_rows(self, s: int) -> tuple[Any, Any]:
        """Side ``s``'s memo rows judged whole, as legal_actions would one by one: the cards it plays on itself
        but distance (UNJUDGED: judged in play), and the hazards on it (judged for the first side that may
        attack it; karma off, a hazard's checks read only the side hit)."""
        g = self.game
        can: list[str | None] = [UNJUDGED] * g.n_cards
        for c in g.own_cards:
            can[c] = self._play_reason(s, c, s)
        hit: list[str | None] = [UNJUDGED] * g.n_cards
        a = g.first_attacker[s]
        if a >= 0:
            for c in g.hazard_cards:
                hit[c] = self._play_reason(a, c, s)
        return tuple(can), tuple(hit)

    def _stack_positions(self, s: int) -> list[int]:
        """Option stacked-hazards: where the battle hazards not yet fixed lie in side ``s``'s battle pile.

        The pile is read in play order: a hazard joins the stack, a remedy takes off the latest hazard
        it fixes (docs/conformance.md, rulings of the options). Protection is applied by the caller."""
        g = self.game
        kind, fixes = g.kind, g.fixes_mask
        b = self._battle[s]
        at: list[int] = []
        for i, c in enumerate(b):
            k = kind[c]
            if k == HAZARD:
                at.append(i)
            elif k == REMEDY:
                fx = fixes[c]
                for j in range(len(at) - 1, -1, -1):
                    if fx >> b[at[j]] & 1:
                        del at[j]
                        break
        return at

    def _refresh_stack(self, s: int) -> int:
        """Option stacked-hazards: the side's hazards in force (``_bmask``); the latest of them, or -1."""
        g = self.game
        prot = self._prot[s]
        b = self._battle[s]
        active = [b[i] for i in self._stack_positions(s) if not prot & g.bit[b[i]]]
        mask = 0
        for c in active:
            mask |= g.bit[c]
        self._bmask[s] = mask
        return active[-1] if active else -1

    def battle_hazards(self, s: int) -> tuple[int, ...]:
        """The battle hazards in force on side ``s``, in play order: with option stacked-hazards every one
        not yet fixed, else at most the one on top."""
        if not self.game.stacked_hazards:
            h = self._bhaz[s]
            return (h,) if h >= 0 else ()
        g = self.game
        b = self._battle[s]
        return tuple(b[i] for i in self._stack_positions(s) if not self._prot[s] & g.bit[b[i]])

    def _fixes_battle(self, s: int, c: int) -> bool:
        """Whether remedy ``c`` fixes a battle hazard in force on side ``s`` (a combination remedy fixes
        it before a speed limit: docs/conformance.md, rulings of the options)."""
        g = self.game
        h = self._bhaz[s]
        if h < 0:
            return False
        if g.stacked_hazards:
            return bool(g.fixes_mask[c] & self._bmask[s])
        return bool(g.fixes_mask[c] >> h & 1)

    def _lay_remedy(self, s: int, c: int, battle: bool) -> None:
        """Remedy ``c`` on side ``s``'s battle pile (``battle``: no go card is asked for after it) or its speed
        pile; a turn's play and a fast play lay it alike, each deciding the pile."""
        if battle:
            self._battle[s].append(c)
            self._needs_go[s] = False
        else:
            self._speed[s].append(c)
        self._refresh(s)

    def _forget_distance(self, s: int, c: int) -> None:
        """Side ``s``'s miles grew (and, ``c`` >= 0, its count of distance card ``c`` played): legal_actions' memo
        forgets the answers this could change: ``c``'s own once its count reaches the most a hand allows, and those
        of the distance cards it allowed that would now pass the target (``c``'s among them). ``_play_reason``'s
        distance checks read besides only whether the side rolls and its speed limit, which neither changes, and a
        refusal stays one (the miles and the counts only grow); a remedy's, a safety's, a karma card's and a
        hazard's read the piles, protection and karma, never the miles. (Forgetting every distance card's answer
        re-judged 21 of a random-bot hand's 162 to the same answer; forgetting ``c``'s at every play, 9 more.)"""
        can = self._can[s]
        if c >= 0 and self._played[s][c] >= self.game.max_per_hand[c]:
            can[c] = UNJUDGED
        room = self._target - self._miles[s]
        miles = self.game.miles
        for d in self.game.distance_cards:
            if can[d] is None and miles[d] > room:
                can[d] = UNJUDGED

    def _safety_miles(self, s: int) -> bool:
        """Option safety-distance: add a safety's miles to side ``s`` unless they would pass the target;
        whether the side has now reached the target (docs/conformance.md, rulings of the options)."""
        m = self._miles[s] + self.game.safety_distance
        if m > self._target:
            return False
        self._miles[s] = m
        self._forget_distance(s, -1)  # its distance checks read the miles
        return m >= self._target

    def _discard_card(self, p: int, c: int) -> None:
        """``p`` discards card ``c`` (checked by :meth:`_verify_discard`); the turn passes (WM §5). The caller has
        read the action's card already (an attribute of an int subclass: a lookup each time)."""
        g = self.game
        self._history.append(g.discard_entries[p][c])  # (p, a), built once (Game.discard_entries)
        self._hands[p].remove(c)
        self._discard.append(c)
        self._face_up[c] += 1
        if g.stall_checked and self._stalled():
            self._end_hand()  # the stall rule (turn.stall_discards): scored as a hand whose cards ran out
            return
        if self._stock and not g.play_then_draw and self._resume < 0:
            # the turn room's _end_turn, its commonest case written out (a call fewer a turn): the next player draws
            q = p + 1
            self._player = 0 if q == g.players else q
            self._phase = P_DRAW
            return
        self._end_turn(p)

    def _stalled(self) -> bool:
        """turn.stall_discards (ruling: the stall rule): whether this discard is the limit's in a row with no
        card drawn from the draw pile and none laid on a tableau since the one before (the draw pile's size, the
        reshuffles and the cards on the tableaux all unchanged)."""
        g = self.game
        held = sum(len(h) for h in self._hands)
        mark = (len(self._stock), self._reshuffles, len(g.deck) - len(self._stock) - len(self._discard) - held)
        self._stall = self._stall + 1 if mark == self._stall_mark else 1
        self._stall_mark = mark
        return self._stall >= g.stall_discards

    def _play(self, p: int, c: int, ts: int) -> None:
        """``p`` plays card ``c`` on side ``ts`` (checked by :meth:`_verify_play`)."""
        g = self.game
        ps = g.side_of[p]
        k = g.kind[c]
        entries = g.play_entries[p][c]  # (p, the play), built once: a hazard's per side hit, else one
        self._history.append(entries[ts] if k == HAZARD else entries[0])
        self._hands[p].remove(c)
        self._face_up[c] += 1
        if k == DISTANCE:
            self._played[ps][c] += 1
            m = self._miles[ps] + g.miles[c]
            self._miles[ps] = m
            self._forget_distance(ps, c)  # miles and 200s played: the side's distance checks change
            if m >= self._target:  # exactly on it, or past it with option overshoot
                self._trip_reached(p, ps)
            else:
                self._end_turn(p)
        elif k == HAZARD:
            if self._karma[ps] and self._karma_attack(ps, c, ts):  # ruleset 'karma' (all False without it)
                self._end_turn(p)  # neutralised: PlayAural game.py _play_hazard ends the turn, no window opens
                return
            (self._battle if g.pile[c] == BATTLE else self._speed)[ts].append(c)
            self._refresh(ts)
            self._open_coup_fourre(p, c, ts)
        elif k == REMEDY:
            pile = g.pile[c]
            self._lay_remedy(ps, c, pile == BATTLE or (pile != SPEED and self._fixes_battle(ps, c)))
            self._end_turn(p)
        elif k == KARMA:
            # ruleset 'karma': the side gets its karma back (PlayAural game.py _play_special: 'race_state.has_karma =
            # True'); the card leaves play (there, the protections pile, never reshuffled): here, the side's table
            self._karma_cards[ps].append(c)
            self._karma[ps] = True
            self._can[ps] = [UNJUDGED] * self.game.n_cards  # its karma card's check reads it
            self._set_foes()
            self._note |= KARMA_REGAINED
            self._end_turn(p)  # no other turn: _play_special ends it
        else:
            self._safeties[ps].append(c)
            self._protect(ps, c, normal=True)
            if g.safety_distance and self._safety_miles(ps):
                self._trip_reached(p, ps)  # option safety-distance: the safety's miles completed the trip
                return
            # another turn, chained (WM §5B); with play.safety_extra_turn_needs_draw_pile, only while the
            # draw pile lasts (French rules, Fin de manche: 'n'autorise plus à rejouer immédiatement')
            # (a reshuffle the ruleset allows keeps it going: _can_draw)
            extra = g.safety_extra_turn and bool(
                self._stock or not g.safety_extra_turn_needs_draw_pile or self._can_draw()
            )
            if g.safety_replacement_draw and self._can_draw():
                # play.safety_replacement_draw: the safety is replaced at once (PlayAural game.py _play_safety:
                # 'draw replacement and continue'); the extra turn is then a play
                self._replacement_draw(p)
                if extra:
                    self._play_again(p)
                    return
            if extra:
                self._turn_again(p)
            else:
                self._end_turn(p)

    def _karma_attack(self, ps: int, c: int, ts: int) -> bool:
        """Ruleset 'karma': side ``ps``, which has its karma, plays hazard ``c`` on side ``ts`` (PlayAural game.py
        _play_hazard, 'Karma rule: handle karma interactions'). Whether the attack is neutralised: both sides
        have karma, both lose it and the hazard goes to the discard pile. Else the attacker alone loses its karma
        (it is shunned) and the hazard lands."""
        neutralised = self._karma[ts]
        self._karma[ps] = False
        self._can[ps] = [UNJUDGED] * self.game.n_cards  # its karma card's check reads it
        if neutralised:
            self._karma[ts] = False
            self._can[ts] = [UNJUDGED] * self.game.n_cards
            self._discard.append(c)
            self._note |= KARMA_NEUTRALISED
        else:
            self._note |= KARMA_SHUNNED
        self._set_foes()
        return neutralised

    def _set_foes(self) -> None:
        """The sides each side may put a hazard on (``_foes``, read by ``legal_actions``): ``Game.hazard_sides``,
        less, for a side without karma, those with karma (ruleset 'karma'). Called only where some karma changes."""
        g = self.game
        karma = self._karma
        self._foes = [
            opp if karma[s] else tuple(t for t in opp if not karma[t]) for s, opp in enumerate(g.hazard_sides)
        ]

    def _protect(self, s: int, c: int, normal: bool) -> None:
        """A safety lands: protect the side and send protected hazards showing to the discard pile."""
        g = self.game
        self._prot[s] |= g.protects_mask[c]
        if g.grants_rolling[c]:
            self._row[s] = True
        if g.safety_discards_hazard or not normal:
            prot = self._prot[s]
            b = self._battle[s]
            swept = False
            if g.stacked_hazards:  # option stacked-hazards: every hazard in force it protects against goes
                for i in reversed(self._stack_positions(s)):
                    if prot & g.bit[b[i]]:
                        self._discard.append(b.pop(i))
                        swept = True
            while b and g.kind[b[-1]] == HAZARD and prot & g.bit[b[-1]]:
                self._discard.append(b.pop())  # 'cancels the attack in progress' (WM §6B)
                swept = True
            sp = self._speed[s]
            while sp and g.kind[sp[-1]] == HAZARD and prot & g.bit[sp[-1]]:
                self._discard.append(sp.pop())
            if swept and normal and g.roll_after_safety:
                self._needs_go[s] = True  # option roll-after-safety: the safety acts as the remedy
        self._refresh(s)
