"""The contract solver: can a hand lay down a contract right now, and what is the best way?

:func:`find_lay_down` answers both questions for the contract variants (``rules.md`` §2.4–§2.5,
§3.3–§3.5, §4.3–§4.5, §5.3–§5.5): it returns one :class:`PlannedMeld` per contract slot, in slot
order, chosen so that the cards left in hand are worth as few penalty points as possible (ties: fewer
cards left), or None when the contract cannot be laid down.  The answer is exact.
:func:`best_melds_from` does the same job for free melding (``basic``).

>>> from rummy.cards import parse_card, to_counts
>>> from rummy.variants import get_variant
>>> v = get_variant("progressive-buy-it")
>>> hand = to_counts(map(parse_card, "7H 7S 7D 9C 9D 9S JK 3D 4D 5D 6D 2C".split()))
>>> [str(m) for m in find_lay_down(hand, v.round_rules(5, 4).contract, v)]
['set:7D-7H-7S-JK', 'set:9C-9D-9S', 'run:3D-4D-5D-6D']

Conventions and limits
----------------------
* A card of a wild rank is always a wild (``rules.md`` §2.3), also where it stands for itself; the
  non-default option ``twos_natural_in_place`` is ignored.
* A group slot whose ``min_size`` is below ``variant.group_min`` is a *pair slot*; its meld has kind
  ``"pair"`` (also when it holds three or more cards) and may hold wilds only if ``variant.pair_wilds``.
* A meld made only of wilds carries ``declared``: the rank of a set or pair (the smallest rank no
  other group of the lay-down uses), or the lowest card of a run.  A ``may-i`` trio of wilds
  (``wild_group_min`` with ``wild_group_counts_as_set``, only when ``all_wild_melds`` is off) fills a
  set slot, not a pair slot, and has ``declared = None``.
* Extra wild cards that are not needed anywhere go to the first group of the lay-down that accepts
  them (or onto the ends of runs when the contract has no group); which wild card sits where is
  cosmetic (wilds of equal rank are interchangeable), but the wilds laid down are always the ones worth
  the most points.

Algorithm
---------
1. Per variant (once) and per contract (once): tables of the variant's facts, the slots sorted
   (identical slots adjacent), minimum card counts, which run lengths and wilds a meld may have.
2. Per hand, cheap exact necessary conditions: too few cards; *dead* naturals (a natural whose rank
   cannot make any group slot and that lies in no window of the shortest run slot that the wilds can
   complete) are certainly left in hand, so more dead cards than the slack (cards beyond the contract's
   minimum) reject the hand, and with ``must_use_all`` a single dead card does.
3. A depth-first search over the run slots, in canonical order (identical slots take runs in
   non-decreasing (suit, low, high) order, so no lay-down is seen twice), with a running lower bound
   on the cards certainly lost (naturals the remaining runs can no longer reach and groups cannot
   use), pruned against the slack and against the best lay-down found (branch and bound).  In the
   common house rules (any number of wilds, all-wild melds allowed, oversize melds allowed) runs take
   naturals greedily and only reach past the slot minimum with naturals at both ends; extra wilds are
   added at the end.  That canonical form provably contains an optimal lay-down (exchange
   arguments, see :class:`_Search`).  Otherwise every choice of naturals is enumerated.
4. Group slots are then filled from the remaining cards by a small labelling search (which rank goes
   in which slot; every natural of a chosen rank joins it, wilds fill the deficits, spare wilds are
   added where the wild policy allows), memoised per call on the remaining rank counts.  With exact
   contract sizes an explicit search over (rank, naturals, wilds) per slot is used instead.
5. "No final discard" (exactly one card left is forbidden): if the best lay-down leaves exactly one
   card, a second search rejects completions leaving one card (enough for lay-downs leaving three or
   more, which are maximal), and lay-downs leaving exactly two are found by trying pairs of cards in
   order of points with the must-use-all search (see :func:`_solve_not_one`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from rummy.cards import CARD_COUNT, card_name, rank_name
from rummy.variants import GROUP, RUN, Slot, Variant

__all__ = ["PlannedMeld", "best_melds_from", "can_lay_down", "find_lay_down"]

_INF = 1 << 20
_NONE, _RATIO, _ONE = 0, 1, 2
_POLICIES = {"none": _NONE, "not_outnumber": _RATIO, "at_most_one": _ONE}
_BOUNDS = {"low_or_high": (1, 14), "low_only": (1, 13), "high_only": (2, 14)}
_WILDRUN = 4  # pseudo-suit of a run made only of wilds (its place is chosen when the meld is built)
_RANK = tuple(c % 13 + 1 for c in range(52)) + (0,)
# Natural cards in "frontier" order: per suit the ranks 2…K, then the ace (which can still end a
# run at value 14 after every other value of the suit has been passed).
_LIN = tuple(s * 13 + r for s in range(4) for r in (*range(1, 13), 0))


@dataclass(frozen=True, slots=True)
class PlannedMeld:
    """One meld of a planned lay-down, in record terms (``game-record.md`` §4 "Melds").

    ``kind`` is ``"set"``, ``"run"`` or ``"pair"``.  ``cards`` of a run run from low to high, each wild
    at the position it stands for; a set or pair lists its naturals (sorted) and then its wilds.
    ``declared`` is only given for a meld without a natural card: a rank 1…13 for a set or pair, the
    card of the lowest position for a run; it is None for a ``may-i`` trio of wilds and for every meld
    that holds a natural.
    """

    kind: str
    cards: tuple[int, ...]
    declared: int | None = None

    def __str__(self) -> str:
        text = f"{self.kind}:" + "-".join(card_name(c) for c in self.cards)
        if self.declared is not None:
            text += "=" + (card_name(self.declared) if self.kind == "run" else rank_name(self.declared))
        return text


# -- per-variant and per-contract tables ----------------------------------------------------------


class _Rules:
    """The facts of one variant the solver needs, computed once per :class:`Variant` object."""

    __slots__ = (
        "variant", "wild", "points", "naturals", "wild_cards", "rank_points", "lo", "hi", "run_min",
        "group_min", "policy", "all_wild", "trio_min", "pair_wilds", "exact", "same_rank", "adjacent",
        "card_at", "run_cap_memo", "lohi_memo", "plans",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.wild = tuple(variant.is_wild(c) for c in range(CARD_COUNT))
        self.points = tuple(variant.points(c) for c in range(CARD_COUNT))
        self.naturals = tuple(c for c in range(52) if not self.wild[c])
        self.wild_cards = tuple(c for c in range(CARD_COUNT) if self.wild[c])
        self.rank_points = (0, *(self.points[r - 1] for r in range(1, 14)))
        self.lo, self.hi = _BOUNDS[variant.ace_mode]
        self.run_min = variant.run_min
        self.group_min = variant.group_min
        self.policy = _POLICIES[variant.wild_policy]
        # A declared meld of wilds only is valid only where the policy lets wilds outnumber naturals.
        self.all_wild = variant.all_wild_melds and self.policy == _NONE
        self.trio_min: int | None = None
        if not variant.all_wild_melds and variant.wild_group_counts_as_set and variant.wild_group_min:
            self.trio_min = variant.wild_group_min
        self.pair_wilds = variant.pair_wilds
        self.exact = variant.contract_exact_sizes or not variant.contract_oversize_melds
        self.same_rank = variant.allow_same_rank_groups
        self.adjacent = variant.allow_adjacent_runs
        # card_at[suit][value] for run values 1…14 (value 14 is the ace again).
        self.card_at = tuple(tuple(s * 13 + (v - 1) % 13 for v in range(15)) for s in range(4))
        self.run_cap_memo: dict[tuple[int, int, int], int] = {}
        self.lohi_memo: dict[tuple[int, tuple[tuple[int, bool], ...]], tuple[int, int] | None] = {}
        self.plans: dict[tuple[Slot, ...], _Plan] = {}

    def polmax(self, naturals: int) -> int:
        """Most wilds a meld with ``naturals`` natural cards may hold under the wild policy."""
        if self.policy == _NONE:
            return _INF
        if self.policy == _RATIO:
            return naturals
        return 1

    def run_capable(self, mask: int, wcap: int, lmin: int) -> int:
        """Ranks (bit r-1) of ``mask`` that lie in some ``lmin``-window completable with ``wcap`` wilds."""
        key = (mask, wcap, lmin)
        found = self.run_cap_memo.get(key)
        if found is not None:
            return found
        capable = 0
        for a in range(self.lo, self.hi - lmin + 2):
            window = 0
            for v in range(a, a + lmin):
                window |= 1 << ((v - 1) % 13)
            present = window & mask
            if present and lmin - present.bit_count() <= wcap:
                capable |= present
        if len(self.run_cap_memo) > 200_000:
            self.run_cap_memo.clear()
        self.run_cap_memo[key] = capable
        return capable

    def lohi(self, naturals: int, slots: tuple[tuple[int, bool], ...]) -> tuple[int, int] | None:
        """Fewest and most wilds groups of one rank can hold, given all ``naturals`` of it.

        ``slots`` are the groups' ``(min_size, accepts_wilds)``; every group needs a natural.  None when
        no distribution of the naturals makes every group valid.  (The feasible totals form an
        interval; see :class:`_Plan` for the one combination where they might not, which never gets
        here.)
        """
        key = (naturals, slots)
        if key in self.lohi_memo:
            return self.lohi_memo[key]
        best_lo, best_hi = _INF, -1
        for split in _compositions(naturals, len(slots)):
            lo = hi = 0
            for n, (m, accepts) in zip(split, slots, strict=True):
                deficit = m - n if m > n else 0
                most = self.polmax(n) if accepts else 0
                if deficit > most:
                    break
                lo += deficit
                hi = min(_INF, hi + most)
            else:
                best_lo = min(best_lo, lo)
                best_hi = max(best_hi, hi)
        result = None if best_hi < 0 else (best_lo, best_hi)
        self.lohi_memo[key] = result
        return result

    def plan(self, contract: Sequence[Slot]) -> _Plan:
        """The (cached) analysis of ``contract`` under these rules."""
        key = contract if isinstance(contract, tuple) else tuple(contract)
        found = self.plans.get(key)
        if found is None:
            found = self.plans[key] = _Plan(self, key)
        return found


class _Plan:
    """A contract analysed for one variant: slots sorted so that identical slots are adjacent."""

    __slots__ = (
        "slots", "impossible", "need", "n_runs", "run_index", "run_mins", "run_same", "run_last_block",
        "run_window", "n_groups", "group_index", "gslots", "g_same", "g_last_block", "has_pair", "label_ok",
        "gneed",
    )

    def __init__(self, rules: _Rules, slots: tuple[Slot, ...]) -> None:
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
                raise ValueError(f"unknown slot kind {slot.kind!r}")
        runs.sort(key=lambda r: -r[1])
        groups.sort(key=lambda g: (-g[1], g[3], not g[2]))
        self.need = sum(size for _, size in runs) + sum(g[1] for g in groups)
        self.n_runs = len(runs)
        self.run_index = tuple(index for index, _ in runs)
        self.run_mins = tuple(size for _, size in runs)
        self.run_same = tuple(i > 0 and self.run_mins[i] == self.run_mins[i - 1] for i in range(len(runs)))
        last = len(runs) - 1
        while last > 0 and self.run_same[last]:
            last -= 1
        self.run_last_block = max(last, 0)
        self.run_window = min(self.run_mins, default=0)
        self.n_groups = len(groups)
        self.group_index = tuple(g[0] for g in groups)
        self.gslots = tuple((m, accepts, is_pair) for _, m, accepts, is_pair in groups)
        self.g_same = tuple(i > 0 and self.gslots[i] == self.gslots[i - 1] for i in range(len(groups)))
        last = len(groups) - 1
        while last > 0 and self.g_same[last]:
            last -= 1
        self.g_last_block = max(last, 0)
        self.has_pair = any(is_pair for _, _, _, is_pair in groups)
        # The label search assumes the wild totals of same-rank groups form an interval; that is proven
        # for every policy except "not_outnumber" mixing wild-less pairs and other groups of one rank.
        self.label_ok = not (
            rules.exact or (rules.policy == _RATIO and rules.same_rank and any(not a for _, _, a, _ in groups))
        )
        # gneed[w]: fewest naturals of a rank that can make some group slot with w wilds available.
        self.gneed = [self._group_need(rules, w) for w in range(16)]

    def _group_need(self, rules: _Rules, wilds: int) -> int:
        best = _INF
        for m, accepts, _ in self.gslots:
            if not accepts:
                need = m
            elif rules.policy == _NONE:
                need = max(1, m - wilds)
            elif rules.policy == _RATIO:
                need = max(1, (m + 1) // 2, m - wilds)
            else:
                need = max(1, m - min(wilds, 1))
            best = min(best, need)
        return best

    def group_need(self, rules: _Rules, wilds: int) -> int:
        if wilds < len(self.gneed):
            return self.gneed[wilds]
        return self._group_need(rules, wilds)


_RULES_CACHE: dict[int, _Rules] = {}


def _rules_for(variant: Variant) -> _Rules:
    rules = _RULES_CACHE.get(id(variant))
    if rules is None or rules.variant is not variant:
        if len(_RULES_CACHE) > 256:
            _RULES_CACHE.clear()
        rules = _RULES_CACHE[id(variant)] = _Rules(variant)
    return rules


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` positive integers."""
    if parts == 1:
        if total >= 1:
            yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


