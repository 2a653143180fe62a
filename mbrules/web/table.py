"""One table in the browser: a match, its seats, its invitation secrets, and what each seat is shown.

The server decides everything: a page sends the words of an action (``play d100``), the engine
checks it for that page's seat (``State.verify``), and a refusal goes back in the terminal game's
words (:func:`mbrules.narrate.refusal` and :func:`~mbrules.narrate.why_not`, shared with the
terminal game). Every accepted step is written to the store before the state changes and before
anyone is told (:meth:`Table._apply`); an action is taken through the seat loop
(:meth:`mbrules.seats.SeatLoop.step`), as the bots' are. What a seat is sent is built from
``state.observation(seat)`` and what the whole table may hear (the public narration, the score
sheets, who sits where): never another hand, never the draw order (:meth:`Table.view`).

Draws are made by the server as soon as they are the only thing to do (in a browser, as in the
terminal game, drawing is not a decision). A finished hand rests on its score sheet until every
person at the table has pressed "next hand" (or the host deals it).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Iterable, Set
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from mbrules.engine import Action, Game, IllegalAction, NotationError, Observation, Observer, State
from mbrules.narrate import LINE_LABELS, Narrator, refusal, take_refusal, why_not
from mbrules.scenario.format import NoStep, step_action, step_fields
from mbrules.scenario.model import ActionStep
from mbrules.seats import DECIDED, LONE, SeatLoop
from mbrules.tui.table import PublicNarrator
from mbrules.vocab import (
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    DRAW,
    FAST_PLAY,
    HAZARD,
    MULLIGAN,
    PLAY,
    SCORE_LINES,
    DecisionKind,
)

from .jsontypes import Message, MoveView, Setup, Sheets, StateView, Welcome, is_whole
from .rules import Rules
from .seats import PERSON, BotSeat, BrowserSeat, WebSeat, make_seat

if TYPE_CHECKING:
    from .store import Store

NARRATION_KEPT = 60  # lines of public narration a page is sent
_STEPPED = {LONE: "draw", DECIDED: "bot"}  # what step_once says the seat loop's step did
IMPLICIT = "implicit"  # a stored row that is no scenario step: a decision a scenario leaves implicit
IMPLICIT_ACTIONS = {"draw": "draw_action", "decline": "decline_action"}  # its value -> the Game's action
MAX_STEPS_A_CALL = 10_000  # bot moves and draws in one advance (a hand is bounded by the engine far below)


def _choices(legal: list[Action]) -> list[Action]:
    """The moves a person is offered: every legal action but a lone draw, which the seat loop takes for the
    seat. A draw is offered where it is one choice of several: the draw pile or the discard pile's top
    (turn.draw_from_discard), a draw or a mulligan (turn.mulligan), a draw that ends a mulligan."""
    return list(legal) if len(legal) > 1 else [a for a in legal if a.op != DRAW]


class PublicSteps(Observer):
    """Counts the steps the table can see: a step is public when it changes what another seat observes
    (the next seat's observation, a witness), and private to its player when it does not (a coup fourré
    or fast-play window let pass: only the seat asked ever saw it). A seat's version counts the public
    steps and its own private ones, so that what a seat is sent never depends on another's hidden cards."""

    def __init__(self) -> None:
        self.public = 0
        self.private: dict[int, int] = {}
        self.last_public = True
        self.seen: Observation | None = None

    def before_action(self, state: State, player: int, action: Action) -> None:
        self.seen = state.observation(self._witness(state, player))

    def after_action(self, state: State, player: int, action: Action) -> None:
        self.last_public = self.seen != state.observation(self._witness(state, player))
        if self.last_public:
            self.public += 1
        else:
            self.private[player] = self.private.get(player, 0) + 1
        self.seen = None

    @staticmethod
    def _witness(state: State, player: int) -> int:
        return (player + 1) % state.game.players


class TableError(Exception):
    """A request about a table that cannot be met (a usage error, told to whoever asked)."""


