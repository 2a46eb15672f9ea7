"""Hand evaluation for computer players: how far a hand is from a contract, and what would help.

The contract solver (:mod:`rummy.engine.solver`) answers "can this hand lay down now?".  A player also
needs "how close is it?": :class:`ContractPlanner` assigns one *partial meld* to every contract
slot (a group of naturals of one rank, or a window of one suit's values for a run), cards
disjoint, wild cards filling gaps as the variant's wild policy allows, and minimises the number
of cards still to be drawn — the hand's **deficit** (0 means the contract is within reach; the
solver confirms).  The cards that would lower the deficit of some best plan are the hand's
**outs**; weighted by how many copies are still unseen they measure how likely the next cards are
to help.

>>> from rummy.engine import card_names, parse_card, to_counts
>>> from rummy.engine import get_variant
>>> v = get_variant("progressive-buy-it")
>>> planner = ContractPlanner(v, v.round_rules(2, 4).contract)   # a run of 4 and a set of 3
>>> hand = to_counts(map(parse_card, "5H 6H 8H 9C 9D KS QD".split()))
>>> plan = planner.analyze(hand)
>>> plan.deficit, sorted(card_names(plan.outs))
(2, ['7H', '9C', '9D', '9H', '9S', 'JK'])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from rummy.bots.partial_melds import GUARDS, MEMO_BUDGET, NOTHING, Cand, PartialMelds
from rummy.engine import (
    CARD_COUNT,
    GROUP,
    JOKER,
    Card,
    Counts,
    Slot,
    Variant,
    compiled_meld_rules,
    native_query,
    pack,
)

__all__ = ["ContractPlanner", "DiscardMemory", "Plan", "planner_for", "unseen_counts"]

_TOP_CANDIDATES = 6  # partial melds tried per slot (best first)
_LEAF_LIMIT = 400  # plans looked at per analysis (a safety cap; rarely reached)
_KEEP_LEAVES = 48  # best plans kept per analysis


Leaves = tuple[tuple[tuple[Card, ...], frozenset[Card]], ...]
_Leaf = tuple[tuple[Cand, ...], int, int]  # a leaf of the search: (candidates, missing, wild capacity)


class Plan:
    """One analysis: the deficit, the cards (``JOKER`` = any wild) that lower it, and the best plans.

    Each plan in ``leaves`` is ``(cards it uses, its outs)``.  A plan from the search works its outs and
    leaves out when they are first read (:meth:`later`): many analyses are asked only for the deficit.
    """

    __slots__ = ("_finish", "_leaves", "_outs", "deficit")

    def __init__(self, deficit: int, outs: frozenset[Card], leaves: Leaves = ()) -> None:
        self.deficit = deficit
        self._outs = outs
        self._leaves = leaves
        self._finish: Callable[[], tuple[frozenset[Card], Leaves]] | None = None

    @classmethod
    def later(cls, deficit: int, finish: Callable[[], tuple[frozenset[Card], Leaves]]) -> Plan:
        """A plan whose outs and leaves ``finish()`` gives, called once when either is first read."""
        plan = cls(deficit, NOTHING)
        plan._finish = finish
        return plan

    def _worked_out(self) -> None:
        """Work the outs and leaves out (the properties ask only while they are not)."""
        assert self._finish is not None
        self._outs, self._leaves = self._finish()
        self._finish = None

    @property
    def outs(self) -> frozenset[Card]:
        if self._finish is not None:
            self._worked_out()
        return self._outs

    @property
    def leaves(self) -> Leaves:
        if self._finish is not None:
            self._worked_out()
        return self._leaves

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plan):
            return NotImplemented
        return (self.deficit, self.outs, self.leaves) == (other.deficit, other.outs, other.leaves)

    __hash__ = None  # type: ignore[assignment]  # equal plans compare by value; none is used as a key

    def __repr__(self) -> str:
        return f"Plan(deficit={self.deficit}, outs={set(self.outs) or '{}'}, leaves={len(self.leaves)})"


class _Shape:
    """What a search needs to know of a contract's slots, worked out once per contract."""

    __slots__ = ("count", "distinct", "first_group", "kind_of", "native", "same", "sizes")

    def __init__(self, slots: Sequence[Slot]) -> None:
        self.count = len(slots)
        #: The distinct slots, and for each slot the index of its equal among them.
        self.distinct: list[Slot] = []
        self.kind_of: list[int] = []
        for slot in slots:
            if slot not in self.distinct:
                self.distinct.append(slot)
            self.kind_of.append(self.distinct.index(slot))
        self.sizes = [slot.min_size for slot in slots]
        self.same = [i > 0 and slots[i - 1] == slots[i] for i in range(self.count)]
        self.first_group = next((i for i, slot in enumerate(slots) if slot.kind == GROUP), self.count)
        #: The shape as planner.c reads it (None when it cannot: then the Python search answers).
        self.native: bytes | None = None
        if self.count <= 16 and all(1 <= size <= 14 for size in self.sizes):
            self.native = bytes([self.count, self.first_group, *(byte for i, slot in enumerate(slots) for byte in (
                slot.kind == GROUP, slot.min_size, self.kind_of[i], self.same[i]))])


