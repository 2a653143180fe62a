"""``mbrules play --human p1``: the full-screen terminal game (Textual).

One screen holds everything at 80×24 and uses more room when the window is bigger: the header
(edition, hand, draw pile, match score), every side's battle and speed piles, miles against the
target in the ruleset's unit, safeties (coups fourrés marked) and limited distance cards, the
last plays, the legal moves, your hand as cards (display names only) and the keys.

Keys: ←/→ pick a card and Enter opens its moves (↑/↓ and Enter pick the target, Esc goes back);
the number keys play a listed move; ``d`` discards the picked card; ``h`` asks the hint bot;
``u`` undoes your last move (against bots only); ``r`` shows the rules in a pane that scrolls;
``?`` help; ``q`` or Ctrl-C quits after ``y`` (Ctrl-C again quits at once, exit 130); a click on a card or
a listed move works too. With ``--record`` the quit prompt says the match is saved and the same command
continues it. The coup fourré and fast-play windows and the extension question are prompts over the table that must
be answered; a draw that is a choice waits for ``p`` (the draw pile), ``t`` (the discard top) or ``m`` (throw the
picked card away: a mulligan), the status line saying which; the end of a hand is a score sheet screen; in hot
seat a blank screen hides the hand until the next person presses Enter (Textual draws on the
terminal's alternate screen: nothing stays in the scrollback).

The match itself is :class:`mbrules.tui.driver.MatchDriver` (no Textual): bots and draws run until a human seat
decides, every sentence about a play is :mod:`mbrules.narrate`'s, told from ``State.apply``'s
transition record. ``--plain`` keeps the prompt loop of :mod:`mbrules.tui.session`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from rich import box
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.geometry import Size


from mbrules.engine import Action, Game, IllegalAction, State
from mbrules.engine.observation import SideView
from mbrules.text import fold
from mbrules.narrate import Narrator, line_label, side_label, take_refusal
from mbrules.vocab import (
    COUP_FOURRE,
    DISCARD,
    DISTANCE,
    FAST_PLAY,
    HAZARD,
    KARMA,
    MULLIGAN,
    NO_LIMIT,
    PLAY,
    REMEDY,
    SAFETY,
    DecisionKind,
)

from .screen import karma_text
from .driver import MatchDriver as MatchDriver  # (re-exported: the terminal game's controller)
from .table import DrawChoice, draw_choice, draw_prompt
from .words import refusal

KIND_STYLE = {DISTANCE: "bold", HAZARD: "bold red", REMEDY: "bold green", SAFETY: "bold cyan", KARMA: "bold magenta"}
NBSP = "\u00a0"


# -- drawing the table --------------------------------------------------------------------------
def card_chip(game: Game, c: int, selected: bool = False) -> Text:
    name = game.names[c].replace(" ", NBSP)
    style = KIND_STYLE.get(game.kind[c], "")
    return Text(f"[{name}]" if not selected else f">{name}<", style=(style + " reverse") if selected else style)


def bar(miles: int, target: int, width: int) -> Text:
    done = 0 if target <= 0 else min(width, miles * width // target)
    t = Text("█" * done, style="green")
    t.append("·" * (width - done), style="dim")
    return t


def _game_app(screen: Screen[Any]) -> "MilleBornesApp":
    """The app a screen of this module is shown by: always the Mille Bornes app."""
    return cast("MilleBornesApp", screen.app)


MANY_SIDES = 7  # from this many sides the moves pane is the wider one
TABLE_RESERVE = 14  # the lines the rest of the screen keeps: header, margin, plays and moves (7), hand, status, keys


def safety_initials(game: Game) -> dict[int, str]:
    """Each safety's short form in the compact table: its words' capitals ('Right of Way' RW, 'Puncture-Proof'
    PP), more of its name when two would be the same."""
    out: dict[int, str] = {}
    for c in range(game.n_cards):
        if game.kind[c] != SAFETY:
            continue
        name = game.names[c]
        short = "".join(w[0] for w in name.replace("-", " ").split() if w[0].isupper()) or name[:2]
        while short in out.values() and len(short) < len(name):
            short = name[: len(short) + 1]
        out[c] = short
    return out


class GamePane(Widget):
    """A pane of the table: it draws from the app's match (``game_app``)."""

    def __init__(self, app_: "MilleBornesApp", **kw: Any):
        super().__init__(**kw)
        self.game_app = app_


