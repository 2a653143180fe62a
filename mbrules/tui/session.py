"""``mbrules play --human p1``: one or more people play seats of a match in the terminal; bots play the rest.

A prompt loop over Rich (not a full-screen Textual app): every decision redraws the table from
the deciding seat's :class:`~mbrules.engine.Observation` and reads one line. Why a prompt loop:
it needs nothing beyond Rich (already installed with Typer); one line of input per decision
works the same in a local terminal, over SSH and in a pseudo-terminal driven by a test
(pexpect); there is no alternate screen, so the narration stays in the scrollback when the
program ends; the width is read again at every redraw, so a resized window is used at once;
line editing is the terminal's own (readline when Python has it).

Bots see only their seat's observation; the human seat's screen shows only that seat's
observation and the public narration of plays. A typed move goes through
``Action.parse`` and ``State.apply``; a refusal shows the engine's sentence and reason code.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from rich.console import Console
from rich.text import Text

from mbrules.bots import make_bot, make_bots
from mbrules.engine import Action, Game, IllegalAction, NotationError, Observation, Observer, State
from mbrules.narrate import Narrator, take_refusal
from mbrules.seats import BotSeat, HandTooLong, SeatLoop
from mbrules.vocab import COUP_FOURRE, FAST_PLAY, DecisionKind
from mbrules.text import plural

from . import screen
from .table import NARRATION_LINES as NARRATION_LINES, DrawChoice, DrawNotes, PublicNarrator, SeatedMatch, draw_choice
from .table import hint_bot_name as hint_bot_name  # (re-exported)

if TYPE_CHECKING:
    from mbrules.scenario.record import Recorder

    from .driver import MatchDriver
    from .resume import SavedMatch

MAX_BAD_LINES = 1000  # lines in a row that choose nothing (a stuck input): the session ends


class QuitMatch(Exception):
    """The person asked to quit and confirmed (or the input closed)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def default_input(console: Console) -> Callable[[str], str]:
    try:
        import readline  # noqa: F401  line editing and history for input()
    except ImportError:  # pragma: no cover - Windows without pyreadline
        pass

    def read(prompt: str) -> str:
        return console.input(Text(prompt))  # never markup: "[y/N]" is text

    return read


class TerminalSeat:
    """A person at this terminal: :meth:`decide` shows the seat's screen and reads the move from the
    keyboard, there and then (a blocking seat of :class:`mbrules.seats.SeatLoop`)."""

    observes = False  # the session shows the seat's observation itself
    asks_lone = True  # a forced move but the draw is still the person's to make

    def __init__(self, session: "HumanSession", player: int):
        self.session = session
        self.player = player

    def decide(self, observation: Observation | None, legal: list[Action]) -> Action:
        return self.session._human_decision(self.player, legal)


