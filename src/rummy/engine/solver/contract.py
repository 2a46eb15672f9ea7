"""The contract entry points :func:`find_lay_down` and :func:`can_lay_down`, including the second pass for
"no final discard" (a lay-down may not leave exactly one card).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from rummy.engine.cards import CARD_COUNT, JOKER, Card, make_card
from rummy.engine.errors import MeldError
from rummy.engine.melds import separate_melds_error, table_meld
from rummy.engine.memo import per_object
from rummy.engine.solver.assemble import build_lay_down
from rummy.engine.solver.native import best_lay_down, lay_down_exists
from rummy.engine.solver.planned import PlannedMeld
from rummy.engine.solver.search import LayDownSearch
from rummy.engine.solver.tables import INF, ContractPlan, VariantRules, check_hand_length, rules_for
from rummy.engine.variants import JOKER_RANK, Slot, Variant

__all__ = ["can_lay_down", "find_lay_down", "first_lay_down"]


def find_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                  final_discard_allowed: bool = True, must_use_all: bool = False) -> tuple[PlannedMeld, ...] | None:
    """The best way to lay down ``contract`` from ``hand`` (a count vector), or None if there is none.

    Best means: fewest penalty points (``variant.points``) left in hand, then fewest cards left.  One
    meld per slot, in slot order.  ``must_use_all``: nothing may be left.  ``final_discard_allowed``
    false: leaving exactly one card is forbidden (zero or two and more are fine).

    >>> from rummy.engine.cards import parse_card, to_counts
    >>> from rummy.engine.house_rules import get_variant
    >>> v = get_variant("may-i")
    >>> hand = to_counts(map(parse_card, "JK 2C 2D 5H 5S 9C 9D KS".split()))
    >>> [str(m) for m in find_lay_down(hand, v.round_rules(1, 4).contract, v)]
    ['set:9C-9D-2C-2D', 'set:5H-5S-JK']
    >>> find_lay_down(hand, v.round_rules(1, 4).contract, v, must_use_all=True) is None
    True
    """
    compiled = best_lay_down(hand, contract, variant, final_discard_allowed, must_use_all)  # None: not covered
    if compiled is not None:
        return compiled[0]
    if variant.twos_natural_in_place:
        return min(_lay_downs_with_natural_twos(hand, contract, variant, final_discard_allowed, must_use_all,
                                                first_only=False),
                   key=lambda lay_down: _left_in_hand(hand, lay_down, variant), default=None)
    search = _solve(hand, contract, variant, final_discard_allowed, must_use_all, first_only=False)
    return None if search is None else build_lay_down(search)


def can_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                 final_discard_allowed: bool = True, must_use_all: bool = False) -> bool:
    """Whether ``contract`` can be laid down from ``hand`` (same rules as :func:`find_lay_down`)."""
    compiled = lay_down_exists(hand, contract, variant, final_discard_allowed, must_use_all)  # None: not covered
    if compiled is not None:
        return compiled
    if variant.twos_natural_in_place:
        return any(True for _ in _lay_downs_with_natural_twos(hand, contract, variant, final_discard_allowed,
                                                              must_use_all, first_only=True))
    return _solve(hand, contract, variant, final_discard_allowed, must_use_all, first_only=True) is not None


def first_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                   final_discard_allowed: bool = True, must_use_all: bool = False
                   ) -> tuple[PlannedMeld, ...] | None:
    """Some lay-down of ``contract`` from ``hand`` (the first the search meets, not the best), or None; it
    exists exactly when :func:`find_lay_down` finds one.  A witness: any hand holding its cards can lay down.
    """
    if lay_down_exists(hand, contract, variant, final_discard_allowed, must_use_all) is False:  # compiled: none
        return None
    if variant.twos_natural_in_place:
        return next(_lay_downs_with_natural_twos(hand, contract, variant, final_discard_allowed, must_use_all,
                                                 first_only=True), None)
    search = _solve(hand, contract, variant, final_discard_allowed, must_use_all, first_only=True)
    return None if search is None else build_lay_down(search)


def _lay_downs_with_natural_twos(hand: Sequence[int], contract: Sequence[Slot], variant: Variant,
                                 final_discard_allowed: bool, must_use_all: bool, *, first_only: bool
                                 ) -> Iterator[tuple[PlannedMeld, ...]]:
    """Under ``twos_natural_in_place``, the best lay-down for each split of the hand's twos into wild ones
    and natural ones (a natural two stands only in its own place): every two wild first, then every two
    natural, then the mixed splits; with ``first_only`` only the first lay-down found.

    A mixed split is searched under :func:`_stand_in` (twos natural, jokers wild) with its wild twos
    dealt in as jokers; the lay-down found then gets the real cards back, the wild cards laid down being
    the ones worth the most points.  Every lay-down is kept only if the real rules accept its melds: there
    a two in its own place is natural, which can break the wild ratio or the ranks the search counted on.
    """
    twos = [make_card(2, suit) for suit in range(4) for _ in range(hand[make_card(2, suit)])]
    searches: list[tuple[Variant, tuple[Card, ...]]] = [(variant, ())]  # (rules, twos dealt in as jokers)
    if twos:
        searches.append((twos_as_naturals(variant), ()))
    if twos and (not hand[JOKER] or variant.is_wild(JOKER)):  # else jokers cannot stand in for wild twos
        mixed = {wild for size in range(1, len(twos)) for wild in itertools.combinations(twos, size)}
        searches += [(_stand_in(variant), wild) for wild in sorted(mixed, key=lambda wild: (len(wild), wild))]
    for rules, wild_twos in searches:
        searched = list(hand)
        for card in wild_twos:
            searched[card] -= 1
        searched[JOKER] += len(wild_twos)
        search = _solve(searched, contract, rules, final_discard_allowed, must_use_all, first_only=first_only)
        if search is None:
            continue
        lay_down = build_lay_down(search)
        if wild_twos:
            real = _with_real_wilds(lay_down, [JOKER] * hand[JOKER] + list(wild_twos), variant)
            if real is None:
                continue
            lay_down = real
        if _accepted(lay_down, contract, variant):
            yield lay_down
            if first_only:
                return


@per_object("stand-in variants")
def _stand_in(variant: Variant) -> Variant:
    """The rules a split of the twos is searched under: twos natural, jokers wild (cached)."""
    natural = twos_as_naturals(variant)
    joker_points = variant.points(JOKER) if variant.is_wild(JOKER) else variant.points(make_card(2, 0))
    return dataclasses.replace(natural, wild_ranks=natural.wild_ranks | {JOKER_RANK},
                               card_points=(joker_points,) + natural.card_points[1:])


def _with_real_wilds(lay_down: tuple[PlannedMeld, ...], wilds: list[Card], variant: Variant
                     ) -> tuple[PlannedMeld, ...] | None:
    """``lay_down`` (found with wild twos standing in as jokers) with the real ``wilds`` (the hand's
    jokers and wild twos) in the jokers' places, those worth the most points first; None if it needs more."""
    wilds = sorted(wilds, key=lambda card: (variant.points(card), -card))  # popped from the end: most points first
    melds = []
    for meld in lay_down:
        cards = []
        for card in meld.cards:
            if card == JOKER:
                if not wilds:
                    return None
                card = wilds.pop()
            cards.append(card)
        melds.append(dataclasses.replace(meld, cards=tuple(cards)))
    return tuple(melds)


def _accepted(lay_down: Sequence[PlannedMeld], contract: Sequence[Slot], variant: Variant) -> bool:
    """Whether the engine accepts ``lay_down``'s melds for their slots under ``variant``'s own rules."""
    try:
        melds = [table_meld(meld, variant, 0, 0, min_size=slot.min_size) for meld, slot in zip(lay_down, contract,
                                                                                                 strict=True)]
    except MeldError:
        return False
    if any(meld.rank == 0 and not meld.is_run for meld in melds) and not variant.wild_group_counts_as_set:
        return False
    return separate_melds_error(melds, variant) is None


@per_object("variants with natural twos")
def twos_as_naturals(variant: Variant) -> Variant:
    """``variant`` with its twos natural cards (cached): what a lay-down whose every two stands in its own
    place (a set of twos, a run at the two of its suit) is checked against under ``twos_natural_in_place``.
    """
    return dataclasses.replace(variant, wild_ranks=variant.wild_ranks - {2}, twos_natural_in_place=False)


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