class FittedPane(GamePane):
    """A pane exactly as tall as its text at the pane's width (``_text(width)``)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._text(width).plain.count("\n") + 1

    def _text(self, width: int) -> Text:
        raise NotImplementedError  # each pane draws its own


class Header(Static):
    pass


class TableView(FittedPane):
    """Every side: battle and speed piles, miles against the target, safeties and limited cards."""

    DEFAULT_CSS = "TableView { height: auto; }"

    def render(self) -> Text:
        return self._text(self.size.width)

    def _text(self, width: int) -> Text:
        """Every side on two lines or more (:meth:`_full_text`); one line each (:meth:`_compact_text`) when
        that would leave the last plays and the moves too little room (7 to 9 sides at 80×24)."""
        full = self._full_text(width)
        if full.plain.count("\n") + 1 <= self.app.size.height - TABLE_RESERVE:
            return full
        return self._compact_text(width)

    def _figures(self) -> list[str]:
        """Each side's miles against the target and its points this hand, in a field as wide for every side
        (so that every side's bar has the same length)."""
        a = self.game_app
        st = a.driver.state
        obs = st.observation(a.seat)
        points = [line["total"] for line in st.score_sheet()]
        unit = a.game.ruleset.display.distance_unit.value
        digits = len(str(obs.target))
        figures = [f" {v.miles:>{digits}}/{obs.target} {unit} {points[s]:>5} pts" for s, v in enumerate(obs.sides)]
        fw = max(len(f) for f in figures)
        return [f.ljust(fw) for f in figures]

    def _left(self, v: SideView) -> Text:
        """A side's battle pile: its hazard and 'stopped', or its top card and whether it is rolling."""
        g = self.game_app.game
        left = Text()
        if v.hazard >= 0:
            left.append(g.names[v.hazard], style="bold red")
            left.append(" stopped")
        elif v.battle:
            left.append(g.names[v.battle[-1]], style=KIND_STYLE.get(g.kind[v.battle[-1]], ""))
            left.append(" rolling" if v.moving else " not rolling")
        else:
            left.append("rolling" if v.moving else "not rolling")
        return left

    def _compact_text(self, width: int) -> Text:
        """One line a side: its battle pile, '≤50' under a speed limit, its safeties by their initials ('*'
        a coup fourré), the limited cards played ('200 Miles×1'), miles and points; then a line saying what
        the short forms shown stand for."""
        a = self.game_app
        g, st = a.game, a.driver.state
        obs = st.observation(a.seat)
        short = safety_initials(g)
        limited = [c for c in range(g.n_cards) if g.kind[c] == DISTANCE and g.max_per_hand[c] != NO_LIMIT]
        figures_of = self._figures()
        fw = len(figures_of[0])
        room = max(10, max(width, 60) - 15 - fw)
        out = Text(no_wrap=True, overflow="ellipsis")
        used: dict[str, str] = {}
        for s, v in enumerate(obs.sides):
            label = side_label(g, s, obs.player)
            out.append(("\n" if s else "") + f"{label[:14]:<14} ", style="bold reverse" if s == obs.side else "bold")
            left = self._left(v)
            if v.speed_hazard >= 0:
                left.append(f" ≤{v.limit}", style="bold red")
                used["≤"] = f"≤N {g.names[v.speed_hazard]}"
            for c in [*v.safeties, *v.coup_fourres]:
                left.append(" " + short[c] + ("*" if c in v.coup_fourres else ""), style="cyan")
                used[short[c]] = f"{short[c]} {g.names[c]}"
            if v.coup_fourres:
                used["*"] = "* coup fourré"
            left.append("".join(f" {g.names[c]}×{v.distance[c]}" for c in limited if v.distance[c]))
            left.truncate(room - 1, overflow="ellipsis", pad=True)
            out.append_text(left)
            out.append(" " + figures_of[s], style="bold")
        key: list[str] = []
        for k in sorted(used, key=lambda k: k in "≤*"):  # the key: another line when one is full (an entry never split)
            if key and len(key[-1]) + 2 + len(used[k]) <= max(width, 60):
                key[-1] += "  " + used[k]
            else:
                key.append(used[k])
        for line in key:
            out.append("\n" + line, style="dim")
        return out

    def _full_text(self, width: int) -> Text:
        """A side's first line: its battle pile, the bar, miles and points; then its speed limit, safeties
        and limited cards, packed on as few more lines as the width allows (a fact never split)."""
        a = self.game_app
        g, st = a.game, a.driver.state
        obs = st.observation(a.seat)
        unit = g.ruleset.display.distance_unit.value
        width = max(width, 60)
        limited = [c for c in range(g.n_cards) if g.kind[c] == DISTANCE and g.max_per_hand[c] != NO_LIMIT]
        out = Text(no_wrap=True, overflow="ellipsis")
        figures_of = self._figures()
        fw = len(figures_of[0])
        bw = max(6, min(30, width - 15 - 34 - fw))  # the piles first, then the bar
        room = max(10, width - 15 - bw - fw)
        for s, v in enumerate(obs.sides):
            if s:
                out.append("\n")
            label = side_label(g, s, obs.player)
            out.append(f"{label[:14]:<14} ", style="bold reverse" if s == obs.side else "bold")
            left = self._left(v)
            figures = figures_of[s]
            left.truncate(room - 1, overflow="ellipsis", pad=True)
            out.append_text(left)
            out.append(" ")
            out.append_text(bar(v.miles, obs.target, bw))
            out.append(figures, style="bold")
            facts: list[Text] = []
            if v.speed_hazard >= 0:
                facts.append(Text(f"{g.names[v.speed_hazard]}: {v.limit} {unit} at most", style="bold red"))
            safe = [g.names[c] for c in v.safeties] + [g.names[c] + " (coup fourré)" for c in v.coup_fourres]
            fact = Text(f"{g.ruleset.display.safety_area}: ", style="dim")
            fact.append(", ".join(safe) if safe else "none", style="cyan")
            facts.append(fact)
            facts += [Text(f"{g.names[c]}: {v.distance[c]}/{g.max_per_hand[c]}") for c in limited]
            if v.karma is not None:  # ruleset 'karma'
                facts.append(karma_text(v.karma, short=False))
            col = width
            for fact in facts:
                if col + 3 + fact.cell_len > width:
                    out.append("\n" + " " * 15)
                    col = 15
                else:
                    out.append("   ")
                    col += 3
                out.append_text(fact)
                col += fact.cell_len
        return out


class PlaysView(GamePane):
    """The last plays, newest at the bottom, as many as the pane has lines."""

    def render(self) -> Text:
        """As many of the newest plays as fit, each wrapped to the pane's width (newest last)."""
        lines = list(self.game_app.driver.narrator.lines) or ["(none yet)"]
        width = max(10, self.size.width)
        room = max(1, self.size.height - 1)
        shown: list[str] = []
        for line in reversed(lines):
            wrapped = [w.plain for w in Text(line).wrap(self.app.console, width)]
            if len(shown) + len(wrapped) > room:
                break
            shown[:0] = wrapped
        t = Text()
        t.append("Last plays", style="bold underline")
        for line in shown:
            t.append("\n" + line)
        return t


class MovesView(GamePane):
    """The legal moves, numbered (in columns when the pane is short); or one card's targets."""

    def render(self) -> Text | Table:
        a = self.game_app
        if a.targets is not None:
            t = Text()
            t.append(f"{a.game.names[a.targets_card]}: ↑/↓ and Enter (Esc back)", style="bold underline")
            room = max(1, self.size.height - 1)
            self.first_target = max(
                0, min(a.target_row - room + 2, len(a.targets) - room)
            )  # the picked row and the next
            if len(a.targets) > room:  # more targets than lines (8 opponents at 80×24): the rows shown scroll
                t.append(f" {self.first_target + 1}-{self.first_target + room} of {len(a.targets)}", style="bold")
            for i, (words, _) in list(enumerate(a.targets))[self.first_target : self.first_target + room]:
                t.append("\n")
                t.append(f"{'>' if i == a.target_row else ' '} {words}", style="reverse" if i == a.target_row else "")
            return t
        moves = a.move_words()
        h = max(1, self.size.height - 1)
        cols = max(1, -(-len(moves) // h))
        if max(map(len, moves), default=0) + 4 > (self.size.width + 1) // cols:  # a hazard's side would be cut off
            moves = a.move_words(short=True)
        grid = Table.grid(padding=(0, 1))
        for _ in range(cols):
            grid.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
        rows: list[list[Text]] = [[] for _ in range(min(h, len(moves)) or 1)]
        for i, words in enumerate(moves):
            rows[i % len(rows)].append(Text(f"{i + 1:>2} {words}", overflow="ellipsis", no_wrap=True))
        for r in rows:
            r += [Text("")] * (cols - len(r))
            grid.add_row(*r)
        self.layout_ = (len(rows), cols)
        title = Table.grid()
        head = Text()
        head.append("Your moves (number keys)", style="bold underline")
        title.add_row(head)
        title.add_row(grid)
        return title

    def on_click(self, event: events.Click) -> None:
        """A click on a listed move plays it; on a target (after Enter on a card), picks that target."""
        a = self.game_app
        if event.y < 1:
            return
        if a.targets is not None:
            row = event.y - 1 + getattr(self, "first_target", 0)
            if row < len(a.targets):
                a.click_move(a.targets[row][1])
            return
        rows, cols = getattr(self, "layout_", (0, 1))
        col = min(cols - 1, event.x * cols // max(1, self.size.width))
        n = col * rows + (event.y - 1)
        legal = a.driver.state.legal_actions()
        if event.y - 1 < rows and 0 <= n < len(legal):
            a.click_move(legal[n])


class HandView(FittedPane):
    DEFAULT_CSS = "HandView { height: auto; }"

    def _text(self, width: int = 80) -> Text:
        """The hand as chips, a line broken only between two cards (a card never splits)."""
        a = self.game_app
        obs = a.driver.state.observation(a.seat)
        t = Text()
        t.append(f"{a.game.player_names[a.seat]}'s hand:", style="bold")
        col, line = t.cell_len, 0
        self.spans: list[tuple[int, int, int, int]] = []  # (line, first column, end column, card row): the mouse
        for i, c in enumerate(obs.hand):
            chip = card_chip(a.game, c, i == a.card_row)
            if col + 1 + chip.cell_len > width:
                t.append("\n")
                col, line = 0, line + 1
            else:
                t.append(" ")
                col += 1
            t.append_text(chip)
            self.spans.append((line, col, col + chip.cell_len, i))
            col += chip.cell_len
        if not obs.hand:
            t.append(" (empty)")
        return t

    def render(self) -> Text:
        return self._text(self.size.width)

    def on_click(self, event: events.Click) -> None:
        """A click on a card picks it and opens its moves (as ← → and Enter)."""
        for line, start, end, i in getattr(self, "spans", []):
            if event.y == line and start <= event.x < end:
                self.game_app.click_card(i)
                return


KEYS = "←→ card Enter play 1-9 move d discard h hint u undo r rules ? help q quit"
DRAW_KEYS = {"p": "p pile", "t": "t discard", "m": "m mulligan"}  # at a draw choice, before KEYS_AT_DRAW
KEYS_AT_DRAW = "←→ card 1-9 move h hint r rules ? help q quit"  # u undo still works (the help says it)


def keys_line(choice: DrawChoice | None) -> str:
    """The key bar: at a draw choice the keys of its ways to draw come first (at most 80 columns)."""
    if choice is None:
        return KEYS
    ways = [DRAW_KEYS["p"]] if choice.pile is not None else []
    ways += [DRAW_KEYS["t"]] if choice.discard_top is not None else []
    ways += [DRAW_KEYS["m"]] if choice.mulligan else []
    return "  ".join(ways) + "  " + KEYS_AT_DRAW


class TableScreen(Screen[None]):
    """The game: everything on one screen."""

    def compose(self) -> ComposeResult:
        a = _game_app(self)
        if a.game.sides >= MANY_SIDES:  # the moves name 8 opponents: they take more of the width than the plays
            self.add_class("many-sides")
        yield Header(id="header")
        yield TableView(a, id="table")
        with Horizontal(id="middle"):
            yield PlaysView(a, id="plays")
            yield MovesView(a, id="moves")
        yield HandView(a, id="hand")
        yield Static(id="status")
        yield Static(keys_line(None), id="keys")


class Prompt(ModalScreen[bool]):
    """A question that must be answered: the coup fourré window, the extension, quitting."""

    DEFAULT_CSS = """
    Prompt { align: center middle; background: $background 60%; }
    Prompt > Static { width: 70; max-width: 100%; height: auto; border: heavy $warning; padding: 0 1;
                      background: $panel; }
    """

    quitting = False  # the question is whether to quit (Ctrl-C's: answered at any window size)

    def __init__(self, question: str, yes: str, no: str):
        super().__init__()
        self.text = Text()
        self.text.append(question + "\n\n", style="bold")
        self.text.append(f"1 or y: {yes}\n2 or n: {no}")

    def compose(self) -> ComposeResult:
        yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key in ("1", "y"):
            self.dismiss(True)
        elif event.key in ("2", "n", "escape"):
            self.dismiss(False)


class _ReadThenGoOn(Screen[None]):
    """A screen read, then left: Enter goes on, q asks whether to quit the match (every other key is its own)."""

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "enter":
            self.dismiss(None)
        elif event.key == "q":
            _game_app(self).action_quit_match()


class Handover(_ReadThenGoOn):
    """Hot seat: nothing of any hand shows until the next person presses Enter."""

    def __init__(self, who: str):
        super().__init__()
        self.who = who

    def compose(self) -> ComposeResult:
        yield Static(
            Text(
                f"\n\n  {self.who}'s turn: pass the keyboard to {self.who}.\n\n"
                f"  {self.who}, press Enter to see your hand.",
                style="bold",
            )
        )


class FoldedText(Widget):
    """Text folded between words to the widget's width (``fold_to(width)``), so that no line of it wraps
    back to column 0; as tall as the folded text."""

    DEFAULT_CSS = "FoldedText { height: auto; }"

    def __init__(self, fold_to: Callable[[int], str], **kw: Any):
        super().__init__(**kw)
        self.fold_to = fold_to

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.fold_to(max(20, width)).count("\n") + 1

    def render(self) -> Text:
        return Text(self.fold_to(max(20, self.size.width)))


class TextPane(Screen[None]):
    """The rules (or the help) in a pane that scrolls: ↑/↓, PgUp/PgDn, the mouse wheel; Esc, Enter or the
    same key closes. ``body`` is a text folded to the pane's width (a line goes on under its own text), or
    ``body(width)`` gives the folded text itself."""

    def __init__(self, title: str, body: str | Callable[[int], str], close: str):
        super().__init__()
        self.title_text, self.close = title, close
        self.body = body if callable(body) else (lambda width: fold(body, width))

    def compose(self) -> ComposeResult:
        yield Static(Text(f"{self.title_text}  (↑/↓ PgUp/PgDn scroll; Esc closes)", style="bold reverse"))
        with VerticalScroll(id="pane"):
            yield FoldedText(self.body)

    def on_key(self, event: events.Key) -> None:
        pane = self.query_one("#pane", VerticalScroll)
        if event.key in ("escape", "enter", self.close, "q"):
            event.stop()
            self.dismiss(None)
        elif event.key in ("down", "j"):
            pane.scroll_down(animate=False)
        elif event.key in ("up", "k"):
            pane.scroll_up(animate=False)
        elif event.key in ("pagedown", "space"):
            pane.scroll_page_down(animate=False)
        elif event.key == "pageup":
            pane.scroll_page_up(animate=False)


MIN_COLUMNS, MIN_LINES = 80, 24  # the room the table needs: below it, the TooSmall screen


class TooSmall(Screen[None]):
    """Over everything while the window is smaller than 80×24: what to do, in words, instead of a table
    whose keys and borders fall off. It goes away by itself once the window is big enough; Ctrl-C still
    asks whether to quit."""

    DEFAULT_CSS = """
    TooSmall { align: center middle; }
    TooSmall > Static { width: auto; max-width: 100%; height: auto; padding: 0 1; text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield Static(self.words())

    def words(self) -> Text:
        w, h = self.app.size
        return Text(
            f"The window is {w}×{h}: make the window at least {MIN_COLUMNS}×{MIN_LINES} to play. "
            "The game goes on where it was. (Ctrl-C quits.)",
            justify="center",
        )

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(Static).update(self.words())

    def on_screen_resume(self) -> None:
        self.app.call_later(_game_app(self).fit_check)

    def on_key(self, event: events.Key) -> None:
        event.stop()  # the table underneath takes no key while it cannot be seen


class ScoreSheet(_ReadThenGoOn):
    """The end of a hand: who completed the trip, the score sheet, the running totals."""

    def __init__(self, app_: "MilleBornesApp", last: bool):
        super().__init__()
        self.game_app, self.last = app_, last

    def compose(self) -> ComposeResult:
        a = self.game_app
        g, st = a.game, a.driver.state
        me = a.driver.humans[0] if len(a.driver.humans) == 1 else None
        t = self.sheet_table(me, narrow=False)
        if (
            Measurement.get(a.console, a.console.options.update_width(1000), t).maximum > a.size.width
        ):  # 7 to 9 sides at 80 columns
            t = self.sheet_table(me, narrow=True)
        yield Static(Text(a.driver.narrator.words.hand_end(st), style="bold"))
        with VerticalScroll():
            yield Static(t)
        end = Narrator(g).result(st)[1] if st.is_terminal() else None
        if end:
            yield Static(Text(end, style="bold reverse"))
        yield Static(Text("Enter: " + ("leave" if self.last else "next hand") + "    q: quit", style="bold"))

    def sheet_table(self, me: int | None, narrow: bool) -> Table:
        """The score sheet's frame: a column a side, headed by its label ('A (you)'); ``narrow``, for a width
        that cannot hold that, with rules between the header, the lines and the totals only, and each side's letter above its players, so that every line's
        name stays whole."""
        g = self.game_app.game
        title = f"Score sheet, hand {self.game_app.driver.state.hands_played}"
        if not narrow:
            t = Table(title=title, title_justify="left", title_style="bold")
            t.add_column("")
        else:
            t = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE, padding=0, show_edge=False)
            t.add_column("", no_wrap=True)
        for s in range(g.sides):
            label = side_label(g, s, me)
            t.add_column(label.replace(" (", "\n(") if narrow else label, justify="right")
        self.fill(t)
        return t

    def fill(self, t: Table) -> None:
        """The score sheet's lines: the contract's and the ruleset's own, the running totals, the miles."""
        a = self.game_app
        g, st = a.game, a.driver.state
        sheet = st.hand_sheets[-1]
        for line in g.score_line_names:  # the contract's lines and the ruleset's own (scoring.lines)
            t.add_row(
                line_label(line, g),
                *(str(sheet[s][line]) for s in range(g.sides)),
                end_section=line == g.score_line_names[-2],
            )
        t.add_row("Running total", *(str(x) for x in st.match_totals))
        obs = st.observation(a.seat)
        t.add_row(g.ruleset.display.distance_unit.value.capitalize(), *(str(v.miles) for v in obs.sides))


class MilleBornesApp(App[str]):
    """The match on one screen; ``return_value`` is why it ended ('over', 'quit', 'interrupted')."""

    CSS = """
    #header { height: 1; background: $boost; text-style: bold; }
    #table { margin-bottom: 1; }
    #middle { height: 1fr; }
    #plays { width: 1fr; padding-right: 1; }
    #moves { width: 1fr; }
    #status { height: auto; min-height: 2; max-height: 3; color: $warning; text-style: bold; }
    #keys { height: 1; background: $boost; }
    #hand { margin-top: 0; }
    .many-sides #moves { width: 3fr; }
    .many-sides #plays { width: 2fr; }
    """
    BINDINGS = [Binding("ctrl+c", "quit_match", show=False, priority=True)]
    TITLE = "mbrules"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, driver: MatchDriver, **kw: Any):
        super().__init__(**kw)
        self.driver = driver
        self.game = driver.game
        self.seat = driver.humans[0]
        self.card_row = 0
        self.targets: list[tuple[str, Action]] | None = None
        self.targets_card = -1
        self.target_row = 0
        self.digits = ""
        self.message = ""
        self.waiting = False  # a prompt or another screen is up: the table takes no keys
        self.shown: int | None = None  # whose hand the table shows (hot seat hides it between people)

    # -- flow ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.push_screen(TableScreen())
        self.call_after_refresh(self.proceed)

    # -- the window's size ------------------------------------------------------------------------
    def too_small(self) -> bool:
        return self.size.width < MIN_COLUMNS or self.size.height < MIN_LINES

    def fit_check(self) -> None:
        """The TooSmall screen on top while the window is below 80×24, gone once it is big enough."""
        on_top = isinstance(self.screen, TooSmall)
        quitting = getattr(self.screen, "quitting", False)  # Ctrl-C's question is answered at any size
        if self.too_small() and not on_top and not quitting and self.screen_stack:
            self.push_screen(TooSmall())
        elif not self.too_small() and on_top:
            self.pop_screen()

    def on_resize(self, event: events.Resize) -> None:
        self.call_later(self.fit_check)

    def push_screen(self, screen: Any, *args: Any, **kw: Any) -> Any:
        """Every screen the match shows (a prompt, a score sheet) stays under TooSmall while the window is
        too small."""
        shown = super().push_screen(screen, *args, **kw)
        if not isinstance(screen, TooSmall):
            self.call_later(self.fit_check)
        return shown

    def proceed(self) -> None:
        """Run the bots to the next human decision or the end of the hand, and show it."""
        d = self.driver
        status = d.advance()
        if status == "hand":
            last = d.hand_finished()
            self.refresh_all()
            self.waiting = True
            self.push_screen(ScoreSheet(self, last), lambda _: self.after_sheet(last))
            return
        p = d.state.current_player
        changed = p != self.shown
        self.seat = p
        if changed:
            self.card_row = 0
        self.targets = None
        if len(d.humans) > 1 and changed:
            self.waiting = True
            self.push_screen(Handover(self.game.player_names[p]), lambda _: self.ask())
        else:
            self.ask()

    def ask(self) -> None:
        """A coup fourré window or the extension question: a prompt that cannot be missed."""
        self.waiting = False
        self.shown = self.seat
        self.refresh_all()
        d = self.driver
        obs = d.state.observation(self.seat)
        kind = obs.decision.kind
        question = Narrator(self.game).question(obs) or ""  # a question for each kind asked below
        if kind == DecisionKind.COUP_FOURRE:
            self.ask_card_or_pass(question, COUP_FOURRE, "call it ({})")
        elif kind == DecisionKind.FAST_PLAY:  # option fast-play-remedy: a remedy out of turn, or let it pass
            self.ask_card_or_pass(question, FAST_PLAY, "play {} now")
        elif kind == DecisionKind.EXTENSION:
            self.waiting = True
            self.push_screen(
                Prompt(question, "extend the trip", "stop here: the hand ends"),
                lambda yes: self.answer(self.game.extend_action if yes else self.game.stop_action),
            )

    def ask_card_or_pass(self, question: str, op: int, yes: str) -> None:
        """A card out of turn (the one legal action of ``op``: a coup fourré, a fast play) or let it pass;
        ``yes`` words the first answer, ``{}`` the card's name."""
        self.waiting = True
        card = next(a for a in self.driver.state.legal_actions() if a.op == op)
        self.push_screen(
            Prompt(question, yes.format(self.game.names[card.card_index]), "let it pass"),
            lambda said_yes: self.answer(card if said_yes else self.game.decline_action),
        )

    def answer(self, a: Action) -> None:
        self.waiting = False
        self.do(a)

    def after_sheet(self, last: bool) -> None:
        if last:
            self.exit("over")
            return
        self.driver.next_hand()
        self.waiting = False
        self.proceed()

    def do(self, a: Action) -> None:
        self.message = ""
        self.digits = ""
        self.targets = None
        self.driver.play(self.seat, a)
        self.proceed()

    # -- what is shown -------------------------------------------------------------------------
    def move_words(self, short: bool = False) -> list[str]:
        """The legal moves in words; ``short``: a hazard's target by its side's name alone ('Stop! on B'), for a
        list in columns too narrow for 'Stop! on side B (p2)' (7 to 9 sides at 80 columns)."""
        st = self.driver.state
        obs = st.observation(self.seat)
        words = self.driver.narrator.words.move
        g = self.game
        return [
            f"{g.names[a.card_index]} on {g.side_names[a.side_index]}"
            if short and a.op == PLAY and g.kind[a.card_index] == HAZARD and a.side_index not in (-1, obs.side)
            else words(obs, a)
            for a in st.legal_actions()
        ]

    def header_text(self) -> Text:
        g, st = self.game, self.driver.state
        obs = st.observation(self.seat)
        rs = g.ruleset
        totals = " ".join(f"{g.side_names[s]} {x}" for s, x in enumerate(obs.match_totals))
        match = [f" | match {totals}" + (f" (to {g.target_points})" if g.match_mode == "points" else "")]
        piles = [f" | {g.ruleset.display.draw_pile}: {obs.draw_pile}"]
        if obs.discard:
            piles.append(f" | {g.ruleset.display.discard_pile}: {g.names[obs.discard[-1]]}")
        parts = (match if g.scoring_enabled else []) + piles + [f" | {rs.name}"]
        width = max(20, self.size.width)
        if len("".join(parts[:-1])) + 8 > width and g.scoring_enabled:  # 7 to 9 sides' totals: the piles first, uncut
            parts = piles + match + parts[-1:]
        t = Text()
        t.append(f"Hand {obs.hand_no + 1}", style="bold")
        t.append("".join(parts))
        t.truncate(width, overflow="ellipsis")
        return t

    def status_text(self) -> Text:
        d = self.driver
        t = Text()
        who = self.game.player_names[self.seat]
        choice = self.draw_choice()
        if choice is not None:  # the table waits for p, t or m (draw-from-discard, mulligan)
            t.append(self.draw_words(choice) + " ", style="bold")
        elif d.state.current_player == self.seat and d.state.legal_actions():
            t.append(f"{who}, your move. ", style="bold")
        for line in d.notes.get(self.seat, []):
            t.append(line + " ")
        if self.digits:
            t.append(f"Move {self.digits}… (Enter) ", style="bold")
        if self.message:
            t.append(self.message, style="bold yellow")
        return t

    def draw_choice(self) -> DrawChoice | None:
        """The draw the person at the table chooses now (p, t, m), or None."""
        st = self.driver.state
        if st.current_player != self.seat:
            return None
        return draw_choice(st.observation(self.seat), st.legal_actions())

    def draw_words(self, choice: DrawChoice) -> str:
        obs = self.driver.state.observation(self.seat)
        picked = self.game.names[obs.hand[self.card_row % len(obs.hand)]] if obs.hand else "a card"
        return draw_prompt(self.game, obs, choice, f"m throws {picked} (picked)")

    def refresh_all(self) -> None:
        if not isinstance(self.screen, TableScreen):
            scr = next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)
        else:
            scr = self.screen
        if scr is None:
            return
        scr.query_one("#header", Static).update(self.header_text())
        scr.query_one("#status", Static).update(self.status_text())
        scr.query_one("#keys", Static).update(keys_line(self.draw_choice()))
        for w in ("#table", "#plays", "#moves", "#hand"):
            scr.query_one(w).refresh(layout=True)

    def say(self, message: str) -> None:
        self.message = message
        self.refresh_all()

    # -- keys ----------------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if self.waiting or not isinstance(self.screen, TableScreen):
            return
        st = self.driver.state
        if st.current_player != self.seat or not st.legal_actions():
            return
        key = event.key
        event.stop()
        legal = st.legal_actions()
        hand = st.observation(self.seat).hand
        if key.isdigit():
            self.digit_key(key, legal)
            return
        if key == "enter":
            self.enter_key(hand)
            return
        self.digits = ""
        if key == "escape":
            self.targets = None
            self.say("")
        elif key in ("left", "right") and hand:
            self.targets = None
            self.card_row = (self.card_row + (1 if key == "right" else -1)) % len(hand)
            self.say("")
        elif key in ("up", "down") and self.targets is not None:
            self.target_row = (self.target_row + (1 if key == "down" else -1)) % len(self.targets)
            self.refresh_all()
        elif key == "d" and hand:
            self.discard_key(st, hand[self.card_row % len(hand)], legal)
        elif key in ("p", "t", "m") and (choice := self.draw_choice()) is not None:
            self.draw_key(key, choice, hand)
        elif key in ("p", "t", "m"):
            self.say(f"{key} chooses how you draw; it is not your draw now.")
        elif key == "h":
            self.hint_key(st, legal, hand)
        elif key == "u":
            self.undo_key()
        elif key == "r":
            from mbrules.ruleset.render import show_text

            self.push_screen(TextPane("The rules in play", show_text(self.game.ruleset, self.game.players), "r"))
        elif key in ("question_mark", "?"):
            self.push_screen(TextPane("Help", help_text, "question_mark"))
        elif key == "q":
            self.action_quit_match()

    def digit_key(self, key: str, legal: Sequence[Action]) -> None:
        """A digit of a move's number: the move is picked once no other number can start with the digits."""
        self.digits += key
        n = int(self.digits)
        if n * 10 > len(legal) or n == 0:
            self.pick_number()
        else:
            self.refresh_all()

    def enter_key(self, hand: Sequence[int]) -> None:
        """Enter: the number typed, else the target chosen, else the card under the cursor opened."""
        if self.digits:
            self.pick_number()
        elif self.targets is not None:
            self.do(self.targets[self.target_row][1])
        elif hand:
            self.open_card(hand[self.card_row % len(hand)])

    def discard_key(self, st: State, c: int, legal: Sequence[Action]) -> None:
        """d: discard the card under the cursor, or say why it cannot be discarded now."""
        a = self.game.discard_action[c]
        if a in legal:
            self.do(a)
            return
        try:
            st.verify(a, player=self.seat)
            self.say(f"You cannot discard {self.game.names[c]} now.")
        except IllegalAction as e:
            self.say(
                f"You cannot discard {self.game.names[c]}: "
                + refusal(self.game, st.observation(self.seat), c, -1, e.code, e.message)
                + "."
            )

    def hint_key(self, st: State, legal: Sequence[Action], hand: Sequence[int]) -> None:
        """h: the hint bot's move, in words with its number; its card put under the cursor."""
        a = self.driver.hint(self.seat)
        num = legal.index(a) + 1 if a in legal else "?"
        if a.card_index >= 0 and a.card_index in hand:
            self.card_row = hand.index(a.card_index)
        self.say(
            f"Hint ({self.driver.hint_name} bot): {num}. {self.driver.narrator.words.move(st.observation(self.seat), a)}"
        )

    def undo_key(self) -> None:
        """u: take back the last move against bots (never in hot seat)."""
        if self.driver.can_undo():
            self.driver.undo()
            self.targets = None
            self.say("Your last move is undone.")
        elif len(self.driver.humans) > 1:
            self.say("Undo is only against bots (not in hot seat).")
        else:
            self.say("Nothing to undo in this hand.")

    def draw_key(self, key: str, choice: DrawChoice, hand: Sequence[int]) -> None:
        """p draws from the draw pile (ends a mulligan), t takes the discard top, m throws the picked card
        away (a mulligan); a key with no such way to draw now says why."""
        g = self.game
        d = g.ruleset.display
        if key == "p":
            if choice.pile is not None:
                self.do(choice.pile)
            else:
                self.say(f"You cannot draw from the {d.draw_pile} now.")
        elif key == "t":
            if choice.discard_top is not None:
                self.do(choice.discard_top)
            else:
                self.say(take_refusal(g, self.driver.state.observation(self.seat)))
        elif not choice.mulligan:
            self.say("This edition has no mulligan." if not g.mulligan else "You cannot mulligan now.")
        elif hand:
            c = hand[self.card_row % len(hand)]
            if c in choice.mulligan:
                self.do(choice.mulligan[c])
            else:
                self.say(f"You cannot throw {g.names[c]} away now.")

    def table_takes_input(self) -> bool:
        st = self.driver.state
        return (
            not self.waiting
            and isinstance(self.screen, TableScreen)
            and st.current_player == self.seat
            and bool(st.legal_actions())
        )

    def click_card(self, row: int) -> None:
        if self.table_takes_input():
            self.card_row = row
            hand = self.driver.state.observation(self.seat).hand
            self.open_card(hand[row])

    def click_move(self, a: Action) -> None:
        if self.table_takes_input() and a in self.driver.state.legal_actions():
            self.do(a)

    def pick_number(self) -> None:
        legal = self.driver.state.legal_actions()
        text, self.digits = self.digits, ""
        n = int(text)
        if 1 <= n <= len(legal):
            self.do(legal[n - 1])
        else:
            self.say(f"There is no move {text}: the moves are 1 to {len(legal)}.")

    def open_card(self, c: int) -> None:
        """Enter on a card: its moves (plays on each possible side, discard) or why it cannot be played."""
        st = self.driver.state
        legal = st.legal_actions()
        obs = st.observation(self.seat)
        mine = [a for a in legal if a.card_index == c and a.op in (PLAY, DISCARD, COUP_FOURRE, MULLIGAN)]
        words = self.driver.narrator.words
        why = self.driver.why_not(self.seat, c)
        self.message = f"{self.game.names[c]} cannot be played: {why}." if why else ""
        if not mine:
            self.refresh_all()
            return
        self.targets = [(("Discard " + self.game.names[c]) if a.op == DISCARD else words.move(obs, a), a) for a in mine]
        self.targets_card = c
        self.target_row = 0
        self.refresh_all()

    def action_quit_match(self) -> None:
        """q or Ctrl-C: the quit prompt; Ctrl-C again while it is up stops the game at once ('interrupted',
        exit 130, as Ctrl-C stops every command)."""
        if isinstance(self.screen, Prompt) and getattr(self.screen, "quitting", False):
            self.exit("interrupted")
            return
        save = self.driver.save_path
        p = Prompt(
            "Quit this match? "
            + (
                f"It will be saved to {save}: the same command continues it."
                if save is not None
                else "Nothing more will be played."
            ),
            "quit",
            "go on playing",
        )
        p.quitting = True
        self.push_screen(p, lambda yes: self.exit("quit") if yes else self.refresh_all())


HELP_KEYS = (  # (key, what it does): one line each, folded under its words at the pane's width
    ("← / →", "pick a card of your hand"),
    ("Enter", "the picked card's moves; ↑ / ↓ and Enter pick the target; Esc goes back"),
    ("1 … 9", "play a listed move at once (two digits and Enter past 9 moves)"),
    ("d", "discard the picked card"),
    ("p", "at your draw: draw from the draw pile (in a mulligan: draw back and end it)"),
    ("t", "at your draw: take the top card of the discard pile (when the edition allows it)"),
    (
        "m",
        "at your draw: throw the picked card away, a mulligan (when the edition has one); "
        "throw more with m, then p draws back to a full hand and your turn ends",
    ),
    ("h", "a hint from the hint bot (it also picks the card)"),
    ("u", "undo your last move (against bots; not in hot seat)"),
    ("r", "the rules of this edition, in a pane that scrolls"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (asks y first; Ctrl-C again quits at once)"),
)
HELP_NOTES = (  # paragraphs, folded at the pane's width
    "The mouse works too: a click on a card of your hand opens its moves, a click on a listed move (or on a "
    "target) plays it, and the wheel scrolls this help and the rules.",
    "A coup fourré window, a fast-play window (a remedy played at once, out of turn) and the extension "
    "question come as prompts over the table: 1 or y answers yes, 2 or n no. When your draw is a choice "
    "(the discard pile's top card, a mulligan), the table waits: the line above the keys says which of p, "
    "t and m you may press. At the end of a hand the score sheet shows; Enter goes on to the next hand.",
    "Cards show by their names in this edition; hazards are red, remedies green, safeties cyan.",
)
KEY_COLUMN = 15  # where a key's words start in the help


def help_text(width: int) -> str:
    """The help folded to ``width``: each key's words go on under its words, never under the key."""
    keys = "\n".join(f"  {k:<{KEY_COLUMN - 3}} {words}" for k, words in HELP_KEYS)
    parts = [
        fold("How to play (every key works at any time on the table):", width, 0),
        "",
        fold(keys, width, KEY_COLUMN),
    ]
    for note in HELP_NOTES:
        parts += ["", fold(note, width, 0)]
    return "\n".join(parts) + "\n"


def run_app(driver: MatchDriver, **run_kw: Any) -> str:
    """Run the full-screen game; returns 'over', 'quit' or 'interrupted' (Ctrl-C twice)."""
    result = MilleBornesApp(driver).run(**run_kw)
    return result or "quit"


__all__ = ["MatchDriver", "MilleBornesApp", "run_app"]