class HumanSession(SeatedMatch):
    """A match where the seats in ``humans`` are played from the keyboard and the others by bots."""

    def __init__(
        self,
        game: Game,
        seed: int,
        bots: Sequence[str],
        humans: Sequence[int],
        *,
        console: Console,
        read: Callable[[str], str] | None = None,
        max_hands: int | None = None,
        observers: Sequence[Observer] = (),
    ):
        self.game = game
        self.seed = seed
        self.humans = tuple(sorted(set(humans)))
        self.console = console
        self.read = read or default_input(console)
        self.max_hands = max_hands
        self.bots = make_bots(tuple(bots), game, seed)  # the same streams as a headless play of this seed
        self.hint_name = hint_bot_name()
        # Hints come from a bot of their own per seat: asking for one never changes the bots' streams.
        self.hinters = {p: make_bot(self.hint_name, game, p, f"{seed}:hint") for p in self.humans}
        self.narrator = PublicNarrator(game)
        self.notes: dict[int, list[str]] = {p: [] for p in self.humans}  # private lines for one seat
        drew = DrawNotes(self.notes, lambda c: f"You drew {game.names[c]} [{game.card_ids[c]}].")
        self.state = State.new_match(game, seed, deal_next=False)
        for o in (self.narrator, drew, *observers):
            self.state.add_observer(o)
        # A person answers at the keyboard, there and then (a blocking seat); the bots are asked even
        # their forced moves, as they always were.
        seats = [
            TerminalSeat(self, p) if p in self.humans else BotSeat(b, asks_lone=True) for p, b in enumerate(self.bots)
        ]
        self.loop = SeatLoop(self.state, seats, max_hands=max_hands)
        self.last_human: int | None = None
        self.unicode = (console.encoding or "").lower().startswith("utf")

    # -- the match ------------------------------------------------------------------------
    def run(self) -> State:
        """Play until the match ends (or ``max_hands`` hands); raises :class:`QuitMatch` on 'q'."""
        st = self.state
        loop = self.loop
        while True:
            try:
                loop.advance()  # every seat answers there and then: it returns at the hand's end
            except HandTooLong as e:  # never in a valid match: the engine bounds a hand by its cards
                raise QuitMatch(str(e)) from None
            over = loop.hand_finished()
            self._hand_over(loop.hands_done)
            if over:
                return st
            self._pause("Press Enter for the next hand (q to quit): ", allow_quit=True)
            loop.next_hand()

    # -- one human decision ----------------------------------------------------------------
    def _handover(self, p: int) -> None:
        """Hot seat: before showing a hand, hide the screen until the right person has the keyboard."""
        if len(self.humans) > 1 and self.last_human != p:
            self.console.clear()
            self.console.print(
                Text(
                    f"{self.game.player_names[p]}'s turn: pass the keyboard to {self.game.player_names[p]}.",
                    style="bold",
                )
            )
            self._pause(f"{self.game.player_names[p]}, press Enter to see your hand: ", allow_quit=True)
        self.last_human = p

    def _human_decision(self, p: int, legal: list[Action]) -> Action:
        """The move the person at seat ``p`` types (checked: a refusal is said and they type again)."""
        st = self.state
        g = self.game
        self._handover(p)
        note = self.notes[p]
        redraw = True
        for _ in range(MAX_BAD_LINES):
            obs = st.observation(p)
            if redraw:
                self.console.clear()
                points = [line["total"] for line in st.score_sheet()]  # public: from the table alone
                self.console.print(
                    screen.decision_screen(g, obs, legal, list(self.narrator.lines), note, self.unicode, points)
                )
                redraw = False
            choice = draw_choice(obs, legal)
            keys = (
                ""
                if choice is None
                else "".join(
                    k
                    for k, on in (
                        ("p, ", choice.pile is not None),
                        ("t, ", choice.discard_top is not None),
                        ("m CARD, ", bool(choice.mulligan)),
                    )
                    if on
                )
            )
            line = self._read(
                f"{g.player_names[p]} ({g.side_names[g.side_of[p]]}), your move "
                f"[1-{len(legal)}, {keys}words, ?, r, q, h]: "
            )
            text = line.strip()
            if not text:
                redraw = True
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                self._confirm_quit()
                redraw = True
                continue
            if low in ("?", "hint"):
                self._hint(p, obs, legal)
                continue
            if low in ("r", "rules"):
                self._rules()
                redraw = True
                continue
            if low in ("h", "help"):
                self._help()
                continue
            action = self._choose(low, text, obs, legal)
            if action is None:
                continue
            try:
                st.verify(action, player=p)
            except IllegalAction as e:
                self.console.print(Text(f"Refused ({e.code}): {e.message}.", style="bold red"))
                continue
            self.notes[p] = []
            return action
        raise QuitMatch(f"{MAX_BAD_LINES} lines in a row chose no move")

    def _choose(self, low: str, text: str, obs: Observation, legal: list[Action]) -> Action | None:
        """The action a line names, or None after saying why it names none."""
        g = self.game
        kind = obs.decision.kind
        if low.isdigit():
            n = int(low)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.console.print(Text(f"There is no move {text}: choose 1 to {len(legal)}.", style="bold red"))
            return None
        if kind == DecisionKind.COUP_FOURRE and low in ("y", "yes"):
            calls = [a for a in legal if a.op == COUP_FOURRE]
            return calls[0] if calls else None
        if kind == DecisionKind.COUP_FOURRE and low in ("n", "no"):
            return g.decline_action
        if kind == DecisionKind.FAST_PLAY and low in ("y", "yes"):  # option fast-play-remedy
            fast = [a for a in legal if a.op == FAST_PLAY]
            return fast[0] if fast else None
        if kind == DecisionKind.FAST_PLAY and low in ("n", "no"):
            return g.decline_action
        choice = draw_choice(obs, legal)
        if choice is not None and (low in ("p", "t", "m") or low.startswith("m ")):
            return self._draw_key(low, choice, obs)
        if kind == DecisionKind.EXTENSION and low in ("y", "yes"):
            return g.extend_action
        if kind == DecisionKind.EXTENSION and low in ("n", "no"):
            return g.stop_action
        try:
            return Action.parse(text, g)
        except NotationError as e:
            self.console.print(
                Text(
                    f"Not a move: {e}. Type a number from 1 to {len(legal)}, or the words "
                    f"of a move such as '{legal[0]}'; h for help.",
                    style="bold red",
                )
            )
            return None

    def _draw_key(self, low: str, choice: DrawChoice, obs: Observation) -> Action | None:
        """A draw choice's key: p the draw pile (ends a mulligan), t the discard top, 'm CARD' throws CARD
        away (a mulligan); a way to draw that is not open now is said, and nothing is chosen."""
        g = self.game
        d = g.ruleset.display
        if low == "p" and choice.pile is not None:
            return choice.pile
        if low == "t" and choice.discard_top is not None:
            return choice.discard_top
        if low.startswith("m") and choice.mulligan:
            words = low[1:].strip()
            if not words:
                self.console.print(Text("Say which card to throw away: m and its id, as 'm d25'.", style="bold red"))
                return None
            try:
                return Action.parse(f"mulligan {words}", g)
            except NotationError as e:
                self.console.print(Text(f"Not a card to throw away: {e}.", style="bold red"))
                return None
        why = {
            "p": f"You cannot draw from the {d.draw_pile} now.",
            "t": take_refusal(g, obs),
            "m": "This edition has no mulligan." if not g.mulligan else "You cannot mulligan now.",
        }[low[:1]]
        self.console.print(Text(why, style="bold red"))
        return None

    def _read(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise QuitMatch("the input was closed") from None

    def _pause(self, prompt: str, allow_quit: bool = False) -> None:
        for _ in range(MAX_BAD_LINES):
            text = self._read(prompt).strip().lower()
            if allow_quit and text in ("q", "quit", "exit"):
                self._confirm_quit()
                continue
            return

    def _confirm_quit(self) -> None:
        answer = self._read("Quit this match? Nothing more will be played. [y/N] ").strip().lower()
        if answer in ("y", "yes"):
            raise QuitMatch("you quit")
        self.console.print("Going on.")

    def _hint(self, p: int, obs: Observation, legal: list[Action]) -> None:
        a = self.hinters[p].choose(obs, legal)
        n = legal.index(a) + 1 if a in legal else "?"
        self.console.print(
            Text(f"Hint ({self.hint_name} bot): {n}. {a}  ({self.narrator.words.move(obs, a)})", style="bold cyan")
        )

    def _rules(self) -> None:
        from mbrules.ruleset.render import show_text

        self.console.clear()
        self.console.print(Text("The rules in play (from the ruleset data)", style="bold reverse"))
        self.console.print(show_text(self.game.ruleset, self.game.players), markup=False, highlight=False)
        self._pause("Press Enter to go back to the game: ")

    def _help(self) -> None:
        self.console.print(
            Text(
                "Type a move's number, or its words: 'play d100', 'play stop on B', 'discard d25', "
                "'coup-fourre right_of_way', 'fast-play repairs', 'decline', 'extend', 'stop'. When your draw is a "
                "choice: p draws from the draw pile (in a mulligan: draws back and ends it), t takes the discard "
                "pile's top card, 'm d25' throws 25 miles away (a mulligan). In a coup fourré "
                "or fast-play window or at the extension question, y and n answer. Enter redraws the screen. ? a hint from the "
                f"{self.hint_name} bot; r the rules of this ruleset; q quit (asks first).",
                style="bold",
            )
        )

    # -- the end of a hand ------------------------------------------------------------------
    def _hand_over(self, hands: int) -> None:
        st = self.state
        g = self.game
        me = self.humans[0] if len(self.humans) == 1 else None
        obs = st.observation(self.humans[0])
        sheets = st.hand_sheets
        self.console.print()
        self.console.print(screen.narration_text(list(self.narrator.lines)))
        self.console.print(Text(self.narrator.words.hand_end(st), style="bold"))
        self.console.print(
            screen.score_sheet_table(g, sheets[-1], st.match_totals, [v.miles for v in obs.sides], len(sheets), me)
        )
        if st.is_terminal():
            self.console.print(Text(result_sentence(g, st), style="bold reverse"))


def result_sentence(game: Game, st: State) -> str:
    return Narrator(game).result(st)[1]


def no_terminal() -> bool:
    """True when standard input or output is not a terminal (a person cannot play then)."""
    try:
        return not (sys.stdin.isatty() and sys.stdout.isatty())
    except (AttributeError, ValueError):
        return True


def run_human(
    game: Game,
    ruleset: str,
    options: list[str],
    players: int,
    seed: int,
    bots: list[str],
    humans: list[int],
    hands: int | None,
    record: Path | None,
    inputs: list[Path],
    done: dict[str, bool],
    console: Console | None = None,
    full_screen: bool = False,
) -> int:
    """The body of ``mbrules play --human``: play, then write ``--record`` (also after a quit). Returns the exit code.

    A ``--record`` file that holds a saved match is continued (both the full-screen game and ``--plain``),
    or refused with exit 2 when it cannot be (another match, a finished one, a damaged file, not a save):
    it is never replaced by a new match (:mod:`mbrules.tui.resume`)."""
    from mbrules.scenario.record import Recorder

    from .resume import ResumeError, check_same_match, read_save, seat_lineup

    seats = seat_lineup(game, bots, humans)
    saved = None
    if record is not None:
        try:
            saved = read_save(record)
            if saved is not None:
                check_same_match(saved, game, seed, seats)
        except ResumeError as e:
            print("\n".join(e.lines), file=sys.stderr)
            return 2
    if console is None:
        console = _window_console()
    recorder = Recorder() if record is not None else None
    watchers = [recorder] if recorder else []
    match: MatchDriver | HumanSession
    if full_screen:  # the Textual game (mbrules/tui/app.py); it draws on the alternate screen
        from .driver import MatchDriver

        match = MatchDriver(game, seed, bots, humans, max_hands=hands, observers=watchers, save_path=record)
    else:
        match = HumanSession(game, seed, bots, humans, console=console, max_hands=hands, observers=watchers)
    if saved is not None and not _resume(match, saved, hands, record, console):  # (the reason printed)
        return 2
    quit_why, code = _play(match, game, players, seed, console)
    st = match.state
    done["played"] = True
    if quit_why is not None:
        console.print(
            Text(
                f"Match left ({quit_why}) in hand {st.hand_no + 1}: "
                f"{result_sentence(game, st) if st.is_terminal() else 'no result.'}",
                style="bold",
            )
        )
    if record is not None and recorder is not None and recorder.hands:  # the one is made with the other
        match_args = (ruleset, options, players, seed)
        if not _write_record(record, recorder, st, game, seats, match_args, inputs, done, console, quit_why):
            return 2
    if code == 130:
        print(
            "mbrules: interrupted (Ctrl-C): the match was not finished"
            + (f"; {record} was written whole" if done.get("recorded") else ""),
            file=sys.stderr,
        )
    return code


def _window_console() -> Console:
    """A console that reads the window's size at every redraw: an exported COLUMNS or LINES (a shell may
    export the size it had when it started) would pin it, and a resized window would be drawn wrong."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return Console(highlight=False, _environ=env)


def _resume(
    match: MatchDriver | HumanSession, saved: SavedMatch, hands: int | None, record: Path | None, console: Console
) -> bool:
    """Replay a saved match into ``match`` and say so to each human seat; False (the reason printed) when it
    cannot go on: a damaged save, a match that is over, or as many hands as ``--hands`` already played."""
    from .resume import ResumeError, replay_save

    try:
        match.hands_done = replay_save(saved, match.state)
    except ResumeError as e:
        print("\n".join(e.lines), file=sys.stderr)
        return False
    st = match.state
    if st.is_terminal():
        print(f"mbrules: --record {saved.file} saves a match that is over: {NEW_MATCH}", file=sys.stderr)
        return False
    if hands is not None and match.hands_done >= hands:
        print(
            f"mbrules: --record {saved.file} already holds {match.hands_done} finished hands, as many as "
            f"--hands {hands}: give a larger --hands to go on, or {NEW_MATCH}",
            file=sys.stderr,
        )
        return False
    if st.hand_over and not st.legal_actions():
        match.next_hand()
    resumed = f"Resumed from {record}: the match goes on in hand {st.hand_no + 1}."
    console.print(Text(resumed, style="bold"))
    for p in match.humans:
        match.notes[p] = [resumed]
    return True


def _play(
    match: MatchDriver | HumanSession, game: Game, players: int, seed: int, console: Console
) -> tuple[str | None, int]:
    """Play the match (the full-screen game, or the prompt loop), saying who plays whom; why it was left
    (None when played to its end) and the exit code (130 after Ctrl-C in the full-screen game)."""
    rs = game.ruleset
    names = ", ".join(game.player_names[p] for p in match.humans)
    if not isinstance(match, HumanSession):  # full_screen
        from .app import run_app

        result = run_app(match)
        quit_why = None
        code = 0
        if result != "over":
            quit_why = "Ctrl-C" if result == "interrupted" else "you quit"
            code = 130 if result == "interrupted" else 0
        console.print(Text(f"{rs.name}: {plural(players, 'player')}, you played {names}; seed {seed}.", style="bold"))
        if quit_why is None:
            console.print(Text(result_sentence(game, match.state), style="bold"))
        return quit_why, code
    console.print(Text(f"{rs.name}: {plural(players, 'player')}, you play {names}; seed {seed}.", style="bold"))
    try:
        match.run()
    except QuitMatch as q:
        return q.why, 0
    return None, 0


def _write_record(
    record: Path,
    recorder: Recorder,
    st: State,
    game: Game,
    seats: Sequence[str],
    match_args: tuple[str, list[str], int, int],
    inputs: list[Path],
    done: dict[str, bool],
    console: Console,
    quit_why: str | None,
) -> bool:
    """Write the played hands to ``record`` whole (a scenario that continues the match) and say how it goes on;
    False (the reason printed) when it cannot be written. ``match_args``: the ruleset as given, its options,
    players, seed."""
    import os

    from mbrules.safe_output import OutputPathError
    from mbrules.scenario.record import record_match, write_scenario_file

    from .resume import seats_comment

    ruleset, options, players, seed = match_args
    text = record_match(
        recorder,
        st,
        ruleset,
        options,
        players,
        seed,
        out_dir=Path(os.path.realpath(record)).parent,
        comments=[seats_comment(game, seats)],
    )
    try:
        write_scenario_file(record, text, inputs, "--record")
        done["recorded"] = True
        console.print(f"Recorded to {record}{_continue_words(st, quit_why)}.", markup=False, highlight=False)
    except OutputPathError as e:
        print(str(e), file=sys.stderr)
        return False
    except OSError as e:
        print(f"mbrules: cannot write {record}: {e.strerror or e}", file=sys.stderr)
        return False
    return True


def _continue_words(st: State, quit_why: str | None) -> str:
    """How the recorded match goes on ("" when it is over)."""
    if st.is_terminal():
        return ""
    if quit_why is not None:
        return ": the same command continues the match"
    return ": the same command with a larger --hands continues the match"


NEW_MATCH = "give another --record file to start a new match"
