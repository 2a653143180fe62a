"""A resolved ruleset for people (``mbrules show``) and as one JSON document (``show --json``)."""

from __future__ import annotations

from typing import Any

from ..text import plural
from .model import STANDARD_LINE_VALUES, Rule, Ruleset
from .pydantic_plugins import skip_empty_plugin_lookup
from .words import (
    CITATION_FIELDS,
    card_names,
    card_summary,
    line_words,
    phrase,
    removed_words,
    sides_for,
    unit,
    value_words,
)

KIND_TITLES = (
    ("distance", "Distance"),
    ("hazard", "Hazards"),
    ("remedy", "Remedies"),
    ("safety", "Safeties"),
    ("karma", "Karma cards"),
)


# player_counts.*.hazards_on in words (show)
HAZARDS_ON = {"opponents": "on an opposing side", "own_side": "on the player's own side (no opposing side)"}


class UnsupportedPlayers(ValueError):
    """The ruleset has no setup for that many players."""


def rarely_finishes(rs: Ruleset, players: int) -> str | None:
    """Why a hand at this table will rarely see a trip completed, naming the option that fixes it (None: it
    will). Four or more cars each for himself share one draw pile and no reshuffle refills it: the pile runs
    out first (1.8% of four-player hands complete the trip with heuristic bots, docs/rulesets.md, 'The draw
    pile runs out')."""
    pc = rs.player_counts.get(str(players))
    if pc is None or pc.sides < 4 or pc.sides != players or rs.turn.reshuffles.value > 0:
        return None
    return (
        f"{players} cars each for himself share one draw pile and nothing reshuffles it: the pile runs out "
        "before a trip is completed in most hands (1.8% of 4-player hands complete it, heuristic bots); "
        "option reshuffle-discard fixes it"
    )


def _players_words(counts: list[int]) -> str:
    """'2 players', '2 or 4 players', '1, 2 or 4 players'."""
    words = [str(n) for n in counts]
    said = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"{said} {'player' if counts == [1] else 'players'}"


def karma_departure(rs: Ruleset, players: int | None = None) -> str | None:
    """Where karma is not played as PlayAural plays it (None: karma is off, or every table here is
    PlayAural's): at ``players``, or at any player count of the ruleset. PlayAural's prestart_validate
    refuses a karma table of fewer than three teams; mbrules plays the rule at two sides as at three (the
    karma ruling, docs/conformance.md), and a table of fewer than three sides is said to depart from it,
    as the option's source says PlayAural wants three."""
    if not rs.karma.enabled.value:
        return None
    keys = [str(players)] if players is not None else list(rs.player_counts)
    below = sorted(int(k) for k in keys if k in rs.player_counts and rs.player_counts[k].sides < 3)
    if not below:
        return None
    text = f"karma with {_players_words(below)} (fewer than three sides) is not PlayAural's, which refuses such a table"
    if any(rs.player_counts[str(n)].sides == 2 for n in below):
        text += (
            "; at two sides mbrules plays it as at three (the first attack is neutralised, then the two "
            "shunned sides attack each other as usual: a ruling)"
        )
    three = sorted(int(k) for k, pc in rs.player_counts.items() if pc.sides >= 3)
    return text + (f"; {_players_words(three)} play it as PlayAural does" if three else "")


def table_warning(rs: Ruleset, players: int) -> str | None:
    """What a table of ``players`` should know before it starts (None: nothing): a draw pile that runs out
    before the trip (:func:`rarely_finishes`) or karma PlayAural would refuse (:func:`karma_departure`)."""
    return rarely_finishes(rs, players) or karma_departure(rs, players)


