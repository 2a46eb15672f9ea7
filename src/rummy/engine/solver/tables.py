"""Precomputed tables of the contract solver: a variant's facts (:class:`VariantRules`), an analysed contract
(:class:`ContractPlan`), and the per-hand removal of *dead* naturals (:func:`remove_dead_naturals`) that rejects
hopeless hands cheaply.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rummy.engine.cards import CARD_COUNT
from rummy.engine.errors import UsageError
from rummy.engine.memo import memo_table, per_object, put
from rummy.engine.modes import POLICY_CODES, WildPolicy
from rummy.engine.variants import GROUP, RUN, Slot, Variant

INF = 1 << 20
# Wild policies (``variant.wild_policy``).
POLICY_NONE = POLICY_CODES[WildPolicy.NONE]
POLICY_RATIO = POLICY_CODES[WildPolicy.NOT_OUTNUMBER]
POLICY_ONE = POLICY_CODES[WildPolicy.AT_MOST_ONE]
WILD_RUN_SUIT = 4  # pseudo-suit of a run made only of wilds (its place is chosen when the meld is built)
RANK_OF = tuple(c % 13 + 1 for c in range(52)) + (0,)
# Natural cards in "frontier" order: per suit the ranks 2…K, then the ace (which can still end a
# run at value 14 after every other value of the suit has been passed).
FRONTIER_ORDER = tuple(s * 13 + r for s in range(4) for r in (*range(1, 13), 0))


def check_hand_length(hand: Sequence[int]) -> None:
    """Raise UsageError unless ``hand`` is a count vector over all cards."""
    if len(hand) != CARD_COUNT:
        raise UsageError(f"a hand is a count vector of length {CARD_COUNT}, not {len(hand)}")


def compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` positive integers."""
    if parts == 1:
        if total >= 1:
            yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


