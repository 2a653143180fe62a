"""Running many matches: the match loop, statistics, the backends (process pool, Ray), simulate and the ladder.

Layering: this package uses the engine and the bots; ``compare`` and ``sweep`` call it, it calls neither.
"""