def players_info(rs: Ruleset, players: int) -> dict[str, Any]:
    """The setup for ``players``: deck, sides and who plays for each, trip, removed cards."""
    pc = rs.player_counts.get(str(players))
    if pc is None:
        from ..text import players_refused  # the engine's own sentence; imported only to refuse

        raise UnsupportedPlayers(players_refused(rs.id, players, rs.player_counts))
    removal = rs.removals.get(str(players))
    removed = dict(removal.cards) if removal else {}
    deck = sum(rs.deck_for(players).values())
    hand = rs.play.hand_size.value
    return {
        "players": players,
        "deck_size": deck,
        "cards_in_box": rs.box.total.value,
        "removed": removed,
        "sides": sides_for(players, pc.sides),
        "target": pc.target,
        "extension_to": pc.extension_to,
        "hazards_on": pc.hazards_on,
        "hand_size": hand,
        "draw_pile_after_deal": deck - players * hand,
        "warning": table_warning(rs, players),
    }


def show_json(rs: Ruleset, players: int | None = None) -> dict[str, Any]:
    skip_empty_plugin_lookup()  # before pydantic makes the ruleset's serializer
    return {
        "ruleset": rs.model_dump(mode="json"),
        "players": None if players is None else players_info(rs, players),
    }


def _unread(rs: Ruleset, pattern: str) -> str | None:
    """Why the engine does not read this value in this ruleset (None: it is read). A race without points
    (Mille Bornes Express) still carries every scoring value; show says they are not in play."""
    section, name = pattern.split(".", 1)
    m = rs.match
    several = m.mode.value in ("points", "fixed_hands") or m.tie_break.value == "another_hand"
    if section == "scoring" and name != "enabled" and not rs.scoring.enabled.value:
        return "no points are scored"
    if section == "coup_fourre" and name != "enabled" and not rs.coup_fourre.enabled.value:
        return "there is no coup fourré"
    if section == "fast_play" and name != "enabled" and not rs.fast_play.enabled.value:
        return "there is no fast play"
    if pattern == "match.target_points" and m.mode.value != "points":
        return "the match is not played to a number of points"
    if pattern == "match.hands" and m.mode.value != "fixed_hands":
        return "the match is not a fixed number of hands"
    if pattern in ("match.deal_passes_left", "match.max_hands") and not several:
        return "the match is one hand"
    return None


def _rule_lines(rs: Ruleset, section: str) -> list[str]:
    model = getattr(rs, section)
    out = []
    unread: dict[str, list[str]] = {}
    for name in type(model).model_fields:
        if name in CITATION_FIELDS:
            continue
        value = getattr(model, name)
        raw = value.value if isinstance(value, Rule) else value
        pattern = f"{section}.{name}"
        if pattern == "scoring.lines":  # one line each: name, then the rule in words
            out += [
                f"  score line {k}: {line_words(k, v, rs)}" + (" (uncited)" if v.uncited else "")
                for k, v in raw.items()
            ]
            continue
        mark = " (uncited)" if getattr(value, "uncited", None) is not None else ""
        replaced = _REPLACED_BY.get(pattern)
        payers = [k for k, v in rs.scoring.lines.items() if (v.line or k) == replaced]
        if replaced is not None and payers:
            mark += f" (not read: score line {payers[0]} below pays it)"
        line = f"{phrase(pattern)}: {value_words(pattern, list(raw) if isinstance(raw, tuple) else raw, rs)}{mark}"
        why = _unread(rs, pattern)
        if why is None:
            out.append(f"  {line}")
        else:
            unread.setdefault(why, []).append(f"    {line}")
    for why, lines in unread.items():  # said once, below what is in play
        out += [f"  not read, as {why}:", *lines]
    return out


# A scoring key a contract line's standard entry reads (model.STANDARD_LINE_VALUES); an entry of scoring.lines
# paying on that line replaces the standard entry (ScoringRules.all_lines), so the key is shown as not read.
_REPLACED_BY = {f"scoring.{key}": line for line, keys in STANDARD_LINE_VALUES.items() for key in keys}