@dataclass(frozen=True)
class BotQuestion:
    """A decision a bot's seat must make: the table's changes when it was asked (:meth:`Table.changes`), and
    what the bot is given."""

    p: int
    seat: BotSeat
    version: int
    obs: Any
    legal: list[Action]


@dataclass
class Refusal:
    """An action a seat sent that was not taken, and why, in player words."""

    code: str
    message: str


def new_secret() -> str:
    return secrets.token_urlsafe(18)


def same_secret(given: str | None, kept: str) -> bool:
    """Constant-time comparison (a guessed secret learns nothing from the time a refusal takes)."""
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "replace"), kept.encode("utf-8"))


@dataclass
class Table:
    """A match at one table. Not thread-safe: the server touches it from its event loop only."""

    id: str
    setup: Setup  # as stored: ruleset or upload, options, players, seed, seats, secrets, pace
    rules: Rules
    store: Store | None  # None: not persisted, for tools
    built: InitVar[Game | None] = None  # the rules compiled for this player count already (the lobby checked them)
    game: Game = field(init=False)
    state: State = field(init=False)
    seats: list[WebSeat] = field(init=False)
    steps: int = field(init=False, default=0)  # scenario steps written
    events: int = field(init=False, default=0)  # changes every seat sees besides the steps (hands dealt, seats given)
    ready: set[int] = field(init=False, default_factory=set)  # persons who pressed "next hand"
    joined: bool = field(init=False, default=False)  # a person has opened a seat (the table then never expires)
    lock: asyncio.Lock = field(init=False, default_factory=asyncio.Lock)  # the server's changes, one at a time
    touched: float = field(init=False, default_factory=time.monotonic)  # when a page last saw it change
    asking: set[int] = field(init=False, default_factory=set)  # persons whose seat a bot plays, asking it back
    away_since: dict[int, float] = field(init=False, default_factory=dict)  # person -> when their page went

    def __post_init__(self, built: Game | None) -> None:
        players = self.setup["players"]
        self.game = built if built is not None and built.players == players else Game(self.rules.ruleset, players)
        self.state = State.new_match(self.game, self.setup["seed"], deal_next=False)
        self.narrator = PublicNarrator(self.game)
        self.narrator.lines = type(self.narrator.lines)(maxlen=NARRATION_KEPT)
        self.words = Narrator(self.game, public=True)
        self.state.add_observer(self.narrator)
        self.counted = PublicSteps()
        self.state.add_observer(self.counted)
        self.seats = [
            make_seat(k, self.game, p, f"{self.setup['seed']}:web") for p, k in enumerate(self.setup["seats"])
        ]
        self.loop = SeatLoop(self.state, self.seats, apply=self._apply)  # every action checked, written, then applied

    @property
    def version(self) -> int:
        """The changes every seat sees: the public steps (:class:`PublicSteps`), hands dealt, seats given."""
        return self.counted.public + self.events

    def version_for(self, p: int) -> int:
        """Seat ``p``'s version: :attr:`version` and ``p``'s own private steps (windows it let pass). A page's
        action names it; it never moves for another seat's hidden decision."""
        return self.version + self.counted.private.get(p, 0)

    # -- who is who ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    def seat_for(self, secret: str | None) -> int | None:
        """The seat an invitation secret opens, or None (every secret is compared: no early exit)."""
        found = None
        for p, kept in enumerate(self.setup["secrets"]):
            if same_secret(secret, kept):
                found = p
        return found

    def is_host(self, secret: str | None) -> bool:
        return same_secret(secret, self.setup["host_secret"])

    def persons(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if isinstance(s, BrowserSeat)]

    # -- the record -------------------------------------------------------------------------
    def restore(self, steps: Iterable[tuple[int, Message]]) -> None:
        """Play stored steps (``(hand, step fields)``) again from the deal: the table is where it stopped.

        A row is a scenario step, or a decision a scenario leaves implicit (:data:`IMPLICIT`: a draw
        chosen among several, a window let pass), stored so that a window answered just before a crash
        is not asked again after it. Lone draws are implicit. A record written before those rows
        existed is read as a scenario is: a window the next step does not answer is let pass and a
        mulligan the next step does not go on with ends.
        """
        st, g = self.state, self.game
        for hand, fields in steps:
            if st.hand_over and not st.is_terminal():
                st.next_hand()
            if st.hand_no != hand:
                raise TableError(f"table {self.id}: a stored step of hand {hand + 1} found in hand {st.hand_no + 1}")
            implicit = fields.get(IMPLICIT) if isinstance(fields, dict) else None
            if implicit is not None:
                if implicit not in IMPLICIT_ACTIONS or fields.get("player") not in g.player_names:
                    raise TableError(f"table {self.id}: a stored step {fields!r:.80} is not a decision")
                p, action = g.player_names.index(fields["player"]), getattr(g, IMPLICIT_ACTIONS[implicit])
            else:
                p, action = step_action(g, ActionStep.model_validate(fields))
            for _ in range(MAX_STEPS_A_CALL):
                legal = st.legal_actions()
                kind = st.decision.kind
                if len(legal) == 1 and legal[0].op == DRAW:
                    st.apply(legal[0])
                elif (
                    implicit is None
                    and kind in (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY)
                    and not (action.op in (COUP_FOURRE, FAST_PLAY) and st.current_player == p)
                ):
                    st.apply(g.decline_action)  # a record without its decline rows
                elif (
                    implicit is None
                    and kind == DecisionKind.MULLIGAN
                    and not (action.op == MULLIGAN and st.current_player == p)
                ):
                    st.apply(g.draw_action, player=st.current_player)
                elif (
                    implicit is None
                    and g.draw_action in legal
                    and (st.current_player != p or (action.op in (PLAY, DISCARD) and not st.decision.drawn))
                ):
                    st.apply(g.draw_action, player=st.current_player)  # a draw chosen among several
                else:
                    break
            st.apply(action, player=p)
            self.steps += 1

    def _apply(self, p: int, action: Action) -> None:
        """Take ``action`` for seat ``p``: checked, then written (a step, or a decision a scenario
        leaves implicit), then applied. A lone draw is not written: it is the only thing to do."""
        fields = self.record(p, action)
        if fields is not None and self.store is not None:
            self.store.add_step(self.id, self.steps, self.state.hand_no, fields)
        self.applied(p, action, fields)

    def record(self, p: int, action: Action) -> dict[str, Any] | None:
        """The row that stores ``action`` of seat ``p`` (checked first: IllegalAction), or None when
        nothing is written (a lone draw). The server writes it off its event loop, then :meth:`applied`."""
        st = self.state
        st.verify(action, player=p)
        try:
            return step_fields(self.game, p, action)
        except NoStep:  # a draw or a decline: implicit in a scenario, but a decision when not alone
            legal = st.legal_actions()
            if len(legal) == 1 and legal[0].op == DRAW:
                return None
            return {"player": self.game.player_names[p], IMPLICIT: "decline" if action.op == DECLINE else "draw"}

    def applied(self, p: int, action: Action, fields: dict[str, Any] | None) -> None:
        """Apply ``action`` of seat ``p``, whose row (``fields``, from :meth:`record`) is written."""
        st = self.state
        st.apply(action, player=p)
        if fields is not None:
            self.steps += 1
        if st.hand_over:
            self.ready.clear()

    def export(self) -> str:
        """The match as scenario YAML that ``mbrules replay`` runs (every hand, hidden cards included). While
        the match is in play (the host may play a seat too): only the hands that are over, and not the seed,
        which deals the hands to come; :class:`TableError` when no hand is over yet."""
        from pathlib import Path

        from mbrules.scenario.record import Recorder, record_match

        again = Table(self.id, self.setup, self.rules, None)
        rec = Recorder()
        again.state.add_observer(rec)
        found = self.store.load(self.id) if self.store is not None else None
        stored = found.steps if found is not None else ()
        again.restore(stored)
        over = again.state.is_terminal()
        if not over and not again.state.hand_over:
            rec.hands = rec.hands[:-1]  # the hand in play shows every hand and the draw pile
        if not rec.hands:
            raise TableError("no hand is over yet: the record shows the hands that are over, and the match once it is")
        ref = self.rules.ruleset_id or self.rules.upload_name
        assert ref is not None  # a table's rules are a bundled id or a named upload
        return record_match(
            rec,
            again.state,
            ref,
            list(self.rules.options),
            self.players,
            self.setup["seed"] if over else None,
            out_dir=Path.cwd() if self.rules.ruleset_id is None else None,
        )

    # -- playing ------------------------------------------------------------------------------
    def deciding(self) -> int:
        """The seat that decides now, or -1 (the hand or the match is over)."""
        st = self.state
        return -1 if st.hand_over or st.is_terminal() else st.current_player

    def waiting_for_person(self) -> bool:
        p = self.deciding()
        return p >= 0 and isinstance(self.seats[p], BrowserSeat)

    def step_once(self) -> str | None:
        """One thing the table does by itself: a draw ('draw'), a bot's move ('bot'), a bot's move no other
        seat sees ('hidden': a window let pass), or None when a person must act or the hand is over."""
        if self.deciding() < 0:
            return None
        done = _STEPPED.get(self.loop.step())  # a person's seat answers later: None
        if done == "bot" and not self.counted.last_public:
            return "hidden"  # a window let pass: no one else may see it happen, nor wait for it
        return done

    def act(self, p: int, text: object, version: int | None) -> Refusal | None:
        """Seat ``p`` (already identified by its secret) sends an action in words, naming the
        version of the table it saw; None when taken, else the refusal in player words."""
        checked = self.check(p, text, version)
        if isinstance(checked, Refusal):
            return checked
        seat = self.seats[p]
        assert isinstance(seat, BrowserSeat)
        seat.offer(checked)  # the seat loop asks the seat deciding, which answers with it
        try:
            done = self.loop.step()
        finally:
            seat.pending = None  # never left for a later question
        if done != DECIDED:  # verified, yet the loop did not take it from this seat: never expected; said plainly
            return Refusal("not-a-move", "that move is not open to you now")
        return None

    def check(self, p: int, text: object, version: int | None) -> Refusal | Action:
        """The action seat ``p`` sends in words, checked for it at this version, or the refusal in player words."""
        g, st = self.game, self.state
        if not isinstance(self.seats[p], BrowserSeat):
            return Refusal("not-yours", "a bot plays this seat now (the host gave it to one)")
        if version != self.version_for(p):
            return Refusal("stale", "the table has changed since you chose: look again and choose again")
        if not isinstance(text, str) or len(text) > 100:
            return Refusal("not-a-move", "that is not a move")
        try:
            action = Action.parse(text, g)
        except NotationError as e:
            return Refusal("not-a-move", f"that is not a move: {e}")
        if action.op == DRAW and action not in _choices(st.legal_actions()):
            return Refusal("not-a-move", "the server draws for you")
        try:
            st.verify(action, player=p)
        except IllegalAction as e:
            return Refusal(e.code, self._words(p, action, e))
        return action

    def bot_question(self) -> BotQuestion | None:
        """The question a bot's seat must answer now (the server has it thought over in a worker), or None:
        a person decides, a lone draw is all there is (:meth:`step_once` takes it), the hand is over."""
        p = self.deciding()
        seat = self.seats[p] if p >= 0 else None
        if not isinstance(seat, BotSeat):
            return None
        legal = self.state.legal_actions()
        if len(legal) == 1 and legal[0].op == DRAW:
            return None
        obs = self.state.observation(p) if seat.observes else None
        return BotQuestion(p, seat, self.changes(), obs, legal)

    def still_asked(self, q: BotQuestion) -> bool:
        """Whether the bot's question is still the table's (nothing happened since, the seat is still that
        bot's): an answer to a question no longer asked is dropped, never applied."""
        return self.changes() == q.version and self.seats[q.p] is q.seat

    def changes(self) -> int:
        """Every change of the table, a seat's private steps included (a bot's question names it)."""
        return self.version + sum(self.counted.private.values())

    def _words(self, p: int, action: Action, e: IllegalAction) -> str:
        """A refusal in the terminal game's words (a card's own checks), else the engine's sentence."""
        g = self.game
        if (
            action.op in (PLAY, DISCARD)
            and action.card_index >= 0
            and e.code not in ("not-your-turn", "not-in-hand", "hand-over", "extension-pending")
        ):
            ts = action.side_index if action.op == PLAY and g.kind[action.card_index] == HAZARD else -1
            return refusal(g, self.state.observation(p), action.card_index, ts, e.code, e.message)
        if action.op == DRAW and action.from_discard and e.code in ("no-discard-draw", "discard-draw-must-play"):
            words = take_refusal(g, self.state.observation(p)).rstrip(".")  # the terminal game's sentence
            return words[:1].lower() + words[1:]
        if e.code == "not-your-turn":
            d = self.state.observation(p).decision
            who = g.player_names[d.player] if d.player >= 0 else "nobody"
            return f"it is not your turn: {who} plays now"
        return e.message

    def press_next_hand(self, p: int | None) -> bool:
        """A person (or the host, ``p`` None) asks for the next hand; True when it was dealt."""
        st = self.state
        if not st.hand_over or st.is_terminal():
            return False
        if p is not None:
            self.ready.add(p)
        if p is None or set(self.persons()) <= self.ready:
            st.next_hand()
            self.ready.clear()
            self.events += 1
            return True
        self.events += 1
        return False

    def seat_number(self, value: object) -> int:
        """``value`` (read from a request) as one of this table's seats, else :class:`TableError`."""
        if not is_whole(value) or not 0 <= value < self.players:
            raise TableError("seat is a seat number from 0")
        return value

    async def change_setup(
        self, build: Callable[[], Setup], apply: Callable[[Setup], None], joined: bool = False
    ) -> None:
        """One change of the setup by the host (a seat given to a bot or back, a link replaced), under the
        table's lock (no move of the seat is being written meanwhile): ``build`` the new setup, write it to the
        store (``joined``: mark the table joined too), then ``apply`` it. A failed write changes nothing."""
        async with self.lock:
            saved = build()
            if self.store is not None:
                await self.store.write("update_setup", self.id, saved, joined)
            apply(saved)

    def give_to_bot(self, p: int, bot: str, saved: Setup | None = None) -> None:
        """The host hands seat ``p`` (a person's) to ``bot``; stored, so a restart keeps it (``saved``:
        the setup :meth:`with_bot` gave, already written by the caller)."""
        if not isinstance(self.seats[p], BrowserSeat):
            raise TableError(f"{self.game.player_names[p]} is played by a bot already")
        seat = BotSeat(bot, self.game, p, f"{self.setup['seed']}:web:{self.steps}:{p}")
        self.setup = saved if saved is not None else self.with_bot(p, bot)
        self.joined = True  # the host plays it on with bots: it is not waiting for players
        if saved is None and self.store is not None:
            self.store.update_setup(self.id, self.setup)
            self.store.mark_joined(self.id)
        self.seats[p] = seat
        self.loop.seat(p, seat)
        self.ready.discard(p)
        self.events += 1

    def with_bot(self, p: int, bot: str) -> Setup:
        """The setup once seat ``p`` is given to ``bot`` (marked joined: the host plays it on)."""
        kinds = list(self.setup["seats"])
        kinds[p] = bot
        return {**self.setup, "seats": kinds}

    def give_back(self, p: int, saved: Setup | None = None) -> None:
        """The host hands seat ``p``, given to a bot, back to its person (same link); stored, as
        :meth:`give_to_bot` is (``saved``: :meth:`with_person`'s setup, written by the caller). The bot's
        turn in progress, if any, is the person's to play now (a decision the bot is making is dropped:
        :meth:`still_asked`)."""
        if isinstance(self.seats[p], BrowserSeat):
            raise TableError(f"{self.game.player_names[p]} is played by a person already")
        self.setup = saved if saved is not None else self.with_person(p)
        if saved is None and self.store is not None:
            self.store.update_setup(self.id, self.setup)
        seat = BrowserSeat()
        self.seats[p] = seat
        self.loop.seat(p, seat)
        self.asking.discard(p)
        self.events += 1

    def with_person(self, p: int) -> Setup:
        """The setup once seat ``p`` is its person's again."""
        kinds = list(self.setup["seats"])
        kinds[p] = PERSON
        return {**self.setup, "seats": kinds}

    def new_link(self, p: int, saved: Setup | None = None) -> None:
        """The host replaces seat ``p``'s secret (a link that went to the wrong person): the old link opens
        nothing from now on, and says it was replaced (:meth:`replaced`). Stored, so a restart keeps it
        (``saved``: :meth:`with_new_link`'s setup, written by the caller)."""
        self.setup = saved if saved is not None else self.with_new_link(p)
        if saved is None and self.store is not None:
            self.store.update_setup(self.id, self.setup)

    def with_new_link(self, p: int) -> Setup:
        """The setup once seat ``p``'s secret is replaced (the old one kept among the replaced)."""
        kept = list(self.setup["secrets"])
        old = kept[p]
        kept[p] = new_secret()
        return {**self.setup, "secrets": kept, "replaced": [*self.setup.get("replaced", []), old][-50:]}

    def replaced(self, secret: str | None) -> bool:
        """Whether ``secret`` is a seat's link the host replaced (every kept one compared: no early exit)."""
        hits = [same_secret(secret, k) for k in self.setup.get("replaced", []) if isinstance(k, str)]
        return any(hits)

    # -- what a seat sees --------------------------------------------------------------------
    def sheets(self) -> Sheets:
        """The score sheets of the hands played (public), per hand per side, and the totals."""
        g, st = self.game, self.state
        return {
            "labels": {k: LINE_LABELS.get(k, k) for k in SCORE_LINES},
            "hands": [{g.side_names[s]: dict(sheet[s]) for s in range(g.sides)} for sheet in st.hand_sheets],
            "totals": {g.side_names[s]: t for s, t in enumerate(st.match_totals)},
        }

    def view(self, p: int, connected: Set[int] = frozenset()) -> StateView:
        """Everything seat ``p``'s page shows, from ``state.observation(p)`` and what is public."""
        g, st = self.game, self.state
        obs = st.observation(p)
        mine = self.deciding() == p and isinstance(self.seats[p], BrowserSeat)
        legal = _choices(st.legal_actions()) if mine else []
        moves: list[MoveView] = []
        for a in legal:
            c = a.card_index
            moves.append(
                {
                    "action": str(a),
                    "words": self.words.move(obs, a),
                    "op": a.kind,
                    "card": g.card_ids[c] if c >= 0 else None,
                    "on": g.side_names[a.side_index] if a.op == PLAY and a.side_index >= 0 else None,
                }
            )
        why: dict[str, str] = {}
        if mine and obs.decision.kind == DecisionKind.TURN:
            playable = {m["card"] for m in moves if m["op"] in ("play", "coup-fourre")}
            for c in set(obs.hand):
                if g.card_ids[c] not in playable:
                    why[g.card_ids[c]] = why_not(st, p, c) or ""
        over = st.is_terminal()
        hand_over = st.hand_over
        status = None
        if over:
            status = self.words.result(st)[1]
        elif hand_over:
            status = self.words.hand_end(st)
        return {
            "type": "state",
            "table": self.id,
            "version": self.version_for(p),
            "seat": g.player_names[p],
            "obs": obs.to_dict(),
            "moves": moves,
            "question": (self.words.question(obs) or self._draw_question(obs, legal)) if mine else None,
            "why_not": why,
            "narration": list(self.narrator.lines),
            "sheets": self.sheets(),
            "seats": [
                {
                    "name": g.player_names[q],
                    "side": g.side_names[g.side_of[q]],
                    "kind": self.seats[q].kind,
                    "here": q in connected or not isinstance(self.seats[q], BrowserSeat),
                    "ready": q in self.ready,
                    "away": self.away_for(q, connected),
                    "asking": q in self.asking,
                }
                for q in range(g.players)
            ],
            "hand_over": hand_over and not over,
            "match_over": over,
            "status": status,
            "you_ready": p in self.ready,
            "again": self.again_link(p),
        }

    def away_for(self, q: int, connected: Set[int]) -> int | None:
        """Whole seconds since person ``q``'s page went away (None: here, a bot, or never came)."""
        since = self.away_since.get(q)
        if since is None or q in connected or not isinstance(self.seats[q], BrowserSeat):
            return None
        return max(0, int(time.time() - since))

    def again_link(self, p: int) -> str | None:
        """Seat ``p``'s own link at the table opened to play again with these rules and seats, if any."""
        again = self.setup.get("again")
        if not isinstance(again, dict):
            return None
        kept = again.get("secrets", [])
        return f"/play/{again['table']}/{kept[p]}" if p < len(kept) and kept[p] else None

    def _draw_question(self, obs: Observation, legal: list[Action]) -> str | None:
        """The question of a turn that starts with a choice of draws (draw-from-discard's discard top, a
        mulligan), or None: the page shows it as a prompt, as the windows'."""
        if not any(a.op == DRAW for a in legal):
            return None
        g = self.game
        ways = ["draw a card (p)"]
        top = next((a for a in legal if a.op == DRAW and a.from_discard), None)
        if top is not None:
            ways.append(f"take {self.words.move(obs, top).removeprefix('take ')} (t)")
        if any(a.op == MULLIGAN for a in legal):
            ways.append(f"take a mulligan: throw cards away and draw back to {g.hand_size} (m)")
        said = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1]
        return f"YOUR TURN: {said}?"

    def welcome(self, p: int | None) -> Welcome:
        """What never changes at this table: the cards' names and kinds, the rules in words, the changes."""
        g = self.game
        rs = self.rules.ruleset
        return {
            "type": "welcome",
            "table": self.id,
            "seat": g.player_names[p] if p is not None else None,
            "ruleset": rs.name,
            "ruleset_id": g.ruleset_id,
            "options": list(self.rules.options),
            "cards": {cid: {"name": g.names[c], "kind": str(rs.cards[cid].kind)} for c, cid in enumerate(g.card_ids)},
            "sides": {g.side_names[s]: [g.player_names[q] for q in g.side_players[s]] for s in range(g.sides)},
            "unit": rs.display.distance_unit.value,
            "rules": self.rules.rules_text(g.players),
            "changes": self.rules.changes(),
        }


def table_setup(rules: Rules, players: int, seats: list[str], seed: int, pace: float) -> Setup:
    """A new table's stored setup, with a fresh invitation secret per seat and one for the host."""
    return {
        "ruleset": rules.ruleset_id,
        "upload_name": rules.upload_name,
        "upload_text": rules.upload_text,
        "options": list(rules.options),
        "players": players,
        "seed": seed,
        "seats": list(seats),
        "pace": pace,
        "secrets": [new_secret() for _ in seats],
        "host_secret": new_secret(),
    }


__all__ = ["PERSON", "Refusal", "Table", "TableError", "new_secret", "same_secret", "table_setup"]