def unseen_counts(variant: Variant, players: int, seen: Sequence[Card]) -> Counts:
    """Copies of each card not among ``seen`` (own hand, table, visible discards)."""
    counts = pack(variant.decks_for(players), variant.jokers_per_deck)
    for card in seen:
        if counts[card] > 0:
            counts[card] -= 1
    return counts


class DiscardMemory:
    """The discard pile as far as one seat has seen it (variants that show only the top card).

    Every view shows the top discard and the pile's size; a card seen on top at position ``i``
    stays in the pile until the pile shrinks below ``i + 1`` (taken, bought, or reshuffled into the
    stock), so the cards remembered are the ones still buried in the pile: gone for drawing.
    """

    def __init__(self) -> None:
        self.key: tuple[int, int, int] | None = None
        self.cards: dict[int, Card] = {}
        self.top = 0  # every position remembered is below it

    def update(self, round_number: int, dealer: int, players: int, count: int,
               visible: Sequence[Card]) -> list[Card]:
        """Record a view's pile (``count`` cards, ``visible`` the top ones); the pile as known."""
        self.observe(round_number, dealer, players, count, visible)
        return self.known()

    def observe(self, round_number: int, dealer: int, players: int, count: int, visible: Sequence[Card]) -> None:
        """Record a view's pile (``count`` cards, ``visible`` the top ones)."""
        key = (round_number, dealer, players)
        if key != self.key:
            self.key, self.cards, self.top = key, {}, 0
        cards = self.cards
        if count < self.top:
            for position in range(count, self.top):
                cards.pop(position, None)
        position = count - 1
        for card in reversed(visible):
            cards[position] = card
            position -= 1
        self.top = count

    def known(self) -> list[Card]:
        """The cards known to be buried in the pile."""
        return list(self.cards.values())


