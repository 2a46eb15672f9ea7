"""Partial melds for the contract planner (:mod:`rummy.bots.planning`): for one contract slot and a hand, the
groups of one rank and the windows of one suit's run it could grow into, fewest cards missing first.

Each candidate is a plain tuple (:data:`Cand`) and every list is memoised, per rank, per suit and per hand,
since a game's hands differ from one another by a card or two.  Hands are also given *packed*
(:func:`packed`): one int with a byte per card kind, so the search can check and take a candidate's cards
in one subtraction.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from rummy.engine import CARD_COUNT, GROUP, Card, Counts, Slot, Variant, WildPolicy

__all__ = ["GUARDS", "MEMO_BUDGET", "NOTHING", "Cand", "PartialMelds", "packed"]

MEMO_BUDGET = 30_000  # memoised plans over all shared planners (a few kB each)

# A partial meld: (missing, -naturals, key, size, used naturals, wild capacity, natural outs, used packed, order).
# ``missing``: cards short of the slot's minimum; ``cap``: how many of those wilds may supply;
# ``key``: canonical order among identical slots (no two candidates of a list share one);
# ``used packed``: the used naturals as one int, a byte per card kind (:func:`packed`); ``order``: the first
# three fields as one int that sorts the same way (:func:`_order`; lists are sorted on it, by int comparisons).
Cand = tuple[int, int, tuple[int, int], int, tuple[Card, ...], int, frozenset[Card], int, int]


class PartialMelds:
    """The candidates of one variant's slots (sizes below ``largest``), with their memos."""

    def __init__(self, variant: Variant, largest: int) -> None:
        self.variant = variant
        self.lo, self.hi = variant.ace_mode.run_bounds
        self.ratio = variant.wild_policy is WildPolicy.NOT_OUTNUMBER
        self.one_wild = variant.wild_policy is WildPolicy.AT_MOST_ONE
        self.wild_trio = variant.wild_group_min is not None and variant.wild_group_counts_as_set
        self.natural_ranks = [r for r in range(13) if not variant.is_wild(r)]
        self.natural_set = frozenset(self.natural_ranks)
        #: How many of a partial meld's missing cards wilds may supply, by [size][missing] (see :meth:`cap`).
        self.caps = [[self.cap(size, missing) for missing in range(size + 1)] for size in range(largest)]
        #: Group candidates, by (size, the naturals held, packed).
        self.group_memo: dict[tuple[int, int], list[Cand]] = {}
        #: Run candidates, by (size, which suited cards are held as bytes of 0 and 1).
        self.runs_memo: dict[tuple[int, bytes], list[Cand]] = {}
        #: Group candidates of one rank, by (size, rank, copies held of each suit); a few thousand at most.
        self.rank_memo: dict[tuple[int, ...], list[Cand]] = {}
        #: Run candidates of one suit, by (size, suit, values held).
        self.run_memo: dict[tuple[int, int, int], list[Cand]] = {}

    def size(self) -> int:
        """The memos' size in plans' worth (four candidate lists weigh about one plan)."""
        return (len(self.group_memo) + len(self.run_memo) + len(self.runs_memo)) // 4

    def clear(self) -> None:
        self.group_memo.clear()
        self.run_memo.clear()
        self.runs_memo.clear()

    def cap(self, size: int, missing: int) -> int:
        """How many of a partial meld's ``missing`` cards wild cards may supply."""
        if self.one_wild:
            return min(missing, 1)
        if self.ratio and missing > size // 2:
            return size // 2
        return missing

    def groups(self, size: int, hand: int) -> list[Cand]:
        """Group candidates of the naturals ``hand`` (packed, :func:`packed`), memoised on it."""
        key = (size, hand)
        found = self.group_memo.get(key)
        if found is None:
            if len(self.group_memo) > 4 * MEMO_BUDGET:
                self.group_memo.clear()
            found = self.group_memo[key] = self._groups_of(size, list(hand.to_bytes(CARD_COUNT, "little")))
        return found

    def groups_left(self, size: int, left: int, whole: list[Cand], hand: int) -> list[Cand]:
        """Group candidates of the naturals ``left``, ``hand`` (both packed) with some cards taken (or added);
        ``whole`` are the group candidates of ``hand`` (the same list as :meth:`groups` gives, worked out
        from ``whole``: only the ranks of the cards taken or added change)."""
        key = (size, left)
        found = self.group_memo.get(key)
        if found is None:
            if len(self.group_memo) > 4 * MEMO_BUDGET:
                self.group_memo.clear()
            found = self.group_memo[key] = self._groups_after(size, left, whole, hand)
        return found

    def _groups_after(self, size: int, left: int, whole: list[Cand], hand: int) -> list[Cand]:
        differ = hand ^ left  # nonzero in the bytes of the kinds held differently
        # The four suits' bytes folded onto one suit's: a nonzero byte per rank held differently.
        taken = ((differ | differ >> 104 | differ >> 208 | differ >> 312) & _SUIT_BYTES).to_bytes(13, "little")
        taken = taken.translate(_HELD)
        touched = set()
        rank = taken.find(1)
        while rank >= 0:
            touched.add(rank)
            rank = taken.find(1, rank + 1)
        out = [cand for cand in whole[:-1] if cand[2][0] not in touched]
        counts = left.to_bytes(CARD_COUNT, "little")
        natural = self.natural_set
        for rank in touched:
            if rank in natural:
                a, b, c, d = counts[rank], counts[13 + rank], counts[26 + rank], counts[39 + rank]
                if a or b or c or d:
                    out += self._rank_groups(size, rank, a, b, c, d)
        out.sort(key=_ORDER)
        out.append(whole[-1])
        return out

    def for_slot(self, slot: Slot, counts: Counts, hand: int, near: int | None = None) -> list[Cand]:
        """Partial melds for ``slot`` from ``counts`` (naturals only; ``hand`` the same packed), fewest
        missing first.  ``near``: a hand (packed) one card away whose lists may be memoised: then only the
        rank or suit of that card is worked out again."""
        size = slot.min_size
        if slot.kind == GROUP:
            found = self.group_memo.get((size, hand))
            if found is None and near is not None:
                whole = self.group_memo.get((size, near))
                if whole is not None:
                    found = self.groups_left(size, hand, whole, near)
            return found if found is not None else self.groups(size, hand)
        # Runs depend only on which suited cards are held.
        held = bytes(counts[:_NATURALS]).translate(_HELD)
        key = (size, held)
        found = self.runs_memo.get(key)
        if found is None:
            if len(self.runs_memo) > MEMO_BUDGET:
                self.runs_memo.clear()
            base = None
            if near is not None:
                near_held = near.to_bytes(CARD_COUNT, "little")[:_NATURALS].translate(_HELD)
                base = self.runs_memo.get((size, near_held))
            if base is not None:
                found = self.runs_memo[key] = self._runs_near(size, held, base, near_held)
            else:
                found = self.runs_memo[key] = self._runs(size, held)
        return found

    def _groups_of(self, size: int, counts: Counts) -> list[Cand]:
        """Partial groups of ``size`` from ``counts``, fewest missing first, the all-wild one last."""
        out: list[Cand] = []
        caps = self.caps[size]
        memo = self.rank_memo
        for rank in self.natural_ranks:
            a, b, c, d = counts[rank], counts[13 + rank], counts[26 + rank], counts[39 + rank]
            if not (a or b or c or d):
                continue
            found = memo.get((size, rank, a, b, c, d))
            if found is None:
                found = self._rank_groups(size, rank, a, b, c, d)
            out += found
        trio = self.wild_trio and size <= (self.variant.wild_group_min or 3)
        all_wild = (self.variant.all_wild_melds or trio) and not self.one_wild
        out.sort(key=_ORDER)
        out.append((size, 0, (99, 0), size, (), size if all_wild else caps[size], NOTHING, 0, _order(size, 0, 99, 0)))
        return out

    def _rank_groups(self, size: int, rank: int, a: int, b: int, c: int, d: int) -> list[Cand]:
        """The group candidates of one rank held ``a``, ``b``, ``c``, ``d`` times in the four suits (memoised)."""
        key = (size, rank, a, b, c, d)
        found = self.rank_memo.get(key)
        if found is None:
            held = a + b + c + d
            cards = (rank,) * a + (13 + rank,) * b + (26 + rank,) * c + (39 + rank,) * d
            missing = size - held if held < size else 0
            found = [(missing, -held, (rank, 0), size, cards, self.caps[size][missing], _RANK_CARDS[rank],
                      packed(cards), _order(missing, held, rank, 0))]
            if held >= 2 * size:  # room for a second group of the same rank
                found.append((0, -size, (rank, 1), size, cards[:size], 0, _RANK_CARDS[rank], packed(cards[:size]),
                              _order(0, size, rank, 1)))
            self.rank_memo[key] = found
        return found

    def _runs_near(self, size: int, held: bytes, base: list[Cand], base_held: bytes) -> list[Cand]:
        """``_runs(size, held)`` from ``base``, the run candidates of the suited cards ``base_held``: only the
        suits held differently are worked out again."""
        changed = [suit for suit in range(4) if held[suit * 13:suit * 13 + 13] != base_held[suit * 13:suit * 13 + 13]]
        out = [cand for cand in base[:-1] if cand[2][0] not in changed]
        for suit in changed:
            out.extend(self._suit_candidates(size, suit, held))
        out.sort(key=_ORDER)
        out.append(base[-1])
        return out

    def _suit_candidates(self, size: int, suit: int, held: bytes) -> list[Cand]:
        """The run candidates of ``size`` in ``suit`` from the suited cards ``held`` (memoised per values held)."""
        base = suit * 13
        mask = _value_mask(held[base:base + 13])
        if not mask:
            return []
        if mask & 2 and self.hi == 14:
            mask |= 1 << 14
        if self.lo == 2:
            mask &= ~2
        key = (size, suit, mask)
        runs = self.run_memo.get(key)
        if runs is None:
            if len(self.run_memo) > MEMO_BUDGET:
                self.run_memo.clear()
            runs = self.run_memo[key] = self._suit_runs(size, suit, mask)
        return runs

    def _runs(self, size: int, held: bytes) -> list[Cand]:
        """Partial runs of ``size`` from the suited cards ``held`` (a byte per card: 1 if held), fewest
        missing first, the all-wild one last."""
        out: list[Cand] = []
        for suit in range(4):
            out.extend(self._suit_candidates(size, suit, held))
        out.sort(key=_ORDER)
        empty_cap = size if self.variant.all_wild_melds and not self.one_wild else 0
        out.append((size, 0, (99, 0), size, (), empty_cap, NOTHING, 0, _order(size, 0, 99, 0)))
        return out

    def _suit_runs(self, size: int, suit: int, mask: int) -> list[Cand]:
        """Run candidates of ``size`` in ``suit`` from the values in ``mask`` (bit ``v`` for value ``v``)."""
        out: list[Cand] = []
        full = (1 << size) - 1
        seen: dict[int, int] = {}
        used_memo, needs_memo = _SUIT_USED[suit], _SUIT_NEEDS[suit]
        caps = self.caps[size]
        for start in range(self.lo, self.hi - size + 2):
            window = full << start
            present = mask & window
            if not present:
                continue
            gap = window & ~mask
            needs = needs_memo.get(gap)
            if needs is None:
                needs = needs_memo[gap] = frozenset(_bits_to_cards(suit, gap))
            where = seen.get(present)
            if where is not None:  # the same cards in another window: more ways to fill it
                old = out[where]
                out[where] = (*old[:6], old[6] | needs, *old[7:])
                continue
            found = used_memo.get(present)
            if found is None:
                cards = _bits_to_cards(suit, present)
                found = used_memo[present] = (cards, packed(cards))
            used, used_packed = found
            held = len(used)
            missing = size - held
            seen[present] = len(out)
            out.append((missing, -held, (suit, start), size, used, caps[missing], needs, used_packed,
                        (missing << 24) | ((255 - held) << 16) | (suit << 8) | start))  # _order
        return out