def players_text(rs: Ruleset, players: int) -> list[str]:
    info = players_info(rs, players)
    sides = "; ".join(f"{s}: {'+'.join(ps)}" for s, ps in info["sides"].items())
    removed_n = sum(info["removed"].values())
    ext = f"to {info['extension_to']} {unit(rs)}" if info["extension_to"] else "none"
    return [
        f"With {plural(players, 'player')}",
        f"  deck: {info['deck_size']} cards" + (f" ({removed_n} removed before the deal)" if removed_n else ""),
        f"  sides: {sides}",
        f"  target: {info['target']} {unit(rs)}",
        f"  extension: {ext}",
        f"  hazards: {HAZARDS_ON[info['hazards_on']]}",
        f"  removed before the deal: {removed_words(rs, info['removed'])}",
        f"  each player is dealt {info['hand_size']}; {info['draw_pile_after_deal']} cards left to draw",
    ] + ([f"  warning: {info['warning']}"] if info["warning"] else [])


def show_text(rs: Ruleset, players: int | None = None) -> str:
    deck = sum(c.count for c in rs.cards.values())
    refs = sum(r.count for r in rs.box.reference_cards.values())
    lines = [
        f"{rs.name} [{rs.id}]",
        rs.description or "(no description)",
        f"Source: {rs.source or '(not given)'}",
        f"Options applied: {', '.join(rs.applied_options) or 'none'}",
        "",
        f"Cards: {deck} in the deck; {rs.box.total.value} in the box with {refs} reference cards",
    ]
    for kind, title in KIND_TITLES:
        ids = rs.cards_of_kind(kind)
        if ids:
            lines.append(f"  {title}:")
            lines.extend(
                f"    {card_summary(rs, cid)}" + (" (uncited)" if rs.cards[cid].uncited else "") for cid in ids
            )
    if rs.box.reference_cards:
        lines.append("  Reference cards (never dealt):")
        lines.extend(f"    {r.count} × {r.name} ({rid})" for rid, r in rs.box.reference_cards.items())
    lines += ["", "Relations"]
    for hid in rs.cards_of_kind("hazard"):
        fixes = [cid for cid, c in rs.cards.items() if c.kind == "remedy" and hid in c.fixes]
        safe = [cid for cid, c in rs.cards.items() if c.kind == "safety" and hid in c.protects]
        lines.append(f"  {rs.cards[hid].name}: fixed by {card_names(rs, fixes)}; prevented by {card_names(rs, safe)}")
    lines += ["", "Players"]
    for key in sorted(rs.player_counts, key=int):
        pc = rs.player_counts[key]
        n = int(key)
        team = (
            ("alone" if n == 1 else "each for himself")
            if pc.sides == n
            else f"partners: {', '.join('+'.join(p) for p in sides_for(n, pc.sides).values())}"
        )
        ext = f", extension to {pc.extension_to}" if pc.extension_to else ", no extension"
        removal = rs.removals.get(key)
        rem = f"; removed before the deal: {removed_words(rs, removal.cards)}" if removal else ""
        mark = " (uncited)" if pc.uncited is not None else ""
        own = "; hazards on one's own side" if pc.hazards_on == "own_side" else ""
        lines.append(
            f"  {plural(n, 'player')}: {plural(pc.sides, 'side')} ({team}); trip {pc.target} {unit(rs)}{ext}{own}{rem}{mark}"
        )
    for title, section in (
        ("Play", "play"),
        ("Coup fourré", "coup_fourre"),
        ("Fast play", "fast_play"),
        ("Scoring", "scoring"),
        ("Match", "match"),
        ("Names", "display"),
        ("Turn and draws", "turn"),
        ("Karma", "karma"),
    ):
        lines += ["", title, *_rule_lines(rs, section)]
    departure = karma_departure(rs)
    if departure is not None:
        lines.append(f"  warning: {departure}")
    if players is not None:
        lines += ["", *players_text(rs, players)]
    return "\n".join(lines) + "\n"
