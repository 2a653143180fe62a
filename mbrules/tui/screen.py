"""What a human seat sees: the table drawn from that seat's observation only, with Rich.

Everything here reads an :class:`~mbrules.engine.Observation` (one seat's view: its own hand,
every side's piles, counts) and the public narration of plays; never ``snapshot()`` nor a
``State`` attribute. Colours are the terminal's own ANSI red/green/cyan plus bold and reverse, so
they follow the user's palette and stay readable on light and dark backgrounds; ``NO_COLOR``
turns them off (Rich honours it) and every fact is also written in words, never in colour alone.
"""
from __future__ import annotations

from typing import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from mbrules.engine import Action, Game, Observation
from mbrules.engine.cards import NO_LIMIT
from mbrules.engine.game import DISTANCE, HAZARD, REMEDY, SAFETY, SCORE_LINES
from mbrules.engine.notation import COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, PLAY, STOP
from mbrules.engine.words import plural

BAR_WIDTH = 16

LINE_LABELS = {
    "milestones": "Points for distance", "safeties": "Safeties", "all_safeties": "All safeties",
    "coup_fourres": "Coups fourrés", "trip_completed": "Trip completed", "delayed_action": "Delayed action",
    "safe_trip": "Safe trip", "shutout": "Shutout", "extension": "Extension", "total": "Total (hand)",
}

KIND_STYLE = {DISTANCE: "bold", HAZARD: "red", REMEDY: "green", SAFETY: "cyan"}


def side_label(game: Game, s: int, me: int | None = None) -> str:
    """'A (p1, p3)', with 'you' in place of the viewer's own name."""
    names = [("you" if p == me else game.player_names[p]) for p in game.side_players[s]]
    return f"{game.side_names[s]} ({', '.join(names)})"


