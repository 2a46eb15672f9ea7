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

>>> from rummy.engine.cards import parse_card, to_counts
>>> from rummy.engine.house_rules import get_variant
>>> v = get_variant("progressive-buy-it")
>>> contract = v.round_rules(3, 4).contract  # two runs of four
>>> short_of_wilds(v, contract, to_counts(map(parse_card, "3H 4H 5H 6H 9S TS JS 2C".split())))
True
>>> short_of_wilds(v, contract, to_counts(map(parse_card, "3H 4H 5H 6H 9S TS JS JK".split())))
False
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from rummy.engine.cards import JOKER
from rummy.engine.meld_rules import wild_cards, wild_flags
from rummy.engine.memo import memo_table, memoised, per_object, put
from rummy.engine.variants import RUN, Slot, Variant


def short_of_wilds(variant: Variant, contract: Sequence[Slot], hand: Sequence[int]) -> bool:
    """Whether ``hand`` certainly cannot lay ``contract`` down (see the module docstring).  A shortcut;
    reference: :func:`rummy.engine.solver.first_lay_down` finds no lay-down (rules.md §2.5)."""
    wild = wild_flags(variant)
    if hand[JOKER] and not wild[JOKER]:
        return False  # a joker that is not wild is no natural of any rank either: no proof
    budget = 0
    for card in wild_cards(variant):
        budget += hand[card]
    group_size, groups, run_size, runs = _slots(variant, contract)
    if groups:
        budget -= _least_wilds_for_sets(hand, wild, group_size, groups)
        if budget < 0:
            return True
    if runs:
        return not _runs_within(variant, hand, wild, run_size, runs, budget)
    return False


# (id of a variant, id of a contract) -> (the variant, the contract, the smallest set slot and the number of
# set slots, the same for runs).
_SLOTS: dict[tuple[int, int], tuple[Variant, Sequence[Slot], tuple[int, int, int, int]]] = memo_table(
    "contract slots", 1024)


def _slots(variant: Variant, contract: Sequence[Slot]) -> tuple[int, int, int, int]:
    """The fewest cards of a set slot of ``contract`` and how many set slots it has, then the same for runs
    (memoised on the identity of both; the entry keeps them alive)."""
    key = (id(variant), id(contract))
    hit = _SLOTS.get(key)
    if hit is not None and hit[0] is variant and hit[1] is contract:
        return hit[2]
    groups = [variant.meld_size(slot) for slot in contract if slot.kind != RUN]
    runs = [variant.meld_size(slot) for slot in contract if slot.kind == RUN]
    found = (min(groups, default=0), len(groups), min(runs, default=0), len(runs))
    return put(_SLOTS, key, (variant, contract, found))[2]


def _least_wilds_for_sets(hand: Sequence[int], wild: Sequence[bool], size: int, slots: int) -> int:
    """The fewest wilds ``slots`` sets of ``size`` cards could need: the smallest bounds of the module
    docstring, taken from the ranks held most (a rank held less never offers a smaller bound)."""
    by_rank = [0 if wild[rank] else hand[rank] + hand[rank + 13] + hand[rank + 26] + hand[rank + 39]
               for rank in range(13)]  # a rank's naturals (wild cards are wild in every suit)
    return _least_for_counts(tuple(sorted(by_rank, reverse=True)[:slots]), size, slots)


@memoised(maxsize=100_000)
def _least_for_counts(counts: tuple[int, ...], size: int, slots: int) -> int:
    """The fewest wilds ``slots`` sets of ``size`` cards could need, given the naturals of the ranks held most."""
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
    naturals = _natural_bits(variant)
    counts = bytes(hand)
    small: list[int] = []  # the bounds no larger than the budget
    # The values held at least j times only shrink as j grows, so a (suit, level) below the budget's reach
    # needs no break: every higher level of that suit is below it too.
    for level in range(1, slots + 1):
        # bit c: card c is a natural held at least ``level`` times
        held_cards = int(counts.translate(_at_least(level))[::-1], 2) & naturals
        if not held_cards and size > budget:
            break  # no suit holds anything at this level, nor at a higher one
        for suit in range(4):
            row = (held_cards >> (13 * suit)) & 0x1FFF  # bit i: the card of rank i + 1
            held = ((row << 1) | ((row & 1) << 14)) & in_bounds  # run values 1…14 (an ace is both ends)
            if held.bit_count() < size - budget:
                continue  # no window of this level is within the budget
            bounds = _window_bounds(held, size, low_bound, high_bound)
            small.extend(bounds[:bisect_right(bounds, budget)])
    if size <= budget:
        small.extend([size] * slots)  # a run of wilds only
    if len(small) < slots:
        return False
    small.sort()
    return sum(small[:slots]) <= budget

@memoised(maxsize=200_000)
def _window_bounds(held: int, size: int, low_bound: int, high_bound: int) -> tuple[int, ...]:
    """For each window of ``size`` run values within the bounds, how many of its values ``held`` (bits 1…14)
    lacks, ascending (memoised: at most 2^14 value sets per size and bounds)."""
    full = (1 << size) - 1
    return tuple(sorted(size - ((held >> low) & full).bit_count() for low in range(low_bound, high_bound - size + 2)))


@memoised(maxsize=256)
def _at_least(level: int) -> bytes:
    """A ``bytes.translate`` table turning a card count into b"1" when it is at least ``level``, else b"0"."""
    return bytes(0x31 if count >= level else 0x30 for count in range(256))


@per_object("natural bits of a variant")
def _natural_bits(variant: Variant) -> int:
    """Bit c set for each card c of the 52 that is not wild under ``variant``."""
    wild = wild_flags(variant)
    return sum(1 << card for card in range(52) if not wild[card])