class VariantRules:
    """The facts of one variant the solver needs, computed once per :class:`Variant` object."""

    __slots__ = (
        "variant", "wild", "points", "wild_cards", "rank_points", "lo", "hi", "run_min", "group_min",
        "policy", "all_wild", "trio_min", "pair_wilds", "exact", "same_rank", "adjacent", "card_at",
        "run_capable_memo", "run_points_memo", "dead_ranks_memo", "best_run_memo", "wild_range_memo", "plans",
        "plans_by_id", "windows_memo", "value_sums_memo", "__weakref__",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.wild = tuple(variant.is_wild(c) for c in range(CARD_COUNT))
        self.points = tuple(variant.points(c) for c in range(CARD_COUNT))
        self.wild_cards = tuple(c for c in range(CARD_COUNT) if self.wild[c])
        self.rank_points = (0, *(self.points[r - 1] for r in range(1, 14)))
        self.lo, self.hi = variant.ace_mode.run_bounds
        self.run_min = variant.run_min
        self.group_min = variant.group_min
        self.policy = POLICY_CODES[variant.wild_policy]
        # A declared meld of wilds only is valid only where the policy lets wilds outnumber naturals.
        self.all_wild = variant.all_wild_melds and self.policy == POLICY_NONE
        self.trio_min: int | None = None
        if not variant.all_wild_melds and variant.wild_group_counts_as_set and variant.wild_group_min:
            self.trio_min = variant.wild_group_min
        self.pair_wilds = variant.pair_wilds
        self.exact = variant.contract_sizes_exact
        self.same_rank = variant.allow_same_rank_groups
        self.adjacent = variant.allow_adjacent_runs
        # card_at[suit][value] for run values 1…14 (value 14 is the ace again).
        self.card_at = tuple(tuple(s * 13 + (v - 1) % 13 for v in range(15)) for s in range(4))
        # The memo tables of these rules (bounded; they go with the rules).
        self.run_capable_memo: dict[tuple[int, int, int], int] = memo_table(
            "solver: run-capable cards", 200_000, owner=self)
        self.windows_memo: dict[int, tuple[int, ...]] = {}  # (one entry per run length)
        self.value_sums_memo: dict[int, tuple[list[int], list[int]]] = {}  # (at most 8192 masks)
        self.run_points_memo: dict[tuple[int, int], tuple[int, ...]] = memo_table(
            "solver: run points", 200_000, owner=self)
        self.dead_ranks_memo: dict[tuple[int, int, int, int], int] = memo_table(
            "solver: dead ranks", 200_000, owner=self)
        self.best_run_memo: dict[tuple[int, int, int], tuple[int, int, int, int] | None] = memo_table(
            "solver: best run", 200_000, owner=self)
        self.wild_range_memo: dict[tuple[int, tuple[tuple[int, bool], ...]], tuple[int, int] | None] = memo_table(
            "solver: wild range", 200_000, owner=self)
        self.plans: dict[tuple[Slot, ...], ContractPlan] = {}  # (one entry per contract asked for)
        self.plans_by_id: dict[int, tuple[tuple[Slot, ...], ContractPlan]] = memo_table(
            "solver: plans by id", 256, owner=self)

    def max_wilds(self, naturals: int) -> int:
        """Most wilds a meld with ``naturals`` natural cards may hold under the wild policy."""
        if self.policy == POLICY_NONE:
            return INF
        if self.policy == POLICY_RATIO:
            return naturals
        return 1

    def wild_only_group_size(self, min_size: int, accepts_wilds: bool, is_pair: bool) -> int | None:
        """Size of the smallest meld of wilds only that can fill a group slot, or None."""
        if self.all_wild and accepts_wilds:
            return min_size
        if self.trio_min is not None and not is_pair:
            return max(min_size, self.trio_min)
        return None

    def run_capable(self, mask: int, wcap: int, lmin: int) -> int:
        """Ranks (bit r-1) of ``mask`` that lie in some ``lmin``-window completable with ``wcap`` wilds."""
        key = (mask, wcap, lmin)
        found = self.run_capable_memo.get(key)
        if found is not None:
            return found
        windows = self.windows_memo.get(lmin)
        if windows is None:  # per low value, the ranks of the lmin values from there
            windows = self.windows_memo[lmin] = tuple(
                sum(1 << ((v - 1) % 13) for v in range(a, a + lmin)) for a in range(self.lo, self.hi - lmin + 2))
        capable = 0
        least = lmin - wcap
        for window in windows:
            present = window & mask
            if present and present.bit_count() >= least:
                capable |= present
        return put(self.run_capable_memo, key, capable)

    def dead_ranks(self, mask: int, loose: int, wcap: int, lmin: int) -> int:
        """Ranks (bits of ``loose``, a part of ``mask``) of naturals of one suit that no ``lmin``-window can
        hold, completed with ``wcap`` wilds by the suit's other naturals (``mask``) that are not dead too.

        Removing a dead natural can kill more, so this repeats until nothing changes; the result (the
        naturals outside the largest set in which every one has a window) does not depend on the order.
        """
        key = (mask, loose, wcap, lmin)
        found = self.dead_ranks_memo.get(key)
        if found is not None:
            return found
        gone = 0
        while True:
            dying = loose & ~gone & ~self.run_capable(mask & ~gone, wcap, lmin)
            if not dying:
                break
            gone |= dying
        return put(self.dead_ranks_memo, key, gone)

    def run_points(self, mask: int, wilds: int) -> tuple[int, ...]:
        """Per low value a (index 0…15): the most points of naturals a run starting at ``a`` or higher can hold,
        when its suit's naturals are the ranks of ``mask`` (bit r-1 for rank r) and ``wilds`` wilds fill its
        gaps (its minimum length aside: a bound).  (Points do not depend on the suit.)

        Points are never negative, so from each low value the longest run the wilds allow is the best.
        """
        key = (mask, wilds)
        found = self.run_points_memo.get(key)
        if found is not None:
            return found
        lo, hi = self.lo, self.hi
        points_before, gaps = self._value_sums(mask)
        best_from = [0] * 16
        g = 0  # gaps[g]: the first gap at or after a
        n_gaps = len(gaps)
        for a in range(lo, hi + 1):
            while g < n_gaps and gaps[g] < a:
                g += 1
            if g < n_gaps and gaps[g] == a:
                continue  # (a run's points from a gap are those from the next value: the suffix maximum below)
            # The longest run from a: up to the value before the (wilds+1)-th gap from a, 13 values at most.
            b = a + 12 if a + 12 < hi else hi
            if g + wilds < n_gaps and gaps[g + wilds] <= b:
                b = gaps[g + wilds] - 1
            best_from[a] = points_before[b + 1] - points_before[a]
        best = 0
        for a in range(hi, -1, -1):
            if best_from[a] > best:
                best = best_from[a]
            best_from[a] = best
        return put(self.run_points_memo, key, tuple(best_from))

    def _value_sums(self, mask: int) -> tuple[list[int], list[int]]:
        """Per run value v (0…15): the points of the values below v that ``mask`` holds; and the values from ``lo``
        to ``hi`` it lacks, in order (memoised per mask)."""
        found = self.value_sums_memo.get(mask)
        if found is not None:
            return found
        rank_points = self.rank_points
        points_before = [0] * 16
        gaps: list[int] = []
        total = 0
        for v in range(15):
            if mask >> ((v - 1) % 13) & 1:
                total += rank_points[(v - 1) % 13 + 1]
            elif self.lo <= v <= self.hi:
                gaps.append(v)
            points_before[v + 1] = total
        found = self.value_sums_memo[mask] = (points_before, gaps)
        return found

    def best_run(self, mask: int, wilds: int, lmin: int) -> tuple[int, int, int, int] | None:
        """The run holding the most points of naturals (then the fewest wilds; then the lowest (low, high)
        values) when its suit's naturals are the ranks of ``mask``, with at least one natural, at least ``lmin``
        cards and at most ``wilds`` wilds: (points, wilds, low, high), or None.  (Points do not depend on the
        suit.)"""
        key = (mask, wilds, lmin)
        if key in self.best_run_memo:
            return self.best_run_memo[key]
        lo, hi = self.lo, self.hi
        value_points = [self.rank_points[(v - 1) % 13 + 1] if mask >> ((v - 1) % 13) & 1 else -1
                        for v in range(16)]
        held = [0] * 16  # held[v]: naturals at values below v
        for v in range(1, 16):
            held[v] = held[v - 1] + (value_points[v - 1] >= 0)
        best: tuple[int, int, int, int] | None = None
        total = gaps = 0
        b = lo - 1  # the window [a, b]: the longest run from a the wilds allow (13 values at most)
        for a in range(lo, hi - lmin + 2):
            while b < hi and b - a < 12:
                p = value_points[b + 1]
                if p < 0:
                    if gaps == wilds:
                        break
                    gaps += 1
                else:
                    total += p
                b += 1
            if b < a:  # empty window (a is a gap and no wild is left for it)
                b = a
                continue
            if b - a + 1 >= lmin:
                # The most points from a are the window's; the fewest wilds for them: end at its last
                # natural worth points (or at the minimum length).
                end = b
                while end > a and value_points[end] <= 0:
                    end -= 1
                if value_points[end] > 0:
                    if end < a + lmin - 1:
                        end = a + lmin - 1
                    run_gaps = end - a + 1 - (held[end + 1] - held[a])
                    if best is None or (total, -run_gaps) > (best[0], -best[1]):
                        best = (total, run_gaps, a, end)
                else:
                    best = self._best_run_from(a, value_points, wilds, lmin, best)
            if value_points[a] >= 0:
                total -= value_points[a]
            else:
                gaps -= 1
        return put(self.best_run_memo, key, best)

    def _best_run_from(self, a: int, value_points: list[int], wilds: int, lmin: int,
                       best: tuple[int, int, int, int] | None) -> tuple[int, int, int, int] | None:
        """:meth:`best_run`'s plain scan of the runs from ``a`` (when no natural there is worth points)."""
        total = gaps = naturals = 0
        for b in range(a, min(self.hi, a + 12) + 1):
            if value_points[b] >= 0:
                total += value_points[b]
                naturals += 1
            else:
                gaps += 1
                if gaps > wilds:
                    break
            if b - a + 1 >= lmin and naturals and (best is None or (total, -gaps) > (best[0], -best[1])):
                best = (total, gaps, a, b)
        return best

    def split_wild_range(self, split: Sequence[int], slots: Sequence[tuple[int, bool]]) -> tuple[int, int] | None:
        """Fewest and most wilds groups can hold when group j gets ``split[j]`` naturals, or None.

        ``slots`` are the groups' ``(min_size, accepts_wilds)``; None when some group cannot be valid.
        """
        lo = hi = 0
        for n, (m, accepts) in zip(split, slots, strict=True):
            deficit = m - n if m > n else 0
            most = self.max_wilds(n) if accepts else 0
            if deficit > most:
                return None
            lo += deficit
            hi = min(INF, hi + most)
        return lo, hi

    def wild_range(self, naturals: int, slots: tuple[tuple[int, bool], ...]) -> tuple[int, int] | None:
        """Fewest and most wilds groups of one rank can hold, given all ``naturals`` of it.

        ``slots`` are the groups' ``(min_size, accepts_wilds)``; every group needs a natural.  None when
        no distribution of the naturals makes every group valid.  (The feasible totals form an
        interval; see :class:`ContractPlan` for the one combination where they might not, which never
        gets here.)
        """
        key = (naturals, slots)
        if key in self.wild_range_memo:
            return self.wild_range_memo[key]
        best_lo, best_hi = INF, -1
        for split in compositions(naturals, len(slots)):
            bounds = self.split_wild_range(split, slots)
            if bounds is not None:
                best_lo = min(best_lo, bounds[0])
                best_hi = max(best_hi, bounds[1])
        result = None if best_hi < 0 else (best_lo, best_hi)
        return put(self.wild_range_memo, key, result)

    def plan(self, contract: Sequence[Slot]) -> ContractPlan:
        """The (cached) analysis of ``contract`` under these rules."""
        seen = self.plans_by_id.get(id(contract))  # (hashing slots is slow; the same tuple comes back)
        if seen is not None and seen[0] is contract:
            return seen[1]
        key = contract if isinstance(contract, tuple) else tuple(contract)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = ContractPlan(self, key)
        if isinstance(contract, tuple):
            put(self.plans_by_id, id(contract), (contract, found))
        return found


class ContractPlan:
    """A contract analysed for one variant: slots sorted so that identical slots are adjacent.

    Runs are sorted by falling minimum length, groups by falling size (pair slots and slots refusing
    wilds last); ``run_index`` and ``group_index`` map the sorted slots back to contract positions.
    """

    __slots__ = (
        "slots", "impossible", "need", "n_runs", "run_index", "run_mins", "run_same", "run_last_block",
        "run_window", "n_groups", "group_index", "group_slots", "group_same", "group_last_block", "has_pair",
        "label_ok", "group_need_table", "first_group_wilds",
    )

    def __init__(self, rules: VariantRules, slots: tuple[Slot, ...]) -> None:
        self.slots = slots
        self.impossible = False
        runs: list[tuple[int, int]] = []
        groups: list[tuple[int, int, bool, bool]] = []
        for index, slot in enumerate(slots):
            if slot.kind == RUN:
                size = max(slot.min_size, rules.run_min)
                if size > 13 or (rules.exact and slot.min_size < rules.run_min):
                    self.impossible = True
                runs.append((index, size))
            elif slot.kind == GROUP:
                is_pair = slot.min_size < rules.group_min
                accepts = rules.pair_wilds or not is_pair
                groups.append((index, max(1, slot.min_size), accepts, is_pair))
            else:
                raise UsageError(f"unknown slot kind {slot.kind!r}")
        runs.sort(key=lambda r: -r[1])
        groups.sort(key=lambda g: (-g[1], g[3], not g[2]))
        self.need = sum(size for _, size in runs) + sum(g[1] for g in groups)
        self.n_runs = len(runs)
        self.run_index = tuple(index for index, _ in runs)
        self.run_mins = tuple(size for _, size in runs)
        self.run_same = _same_as_previous(self.run_mins)
        self.run_last_block = _last_block_start(self.run_same)
        self.run_window = min(self.run_mins, default=0)
        self.n_groups = len(groups)
        self.group_index = tuple(g[0] for g in groups)
        # (min_size, accepts_wilds, is_pair) per sorted group slot.
        self.group_slots = tuple((m, accepts, is_pair) for _, m, accepts, is_pair in groups)
        self.group_same = _same_as_previous(self.group_slots)
        self.group_last_block = _last_block_start(self.group_same)
        self.has_pair = any(is_pair for _, _, _, is_pair in groups)
        # The label search assumes the wild totals of same-rank groups form an interval; that is proven
        # for every policy except "not_outnumber" mixing wild-less pairs and other groups of one rank.
        self.label_ok = not (
            rules.exact
            or (rules.policy == POLICY_RATIO and rules.same_rank and any(not a for _, _, a, _ in groups))
        )
        # group_need_table[w]: fewest naturals of a rank that can make some group slot with w wilds available.
        self.group_need_table = [self._compute_group_need(rules, w) for w in range(16)]
        # first_group_wilds[n]: rules.wild_range(n, (the first group slot,)), for n < 33 naturals.
        self.first_group_wilds = tuple(rules.wild_range(n, (self.group_slots[0][:2],)) for n in range(33)) \
            if groups else ()

    def _compute_group_need(self, rules: VariantRules, wilds: int) -> int:
        best = INF
        for m, accepts, _ in self.group_slots:
            if not accepts:
                need = m
            elif rules.policy == POLICY_NONE:
                need = max(1, m - wilds)
            elif rules.policy == POLICY_RATIO:
                need = max(1, (m + 1) // 2, m - wilds)
            else:
                need = max(1, m - min(wilds, 1))
            best = min(best, need)
        return best

    def group_need(self, rules: VariantRules, wilds: int) -> int:
        """Fewest naturals of one rank that can make some group slot when ``wilds`` wilds are available."""
        if wilds < len(self.group_need_table):
            return self.group_need_table[wilds]
        return self._compute_group_need(rules, wilds)


def _same_as_previous(items: Sequence[object]) -> tuple[bool, ...]:
    """Per position: whether the item equals the one before it."""
    return tuple(i > 0 and items[i] == items[i - 1] for i in range(len(items)))


def _last_block_start(same: Sequence[bool]) -> int:
    """Position where the last block of identical items starts (0 when there are none)."""
    last = len(same) - 1
    while last > 0 and same[last]:
        last -= 1
    return max(last, 0)


@per_object("solver tables of a variant")
def rules_for(variant: Variant) -> VariantRules:
    """The (cached) :class:`VariantRules` of ``variant``."""
    return VariantRules(variant)


def remove_dead_naturals(rules: VariantRules, plan: ContractPlan, nat: list[int], masks: list[int],
                         groupable_rank: Sequence[bool], n_wilds: int) -> tuple[list[int], int]:
    """Take the *dead* naturals out of ``nat`` (and ``masks``); return them (one entry per copy) and their points.

    ``masks`` are the ranks ``nat`` holds per suit (bit r-1 for rank r; only with run slots).  A natural is
    dead when its rank cannot make any group slot (``groupable_rank``) and it lies in no window of the
    shortest run slot that the wilds can complete together with the other live naturals of its suit;
    removing dead cards can kill more, so this repeats until nothing changes.  Dead cards are certainly
    left in hand.
    """
    points = rules.points
    dead: list[int] = []
    dead_pts = 0
    if not plan.n_runs:  # (``masks`` are not kept then) every natural of a rank no group can take is dead
        for c in [c for r in range(1, 14) if not groupable_rank[r] for c in range(r - 1, 52, 13) if nat[c]]:
            dead.extend([c] * nat[c])
            dead_pts += nat[c] * points[c]
            nat[c] = 0
        return dead, dead_pts
    loose_ranks = 0  # ranks no group can take (bit r-1)
    for r in range(1, 14):
        if not groupable_rank[r]:
            loose_ranks |= 1 << (r - 1)
    if not loose_ranks:
        return dead, dead_pts
    lmin = plan.run_window
    wcap = min(n_wilds, 1 if rules.policy == POLICY_ONE else lmin)
    for s in range(4):
        loose = masks[s] & loose_ranks
        if not loose:
            continue
        gone = rules.dead_ranks(masks[s], loose, wcap, lmin)
        if gone:
            masks[s] &= ~gone
        while gone:
            low = gone & -gone
            c = s * 13 + low.bit_length() - 1
            dead.extend([c] * nat[c])
            dead_pts += nat[c] * points[c]
            nat[c] = 0
            gone ^= low
    return dead, dead_pts