def progress_bar(miles: int, target: int, unicode: bool = True) -> Text:
    """``miles`` of ``target`` as a bar of :data:`BAR_WIDTH` cells and the figures."""
    done = 0 if target <= 0 else min(BAR_WIDTH, miles * BAR_WIDTH // target)
    full, empty = ("█", "·") if unicode else ("#", "-")
    bar = Text()
    bar.append(f"{miles:>4}/{target} ", style="bold")
    bar.append(full * done, style="green")
    bar.append(empty * (BAR_WIDTH - done))
    return bar


def card_text(game: Game, c: int) -> Text:
    return Text(game.names[c], style=KIND_STYLE.get(game.kind[c], ""))


def action_words(game: Game, obs: Observation, a: Action) -> str:
    """A move in plain words for the list of moves ('Stop! on side B (p2)', '100 miles: A to 450')."""
    op = a.op
    if op == DRAW:
        return "draw a card"
    if op == DECLINE:
        return "let it pass (keep the safety)"
    if op == EXTEND:
        return f"extend the trip to {game.extension_to} miles"
    if op == STOP:
        return f"stop at {obs.target} miles: the hand ends"
    c = a.card_index
    name = game.names[c]
    if op == DISCARD:
        return f"discard {name}"
    if op == COUP_FOURRE:
        return f"COUP FOURRÉ with {name}"
    k = game.kind[c]
    if k == HAZARD:
        ts = a.side_index if a.side_index >= 0 else next(iter(game.opponents[obs.side]))
        return f"{name} on side {side_label(game, ts)}"
    if k == DISTANCE:
        return f"{name}: side {game.side_names[obs.side]} to {obs.my_side.miles + game.miles[c]} miles"
    if k == SAFETY:
        return f"{name} to your safety area"
    return f"{name} on your side"


def sides_table(game: Game, obs: Observation, unicode: bool = True,
                hand_points: Sequence[int] | None = None) -> Table:
    """Every side's battle and speed piles, safeties (coups fourrés marked), miles, limited cards, score."""
    d = game.ruleset.display
    t = Table(title="The table", title_justify="left", expand=False, show_lines=False)
    t.add_column("side")
    t.add_column(d.battle_pile)
    t.add_column(d.speed_pile)
    t.add_column(d.safety_area)
    t.add_column(f"miles (target {obs.target})", no_wrap=True)
    limited = [c for c in range(game.n_cards) if game.kind[c] == DISTANCE and game.max_per_hand[c] != NO_LIMIT]
    for c in limited:
        t.add_column(f"{game.names[c]} played")
    t.add_column("this hand", justify="right")
    for s, v in enumerate(obs.sides):
        label = Text(side_label(game, s, obs.player), style="bold" if s == obs.side else "")
        if v.battle:
            battle = card_text(game, v.battle[-1])
        else:
            battle = Text("(empty)")
        if v.hazard >= 0:
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
        row = [label, battle, speed, safeties, progress_bar(v.miles, obs.target, unicode)]
        row += [Text(f"{v.distance[c]}/{game.max_per_hand[c]}") for c in limited]
        row.append(Text(str(hand_points[s]) if hand_points is not None else "-"))
        t.add_row(*row)
    return t


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
        text.append(f"   extension called by {game.player_names[obs.extension_called_by]}: trip of {obs.target}",
                    style="bold")
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
    t = Table(title="Your moves (type the number or the words)", title_justify="left", box=None,
              show_header=False, pad_edge=False)
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
    kind = obs.decision.kind
    if kind == "coup_fourre":
        hz = game.names[obs.window_hazard] if obs.window_hazard >= 0 else "a hazard"
        return Text(f"COUP FOURRÉ? {hz} was just played on your side and you hold its safety. "
                    f"Call the coup fourré (1, or y) or let it pass (n)?", style="bold reverse")
    if kind == "extension":
        return Text(f"EXTENSION? Your side has completed the trip of {obs.target} miles. Extend it to "
                    f"{game.extension_to} miles (y: extend) or stop here (n: stop, the hand ends)?",
                    style="bold reverse")
    return None


def decision_screen(game: Game, obs: Observation, legal: Sequence[Action], narration: Sequence[str],
                    note: Sequence[str] = (), unicode: bool = True,
                    hand_points: Sequence[int] | None = None) -> Group:
    """The whole screen for one decision of the seat whose observation ``obs`` is.

    ``hand_points``: each side's points this hand so far (``state.score_sheet()``'s totals: the sheet
    is worked out from the table alone, so it is public), shown in the table's last column.
    """
    who = game.player_names[obs.player]
    parts = [header(game, obs), sides_table(game, obs, unicode, hand_points), narration_text(narration)]
    banner = decision_banner(game, obs, who)
    if banner is not None:
        parts.append(banner)
    for line in note:
        parts.append(Text(line, style="bold"))
    parts += [hand_text(game, obs, unicode), moves_table(game, obs, legal),
              Text("?  hint    r  rules    q  quit    h  help", style="bold")]
    return Group(*parts)


def score_sheet_table(game: Game, sheet: Sequence[dict], totals: Sequence[int], miles: Sequence[int],
                      hand: int, me: int | None = None) -> Table:
    t = Table(title=f"Score sheet, hand {hand}", title_justify="left")
    t.add_column("")
    for s in range(game.sides):
        t.add_column(side_label(game, s, me), justify="right")
    for line in SCORE_LINES:
        t.add_row(LINE_LABELS[line], *(str(sheet[s][line]) for s in range(game.sides)), end_section=line == "extension")
    t.add_row("Running total", *(str(x) for x in totals))
    t.add_row(f"{game.ruleset.display.distance_unit.value.capitalize()} travelled", *(str(m) for m in miles))
    return t


def narrate(game: Game, player: int, a: Action, obs: Observation) -> str | None:
    """One public sentence for ``player`` taking ``a``, from the table as ``obs`` shows it just before.

    Draws and declined coup fourré windows are not told: a window opens only for a holder of the
    safety, so telling that someone let one pass would tell the table what that player holds.
    """
    g = game
    who = f"{g.player_names[player]} ({g.side_names[g.side_of[player]]})"
    op = a.op
    if op in (DRAW, DECLINE):
        return None
    ps = g.side_of[player]
    if op == PLAY:
        c = a.card_index
        k = g.kind[c]
        name = g.names[c]
        if k == DISTANCE:
            m = obs.sides[ps].miles + g.miles[c]
            done = ": trip completed!" if m == obs.target else ""
            return f"{who} plays {name}: side {g.side_names[ps]} at {m} miles{done}"
        if k == HAZARD:
            ts = a.side_index if a.side_index >= 0 else g.opponents[ps][0]
            return f"{who} plays {name} on side {g.side_names[ts]}"
        if k == SAFETY:
            return f"{who} plays {name} to the {g.ruleset.display.safety_area}"
        return f"{who} plays {name}"
    if op == DISCARD:
        return f"{who} discards {g.names[a.card_index]}"
    if op == COUP_FOURRE:
        return f"{who} calls COUP FOURRÉ with {g.names[a.card_index]}!"
    if op == EXTEND:
        return f"{who} calls the EXTENSION: the trip is now {g.extension_to} miles"
    if op == STOP:
        return f"{who} does not extend: the hand ends at {obs.target} miles"
    return None
