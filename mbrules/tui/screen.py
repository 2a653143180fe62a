"""What a human seat sees: the table drawn from that seat's observation only, with Rich.

Everything here reads an :class:`~mbrules.engine.Observation` (one seat's view: its own hand,
every side's piles, counts) and the public narration of plays; never ``snapshot()`` nor a
``State`` attribute. Colours are the terminal's own ANSI red/green/cyan plus bold and reverse, so
they follow the user's palette and stay readable on light and dark backgrounds; ``NO_COLOR``
turns them off (Rich honours it) and every fact is also written in words, never in colour alone.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from mbrules.engine import Action, Game, Observation
from mbrules.text import plural
from mbrules.narrate import Narrator, line_label, side_label
from mbrules.vocab import DISTANCE, HAZARD, KARMA, NO_LIMIT, REMEDY, SAFETY

from .table import draw_choice, draw_prompt

BAR_WIDTH = 16

KIND_STYLE = {DISTANCE: "bold", HAZARD: "red", REMEDY: "green", SAFETY: "cyan", KARMA: "magenta"}


class SidesTable:
    """:func:`sides_table` at the width it is drawn at: below 100 columns the miles bar gives up cells (6 at 80)
    so that the table does not cut the piles' words ('(emp…', 'roll…' at 80 columns, at every table size)."""

    def __init__(self, game: Game, obs: Observation, unicode: bool, hand_points: Sequence[int] | None):
        self.args = (game, obs, unicode, hand_points)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield sides_table(*self.args, bar_width=max(4, BAR_WIDTH - max(0, 100 - options.max_width) // 2))


def progress_bar(miles: int, target: int, unicode: bool = True, width: int = BAR_WIDTH) -> Text:
    """``miles`` of ``target`` as a bar of :data:`BAR_WIDTH` cells and the figures."""
    done = 0 if target <= 0 else min(width, miles * width // target)
    full, empty = ("█", "·") if unicode else ("#", "-")
    bar = Text()
    bar.append(f"{miles:>4}/{target} ", style="bold")
    bar.append(full * done, style="green")
    bar.append(empty * (width - done))
    return bar


def card_text(game: Game, c: int) -> Text:
    return Text(game.names[c], style=KIND_STYLE.get(game.kind[c], ""))


def action_words(game: Game, obs: Observation, a: Action) -> str:
    """A move in plain words for the list of moves (mbrules.narrate's)."""
    return Narrator(game).move(obs, a)


def sides_table(
    game: Game,
    obs: Observation,
    unicode: bool = True,
    hand_points: Sequence[int] | None = None,
    bar_width: int = BAR_WIDTH,
) -> Table:
    """Every side's battle and speed piles, safeties (coups fourrés marked), miles, limited cards, score."""
    d = game.ruleset.display
    t = Table(title="The table", title_justify="left", expand=False, show_lines=False)
    t.add_column("side")
    t.add_column(d.battle_pile)
    t.add_column(d.speed_pile)
    t.add_column(d.safety_area)
    gap = " " if bar_width >= BAR_WIDTH else "\n"  # narrow: the head on two lines, as narrow as the bar
    t.add_column(f"{game.ruleset.display.distance_unit.value}{gap}(target {obs.target})", no_wrap=True)
    limited = [c for c in range(game.n_cards) if game.kind[c] == DISTANCE and game.max_per_hand[c] != NO_LIMIT]
    for c in limited:
        t.add_column(f"{game.names[c]} played")
    if game.karma:
        t.add_column("karma")  # ruleset 'karma': whether the side still has it
    t.add_column("this hand", justify="right")
    for s, v in enumerate(obs.sides):
        label = Text(side_label(game, s, obs.player), style="bold" if s == obs.side else "")
        if v.battle:
            battle = card_text(game, v.battle[-1])
        else:
            battle = Text("(empty)")
        if len(v.hazards) > 1:  # option stacked-hazards: the hazards under the top one are in force too
            battle = Text("\n").join(card_text(game, h) for h in v.hazards)  # one line each, oldest first
            battle.append("  stopped", style="bold red")
        elif v.hazard >= 0:
            battle.append("  stopped", style="bold red")
        elif v.moving:
            battle.append("  rolling", style="bold green")
        else:
            battle.append("  not rolling")
        if v.speed_hazard >= 0:
            speed = card_text(game, v.speed_hazard)
            speed.append(f" ({v.limit})" if v.limit is not None else "")
        elif v.speed:
            speed = Text(f"{game.names[v.speed[-1]]}  no limit")
        else:
            speed = Text("no limit")
        safeties = Text()  # one a line; a coup fourré is marked in words, not by colour alone
        for c in v.safeties:
            if safeties:
                safeties.append("\n")
            safeties.append(game.names[c], style="cyan")
        for c in v.coup_fourres:
            if safeties:
                safeties.append("\n")
            safeties.append(f"{game.names[c]} (coup fourré)", style="bold cyan")
        if not safeties:
            safeties = Text("-")
        row = [label, battle, speed, safeties, progress_bar(v.miles, obs.target, unicode, bar_width)]
        row += [Text(f"{v.distance[c]}/{game.max_per_hand[c]}") for c in limited]
        if game.karma:
            row.append(karma_text(v.karma))
        row.append(Text(str(hand_points[s]) if hand_points is not None else "-"))
        t.add_row(*row)
    return t


def karma_text(karma: bool | None, short: bool = True) -> Text:
    """A side's karma in words (ruleset 'karma'): kept, or lost (shunned); marked in words, not colour alone.
    ``short``: the sides table's column ('karma' heads it), else a fact of its own."""
    if short:
        return Text("yes", style="green") if karma else Text("lost", style="bold magenta")
    return Text("karma", style="green") if karma else Text("shunned: no karma", style="bold magenta")


def header(game: Game, obs: Observation, hands_cap: int | None = None) -> Text:
    rs = game.ruleset
    opts = f" + {', '.join(rs.applied_options)}" if rs.applied_options else ""
    text = Text()
    text.append(f"{rs.name}{opts}", style="bold")
    text.append(f"   hand {obs.hand_no + 1}")
    text.append(f"   {game.ruleset.display.draw_pile}: {plural(obs.draw_pile, 'card')}")
    totals = ", ".join(f"{game.side_names[s]} {t}" for s, t in enumerate(obs.match_totals))
    if game.match_mode == "points":
        text.append(f"   match (to {game.target_points}): {totals}")
    elif game.scoring_enabled:
        text.append(f"   score before this hand: {totals}")
    counts = ", ".join(f"{game.player_names[p]} {n}" for p, n in enumerate(obs.hand_sizes))
    text.append(f"\nCards held: {counts}")
    text.append(f"   {game.ruleset.display.discard_pile}: ")
    if obs.discard:
        text.append_text(card_text(game, obs.discard[-1]))
        text.append(f" on top, {plural(len(obs.discard), 'card')}")
    else:
        text.append("empty")
    if obs.extension_called_by >= 0:
        text.append(
            f"   extension called by {game.player_names[obs.extension_called_by]}: trip of {obs.target}", style="bold"
        )
    return text


def hand_text(game: Game, obs: Observation, unicode: bool = True) -> Text:
    t = Text()
    t.append("Your hand: ", style="bold")
    keep = "\u00a0" if unicode else " "  # a card's name and id never split across lines
    for i, c in enumerate(obs.hand):
        if i:
            t.append("   ")
        t.append(game.names[c].replace(" ", keep), style=KIND_STYLE.get(game.kind[c], ""))
        t.append(f"{keep}[{game.card_ids[c]}]")
    if not obs.hand:
        t.append("(empty)")
    return t


def moves_table(game: Game, obs: Observation, legal: Sequence[Action]) -> Table:
    t = Table(
        title="Your moves (type the number or the words)",
        title_justify="left",
        box=None,
        show_header=False,
        pad_edge=False,
    )
    t.add_column(justify="right", style="bold")
    t.add_column()
    t.add_column()
    for i, a in enumerate(legal, 1):
        t.add_row(f"{i}.", Text(str(a), style="bold"), Text(action_words(game, obs, a)))
    return t


def narration_text(lines: Sequence[str]) -> Text:
    t = Text()
    t.append("Last plays:\n", style="bold")
    if not lines:
        t.append("  (none yet)")
    t.append("\n".join(f"  {line}" for line in lines))
    return t


def decision_banner(game: Game, obs: Observation, who: str) -> Text | None:
    """The question a coup fourré window or the extension puts to this seat, or None on a turn."""
    question = Narrator(game).question(obs)
    return None if question is None else Text(question, style="bold reverse")


def decision_screen(
    game: Game,
    obs: Observation,
    legal: Sequence[Action],
    narration: Sequence[str],
    note: Sequence[str] = (),
    unicode: bool = True,
    hand_points: Sequence[int] | None = None,
) -> Group:
    """The whole screen for one decision of the seat whose observation ``obs`` is.

    ``hand_points``: each side's points this hand so far (``state.score_sheet()``'s totals: the sheet
    is worked out from the table alone, so it is public), shown in the table's last column.
    """
    who = game.player_names[obs.player]
    parts: list[RenderableType] = [
        header(game, obs),
        SidesTable(game, obs, unicode, hand_points),
        narration_text(narration),
    ]
    choice = draw_choice(obs, list(legal))
    if choice is not None:  # a draw that is a choice (draw-from-discard, mulligan): its keys, in place of the question
        parts.append(Text(draw_prompt(game, obs, choice, "m CARD throws CARD"), style="bold reverse"))
    else:
        banner = decision_banner(game, obs, who)
        if banner is not None:
            parts.append(banner)
    for line in note:
        parts.append(Text(line, style="bold"))
    parts += [
        hand_text(game, obs, unicode),
        moves_table(game, obs, legal),
        Text("?  hint    r  rules    q  quit    h  help", style="bold"),
    ]
    return Group(*parts)


def score_sheet_table(
    game: Game,
    sheet: Sequence[dict[str, int]],
    totals: Sequence[int],
    miles: Sequence[int],
    hand: int,
    me: int | None = None,
) -> Table:
    t = Table(title=f"Score sheet, hand {hand}", title_justify="left")
    t.add_column("")
    for s in range(game.sides):
        t.add_column(side_label(game, s, me), justify="right")
    for line in game.score_line_names:  # the contract's lines and the ruleset's own (scoring.lines)
        t.add_row(
            line_label(line, game),
            *(str(sheet[s][line]) for s in range(game.sides)),
            end_section=line == game.score_line_names[-2],
        )
    t.add_row("Running total", *(str(x) for x in totals))
    t.add_row(f"{game.ruleset.display.distance_unit.value.capitalize()} travelled", *(str(m) for m in miles))
    return t
