"""The engine's small vocabulary: card kinds, piles, and the score sheet's lines.

Both :mod:`.game` (which compiles a ruleset into tables) and :mod:`.state` (which plays)
read these; neither imports the other's module for them, so there is no import circle.
"""

DISTANCE, HAZARD, REMEDY, SAFETY = 0, 1, 2, 3
KIND_CODES = {"distance": DISTANCE, "hazard": HAZARD, "remedy": REMEDY, "safety": SAFETY}
KIND_NAMES = ("distance", "hazard", "remedy", "safety")
BATTLE, SPEED = 0, 1
PILE_NAMES = ("battle", "speed")
NO_LIMIT = 1 << 30
SIDE_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SCORE_LINES = (
    "milestones", "safeties", "all_safeties", "coup_fourres", "trip_completed",
    "delayed_action", "safe_trip", "shutout", "extension", "total",
)
