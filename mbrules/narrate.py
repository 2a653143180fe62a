"""A match in words: one narrator for ``mbrules play`` and the terminal seat.

Every sentence about an action is built from the :class:`~mbrules.engine.Transition` the engine
returns for it (who acted, where the card went, the distance after, what a coup fourré answered,
whether the actor plays again), never predicted from the table: the words cannot drift from the
rules. Distances are in the ruleset's own unit (``display.distance_unit``) and piles and areas
have the edition's names.

``public=True`` leaves out what the whole table must not hear: draws are never told (the card
is hidden), and a coup fourré window let pass is not told in public (a window opens only for a
holder of the safety, so telling it would tell that hand).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .text import plural
from .vocab import (
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
    PLAY,
    SAFETY,
    SCORE_LINE_WORDS,
    STOP,
    DecisionKind,
    LineWords,
    Reason,
)

if TYPE_CHECKING:
    from .engine import Action, Game, Observation, State, Transition


# the contract's score lines as the sheet prints them (mbrules.vocab.SCORE_LINE_WORDS)
LINE_LABELS = {line: words.label for line, words in SCORE_LINE_WORDS.items()}


def line_label(line: str, game: "Game | None" = None) -> str:
    """A score line as the sheet prints it: the contract's in their words, a ruleset's own line in its
    ``label`` (``game``'s ruleset: :func:`mbrules.ruleset.words.score_line_words`), else from its id
    ('fin_vitesse' -> 'Fin vitesse')."""
    if line in SCORE_LINE_WORDS:
        return SCORE_LINE_WORDS[line].label
    if game is not None:
        from .ruleset.words import score_line_words

        words = score_line_words(game.ruleset).get(line)
        if words is not None:
            return words.label
    return LineWords.of_id(line).label


class Narrator:
    """The words of one game (a ruleset compiled for a player count)."""

    def __init__(self, game: "Game", public: bool = False):
        self.game = game
        self.public = public
        d = game.ruleset.display
        self.unit = d.distance_unit.value  # miles, km
        self.pile_names = (d.battle_pile, d.speed_pile)  # by Game.pile: BATTLE, SPEED
        self.safety_area = d.safety_area
        self.draw_pile = d.draw_pile
        self.discard_pile = d.discard_pile
        gos = [game.names[c] for c in range(game.n_cards) if game.is_go[c]]
        self.go_name = gos[0] if len(gos) == 1 else "go card"

    # -- people and sides ------------------------------------------------------------------
    def who(self, p: int) -> str:
        """'p1 (A)'."""
        g = self.game
        return f"{g.player_names[p]} ({g.side_names[g.side_of[p]]})"

    def side_label(self, s: int, me: int | None = None) -> str:
        return side_label(self.game, s, me)

    def distance(self, n: int) -> str:
        return f"{n} {self.unit}"

    # -- what happened ---------------------------------------------------------------------
    def action(self, t: "Transition", st: "State | None" = None) -> str | None:
        """One sentence for an accepted action, or None for what is not told (draws; declines in public).

        ``st``, the state right after it (an observer has it), adds what the record alone cannot say:
        with option stacked-hazards, the hazards still in force on a side after a hazard or a remedy."""
        g = self.game
        a = t.action
        op = a.op
        who = self.who(t.player)
        if op == DRAW:  # the card drawn is never told, but where it came from and a reshuffle are public
            return self._draw(t, who)
        if op == MULLIGAN:
            return _sentence(f"{who} throws {g.names[a.card_index]} away (mulligan).")
        if op == PLAY:
            return self._play(t, st, who)
        if op == DISCARD:
            return _sentence(f"{who} discards {g.names[a.card_index]}.")
        if op == COUP_FOURRE:
            return self._coup_fourre(t, who)
        if op == FAST_PLAY:
            return self._fast_play(t, who)
        if op == DECLINE:
            if self.public:
                return None
            if g.fast_play_enabled:  # the window may be a coup fourré's or a fast play's
                return _sentence(f"{who} lets the chance to answer {g.names[t.window_hazard]} pass.")
            return _sentence(f"{who} lets the coup fourré against {g.names[t.window_hazard]} pass.")
        if op == EXTEND:
            return _sentence(f"{who} calls the EXTENSION: the trip is now {self.distance(t.target)}.")
        if op == STOP:
            return f"{who} does not call the extension."
        return None

    def _draw(self, t: "Transition", who: str) -> str | None:
        """A draw: never the card drawn, but a reshuffle and a card taken from the discard pile (public)."""
        g = self.game
        said = []
        if t.reshuffled:
            said.append(f"The {self.discard_pile} is shuffled into a new {self.draw_pile}.")
        if t.from_discard:
            said.append(_sentence(f"{who} takes {g.names[t.drawn]} from the {self.discard_pile}."))
        elif t.drawn_more:
            said.append(f"{who} draws {plural(len(t.drawn_more) + (t.drawn >= 0), 'card')}.")
        return " ".join(said) or None

    def _play(self, t: "Transition", st: "State | None", who: str) -> str:
        """A card played on the table: distance, hazard, karma, safety or remedy."""
        g = self.game
        a = t.action
        c = a.card_index
        k = g.kind[c]
        name = g.names[c]
        if k == DISTANCE:
            done = "  trip completed!" if t.trip_completed else ""
            past = f" ({t.miles - t.target} past the target)" if t.miles > t.target else ""  # option overshoot
            return _sentence(
                f"{who} plays {name}: side {g.side_names[g.side_of[t.player]]} at {self.distance(t.miles)}{past}.{done}"
            )
        if k == HAZARD:
            if t.neutralised:  # ruleset 'karma': both sides had karma
                return _sentence(
                    f"{who} plays {name} on side {g.side_names[t.side]}, but both sides have karma: the attack "
                    f"is neutralised, {name} goes to the {self.discard_pile} and both sides lose their karma."
                )
            shunned = f"; side {g.side_names[g.side_of[t.player]]} is shunned (loses its karma)" if t.karma_lost else ""
            return _sentence(
                f"{who} plays {name} on side {g.side_names[t.side]}'s "
                f"{self.pile_names[g.pile[c]]}{self._stack(st, t)}{shunned}."
            )
        if k == KARMA:
            return _sentence(f"{who} plays {name}: side {g.side_names[t.side]} has its karma back.")
        if k == SAFETY:
            again = " and plays again" if t.extra_turn else ""
            return _sentence(
                f"{who} plays {name} to the {self.safety_area}{self._safety_miles(t)}{again}."
                + ("  trip completed!" if t.trip_completed else "")
            )
        if g.restarts[c]:  # option remedy-restarts: no go card needed after it
            return _sentence(f"{who} plays {name} (no {self.go_name} needed after it){self._stack(st, t)}.")
        return _sentence(f"{who} plays {name}{self._stack(st, t)}.")

    def _coup_fourre(self, t: "Transition", who: str) -> str:
        """A coup fourré: the safety, the hazard it answered, the miles it gave, who plays next."""
        g = self.game
        a = t.action
        nxt = " and plays next" if t.extra_turn else ""
        if t.queued_turn:
            nxt = " and plays after the turn in progress (queued)"
        if t.reshuffled:
            nxt += f"; the {self.discard_pile} is shuffled into a new {self.draw_pile}"
        return _sentence(
            f"{who} calls COUP FOURRÉ with {g.names[a.card_index]} against "
            f"{g.names[t.window_hazard]}{self._safety_miles(t)}{nxt}."
            + ("  trip completed!" if t.trip_completed else "")
        )

    def _fast_play(self, t: "Transition", who: str) -> str:
        """A remedy played at once, out of turn, against the hazard just played (fast play)."""
        g = self.game
        a = t.action
        shuffled = f"; the {self.discard_pile} is shuffled into a new {self.draw_pile}" if t.reshuffled else ""
        return _sentence(
            f"{who} answers {g.names[t.window_hazard]} at once, out of turn, with "
            f"{g.names[a.card_index]} (fast play){shuffled}."
        )

    def _stack(self, st: "State | None", t: "Transition") -> str:
        """Option stacked-hazards: ', side A still stopped by Accident and Stop!' when two or more hazards
        are in force on the side the card went to (one is told by the card itself), else ''."""
        g = self.game
        if st is None or not g.stacked_hazards or t.side < 0 or st.hand_over:
            return ""
        left = st.battle_hazards(t.side)
        if not left or (len(left) == 1 and g.kind[t.action.card_index] == HAZARD):
            return ""
        return f": side {g.side_names[t.side]} still stopped by {' and '.join(g.names[h] for h in left)}"

    def _safety_miles(self, t: "Transition") -> str:
        """Option safety-distance: what the safety's miles did (', side A at 300 miles'), else ''."""
        g = self.game
        if not g.safety_distance:
            return ""
        side = g.side_names[g.side_of[t.player]]
        return f": side {side} at {self.distance(t.miles)}"

    def hand_start(self, st: "State", first: int) -> str:
        """The line that opens a hand: who plays first, the trip, the draw pile."""
        obs = st.observation(first)
        return (
            f"{self.game.player_names[first]} plays first; trip of {self.distance(obs.target)}; "
            f"{plural(obs.draw_pile, 'card')} in the {self.draw_pile}."
        )

    def hand_end(self, st: "State") -> str:
        """Who completed the trip when a hand ends (read at its end, before the next deal)."""
        done = st.current_completer()
        target = st.observation(0).target
        if done >= 0:
            return f"Side {self.game.side_names[done]} completed the trip of {self.distance(target)}."
        return f"The {self.draw_pile} is out and every hand is played out: no side completed the trip."

    def result(self, st: "State") -> tuple[str, str]:
        """(result, sentence): the winner's side name, ``draw`` or ``unfinished``, and the match's last line."""
        g = self.game
        totals = ", ".join(f"{g.side_names[s]} {t}" for s, t in enumerate(st.match_totals))
        out = st.outcome
        n = st.hands_played
        if out is None:
            return "unfinished", f"Stopped after {plural(n, 'hand')} with the match undecided ({totals})."
        if out.draw:
            return "draw", f"The match is a draw ({totals})."
        if out.unfinished:
            return "unfinished", (
                f"Stopped after {plural(n, 'hand')}, the most this ruleset allows in a match "
                f"(match.max_hands), with the match undecided ({totals})."
            )
        return out.result, f"Side {self.side_label(out.winner_index)} wins the match ({totals})."

    # -- what may be done ------------------------------------------------------------------
    def move(self, obs: "Observation", a: "Action") -> str:
        """A legal move in plain words for the list of moves ('Stop! on side B (p2)', '100 miles: A to 450 miles')."""
        g = self.game
        op = a.op
        if op == DRAW:
            if a.from_discard:
                top = g.names[obs.discard[-1]] if obs.discard else "its top card"
                return f"take {top} from the {self.discard_pile}"
            if obs.decision.kind == DecisionKind.MULLIGAN:
                return f"end the mulligan: draw back to {plural(g.hand_size, 'card')}"
            return "draw a card"
        if op == MULLIGAN:
            return f"mulligan: throw {g.names[a.card_index]} away"
        if op == DECLINE:
            kept = "remedy" if obs.decision.kind == DecisionKind.FAST_PLAY else "safety"
            return f"let it pass (keep the {kept})"
        if op == EXTEND:
            assert g.extension_to is not None  # extending is legal only where the ruleset has an extension
            return f"extend the trip to {self.distance(g.extension_to)}"
        if op == STOP:
            return f"stop at {self.distance(obs.target)}: the hand ends"
        c = a.card_index
        name = g.names[c]
        if op == DISCARD:
            return f"discard {name}"
        if op == COUP_FOURRE:
            return f"COUP FOURRÉ with {name}"
        if op == FAST_PLAY:
            return f"FAST PLAY: {name} on your side, now"
        k = g.kind[c]
        if k == HAZARD:
            ts = a.side_index if a.side_index >= 0 else g.hazard_sides[obs.side][0]
            if ts == obs.side:  # option solo: a hazard on one's own car
                return f"{name} on your own side"
            return f"{name} on side {self.side_label(ts)}"
        if k == DISTANCE:
            return f"{name}: side {g.side_names[obs.side]} to {self.distance(obs.my_side.miles + g.miles[c])}"
        if k == SAFETY:
            return f"{name} to your {self.safety_area}"
        if k == KARMA:
            return f"{name}: get your karma back"
        return f"{name} on your side"

    def question(self, obs: "Observation") -> str | None:
        """The question a coup fourré or fast-play window or the extension puts to the seat ``obs`` is for, or None."""
        g = self.game
        kind = obs.decision.kind
        if kind == DecisionKind.COUP_FOURRE:
            hz = g.names[obs.window_hazard] if obs.window_hazard >= 0 else "a hazard"
            return (
                f"COUP FOURRÉ? {hz} was just played on your side and you hold its safety. "
                f"Call the coup fourré (1, or y) or let it pass (n)?"
            )
        if kind == DecisionKind.MULLIGAN:
            return (
                f"MULLIGAN: throw another card away, or draw back to {plural(g.hand_size, 'card')} "
                "(your turn then ends)?"
            )
        if kind == DecisionKind.FAST_PLAY:
            hz = g.names[obs.window_hazard] if obs.window_hazard >= 0 else "a hazard"
            return (
                f"FAST PLAY? {hz} was just played on your side and you hold its remedy. "
                f"Play it now, out of turn (1, or y) or let it pass (n)?"
            )
        if kind == DecisionKind.EXTENSION:
            assert g.extension_to is not None  # the question is asked only where the ruleset has an extension
            return (
                f"EXTENSION? Your side has completed the trip of {self.distance(obs.target)}. Extend it to "
                f"{self.distance(g.extension_to)} (y: extend) or stop here (n: stop, the hand ends)?"
            )
        return None


def side_label(game: "Game", s: int, me: int | None = None) -> str:
    """'A (p1, p3)', with 'you' in place of player ``me``."""
    names = [("you" if p == me else game.player_names[p]) for p in game.side_players[s]]
    return f"{game.side_names[s]} ({', '.join(names)})"


def _sentence(text: str) -> str:
    """A display name ending in '!' or '?' (Roll!, Stop!) ends the sentence: no full stop after it."""
    return text[:-1] if text.endswith(("!.", "?.")) else text


# -- refusals in the words of the table ---------------------------------------------------------
def _names(game: Game, cards: Iterable[int]) -> str:
    names = [game.names[c] for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _a(name: str) -> str:
    """'a Spare Tire', 'an End of Limit' (a name that starts with a digit stays bare: '200')."""
    if not name or name[0].isdigit():
        return name
    return ("an " if name[0].lower() in "aeiou" else "a ") + name


def refusal(game: Game, obs: Observation, card: int, target_side: int, code: str, engine_words: str) -> str:
    """Why ``card`` (played on ``target_side``, or one's own side when -1) is refused, in player words."""
    me = obs.sides[obs.side]
    name = game.names[card]
    unit = game.ruleset.display.distance_unit.value
    ts = obs.side if target_side < 0 else target_side
    them = side_label(game, ts, obs.player)
    if code == Reason.CANNOT_MOVE:
        if me.hazard >= 0:
            if len(me.hazards) > 1:  # option stacked-hazards: several to fix
                return f"you have {' and '.join(game.names[h] for h in me.hazards)}: fix each with its remedy first"
            fixes = [c for c in range(game.n_cards) if game.fixes_mask[c] >> me.hazard & 1]
            return f"you have {_a(game.names[me.hazard])}: play {_a(_names(game, fixes))} first"
        gos = [c for c in range(game.n_cards) if game.is_go[c]]
        return f"you are not rolling yet: play {_a(_names(game, gos))} first"
    if code == Reason.SPEED_LIMIT:
        limit_card = game.names[me.speed_hazard] if me.speed_hazard >= 0 else "a speed limit"
        return f"you are under {_a(limit_card)}: only {me.limit} {unit} or less until you play an end of it"
    if code == Reason.OVER_TARGET:
        return (
            f"{name} would take you from {me.miles} past the trip of {obs.target} {unit}: "
            f"you need exactly {obs.target - me.miles} {unit} more"
        )
    if code == Reason.TOO_MANY_200:
        return f"you have already played {me.distance[card]} {name} this hand, the most allowed"
    if code == Reason.PROTECTED:
        return f"side {them} has the safety against {name}"
    if code == Reason.NOT_ROLLING:
        return f"side {them} is not rolling: {name} only stops a side that is moving"
    if code == Reason.ALREADY_LIMITED:
        return f"side {them} already has a speed limit"
    if code == Reason.NOTHING_TO_FIX:
        return f"there is nothing for {_a(name)} to fix on your side"
    if code == Reason.ROLLING_SAFETY:
        return f"your safety lets you roll: this edition refuses {_a(name)} while it is down"
    if code == Reason.SAME_HAZARD:
        return f"side {them} already has {_a(name)} in force"
    if code == Reason.OTHER_HAZARD:
        rest = [h for h in me.hazards if not game.fixes_mask[card] >> h & 1]
        return f"{name} comes last: fix {' and '.join(game.names[h] for h in rest)} first"
    if code == Reason.NOT_DISCARDABLE:
        return f"{_a(name)} may never be discarded in this edition: play it instead"
    if code == Reason.PLAYABLE_CARD:
        return f"you could play {_a(name)}, so this edition does not let you discard it"
    if code == Reason.MUST_PLAY:
        return "you hold a card you can play: this edition does not let you discard then"
    if code == Reason.DISCARD_DRAW_MUST_PLAY:
        return f"you took the top of the {game.ruleset.display.discard_pile} this turn: play a card, not a discard"
    if code == Reason.BAD_TARGET:
        if game.kind[card] == HAZARD and not game.hazards_on_own_side:
            return f"{name} goes on an opponent's side"
        return f"{name} goes on your own side"  # a remedy or safety; a hazard with hazards_on own_side (solo)
    if code == Reason.SHUNNED:
        return f"you have lost your karma: you may attack only a side that has lost its karma too, not side {them}"
    if code == Reason.HAS_KARMA:
        return f"you still have your karma: {name} only gives back a karma lost"
    return engine_words


def take_refusal(game: Game, obs: Observation) -> str:
    """Why the seat of ``obs``, at its draw, may not take the discard pile's top, in player words (one
    sentence): the ruleset never allows it, the pile is empty, or turn.discard_draw_must_play (the top is
    taken only by a turn that plays a card). The terminal game's keys and the browser tables say it so."""
    pile = game.ruleset.display.discard_pile
    if not game.draw_from_discard:
        return f"This edition never lets you take a card from the {pile}."
    if not obs.discard:
        return f"The {pile} is empty: there is nothing to take."
    if game.discard_draw_must_play:
        if game.play_then_draw:
            return f"You may take the top of the {pile} only after playing a card this turn, not a discard."
        top = game.names[obs.discard[-1]]
        return (
            f"Even holding {_a(top)} you could play no card: the top of the {pile} is taken only to play "
            "a card that turn."
        )
    return f"You cannot take the top of the {pile} now."


def why_not(state: "State", player: int, card: int) -> str | None:
    """In player words, why ``player`` cannot play ``card`` now (None when it can, on some side): the
    engine's reason (``State.verify``) for the first side it could go on, said by :func:`refusal`.
    The terminal game and the browser tables say it the same way."""
    from .engine import IllegalAction

    g = state.game
    obs = state.observation(player)
    targets = g.hazard_sides[obs.side] if g.kind[card] == HAZARD else (-1,)
    first = None
    for ts in targets:
        a = g.play_action[card][ts] if ts >= 0 else g.play_own[card]
        try:
            state.verify(a, player=player)
            return None
        except IllegalAction as e:
            first = first or refusal(g, obs, card, ts, e.code, e.message)
    return first


__all__ = ["LINE_LABELS", "Narrator", "line_label", "refusal", "side_label", "take_refusal", "why_not"]
