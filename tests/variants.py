"""The built-in variants as the tests loop over them, read from the engine (never a literal list of ids), so a
new built-in variant is tested everywhere a test says "every variant" without touching the test.

>>> BUILT_IN[:2], CONTRACT_VARIANTS[-1]
(('progressive-buy-it', 'progressive-15'), 'may-i')
>>> seat_counts("basic"), seat_counts("may-i", most=7)
((2, 3, 4), (3, 4, 7))

A test that checks one variant's own numbers (a score, a move count, a rules.md figure) names it; only the
lists meaning "all of them" come from here.
"""

from __future__ import annotations

from rummy.engine import VARIANTS

#: Every built-in variant id, in the engine's order (taken before any test registers a house variant).
BUILT_IN: tuple[str, ...] = tuple(VARIANTS)
#: The variants played as a fixed list of rounds, each with its contract (the progressive family).
CONTRACT_VARIANTS: tuple[str, ...] = tuple(variant_id for variant_id in BUILT_IN if VARIANTS[variant_id].rounds)


def seat_counts(variant_id: str, most: int | None = None) -> tuple[int, ...]:
    """The fewest seats, one more, and the most (capped at ``most``, for shorter runs)."""
    variant = VARIANTS[variant_id]
    high = variant.players_max if most is None else min(most, variant.players_max)
    return tuple(sorted({variant.players_min, min(variant.players_min + 1, high), high}))
