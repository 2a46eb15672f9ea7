"""The contract entry points :func:`find_lay_down` and :func:`can_lay_down`, including the second pass for
"no final discard" (a lay-down may not leave exactly one card).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

from rummy.cards import CARD_COUNT
from rummy.solver.assemble import build_lay_down
from rummy.solver.planned import PlannedMeld
from rummy.solver.search import LayDownSearch
from rummy.solver.tables import INF, ContractPlan, VariantRules, check_hand_length, rules_for
from rummy.variants import Slot, Variant

__all__ = ["can_lay_down", "find_lay_down"]


def find_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                  final_discard_allowed: bool = True, must_use_all: bool = False) -> tuple[PlannedMeld, ...] | None:
    """The best way to lay down ``contract`` from ``hand`` (a count vector), or None if there is none.

    Best means: fewest penalty points (``variant.points``) left in hand, then fewest cards left.  One
    meld per slot, in slot order.  ``must_use_all``: nothing may be left.  ``final_discard_allowed``
    false: leaving exactly one card is forbidden (zero or two and more are fine).

    >>> from rummy.cards import parse_card, to_counts
    >>> from rummy.variants import get_variant
    >>> v = get_variant("may-i")
    >>> hand = to_counts(map(parse_card, "JK 2C 2D 5H 5S 9C 9D KS".split()))
    >>> [str(m) for m in find_lay_down(hand, v.round_rules(1, 4).contract, v)]
    ['set:9C-9D-2C-2D', 'set:5H-5S-JK']
    >>> find_lay_down(hand, v.round_rules(1, 4).contract, v, must_use_all=True) is None
    True
    """
    search = _solve(hand, contract, variant, final_discard_allowed, must_use_all, first_only=False)
    best = None if search is None else build_lay_down(search)
    if variant.twos_natural_in_place:
        natural = _solve(hand, contract, twos_as_naturals(variant), final_discard_allowed, must_use_all,
                         first_only=False)
        if natural is not None:
            other = build_lay_down(natural)
            if best is None or _left_in_hand(hand, other, variant) < _left_in_hand(hand, best, variant):
                best = other
    return best


def can_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                 final_discard_allowed: bool = True, must_use_all: bool = False) -> bool:
    """Whether ``contract`` can be laid down from ``hand`` (same rules as :func:`find_lay_down`)."""
    variants = (variant, twos_as_naturals(variant)) if variant.twos_natural_in_place else (variant,)
    return any(
        _solve(hand, contract, rules, final_discard_allowed, must_use_all, first_only=True) is not None
        for rules in variants
    )


_TWOS_AS_NATURALS: dict[int, tuple[Variant, Variant]] = {}


def twos_as_naturals(variant: Variant) -> Variant:
    """``variant`` with its twos natural cards (cached): what a lay-down whose every two stands in its own
    place (a set of twos, a run at the two of its suit) is checked against under ``twos_natural_in_place``.
    """
    hit = _TWOS_AS_NATURALS.get(id(variant))
    if hit is None or hit[0] is not variant:
        if len(_TWOS_AS_NATURALS) > 256:
            _TWOS_AS_NATURALS.clear()
        natural = dataclasses.replace(variant, wild_ranks=variant.wild_ranks - {2}, twos_natural_in_place=False)
        hit = _TWOS_AS_NATURALS[id(variant)] = (variant, natural)
    return hit[1]


def _left_in_hand(hand: Sequence[int], melds: Sequence[PlannedMeld], variant: Variant) -> tuple[int, int]:
    """Penalty points and number of the cards a lay-down leaves in ``hand`` (lower is better)."""
    left = list(hand)
    for meld in melds:
        for card in meld.cards:
            left[card] -= 1
    return sum(variant.points(card) * count for card, count in enumerate(left)), sum(left)


def _solve(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, final_discard_allowed: bool,
           must_use_all: bool, first_only: bool) -> LayDownSearch | None:
    """The finished search holding the best lay-down (any lay-down if ``first_only``), or None."""
    check_hand_length(hand)
    rules = rules_for(variant)
    plan = rules.plan(contract)
    total = sum(hand)
    if plan.impossible or total < plan.need:
        return None
    require_all = must_use_all or (not final_discard_allowed and total - 2 < plan.need)
    search = LayDownSearch(rules, plan, hand, require_all, first_only and (require_all or final_discard_allowed))
    if not search.run():
        return None
    if require_all or final_discard_allowed or search.best_cnt != 1:
        return search
    return _solve_not_one(list(hand), rules, plan, search)


def _solve_not_one(hand: list[int], rules: VariantRules, plan: ContractPlan, first: LayDownSearch
                   ) -> LayDownSearch | None:
    """Best lay-down leaving 0 or at least 2 cards, when the best one overall (``first``) leaves exactly 1.

    (Leaving nothing is then impossible.)  A best lay-down leaving 3 or more cards cannot take one more
    card (that would still leave 2 and be better), so it has the canonical maximal form: one search that
    rejects completions leaving exactly one card finds it.  A lay-down leaving exactly 2 cards lays down
    everything else: try the pairs in order of their points with the must-use-all search, which is
    strongly pruned; a dead card must be one of the two.
    """
    search = LayDownSearch(rules, plan, hand, False, False, forbid_one=True)
    found = search.run()
    best_key = (search.best_pts, search.best_cnt) if found else (INF, INF)
    best = search if found else None
    dead = Counter(first.dead_cards)
    if sum(dead.values()) > 2:
        return best
    points = rules.points
    kinds = [c for c in range(CARD_COUNT) if hand[c]]
    pairs = [
        (x, y) for i, x in enumerate(kinds) for y in kinds[i:]
        if (x != y or hand[x] >= 2) and not dead - Counter((x, y))
    ]
    pairs.sort(key=lambda p: (points[p[0]] + points[p[1]], p))
    for x, y in pairs:
        if (points[x] + points[y], 2) >= best_key:
            break
        hand[x] -= 1
        hand[y] -= 1
        rest = LayDownSearch(rules, plan, hand, True, True)
        found = rest.run()
        hand[x] += 1
        hand[y] += 1
        if found:
            return rest
    return best