class ContractPlanner:
    """Deficit and outs of hands for one contract under one variant (results memoised per hand).

    ``extra_card``: the hand must also place one card beyond the contract's minimum (a round
    without a final discard, where laying down 13 of 14 cards is not allowed).
    """

    def __init__(self, variant: Variant, contract: Sequence[Slot], *, extra_card: bool = False) -> None:
        self.variant = variant
        # Slots sized as the table requires (a house rule may raise run_min); runs first
        # (their windows are the most constrained), larger minimums first.
        sized = [Slot(slot.kind, variant.meld_size(slot)) for slot in contract]
        self.slots = sorted(sized, key=lambda s: (s.kind == GROUP, -s.min_size))
        self.extra_card = extra_card
        self.wild_cards = [c for c in range(CARD_COUNT) if variant.is_wild(c)]
        #: The partial melds of the slots (and of the slots a card longer, for ``extra_card``).
        self.melds = PartialMelds(variant, max((slot.min_size for slot in self.slots), default=0) + 2)
        self.shape = _Shape(self.slots)
        self.extra_shapes = [_Shape(slots) for slots in self._extra_slots()]
        self.memo: dict[tuple[int, ...], Plan] = {}
        #: The rules as planner.c reads them (see _native_rules).
        self.native_rules = _native_rules(self.melds)
        #: Hands not analysed in full, by the deficit they are known to reach at least (with_card_within).
        self.floors: dict[tuple[int, ...], int] = {}

    # -- public ------------------------------------------------------------------------------

    def analyze(self, counts: Sequence[int]) -> Plan:
        """The :class:`Plan` of a hand given as a count vector."""
        return self._plan(counts, None)

    def _plan(self, counts: Sequence[int], added: Card | None) -> Plan:
        """``analyze(counts)``; ``added``: a card whose removal gives a hand analysed lately (its partial
        melds are then adapted rather than made afresh)."""
        key = tuple(counts)
        plan = self.memo.get(key)
        if plan is None:
            if len(self.memo) > MEMO_BUDGET:
                self.memo.clear()
            _NEW_ANALYSES[0] += 1
            if _NEW_ANALYSES[0] >= _BUDGET_CHECK_EVERY:
                _NEW_ANALYSES[0] = 0
                _keep_within_budget()
            plan = self._extra(list(counts), added) if self.extra_card else \
                self._analyze(list(counts), self.shape, added)
            self.memo[key] = plan
        return plan

    def deficit(self, counts: Sequence[int]) -> int:
        """Cards still to be drawn before the contract can be laid down."""
        return self.analyze(counts).deficit

    def without(self, counts: Sequence[int], card: Card) -> Plan:
        """The plan of the hand less one ``card`` (cheap when some best plan does not need it)."""
        plan = self.analyze(counts)
        held = counts[card]
        kept = [leaf for leaf in plan.leaves if leaf[0].count(card) < held]
        if kept:
            outs: frozenset[Card] = frozenset().union(*(leaf[1] for leaf in kept))
            return Plan(plan.deficit, outs, tuple(kept))
        rest = list(counts)
        rest[card] -= 1
        return self.analyze(rest)

    def discard_plans(self, counts: Sequence[int], cards: Sequence[Card]) -> dict[Card, Plan]:
        """The plan after discarding each of ``cards`` (each as :meth:`without` gives it).

        A card every best plan needs cannot beat one some best plan leaves out (its deficit is
        at least one more), so when such a spare card exists the needed cards get a bound
        (deficit + 1, no outs) instead of a full analysis.
        """
        plan = self.analyze(counts)
        leaves = plan.leaves
        # For each card, the best plans that use every copy held of it, as bits (one pass over the plans).
        needs_all: dict[Card, int] = {}
        bit = 1
        for used, _ in leaves:
            for card in used:
                held = counts[card]
                if held == 1 or used.count(card) >= held:
                    needs_all[card] = needs_all.get(card, 0) | bit
            bit <<= 1
        everyone = bit - 1
        excluded = [needs_all.get(card, 0) for card in cards]
        # The plan left by each set of excluded best plans: spare cards needed by the same plans share one.
        kept_plans: dict[int, Plan] = {}
        if len(leaves) < _KEEP_LEAVES and excluded.count(everyone) < len(excluded):  # some card is not needed by all
            kept_plans[0] = plan  # every best plan kept (and none cut off): the hand's own
            kept_plans[everyone] = Plan(plan.deficit + 1, frozenset())  # the bound of the cards every one needs
        result: dict[Card, Plan] = {}
        for card, mask in zip(cards, excluded, strict=True):
            found = kept_plans.get(mask)
            if found is None and mask == everyone:  # needed by every best plan, and no bound: analysed
                rest = list(counts)
                rest[card] -= 1
                found = self.analyze(rest)
            elif found is None:
                found = kept_plans[mask] = _kept(plan.deficit, leaves, mask)
            result[card] = found
        return result

    def with_card_within(self, counts: Sequence[int], card: Card, ceiling: int) -> bool:
        """False when the hand plus one ``card`` certainly has a deficit above ``ceiling`` (True: it may not;
        :meth:`with_card` tells).

        Asked before :meth:`with_card` where only a deficit at or below the ceiling matters (whether a card
        helps), it saves most of the analysis of cards that do not: the search starts with the ceiling as
        its bound and stops at the first plan within it.  Every leaf the full search reaches at or below the
        ceiling passes every bound on the way (a bound never exceeds the deficits below it) and the full
        search's leaf budget is spent no sooner, so when this search finds none, neither would that one.
        """
        more = list(counts)
        more[card] += 1
        key = tuple(more)
        plan = self.memo.get(key)
        if plan is not None:
            return plan.deficit <= ceiling
        if self.floors.get(key, 0) > ceiling:
            return False
        shapes = self.extra_shapes if self.extra_card else [self.shape]
        if any(self._search(list(more), shape, ceiling, card)[1] for shape in shapes):
            return True
        if len(self.floors) > MEMO_BUDGET:
            self.floors.clear()
        self.floors[key] = ceiling + 1
        return False

    def with_card(self, counts: Sequence[int], card: Card) -> Plan:
        """The plan of the hand plus one ``card``."""
        more = list(counts)
        more[card] += 1
        return self._plan(more, card)

    # -- search ------------------------------------------------------------------------------

    def _extra_slots(self) -> list[list[Slot]]:
        """The contracts with one slot a card longer (one per distinct slot), for ``extra_card``."""
        original = self.slots
        contracts = []
        for index in range(len(original)):
            if index and original[index - 1] == original[index]:
                continue
            slots = list(original)
            slots[index] = Slot(slots[index].kind, slots[index].min_size + 1)
            contracts.append(slots)
        return contracts

    def _extra(self, counts: Counts, added: Card | None) -> Plan:
        best: Plan | None = None
        for shape in self.extra_shapes:
            option = self._analyze(list(counts), shape, added)
            if best is None or option.deficit < best.deficit:
                best = option
            elif option.deficit == best.deficit:
                best = Plan.later(best.deficit, functools.partial(_merged, best, option))
        assert best is not None
        return best

    def _analyze(self, counts: Counts, shape: _Shape, added: Card | None) -> Plan:
        lowest, leaves, wilds = self._search(counts, shape, None, added)
        deficit = max(0, lowest)
        if isinstance(leaves, _NativeLeaves):
            return Plan.later(deficit, functools.partial(leaves.outs, leaves.packed, shape.count, deficit, wilds,
                                                         self.native_rules))
        return Plan.later(deficit, functools.partial(_outs_and_leaves, leaves, deficit, wilds, self.melds.caps))

    def _native_search(self, counts: Counts, shape: _Shape, ceiling: int | None
                       ) -> tuple[int, _NativeLeaves, int] | None:
        """:meth:`_search` by the compiled core (``planner.c``), or None: the Python search answers."""
        search, outs = native_query("planner_search"), native_query("planner_outs")
        if search is None or outs is None or shape.native is None:
            return None
        found = search(counts, shape.native, self.native_rules, ceiling)
        if found is None:
            return None
        lowest, packed, wilds = found
        return lowest, _NativeLeaves(packed, outs), wilds

    def _search(self, counts: Counts, shape: _Shape, ceiling: int | None,
                added: Card | None) -> tuple[int, list[_Leaf] | _NativeLeaves, int]:
        """The search of a hand's best plans: (the lowest deficit found, the best leaves, the wilds held).

        With a ``ceiling`` the search starts as if a plan of that deficit were found already and stops at
        the first leaf at or below it: it finds such a leaf whenever the full search would (see
        :meth:`with_card_within`), and the leaves it returns are that one or none.  The compiled core answers
        where it is built (the same deficit and leaves, packed: :class:`_NativeLeaves`); this is the reference.
        """
        native = self._native_search(counts, shape, ceiling)
        if native is not None:
            return native
        return self._python_search(counts, shape, ceiling, added)

    def _python_search(self, counts: Counts, shape: _Shape, ceiling: int | None,
                       added: Card | None) -> tuple[int, list[_Leaf], int]:
        """:meth:`_search` in Python (the reference)."""
        wilds = 0
        for card in self.wild_cards:
            wilds += counts[card]
            counts[card] = 0
        hand = int.from_bytes(bytes(counts), "little")  # one byte per card kind (see _packed)
        melds = self.melds
        near = hand - (1 << 8 * added) if added is not None and counts[added] else None  # the hand less it
        built = [melds.for_slot(slot, counts, hand, near) for slot in shape.distinct]
        kind_of = shape.kind_of
        options = [built[kind] for kind in kind_of]
        count = shape.count
        rest = [0] * (count + 1)
        for i in range(count - 1, -1, -1):
            rest[i] = rest[i + 1] + min(options[i][0][0], options[i][-1][0])
        same = shape.same
        first_group = shape.first_group
        sizes = shape.sizes
        groups_left = melds.groups_left
        fresh: dict[int, list[Cand]] = {}
        best = [1 << 20 if ceiling is None else ceiling, _LEAF_LIMIT]  # best deficit, leaf budget
        leaves: list[_Leaf] = []
        stop_at_first = ceiling is not None
        chosen: list[Cand] = []

        def search(index: int, missing: int, cap: int, first: int, left: int) -> None:
            """Try the candidates of slot ``index`` given the cards ``left`` (packed) by the slots before it.

            The candidates tried are in ascending order of missing cards, so once one is cut off by the bound
            (or the leaf budget is spent) every later one is too.  Before going down to the next slot the
            bound is checked on the first candidate it would try: when that one is cut off the next slot
            would try nothing, and (unless it is the first group slot, whose candidates depend on the cards
            left) neither would it after any later candidate here, so the loop ends."""
            cands = options[index]
            last = len(cands) - 1  # the all-wild (or empty) candidate, always tried
            low = first if same[index] else 0
            stop = low + _TOP_CANDIDATES
            if stop > last:
                stop = last
            slack = wilds - rest[index + 1] - missing
            position = low if low < stop else last
            guarded = left | GUARDS
            child = index + 1
            if child == count:
                while True:
                    cand = cands[position]
                    if cand[0] > best[0] + slack or best[1] <= 0:
                        break
                    if (guarded - cand[7]) & GUARDS == GUARDS:  # no kind went below zero: the cards are free
                        best[1] -= 1
                        total = cap + cand[5]
                        deficit = missing + cand[0] - (wilds if wilds < total else total)
                        if deficit < best[0]:
                            best[0] = deficit
                            leaves.clear()
                        if deficit == best[0] and len(leaves) < _KEEP_LEAVES:
                            leaves.append(((*chosen, cand), missing + cand[0], total))
                            if stop_at_first:
                                best[1] = 0  # every loop stops
                    if position == last:
                        break
                    position += 1
                    if position == stop:
                        position = last
                return
            fresh_groups = child == first_group
            child_same = same[child]
            child_slack = wilds - rest[child + 1] - missing
            while True:
                cand = cands[position]
                if cand[0] > best[0] + slack or best[1] <= 0:
                    break
                after = guarded - cand[7]
                if after & GUARDS == GUARDS:
                    after ^= GUARDS
                    if fresh_groups:
                        # Groups take what the runs left: fresh candidates from the cards left now.
                        for j in range(child, count):
                            kind = kind_of[j]
                            found = fresh.get(kind)
                            if found is None:
                                found = fresh[kind] = groups_left(sizes[j], after, built[kind], hand)
                            options[j] = found
                        fresh.clear()
                    if options[child][position if child_same else 0][0] > best[0] + child_slack - cand[0]:
                        if not fresh_groups:
                            break
                    else:
                        chosen.append(cand)
                        search(child, missing + cand[0], cap + cand[5], position, after)
                        chosen.pop()
                if position == last:
                    break
                position += 1
                if position == stop:
                    position = last

        if count:
            search(0, 0, 0, 0, hand)
        else:
            best[0] = 0
            leaves.append(((), 0, 0))
        return best[0], leaves, wilds




