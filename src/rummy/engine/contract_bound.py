"""A cheap proof that a hand cannot lay a contract down: it holds too few wild cards for even the most
natural-rich choice of melds, counted slot by slot.

Every meld of a lay-down needs as many wild cards as its slot's size exceeds the naturals it holds.  A set of
rank *r* holds at most the hand's naturals of that rank, and *j* sets of one rank together at most those
naturals, so the *j*-th set of a rank needs at least ``max(0, j·s − c) − max(0, (j−1)·s − c)`` more wilds
(``c`` naturals of the rank, ``s`` the smallest group slot).  A run contains a window of the run length
``m`` of its suit and needs at least the wilds that window misses; *j* runs over one window together hold at
most ``min(n_v, j)`` naturals of each value ``v`` (``n_v`` copies held), so the *j*-th needs at least
``m − #{v in the window : n_v ≥ j}``.  Whatever melds a lay-down uses, its wilds are at least the sum of
such bounds, one per slot, so at least the sum of the smallest bounds on offer, per slot kind (sets and runs
may even share naturals here: the bound only gets weaker).  When that sum exceeds the wilds held, no
lay-down exists.  Wild rules that forbid some melds only make lay-downs rarer, so the proof stands under any.

>>> from rummy.cards import parse_card, to_counts
>>> from rummy.house_rules import get_variant
>>> v = get_variant("progressive-buy-it")
>>> contract = v.round_rules(3, 4).contract  # two runs of four
>>> short_of_wilds(v, contract, to_counts(map(parse_card, "3H 4H 5H 6H 9S TS JS 2C".split())))
True
>>> short_of_wilds(v, contract, to_counts(map(parse_card, "3H 4H 5H 6H 9S TS JS JK".split())))
False
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.cards import JOKER
from rummy.engine.deadlock import wild_cards, wild_flags
from rummy.variants import RUN, Slot, Variant


def short_of_wilds(variant: Variant, contract: Sequence[Slot], hand: Sequence[int]) -> bool:
    """Whether ``hand`` certainly cannot lay ``contract`` down (see the module docstring)."""
    wild = wild_flags(variant)
    if hand[JOKER] and not wild[JOKER]:
        return False  # a joker that is not wild is no natural of any rank either: no proof
    budget = sum(hand[card] for card in wild_cards(variant))
    groups = [variant.meld_size(slot) for slot in contract if slot.kind != RUN]
    runs = [variant.meld_size(slot) for slot in contract if slot.kind == RUN]
    if groups:
        budget -= _least_wilds_for_sets(hand, wild, min(groups), len(groups))
        if budget < 0:
            return True
    if runs:
        return not _runs_within(variant, hand, wild, min(runs), len(runs), budget)
    return False


def _least_wilds_for_sets(hand: Sequence[int], wild: Sequence[bool], size: int, slots: int) -> int:
    """The fewest wilds ``slots`` sets of ``size`` cards could need: the smallest bounds of the module
    docstring, taken from the ranks held most (a rank held less never offers a smaller bound)."""
    by_rank = [0] * 13
    for card in range(52):
        if hand[card] and not wild[card]:
            by_rank[card % 13] += hand[card]
    counts = sorted(by_rank, reverse=True)[:slots]
    bounds = sorted(max(0, level * size - held) - max(0, (level - 1) * size - held)
                    for held in counts for level in range(1, slots + 1))
    return sum(bounds[:slots]) + size * max(0, slots - len(bounds))


def _runs_within(variant: Variant, hand: Sequence[int], wild: Sequence[bool], size: int, slots: int,
                 budget: int) -> bool:
    """Whether ``slots`` runs of ``size`` cards could need no more than ``budget`` wilds in all by the
    bounds of the module docstring (bounds above the budget can never be among the chosen ones unless the
    answer is no)."""
    if budget < 0:
        return False
    low_bound, high_bound = variant.ace_mode.run_bounds
    in_bounds = ((1 << (high_bound + 1)) - 1) & ~((1 << low_bound) - 1)
    full = (1 << size) - 1
    small: list[int] = []  # the bounds no larger than the budget
    for suit in range(4):
        levels = [0] * (slots + 1)  # per level j, the values held at least j times (bits 1…14)
        first = suit * 13
        for card in range(first, first + 13):
            count = hand[card]
            if count and not wild[card]:
                bit = (1 << 1 | 1 << 14) if card == first else 1 << (card - first + 1)
                for level in range(1, min(count, slots) + 1):
                    levels[level] |= bit
        for level in range(1, slots + 1):
            held = levels[level] & in_bounds
            if held.bit_count() < size - budget:
                break  # no window of this level (nor a higher one) is within the budget
            for low in range(low_bound, high_bound - size + 2):
                bound = size - ((held >> low) & full).bit_count()
                if bound <= budget:
                    small.append(bound)
    if size <= budget:
        small.extend([size] * slots)  # a run of wilds only
    if len(small) < slots:
        return False
    small.sort()
    return sum(small[:slots]) <= budget