# -- the search ------------------------------------------------------------------------------------

# A chosen run: (sorted slot position, suit or _WILDRUN, low value or length, high value, naturals).
_RunChoice = tuple[int, int, int, int, tuple[int, ...]]
# A group solution: labels per sorted group slot (rank, or 0 for wilds only) from the label search,
# or explicit (rank, naturals, wilds) per slot from the general search.
_GroupSolution = tuple[tuple[int, ...], tuple[tuple[int, int, int], ...] | None]


class _Search:
    """One exact branch-and-bound search for the best lay-down of one hand.

    Canonical form used in *greedy* mode (wild policy "none", all-wild melds allowed, oversize melds
    allowed, no exact sizes, pair slots accept wilds, and either a group slot exists or the contract is
    runs only, runs may touch and the hand has fewer than 13 cards per run, so that some run can always
    take one more wild): among optimal lay-downs take one with the most naturals in runs.  Then

    * a run never holds a wild where the hand still has the natural (after the runs before it): such a
      natural left in hand could replace the wild, which moves to a group or a run end (one card more
      laid down); in a group it swaps with the wild (still valid: all-wild groups are allowed); in
      another run it swaps too.  So naturals can be taken greedily, run after run.
    * a run longer than its slot minimum whose end is a wild can give that wild to a group (or keep it as
      an "extra" wild re-added at the end), so longer runs need naturals for both ends: no card may end
      more such runs than the hand holds copies of it.

    Otherwise (ratio or at-most-one policy, exact sizes, …) every subset of available naturals is tried.
    """

    def __init__(self, rules: _Rules, plan: _Plan, hand: Sequence[int], require_all: bool,
                 first_only: bool, forbid_one: bool = False) -> None:
        self.rules = rules
        self.plan = plan
        self.require_all = require_all
        self.first_only = first_only
        self.forbid_one = forbid_one  # reject lay-downs leaving exactly one card
        self.dead_cards: list[int] = []
        points = rules.points
        if min(hand) < 0:
            raise ValueError("a hand cannot hold a negative number of cards")
        nat = list(hand[:52])
        wilds: list[int] = []
        for c in rules.wild_cards:
            k = hand[c]
            if k:
                wilds.extend([c] * k)
                if c < 52:
                    nat[c] = 0
        if len(wilds) > 1:
            wilds.sort(key=lambda c: (-points[c], c))
        self.wilds = wilds
        self.W = len(wilds)
        wp = [0]
        for c in wilds:
            wp.append(wp[-1] + points[c])
        self.wp = wp
        self.wild_total = wp[-1]
        self.total = sum(nat) + self.W
        self.feasible = not plan.impossible and self.total >= plan.need
        self.best_pts = _INF
        self.best_cnt = _INF
        self.best_runs: list[_RunChoice] = []
        self.best_groups: _GroupSolution | None = None
        self.best_wr = 0
        self.best_extra = 0
        self.done = False
        self.stack: list[tuple[int, int, int, int, list[int], int]] = []
        self.gmemo: dict[tuple[tuple[int, ...], int], tuple[int, int, _GroupSolution] | None] = {}
        if self.feasible:
            self._prepare(nat)

    # -- preparation: dead cards, modes, budgets ----------------------------------------------------

    def _prepare(self, nat: list[int]) -> None:
        """Remove dead naturals (no group and no run can use them); set budgets, modes, totals."""
        rules, plan = self.rules, self.plan
        points = rules.points
        W = self.W
        present = [c for c in range(52) if nat[c]]
        rank_cnt = [0] * 14
        for c in present:
            rank_cnt[_RANK[c]] += nat[c]
        gneed = plan.group_need(rules, W) if plan.n_groups else _INF
        gcap_rank = [rank_cnt[r] >= gneed for r in range(14)]
        dead_pts = dead_cnt = 0
        # Naturals whose rank no group slot can take: they must go to runs.
        loose = [c for c in present if not gcap_rank[_RANK[c]]]
        if loose:
            if plan.n_runs:
                lmin = plan.run_window
                wcap = min(W, 1 if rules.policy == _ONE else lmin)
                masks = [0, 0, 0, 0]
                for c in present:
                    masks[c // 13] |= 1 << (c % 13)
                changed = True
                while changed:
                    changed = False
                    for c in loose:
                        if nat[c]:
                            s = c // 13
                            if not rules.run_capable(masks[s], wcap, lmin) >> (c % 13) & 1:
                                changed = True
                                masks[s] &= ~(1 << (c % 13))
                                self.dead_cards.extend([c] * nat[c])
                                dead_pts += nat[c] * points[c]
                                dead_cnt += nat[c]
                                nat[c] = 0
            else:
                for c in loose:
                    self.dead_cards.extend([c] * nat[c])
                    dead_pts += nat[c] * points[c]
                    dead_cnt += nat[c]
                    nat[c] = 0
            if dead_cnt:
                present = [c for c in present if nat[c]]
        self.dead_pts, self.dead_cnt = dead_pts, dead_cnt
        budget = self.total - plan.need - dead_cnt
        if budget < 0 or (self.require_all and dead_cnt):
            self.feasible = False
            return
        self.budget = 0 if self.require_all else budget
        self.hand = nat[:]  # live naturals, never changed
        self.pool = nat  # live naturals not yet in a run
        self.rank_cnt = rank_cnt
        gcap = [False] * 52
        live_pts = live_cnt = gc_pts = gc_cnt = 0
        for c in present:
            k = nat[c]
            live_pts += k * points[c]
            live_cnt += k
            if gcap_rank[_RANK[c]]:
                gcap[c] = True
                gc_pts += k * points[c]
                gc_cnt += k
        if dead_cnt:
            rank_cnt[:] = [0] * 14
            for c in present:
                rank_cnt[_RANK[c]] += nat[c]
        self.gcap = gcap
        self.live_pts, self.live_cnt = live_pts, live_cnt
        self.live_gc_pts, self.live_gc_cnt = gc_pts, gc_cnt
        self.ends = [0] * 52
        self.greedy = (
            rules.policy == _NONE and rules.all_wild and not rules.exact
            and (rules.pair_wilds or not plan.has_pair)
            and (plan.n_groups > 0 or (rules.adjacent and self.total < 13 * plan.n_runs))
        )
        self.wildrun_label = rules.all_wild and rules.adjacent

    # -- driver ---------------------------------------------------------------------------------------

    def run(self) -> bool:
        """Search; True when some lay-down was found (then ``best_*`` describe the best one)."""
        if not self.feasible:
            return False
        self._runs(0, 0, 0, 0, 0, 0, 0, 0, self.W, 0, 0, 0, 0)
        return self.best_pts < _INF

    def _over(self, lost_pts: int, lost_cnt: int) -> bool:
        if lost_cnt > self.budget or self.done:
            return True
        p = self.dead_pts + lost_pts
        return p > self.best_pts or (p == self.best_pts and self.dead_cnt + lost_cnt >= self.best_cnt)

    def _runs(self, i: int, ks: int, ka: int, kb: int, km: int, fpos: int, lost_pts: int, lost_cnt: int,
              wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None:
        """Fill run slot ``i`` (and the rest) with runs whose key is at least (ks, ka, kb, km)."""
        plan = self.plan
        if i == plan.n_runs:
            self._leaf(wr, rpts, rcnt, rgp, rgc)
            return
        rules = self.rules
        lm = plan.run_mins[i]
        if not plan.run_same[i]:
            ks = ka = kb = km = 0
        frontier = i >= plan.run_last_block
        if i == plan.run_last_block:
            fpos = lost_pts = lost_cnt = 0
        pool, hand, ends, gcap = self.pool, self.hand, self.ends, self.gcap
        rank_cnt = self.rank_cnt
        points = rules.points
        lo, hi = rules.lo, rules.hi
        greedy = self.greedy
        exact = rules.exact
        skip_wild_only = self.wildrun_label
        adjacent = rules.adjacent
        stack = self.stack
        nxt = self._runs
        # Every run holds a natural unless runs of wilds only are placed concretely (then no skipping).
        sparse = skip_wild_only or not rules.all_wild
        a_last = hi - lm + 1
        for s in range(ks, 4):
            row = rules.card_at[s]
            a = (ka if (s == ks and ka > lo) else lo) - 1
            while a < a_last:
                a += 1
                if sparse:
                    # The first natural at or above a: a run starting at a fills the gap with wilds.
                    v = a
                    while v <= hi and not pool[row[v]]:
                        v += 1
                    if v > hi:
                        break
                    if v - a > wr:
                        a = v - wr
                        if a > a_last:
                            break
                if frontier:
                    f = s * 13 + (a - 2 if a > 2 else 0)
                    while fpos < f:
                        c = _LIN[fpos]
                        k = pool[c]
                        if k and not gcap[c]:
                            lost_pts += k * points[c]
                            lost_cnt += k
                        fpos += 1
                    if self._over(lost_pts, lost_cnt):
                        return
                elif self.done:
                    return
                kb_here = kb if (s == ks and a == ka) else 0
                bmax = hi if hi < a + 12 else a + 12
                if greedy:
                    # Naturals taken greedily; a run past the minimum needs natural ends.
                    taken: list[int] = []
                    w = tp = tg = tgc = 0
                    ca = row[a]
                    a_end = hand[ca] - ends[ca] > 0
                    for b in range(a, bmax + 1):
                        c = row[b]
                        if pool[c]:
                            pool[c] -= 1
                            rank_cnt[_RANK[c]] -= 1
                            taken.append(c)
                            tp += points[c]
                            if gcap[c]:
                                tg += points[c]
                                tgc += 1
                        else:
                            w += 1
                            if w > wr:
                                break
                        size = b - a + 1
                        if size < lm or b < kb_here:
                            continue
                        if not taken and skip_wild_only:
                            continue
                        if not adjacent and self._touches(s, a, b):
                            continue
                        if size > lm:
                            if not a_end:
                                break
                            if hand[c] - ends[c] <= 0:
                                continue
                            ends[ca] += 1
                            ends[c] += 1
                            stack.append((i, s, a, b, taken, len(taken)))
                            nxt(i + 1, s, a, b, 0, fpos, lost_pts, lost_cnt, wr - w, rpts + tp,
                                rcnt + len(taken), rgp + tg, rgc + tgc)
                            stack.pop()
                            ends[ca] -= 1
                            ends[c] -= 1
                        else:
                            stack.append((i, s, a, b, taken, len(taken)))
                            nxt(i + 1, s, a, b, 0, fpos, lost_pts, lost_cnt, wr - w, rpts + tp,
                                rcnt + len(taken), rgp + tg, rgc + tgc)
                            stack.pop()
                        if self.done:
                            break
                    for c in taken:
                        pool[c] += 1
                        rank_cnt[_RANK[c]] += 1
                else:
                    self._runs_full(i, s, a, bmax, lm, kb_here, km if (s == ks and a == ka) else 0,
                                    fpos, lost_pts, lost_cnt, wr, rpts, rcnt, rgp, rgc, exact)
                if self.done:
                    return
        # Runs made only of wilds, placed later (key: pseudo-suit 4, length).
        if self.wildrun_label and wr >= lm:
            if frontier:
                while fpos < 52:
                    c = _LIN[fpos]
                    k = pool[c]
                    if k and not gcap[c]:
                        lost_pts += k * points[c]
                        lost_cnt += k
                    fpos += 1
                if self._over(lost_pts, lost_cnt):
                    return
            top = lm if (greedy or exact) else min(13, wr)
            for size in range(max(lm, ka if ks == _WILDRUN else 0), top + 1):
                if size > wr or self.done:
                    break
                stack.append((i, _WILDRUN, size, 0, [], 0))
                nxt(i + 1, _WILDRUN, size, 0, 0, fpos, lost_pts, lost_cnt, wr - size, rpts, rcnt, rgp, rgc)
                stack.pop()

    def _runs_full(self, i: int, s: int, a: int, bmax: int, lm: int, kb: int, km: int, fpos: int,
                   lost_pts: int, lost_cnt: int, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int,
                   exact: bool) -> None:
        """Every run of suit ``s`` starting at value ``a``, with every choice of available naturals.

        In the last run slot a natural that no group can take and that is worth at least as much as
        any wild is always used: otherwise it stays in hand, and swapping it for the wild keeps the
        lay-down valid (fewer wilds), leaves as many cards and no more points.
        """
        rules = self.rules
        pool, gcap, rank_cnt = self.pool, self.gcap, self.rank_cnt
        points = rules.points
        row = rules.card_at[s]
        policy = rules.policy
        allow_wild_only = rules.all_wild and not self.wildrun_label
        last = i == self.plan.n_runs - 1
        top_wild = self.wp[1] if self.W else 0
        avail: list[int] = []
        forced: list[int] = []  # positions of avail whose natural must be used
        for b in range(a, bmax + 1):
            if pool[row[b]]:
                c = row[b]
                if last and not gcap[c] and points[c] >= top_wild:
                    forced.append(b)
                else:
                    avail.append(b)
            size = b - a + 1
            if size - len(avail) - len(forced) > wr:
                break
            if size < lm or b < kb:
                continue
            if exact and size > lm:
                break
            if not rules.adjacent and self._touches(s, a, b):
                continue
            least = size - wr
            if policy == _RATIO:
                least = max(least, (size + 1) // 2)
            elif policy == _ONE:
                least = max(least, size - 1)
            if least <= 0:
                least = 0 if allow_wild_only else 1
            nf = len(forced)
            for n in range(len(avail) + nf, max(least, nf) - 1, -1):
                for extra in combinations(avail, n - nf):
                    combo = (*forced, *extra)
                    mask = 0
                    for v in combo:
                        mask |= 1 << v
                    if b == kb and mask < km:
                        continue
                    taken = [row[v] for v in combo]
                    tp = tg = tgc = 0
                    for c in taken:
                        pool[c] -= 1
                        rank_cnt[_RANK[c]] -= 1
                        tp += points[c]
                        if gcap[c]:
                            tg += points[c]
                            tgc += 1
                    self.stack.append((i, s, a, b, taken, n))
                    self._runs(i + 1, s, a, b, mask, fpos, lost_pts, lost_cnt, wr - (size - n), rpts + tp,
                               rcnt + n, rgp + tg, rgc + tgc)
                    self.stack.pop()
                    for c in taken:
                        pool[c] += 1
                        rank_cnt[_RANK[c]] += 1
                    if self.done:
                        return

    def _touches(self, s: int, a: int, b: int) -> bool:
        """True when run [a, b] of suit ``s`` overlaps or abuts a run already chosen."""
        for _, s2, a2, b2, _, _ in self.stack:
            if s2 == s and a <= b2 + 1 and a2 <= b + 1:
                return True
        return False

    # -- leaves: groups and the final account ------------------------------------------------------

    def _leaf(self, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None:
        plan = self.plan
        W, wp = self.W, self.wp
        rem_pts = self.live_pts - rpts
        rem_cnt = self.live_cnt - rcnt
        if plan.n_groups == 0:
            extra = 0
            if self.greedy and wr:
                room = 0
                for _, s, a, b, _, _ in self.stack:
                    room += 13 - (a if s == _WILDRUN else b - a + 1)
                extra = min(wr, room)
            used_w = W - wr + extra
            self._offer(self.dead_pts + rem_pts + self.wild_total - wp[used_w],
                        self.dead_cnt + rem_cnt + W - used_w, None, wr, extra)
            return
        sure_pts = self.dead_pts + rem_pts - (self.live_gc_pts - rgp)
        sure_cnt = self.dead_cnt + rem_cnt - (self.live_gc_cnt - rgc)
        if self.require_all and sure_cnt:
            return
        if sure_pts > self.best_pts or (sure_pts == self.best_pts and sure_cnt >= self.best_cnt):
            return
        key = (tuple(self.rank_cnt), wr)
        if key in self.gmemo:
            res = self.gmemo[key]
        else:
            if plan.label_ok:
                res = self._label_groups(wr)
            else:
                res = self._general_groups(wr)
            self.gmemo[key] = res
        if res is None:
            return
        value, count, solution = res
        used_pts = rpts + wp[W - wr] + value
        used_cnt = rcnt + W - wr + count
        self._offer(self.dead_pts + self.live_pts + self.wild_total - used_pts,
                    self.dead_cnt + self.live_cnt + W - used_cnt, solution, wr, 0)

    def _offer(self, left_pts: int, left_cnt: int, groups: _GroupSolution | None, wr: int, extra: int) -> None:
        if (self.require_all and left_cnt) or (self.forbid_one and left_cnt == 1):
            return
        if left_pts < self.best_pts or (left_pts == self.best_pts and left_cnt < self.best_cnt):
            self.best_pts, self.best_cnt = left_pts, left_cnt
            self.best_runs = [(i, s, a, b, tuple(t[:n])) for i, s, a, b, t, n in self.stack]
            self.best_groups = groups
            self.best_wr = wr
            self.best_extra = extra
            if self.first_only or (left_pts == self.dead_pts and left_cnt == self.dead_cnt):
                self.done = True

    def _wild_group_min(self, m: int, accepts: bool, is_pair: bool) -> int | None:
        """Size of the smallest meld of wilds only that can fill a group slot, or None."""
        rules = self.rules
        if rules.all_wild and accepts:
            return m
        if rules.trio_min is not None and not is_pair:
            return max(m, rules.trio_min)
        return None

    def _label_groups(self, wr: int) -> tuple[int, int, _GroupSolution] | None:
        """Best labelling of the group slots with ranks (all naturals of a chosen rank join it).

        Returns (points gained, cards used, solution) where points include the group wilds.  Pruned by
        the slack: naturals of ranks no slot takes stay in hand, and candidates are tried in a fixed
        order, so in the last block of identical slots a candidate passed over is lost for good.
        """
        rules, plan = self.rules, self.plan
        cnt = self.rank_cnt
        gslots, gsame = plan.gslots, plan.g_same
        g = len(gslots)
        last_block = plan.g_last_block
        need = plan.group_need(rules, wr)
        budget = self.budget  # 0 with require_all: then every natural and wild must be used
        cands: list[int] = []
        for r in range(1, 14):
            if cnt[r]:
                if cnt[r] >= need:
                    cands.append(r)
                else:
                    budget -= cnt[r]
        if budget < 0:
            return None
        ncand = len(cands)
        rp = rules.rank_points
        counts = sorted((cnt[r] for r in cands), reverse=True)
        if sum(counts[g:]) > budget:  # at most g distinct ranks can be used
            return None
        cands.sort(key=lambda r: (-rp[r] * cnt[r], r))
        vals = [rp[r] * cnt[r] for r in cands]
        counts = [cnt[r] for r in cands]
        w_before = self.W - wr
        wp = self.wp
        w_gain_base = wp[w_before]
        wild_gain = wp[w_before + wr] - w_gain_base
        same_rank = rules.same_rank
        lohi = rules.lohi
        wild_min = [self._wild_group_min(*slot) for slot in gslots]
        assigned: list[tuple[tuple[int, bool], ...]] = [()] * ncand
        lo_of = [0] * ncand
        hi_of = [0] * ncand
        labels = [0] * g
        best_val = -1
        best_cnt = -1
        best_labels: tuple[int, ...] | None = None
        total_nat = sum(counts)
        left_before = self.dead_cnt + sum(cnt) - total_nat  # naturals of ranks no slot can take
        forbid_one = self.forbid_one

        def rec(j: int, kmin: int, lo_sum: int, hi_sum: int, npts: int, ncnt: int, lost: int) -> None:
            nonlocal best_val, best_cnt, best_labels
            if j == g:
                wg = wr if hi_sum >= wr else hi_sum
                if total_nat - ncnt + wr - wg > budget:
                    return
                if forbid_one and left_before + total_nat - ncnt + wr - wg == 1:
                    return
                val = npts + wp[w_before + wg] - w_gain_base
                tot = ncnt + wg
                if val > best_val or (val == best_val and tot > best_cnt):
                    best_val, best_cnt, best_labels = val, tot, tuple(labels)
                return
            start = kmin if gsame[j] else 0
            tail = j >= last_block
            if j == last_block:
                lost = 0
            rem = g - j
            ub = npts + wild_gain
            taken = 0
            for k in range(start if tail else 0, ncand):
                if not assigned[k]:
                    ub += vals[k]
                    taken += 1
                    if taken == rem:
                        break
            if ub < best_val:
                return
            m, accepts, _ = gslots[j]
            slot_t = (m, accepts)
            for k in range(start, ncand):
                M = assigned[k]
                if not (M and not same_rank):
                    M2 = tuple(sorted((*M, slot_t))) if M else (slot_t,)
                    bounds = lohi(counts[k], M2)
                    if bounds is not None:
                        lo2, hi2 = bounds
                        new_lo = lo_sum - lo_of[k] + lo2
                        if new_lo <= wr:
                            new_hi = hi_sum - hi_of[k] + hi2
                            old = (M, lo_of[k], hi_of[k])
                            assigned[k], lo_of[k], hi_of[k] = M2, lo2, hi2
                            labels[j] = cands[k]
                            if M:
                                rec(j + 1, k, new_lo, new_hi, npts, ncnt, lost)
                            else:
                                rec(j + 1, k, new_lo, new_hi, npts + vals[k], ncnt + counts[k], lost)
                            assigned[k], lo_of[k], hi_of[k] = old
                if tail and not M:
                    lost += counts[k]  # passed over: later identical slots cannot take it
                    if lost > budget:
                        return
            wmin = wild_min[j]
            if wmin is not None and lo_sum + wmin <= wr:
                labels[j] = 0
                rec(j + 1, ncand, lo_sum + wmin, _INF, npts, ncnt, lost)

        rec(0, 0, 0, 0, 0, 0, 0)
        if best_labels is None:
            return None
        return best_val, best_cnt, (best_labels, None)

    def _general_groups(self, wr: int) -> tuple[int, int, _GroupSolution] | None:
        """Explicit search over (rank, naturals, wilds) per group slot (exact sizes and rare rules)."""
        rules, plan = self.rules, self.plan
        cnt = list(self.rank_cnt)
        gslots, gsame = plan.gslots, plan.g_same
        g = len(gslots)
        exact = rules.exact
        same_rank = rules.same_rank
        rp = rules.rank_points
        wp = self.wp
        w_before = self.W - wr
        require_all = self.require_all
        wild_min = [self._wild_group_min(*slot) for slot in gslots]
        choice: list[tuple[int, int, int]] = [(0, 0, 0)] * g
        used_rank = [0] * 14
        best_val = -1
        best_cnt = -1
        best_choice: tuple[tuple[int, int, int], ...] | None = None
        left_pts = sum(rp[r] * cnt[r] for r in range(14))

        def rec(j: int, prev: tuple[int, int, int], wleft: int, npts: int, ncnt: int, rest: int) -> None:
            nonlocal best_val, best_cnt, best_choice
            if j == g:
                wg = wr - wleft
                if require_all and (wleft or any(cnt)):
                    return
                if self.forbid_one and self.dead_cnt + sum(cnt) + wleft == 1:
                    return
                val = npts + wp[w_before + wg] - wp[w_before]
                tot = ncnt + wg
                if val > best_val or (val == best_val and tot > best_cnt):
                    best_val, best_cnt, best_choice = val, tot, tuple(choice)
                return
            if npts + rest + wp[w_before + wr] - wp[w_before] < best_val:
                return
            m, accepts, is_pair = gslots[j]
            low = prev if gsame[j] else (0, 0, 0)
            for r in range(1, 14):
                if not cnt[r] or (used_rank[r] and not same_rank) or r < low[0]:
                    continue
                for n in range(1, cnt[r] + 1):
                    if exact and n > m:
                        break
                    most = min(wleft, rules.polmax(n) if accepts else 0)
                    least = m - n if m > n else 0
                    top = least if exact else most
                    for w in range(least, min(top, most) + 1):
                        key = (r, n, w)
                        if key < low:
                            continue
                        cnt[r] -= n
                        used_rank[r] += 1
                        choice[j] = key
                        rec(j + 1, key, wleft - w, npts + n * rp[r], ncnt + n, rest - n * rp[r])
                        used_rank[r] -= 1
                        cnt[r] += n
            wmin = wild_min[j]
            if wmin is not None and (not exact or wmin == m):
                for w in range(wmin, (wmin if exact else wleft) + 1):
                    key = (14, 0, w)
                    if w > wleft or key < low:
                        continue
                    choice[j] = key
                    rec(j + 1, key, wleft - w, npts, ncnt, rest)

        rec(0, (0, 0, 0), wr, 0, 0, left_pts)
        if best_choice is None:
            return None
        labels = tuple(0 if r == 14 else r for r, _, _ in best_choice)
        explicit = tuple((0 if r == 14 else r, n, w) for r, n, w in best_choice)
        return best_val, best_cnt, (labels, explicit)

    # -- building the answer ------------------------------------------------------------------------

    def build(self) -> tuple[PlannedMeld, ...]:
        """The best lay-down found, one meld per contract slot in contract order."""
        rules, plan = self.rules, self.plan
        pool = self.hand[:]
        melds: list[PlannedMeld | None] = [None] * len(plan.slots)
        wilds_used = self.W - self.best_wr + self.best_extra
        groups = self.best_groups
        # Wilds going to groups: whatever the group solution uses.
        if groups is not None:
            group_wilds = self._group_wild_plan(groups)
            wilds_used += sum(group_wilds)
        else:
            group_wilds = []
        wild_cards = sorted(self.wilds[:wilds_used])  # the most valuable wilds, in card order
        wild_iter = iter(wild_cards)
        # Runs.
        extra = self.best_extra
        taken_suits: dict[int, list[tuple[int, int]]] = {}
        specs: list[tuple[int, int, int, int, tuple[int, ...]]] = []
        for i, s, a, b, naturals in self.best_runs:
            for c in naturals:
                pool[c] -= 1
            if s == _WILDRUN:
                specs.append((i, s, a, 0, naturals))
            else:
                specs.append((i, s, a, b, naturals))
                taken_suits.setdefault(s, []).append((a, b))
        for i, s, a, b, naturals in specs:
            if s == _WILDRUN:
                size = a
                grow = min(extra, 13 - size)
                extra -= grow
                size += grow
                s, a = self._place_wild_run(size, taken_suits)
                b = a + size - 1
                taken_suits.setdefault(s, []).append((a, b))
                cards = tuple(next(wild_iter) for _ in range(size))
                melds[plan.run_index[i]] = PlannedMeld("run", cards, rules.card_at[s][a])
                continue
            grow = min(extra, 13 - (b - a + 1))
            extra -= grow
            up = min(grow, rules.hi - b, a + 12 - b)
            b += up
            a -= grow - up
            row = rules.card_at[s]
            have = set(naturals)
            cards = tuple(row[v] if row[v] in have else next(wild_iter) for v in range(a, b + 1))
            declared = row[a] if not naturals else None
            melds[plan.run_index[i]] = PlannedMeld("run", cards, declared)
        # Groups.
        if groups is not None:
            labels, explicit = groups
            sizes = self._group_naturals(labels, explicit, pool)
            used_ranks = {r for r in labels if r}
            free_ranks = [r for r in range(1, 14) if r not in used_ranks]
            for j, label in enumerate(labels):
                m, accepts, is_pair = plan.gslots[j]
                kind = "pair" if is_pair else "set"
                if label:
                    nats: list[int] = []
                    for s in range(4):
                        c = s * 13 + label - 1
                        while pool[c] and len(nats) < sizes[j]:
                            pool[c] -= 1
                            nats.append(c)
                    wild_part = sorted(next(wild_iter) for _ in range(group_wilds[j]))
                    melds[plan.group_index[j]] = PlannedMeld(kind, (*sorted(nats), *wild_part))
                else:
                    cards = tuple(sorted(next(wild_iter) for _ in range(group_wilds[j])))
                    if rules.all_wild and accepts:
                        rank = free_ranks.pop(0) if free_ranks else 1
                        melds[plan.group_index[j]] = PlannedMeld(kind, cards, rank)
                    else:
                        melds[plan.group_index[j]] = PlannedMeld("set", cards, None)
        result = tuple(m for m in melds if m is not None)
        assert len(result) == len(plan.slots)
        return result

    def _place_wild_run(self, size: int, taken: dict[int, list[tuple[int, int]]]) -> tuple[int, int]:
        """Suit and low value for a run of ``size`` wilds (the lowest free spot, clubs first)."""
        rules = self.rules
        for s in range(4):
            for a in range(rules.lo, rules.hi - size + 2):
                b = a + size - 1
                if a == 1 and b == 14:
                    continue
                if rules.adjacent or all(not (a <= b2 + 1 and a2 <= b + 1) for a2, b2 in taken.get(s, [])):
                    return s, a
        return 0, rules.lo  # unreachable: wild-only runs are only labelled when runs may touch

    def _group_naturals(self, labels: tuple[int, ...], explicit: tuple[tuple[int, int, int], ...] | None,
                        pool: list[int]) -> list[int]:
        """How many naturals each group slot gets."""
        if explicit is not None:
            return [n for _, n, _ in explicit]
        sizes = [0] * len(labels)
        for r in set(labels) - {0}:
            slots = [j for j, label in enumerate(labels) if label == r]
            split = self._best_split(r, slots, pool)
            for j, n in zip(slots, split, strict=True):
                sizes[j] = n
        return sizes

    def _best_split(self, rank: int, slots: list[int], pool: list[int]) -> tuple[int, ...]:
        rules, plan = self.rules, self.plan
        total = sum(pool[s * 13 + rank - 1] for s in range(4))
        best: tuple[int, ...] | None = None
        best_lo = _INF
        for split in _compositions(total, len(slots)):
            lo = 0
            for n, j in zip(split, slots, strict=True):
                m, accepts, _ = plan.gslots[j]
                deficit = m - n if m > n else 0
                if deficit > (rules.polmax(n) if accepts else 0):
                    break
                lo += deficit
            else:
                if lo < best_lo:
                    best, best_lo = split, lo
        assert best is not None
        return best

    def _group_wild_plan(self, groups: _GroupSolution) -> list[int]:
        """Wilds per group slot: deficits first, then spare wilds where the policy allows."""
        rules, plan = self.rules, self.plan
        labels, explicit = groups
        if explicit is not None:
            return [w for _, _, w in explicit]
        pool = self.hand[:]
        for _, _, _, _, naturals in self.best_runs:
            for c in naturals:
                pool[c] -= 1
        sizes = self._group_naturals(labels, None, pool)
        wr = self.best_wr
        wilds = [0] * len(labels)
        room = [0] * len(labels)
        for j, label in enumerate(labels):
            m, accepts, is_pair = plan.gslots[j]
            if label:
                n = sizes[j]
                wilds[j] = m - n if m > n else 0
                room[j] = (rules.polmax(n) if accepts else 0) - wilds[j]
            else:
                size = self._wild_group_min(m, accepts, is_pair)
                assert size is not None
                wilds[j] = size
                room[j] = _INF
        spare = wr - sum(wilds)
        for j in range(len(labels)):
            add = min(spare, room[j])
            wilds[j] += add
            spare -= add
        return wilds


# -- public API --------------------------------------------------------------------------------------


def _solve(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, final_discard_allowed: bool,
           must_use_all: bool, first_only: bool) -> _Search | None:
    if len(hand) != CARD_COUNT:
        raise ValueError(f"a hand is a count vector of length {CARD_COUNT}, not {len(hand)}")
    rules = _rules_for(variant)
    plan = rules.plan(contract)
    total = sum(hand)
    if plan.impossible or total < plan.need:
        return None
    require_all = must_use_all or (not final_discard_allowed and total - 2 < plan.need)
    search = _Search(rules, plan, hand, require_all, first_only and (require_all or final_discard_allowed))
    if not search.run():
        return None
    if require_all or final_discard_allowed or search.best_cnt != 1:
        return search
    return _solve_not_one(list(hand), rules, plan, search)


def _solve_not_one(hand: list[int], rules: _Rules, plan: _Plan, first: _Search) -> _Search | None:
    """Best lay-down leaving 0 or at least 2 cards, when the best one overall leaves exactly 1.

    (Leaving nothing is then impossible.)  A best lay-down leaving 3 or more cards cannot take one more
    card (that would still leave 2 and be better), so it has the canonical maximal form: one search that
    rejects completions leaving exactly one card finds it.  A lay-down leaving exactly 2 cards lays down
    everything else: try the pairs in order of their points with the must-use-all search, which is
    strongly pruned; a dead card must be one of the two.
    """
    search: _Search | None = _Search(rules, plan, hand, False, False, forbid_one=True)
    assert search is not None
    best_key = (search.best_pts, search.best_cnt) if search.run() else (_INF, _INF)
    if best_key == (_INF, _INF):
        search = None
    dead = Counter(first.dead_cards)
    if sum(dead.values()) > 2:
        return search
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
        rest = _Search(rules, plan, hand, True, True)
        found = rest.run()
        hand[x] += 1
        hand[y] += 1
        if found:
            return rest
    return search


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
    return None if search is None else search.build()


def can_lay_down(hand: Sequence[int], contract: Sequence[Slot], variant: Variant, *,
                 final_discard_allowed: bool = True, must_use_all: bool = False) -> bool:
    """Whether ``contract`` can be laid down from ``hand`` (same rules as :func:`find_lay_down`)."""
    return _solve(hand, contract, variant, final_discard_allowed, must_use_all, first_only=True) is not None


# -- free melding (basic) -----------------------------------------------------------------------------


def best_melds_from(hand: Sequence[int], variant: Variant, *, max_melds: int | None = None
                    ) -> tuple[PlannedMeld, ...]:
    """Disjoint valid melds from ``hand`` leaving the fewest points (then cards) in hand.

    For free melding (``basic``): sets of ``group_min`` or more naturals of one rank, runs of
    ``run_min`` or more consecutive naturals of one suit under the variant's ace mode.  Wild cards are
    never melded here (``basic`` has none).  At most ``max_melds`` melds when given.  Exact; meant for
    hands of up to a dozen cards.  Melds are listed in card order of their lowest card.

    >>> from rummy.cards import parse_card, to_counts
    >>> from rummy.variants import get_variant
    >>> hand = to_counts(map(parse_card, "AH 2H 3H 4H 7C 7D 7S KS".split()))
    >>> [str(m) for m in best_melds_from(hand, get_variant("basic"))]
    ['set:7C-7D-7S', 'run:AH-2H-3H-4H']
    """
    if len(hand) != CARD_COUNT:
        raise ValueError(f"a hand is a count vector of length {CARD_COUNT}, not {len(hand)}")
    rules = _rules_for(variant)
    points = rules.points
    counts = [hand[c] if not rules.wild[c] else 0 for c in range(52)]
    limit = _INF if max_melds is None else max_melds
    memo: dict[tuple[tuple[int, ...], int], tuple[int, int, tuple[tuple[str, tuple[int, ...]], ...]]] = {}

    def runs_with(first: int) -> Iterator[tuple[int, ...]]:
        """Runs of naturals in ``counts`` whose lowest-indexed card is ``first``."""
        s, r = divmod(first, 13)
        row = rules.card_at[s]
        starts = []
        if r + 1 >= rules.lo and r + 1 <= rules.hi:
            starts.append(r + 1)  # the card is the low end
        if r == 0 and rules.hi == 14:
            starts.append(-1)  # an ace ending a run at value 14
        for start in starts:
            if start > 0:
                b = start
                while b + 1 <= rules.hi and b + 2 - start <= 13 and counts[row[b + 1]]:
                    b += 1
                    if b - start + 1 >= rules.run_min:
                        yield tuple(row[v] for v in range(start, b + 1))
            else:
                a = 14
                while a - 1 >= max(rules.lo, 2) and counts[row[a - 1]]:
                    a -= 1
                    if 14 - a + 1 >= rules.run_min:
                        yield tuple(row[v] for v in range(a, 15))

    def solve(left: int) -> tuple[int, int, tuple[tuple[str, tuple[int, ...]], ...]]:
        key = (tuple(counts), left)
        if key in memo:
            return memo[key]
        first = next((c for c in range(52) if counts[c]), -1)
        if first < 0:
            return 0, 0, ()
        counts[first] -= 1
        lp, lc, lm = solve(left)
        best = (lp + points[first], lc + 1, lm)
        counts[first] += 1
        if left > 0:
            options: list[tuple[str, tuple[int, ...]]] = []
            rank = first % 13
            others = [s * 13 + rank for s in range(4) for _ in range(counts[s * 13 + rank])]
            others.remove(first)
            for size in range(rules.group_min - 1, len(others) + 1):
                for combo in sorted(set(combinations(others, size))):
                    options.append(("set", (first, *combo)))
            for run in runs_with(first):
                options.append(("run", run))
            for kind, cards in options:
                for c in cards:
                    counts[c] -= 1
                sp, sc, sm = solve(left - 1)
                for c in cards:
                    counts[c] += 1
                if (sp, sc) < best[:2]:
                    best = (sp, sc, ((kind, cards), *sm))
        memo[key] = best
        return best

    _, _, chosen = solve(limit if limit < 52 else 52)
    return tuple(PlannedMeld(kind, tuple(sorted(cards)) if kind == "set" else cards, None)
                 for kind, cards in chosen)