class _NativeLeaves:
    """The best leaves of a compiled search, packed (``planner.c``), with the query that works out their outs."""

    __slots__ = ("outs", "packed")

    def __init__(self, packed: bytes, outs: Callable[..., tuple[frozenset[Card], Leaves]]) -> None:
        self.packed = packed
        self.outs = outs

    def __bool__(self) -> bool:
        return bool(self.packed)


def _native_rules(melds: PartialMelds) -> bytes:
    """What ``planner.c`` reads of a variant's partial melds: the variant's meld rules as every compiled reader takes
    them (:func:`~rummy.engine.meld_rules.compiled_meld_rules`: the run bounds, the wild policy, all-wild melds, the
    wild cards, whence also the natural ranks), then the planner's own: wild trios and their largest size."""
    variant = melds.variant
    return compiled_meld_rules(variant) + bytes([melds.wild_trio, min(variant.wild_group_min or 3, 255)])


def _kept(deficit: int, leaves: Leaves, excluded: int) -> Plan:
    """The plan of the ``leaves`` (best plans of one ``deficit``) whose bits are not set in ``excluded``."""
    kept = []
    outs: set[Card] = set()
    for leaf in leaves:
        if not excluded & 1:
            kept.append(leaf)
            outs |= leaf[1]
        excluded >>= 1
    return Plan(deficit, frozenset(outs), tuple(kept))