def _bits_to_cards(suit: int, bits: int) -> tuple[Card, ...]:
    base = suit * 13
    return tuple(sorted({base + (0 if v == 14 else v - 1) for v in range(1, 15) if bits >> v & 1}))


def _order(missing: int, naturals: int, key_major: int, key_minor: int) -> int:
    """``(missing, -naturals, (key_major, key_minor))`` as one int in the same order (each field below 256)."""
    return (missing << 24) | ((255 - naturals) << 16) | (key_major << 8) | key_minor


_ORDER = itemgetter(8)


def packed(cards: Sequence[Card]) -> int:
    """``cards`` as one int holding a byte per card kind, the count of that kind (the low byte is card 0).

    A hand packed with :data:`GUARDS` set (a high bit in every byte) less a packed set of cards keeps every
    high bit exactly when the hand holds the cards: subtracting checks and removes them in one step.
    """
    total = 0
    for card in cards:
        total += 1 << (8 * card)
    return total


GUARDS = packed(range(CARD_COUNT)) * 0x80  # the high bit of every card kind's byte


#: Per suit, a window's values held (bits) -> (their cards, packed), and its values missing -> their cards.
_SUIT_USED: list[dict[int, tuple[tuple[Card, ...], int]]] = [{} for _ in range(4)]
_SUIT_NEEDS: list[dict[int, frozenset[Card]]] = [{} for _ in range(4)]
_NATURALS = 52  # the suited cards (a joker is 52)
_SUIT_BYTES = (1 << 104) - 1  # the bytes of one suit's 13 card kinds in a packed hand
_HELD = bytes([0] + [1] * 255)  # bytes.translate table: a count to whether any is held
_VALUE_MASKS: dict[bytes, int] = {}  # a suit's held cards (13 bytes of 0 and 1) -> its values as bits


def _value_mask(suit_held: bytes) -> int:
    """The values held in one suit as a mask, bit ``v`` for value ``v`` (ace = 1), from a byte per rank."""
    mask = _VALUE_MASKS.get(suit_held)
    if mask is None:
        mask = _VALUE_MASKS[suit_held] = sum(2 << rank for rank, held in enumerate(suit_held) if held)
    return mask
_RANK_CARDS = [frozenset(s * 13 + r for s in range(4)) for r in range(13)]
NOTHING: frozenset[Card] = frozenset()
