"""Effects: what a card does when it lands, and what a side's piles then allow.

Decides: where a played or discarded card goes (``_play``, ``_discard_card``), what a
safety protects and sweeps (``_protect``), and the derived state of a side read by
legality and by play-out policies (``_refresh``: rolling, the hazards showing, the speed
limit), with ``_can``/``_hit`` emptied whenever it changes.

Reads: the position and the Game's card tables (``kind``, ``pile``, ``miles``,
``is_go``, ``protects_mask``, ``grants_rolling``, ``bit``, ``limit``) and the play
rules ``safety_discards_hazard``, ``roll_after_safety``, ``safety_extra_turn``,
``safety_extra_turn_needs_draw_pile`` (and whether the draw pile is empty).

May change: hands, the discard pile, a side's piles, miles, played counts, safeties,
protection, ``_face_up`` and the history; then hands the turn on through the turn room
(``_start_turn``/``_end_turn``) or a reaction (``_open_coup_fourre``,
``_trip_reached``). Checks nothing: legality has accepted the action before.
"""

from __future__ import annotations

from ..vocab import BATTLE, DISTANCE, HAZARD, NO_LIMIT, REMEDY
from .notation import Action
from .fields import StateFields


class Effects(StateFields):
    """The effects room of :class:`~mbrules.engine.state.State` (a mixin: no slots of its own)."""

    __slots__ = ()

    def _refresh(self, s: int) -> None:
        """Recompute what a side's piles allow: rolling, the active hazards, the speed limit."""
        g = self.game
        self._can[s].clear()
        self._hit[s].clear()
        b = self._battle[s]
        top = b[-1] if b else -1
        prot = self._prot[s]
        bh = top if (top >= 0 and g.kind[top] == HAZARD and not prot & g.bit[top]) else -1
        self._bhaz[s] = bh
        if bh >= 0:
            rolling = False  # a hazard showing stops the side (WM §6A)
        elif self._needs_go[s] and not self._row[s]:
            rolling = False  # option roll-after-safety: a go card must follow
        elif top >= 0 and g.is_go[top]:
            rolling = True  # Roll on top (WM §6A)
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

    def _discard_card(self, p: int, a: Action) -> None:
        """``p`` discards (checked by :meth:`_verify_discard`); the turn passes (WM §5)."""
        c = a.card_index
        self._history.append((p, a))
        self._hands[p].remove(c)
        self._discard.append(c)
        self._face_up[c] += 1
        self._end_turn(p)

    def _play(self, p: int, c: int, ts: int) -> None:
        """``p`` plays card ``c`` on side ``ts`` (checked by :meth:`_verify_play`)."""
        g = self.game
        ps = g.side_of[p]
        k = g.kind[c]
        self._history.append((p, g.play_action[c][ts] if k == HAZARD else g.play_own[c]))
        self._hands[p].remove(c)
        self._face_up[c] += 1
        if k == DISTANCE:
            self._played[ps][c] += 1
            m = self._miles[ps] + g.miles[c]
            self._miles[ps] = m
            self._can[ps].clear()  # miles and 200s played: the side's distance checks change
            if m == self._target:
                self._trip_reached(p, ps)
            else:
                self._end_turn(p)
        elif k == HAZARD:
            (self._battle if g.pile[c] == BATTLE else self._speed)[ts].append(c)
            self._refresh(ts)
            self._open_coup_fourre(p, c, ts)
        elif k == REMEDY:
            if g.pile[c] == BATTLE:
                self._battle[ps].append(c)
                self._needs_go[ps] = False
            else:
                self._speed[ps].append(c)
            self._refresh(ps)
            self._end_turn(p)
        else:
            self._safeties[ps].append(c)
            self._protect(ps, c, normal=True)
            if g.safety_extra_turn and (self._stock or not g.safety_extra_turn_needs_draw_pile):
                # another turn, chained (WM §5B); with play.safety_extra_turn_needs_draw_pile, only while the
                # draw pile lasts (French rules, Fin de manche: 'n'autorise plus à rejouer immédiatement')
                self._start_turn(p)
            else:
                self._end_turn(p)

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
            while b and g.kind[b[-1]] == HAZARD and prot & g.bit[b[-1]]:
                self._discard.append(b.pop())  # 'cancels the attack in progress' (WM §6B)
                swept = True
            sp = self._speed[s]
            while sp and g.kind[sp[-1]] == HAZARD and prot & g.bit[sp[-1]]:
                self._discard.append(sp.pop())
            if swept and normal and g.roll_after_safety:
                self._needs_go[s] = True  # option roll-after-safety: the safety acts as the remedy
        self._refresh(s)