def _merged(first: Plan, second: Plan) -> tuple[frozenset[Card], Leaves]:
    """The outs and leaves of two plans of one deficit (of two contracts a card longer; see ``extra_card``)."""
    return first.outs | second.outs, (first.leaves + second.leaves)[:_KEEP_LEAVES]


def _outs_and_leaves(leaves: list[_Leaf], deficit: int, wilds: int,
                     caps: list[list[int]]) -> tuple[frozenset[Card], Leaves]:
    """The outs and the leaves of a plan from the search's best leaves (candidates, missing, wild capacity)."""
    result: list[tuple[tuple[Card, ...], frozenset[Card]]] = []
    all_outs: set[Card] = set()
    for leaf, missing, cap in leaves:
        used_cards: tuple[Card, ...] = ()
        for cand in leaf:
            used_cards += cand[4]
        if not deficit:
            result.append((used_cards, NOTHING))
            continue
        outs: set[Card] = set()
        if wilds < cap:
            outs.add(JOKER)
        for cand in leaf:
            if cand[0] and cand[6]:
                # One more natural: one card less missing, maybe less room for wilds.
                new_cap = cap - cand[5] + caps[cand[3]][cand[0] - 1]
                if missing - 1 - (wilds if wilds < new_cap else new_cap) < deficit:
                    outs.update(cand[6])
        frozen = frozenset(outs)
        all_outs |= frozen
        result.append((used_cards, frozen))
    return frozenset(all_outs), tuple(result)


