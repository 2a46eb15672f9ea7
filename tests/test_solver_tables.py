"""The contract solver's shortcut tables give the answers of their plain definitions."""

from __future__ import annotations

import random

import pytest

from rummy.engine.house_rules import get_variant
from rummy.engine.solver.tables import rules_for
from rummy.engine.variants import GROUP, RUN, Slot, Variant

VARIANTS = [
    get_variant("progressive-buy-it"),
    get_variant("progressive-buy-it", {"ace_mode": "low_only", "wild_ranks": ["joker", 2]}),
    get_variant("may-i", {"ace_mode": "high_only"}),
    get_variant("progressive-15"),
    get_variant("may-i"),
]


def plain_run_points(variant: Variant, mask: int, wilds: int) -> tuple[int, ...]:
    """Per low value a (0…15): the most points of naturals a run starting at a or higher holds, when its suit
    holds the ranks of ``mask``, with at most ``wilds`` gaps and 13 values (every run, enumerated)."""
    lo, hi = variant.ace_mode.run_bounds
    rank_points = rules_for(variant).rank_points

    def held(v: int) -> bool:
        return bool(mask >> ((v - 1) % 13) & 1)

    best_from = [0] * 16
    for start in range(lo, hi + 1):
        if not held(start):
            continue
        for end in range(start, min(hi, start + 12) + 1):
            if sum(not held(v) for v in range(start, end + 1)) > wilds:
                break
            points = sum(rank_points[(v - 1) % 13 + 1] for v in range(start, end + 1) if held(v))
            for a in range(start + 1):
                best_from[a] = max(best_from[a], points)
    return tuple(best_from)


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"variant{i}" for i in range(len(VARIANTS))])
def test_run_points_match_the_plain_definition(variant: Variant) -> None:
    rules = rules_for(variant)
    rng = random.Random(5)
    masks = [0, 1, 1 << 12, (1 << 13) - 1, 0b1010101010101, 0b0101010101010] + rng.sample(range(1 << 13), 150)
    for mask in masks:
        for wilds in (0, 1, 2, 3, 5, 13):
            assert rules.run_points(mask, wilds) == plain_run_points(variant, mask, wilds), (mask, wilds)


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"variant{i}" for i in range(len(VARIANTS))])
def test_first_group_table_matches_wild_range(variant: Variant) -> None:
    rules = rules_for(variant)
    for contract in ((Slot(GROUP, 3), Slot(RUN, 4)), (Slot(GROUP, 2),), (Slot(GROUP, 5), Slot(GROUP, 3))):
        plan = rules.plan(contract)
        slot = plan.group_slots[0][:2]
        for naturals in range(len(plan.first_group_wilds)):
            assert plan.first_group_wilds[naturals] == rules.wild_range(naturals, (slot,))