_PLANNERS: dict[tuple[object, ...], ContractPlanner] = {}
_BUDGET_CHECK_EVERY = 256  # new analyses between two checks of the memo budget
_NEW_ANALYSES = [0]  # new analyses since the last check


def planner_for(variant: Variant, contract: Sequence[Slot], *, extra_card: bool = False) -> ContractPlanner:
    """A planner shared by every bot: its answers depend only on the rules it reads and the hand.

    The memos of all shared planners together stay near a fixed budget (they are cleared when it is
    exceeded, checked every few hundred new analyses), so long-running processes do not grow.
    """
    key = (variant.ace_mode, variant.wild_policy, variant.wild_ranks, variant.all_wild_melds,
           variant.wild_group_min, variant.wild_group_counts_as_set, variant.run_min,
           tuple(contract), extra_card)
    found = _PLANNERS.get(key)
    if found is None:
        if len(_PLANNERS) >= 16:
            _PLANNERS.clear()
        found = _PLANNERS[key] = ContractPlanner(variant, contract, extra_card=extra_card)
    return found


def forget_plans() -> None:
    """Drop every shared planner and what it remembers (a benchmark measuring the planner from cold, a test starting
    clean; a memo never changes an answer, only how fast it comes)."""
    _PLANNERS.clear()


def _keep_within_budget() -> None:
    """Clear every shared planner's memos once together they pass the budget (checked every
    ``_BUDGET_CHECK_EVERY`` new analyses, the only time they grow; a memo never changes an answer, only how
    fast it comes)."""
    if sum(len(p.memo) + len(p.floors) // 8 + p.melds.size() for p in _PLANNERS.values()) > MEMO_BUDGET:
        for planner in _PLANNERS.values():
            planner.memo.clear()
            planner.floors.clear()
            planner.melds.clear()
