"""The contract solver's branch-and-bound search (:class:`LayDownSearch`): runs are chosen here, group
slots are filled at the leaves by :mod:`rummy.engine.solver.groups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, compress
from operator import mul

from rummy.engine.errors import UsageError
from rummy.engine.solver.bounds import bound_of_groups, rest_after, rest_bound
from rummy.engine.solver.full_runs import offer_full_runs
from rummy.engine.solver.groups import GroupSolution, general_groups, label_groups
from rummy.engine.solver.seed import SEED_FROM_CARDS, seed_incumbent
from rummy.engine.solver.tables import (
    FRONTIER_ORDER,
    INF,
    POLICY_NONE,
    POLICY_ONE,
    POLICY_RATIO,
    RANK_OF,
    WILD_RUN_SUIT,
    ContractPlan,
    VariantRules,
    remove_dead_naturals,
)

# A chosen run: (sorted slot position, suit or WILD_RUN_SUIT, low value or length, high value, naturals).
RunChoice = tuple[int, int, int, int, tuple[int, ...]]
RANK_BITS = tuple(1 << r for r in range(13))  # bit r: rank r+1


class LayDownSearch:
    """One exact branch-and-bound search for the best lay-down of one hand.

    Canonical form used in *greedy* mode (wild policy "none", all-wild melds allowed, oversize melds
    allowed, no exact sizes, pair slots accept wilds, and a group slot exists or runs may touch): among
    optimal lay-downs take one with the most naturals in runs.  Then

    * a run never holds a wild where the hand still has the natural (after the runs before it): such a
      natural left in hand could replace the wild, which moves to a group or a run end (one card more
      laid down); in a group it swaps with the wild (still valid: all-wild groups are allowed); in
      another run it swaps too.  So naturals can be taken greedily, run after run.
    * a run longer than its slot minimum whose end is a wild can give that wild to a group (or keep it as
      an "extra" wild re-added at the end), so longer runs need naturals for both ends: no card may end
      more such runs than the hand holds copies of it.

    The first argument needs a group or a run end with room for the wild.  With runs only, a lay-down whose
    runs all hold 13 cards has none, so those lay-downs are searched separately
    (:func:`~rummy.engine.solver.full_runs.offer_full_runs`).

    Branches are cut against the best lay-down found with a bound on what the later slots can still take
    (:mod:`rummy.engine.solver.bounds`).  Otherwise (ratio or at-most-one policy, exact sizes, …) every subset of
    available naturals is tried.
    """

    def __init__(self, rules: VariantRules, plan: ContractPlan, hand: Sequence[int], require_all: bool,
                 first_only: bool, forbid_one: bool = False) -> None:
        self.rules = rules
        self.plan = plan
        self.require_all = require_all
        self.first_only = first_only
        self.forbid_one = forbid_one  # reject lay-downs leaving exactly one card
        self.dead_cards: list[int] = []  # naturals certainly left in hand, one entry per copy
        points = rules.points
        if min(hand) < 0:
            raise UsageError("a hand cannot hold a negative number of cards")
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
        self.n_wilds = len(wilds)
        top_wild_pts = [0]  # top_wild_pts[k]: points of the k most valuable wilds
        for c in wilds:
            top_wild_pts.append(top_wild_pts[-1] + points[c])
        self.top_wild_pts = top_wild_pts
        self.wild_total = top_wild_pts[-1]
        self.total = sum(nat) + self.n_wilds
        self.feasible = not plan.impossible and self.total >= plan.need
        self.best_pts = INF
        self.best_cnt = INF
        self.best_runs: list[RunChoice] = []
        self.best_groups: GroupSolution | None = None
        self.best_wr = 0
        self.best_extra = 0
        self.done = False
        self.from_seed = False  # whether the best lay-down recorded is the seed's (rummy.engine.solver.seed)
        # The runs chosen so far: (sorted slot position, suit, low, high, naturals taken, how many of them).
        self.stack: list[tuple[int, int, int, int, list[int], int]] = []
        self.group_memo: dict[tuple[tuple[int, ...], int], tuple[int, int, GroupSolution] | None] = {}
        if self.feasible:
            self._prepare(nat)

    # -- preparation: dead cards, modes, budgets ----------------------------------------------------

    def _prepare(self, nat: list[int]) -> None:
        """Remove dead naturals (no group and no run can use them); set budgets, modes, totals."""
        rules, plan = self.rules, self.plan
        points = rules.points
        rank_cnt = [0, *map(sum, zip(nat[0:13], nat[13:26], nat[26:39], nat[39:52], strict=True))]
        masks = [0, 0, 0, 0]  # (unused without run slots)
        if plan.n_runs:
            masks = [sum(compress(RANK_BITS, nat[base:base + 13])) for base in (0, 13, 26, 39)]
        group_need = plan.group_need(rules, self.n_wilds) if plan.n_groups else INF
        groupable_rank = [count >= group_need for count in rank_cnt]
        self.dead_cards, dead_pts = remove_dead_naturals(rules, plan, nat, masks, groupable_rank, self.n_wilds)
        dead_cnt = len(self.dead_cards)
        if dead_cnt:
            rank_cnt[1:] = map(sum, zip(nat[0:13], nat[13:26], nat[26:39], nat[39:52], strict=True))
        self.dead_pts, self.dead_cnt = dead_pts, dead_cnt
        budget = self.total - plan.need - dead_cnt
        if budget < 0 or (self.require_all and dead_cnt):
            self.feasible = False
            return
        self.budget = 0 if self.require_all else budget
        self.hand = nat[:]  # live naturals, never changed
        self.pool = nat  # live naturals not yet in a run
        self.rank_cnt = rank_cnt
        self.groupable = groupable_rank[1:14] * 4  # per card: a group could take its rank
        rank_points = rules.rank_points
        self.live_pts = sum(map(mul, nat, points))
        self.live_cnt = sum(nat)
        groupable_pts = groupable_cnt = 0
        for r in range(1, 14):
            if groupable_rank[r]:
                groupable_pts += rank_points[r] * rank_cnt[r]
                groupable_cnt += rank_cnt[r]
        self.live_groupable_pts, self.live_groupable_cnt = groupable_pts, groupable_cnt
        self.ends = [0] * 52
        # Per suit, the ranks of the naturals in the pool (bit r-1 for rank r): kept in step with the pool
        # by the greedy search (unless it looks for any lay-down) and the seed, read by the bounds.
        self.masks = masks
        self.greedy = (
            rules.policy == POLICY_NONE and rules.all_wild and not rules.exact
            and (rules.pair_wilds or not plan.has_pair)
            and (plan.n_groups > 0 or rules.adjacent)
        )
        # Runs of wilds only are searched as (pseudo-suit, length) and placed when the meld is built.
        self.defer_wild_runs = rules.all_wild and rules.adjacent

    # -- driver ---------------------------------------------------------------------------------------

    def run(self) -> bool:
        """Search; True when some lay-down was found (then ``best_*`` describe the best one)."""
        if not self.feasible:
            return False
        if self.greedy and self.plan.n_runs and not self.first_only and self.total >= SEED_FROM_CARDS:
            seed_incumbent(self)
        self._search()
        if self.from_seed:  # the search met nothing as good as the seed (it is exact: never); search afresh
            self.best_pts = self.best_cnt = INF
            self.from_seed = self.done = False
            self._search()
        return self.best_pts < INF

    def _search(self) -> None:
        self._runs(0, 0, 0, 0, 0, 0, 0, 0, self.n_wilds, 0, 0, 0, 0)
        if self.greedy and not self.plan.n_groups and self.total >= 13 * self.plan.n_runs and not self.done:
            offer_full_runs(self)

    def _over(self, lost_pts: int, lost_cnt: int) -> bool:
        """Whether a branch that certainly loses these cards can be cut (slack exceeded, or no better)."""
        if lost_cnt > self.budget or self.done:
            return True
        p = self.dead_pts + lost_pts
        return p > self.best_pts or (p == self.best_pts and self.dead_cnt + lost_cnt >= self.best_cnt)

    def _runs(self, i: int, ks: int, ka: int, kb: int, km: int, fpos: int, lost_pts: int, lost_cnt: int,
              wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None:
        """Fill run slot ``i`` (and the rest) with runs whose key is at least (ks, ka, kb, km).

        The key of a run is (suit, low value, high value, mask of the values holding naturals).
        ``fpos`` is the frontier position in :data:`FRONTIER_ORDER` up to which ``lost_pts`` and
        ``lost_cnt`` count the naturals passed over; ``wr`` wilds remain; the runs so far hold
        naturals worth ``rpts`` points, ``rcnt`` cards, of which ``rgp`` points and ``rgc`` cards of
        ranks a group could also use.
        """
        plan = self.plan
        if i == plan.n_runs:
            self._leaf(wr, rpts, rcnt, rgp, rgc)
            return
        if not plan.run_same[i]:
            ks = ka = kb = km = 0
        if i == plan.run_last_block:
            fpos = lost_pts = lost_cnt = 0
        cuts = _SlotCuts(self, i, wr, rpts) if self.greedy and self.best_pts < INF else _NO_CUTS
        for s in range(ks, 4):
            frontier = self._runs_of_suit(i, s, ka if s == ks else None, kb, km, fpos, lost_pts, lost_cnt, wr, rpts,
                                          rcnt, rgp, rgc, cuts)
            if frontier is None:
                return
            fpos, lost_pts, lost_cnt = frontier
        if self.defer_wild_runs and wr >= plan.run_mins[i]:
            self._wild_runs(i, ka if ks == WILD_RUN_SUIT else 0, fpos, lost_pts, lost_cnt, wr, rpts, rcnt, rgp, rgc)

    def _runs_of_suit(self, i: int, s: int, ka: int | None, kb: int, km: int, fpos: int, lost_pts: int,
                      lost_cnt: int, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int,
                      cuts: _SlotCuts) -> tuple[int, int, int] | None:
        """Fill run slot ``i`` with runs of suit ``s`` (from low value ``ka`` on when it is the key's suit, whose
        high value and mask then bound a run from ``ka``), each followed by the later slots.

        Returns the frontier (``fpos``, ``lost_pts``, ``lost_cnt``) once past the suit, or None when the search
        of this slot is over (cut, or done).
        """
        rules = self.rules
        lo, hi = rules.lo, rules.hi
        lm = self.plan.run_mins[i]
        row = rules.card_at[s]
        frontier = i >= self.plan.run_last_block
        # Every run holds a natural unless runs of wilds only are placed concretely (then no skipping).
        sparse = self.defer_wild_runs or not rules.all_wild
        a_last = hi - lm + 1
        reach, others, pair_cut = _suit_cuts(rules, cuts, s, wr)
        a = (ka if (ka is not None and ka > lo) else lo) - 1
        while a < a_last:
            a += 1
            if reach is not None:
                if reach[a] < cuts.cut:
                    break  # no run of this suit from here on takes enough points
                if cuts.pair and reach[a] + max(others, reach[a if cuts.next_same else lo]) < pair_cut:
                    break  # nor together with the next run (of a later suit, or of this one from here on)
            if sparse:
                a = self._next_low(row, a, wr)
                if a > a_last:
                    break
            if frontier:
                stop = s * 13 + (a - 2 if a > 2 else 0)
                if fpos < stop:
                    fpos, lost_pts, lost_cnt = self._pass_over(fpos, stop, lost_pts, lost_cnt)
                if self._over(lost_pts, lost_cnt):
                    return None
            elif self.done:
                return None
            kb_here, km_here = (kb, km) if a == ka else (0, 0)  # the key bounds a run from the key's low value
            bmax = hi if hi < a + 12 else a + 12
            if self.greedy:
                rest_reach = 0  # the most the next run can take (when runs are checked in pairs)
                if cuts.pair and reach is not None:
                    rest_reach = max(others, reach[a if cuts.next_same else lo])
                self._greedy_runs(i, s, a, bmax, kb_here, fpos, lost_pts, lost_cnt, wr, rpts, rcnt, rgp, rgc, cuts,
                                  rest_reach, others, pair_cut)
            else:
                self._runs_full(i, s, a, bmax, lm, kb_here, km_here, fpos, lost_pts, lost_cnt, wr, rpts, rcnt, rgp,
                                rgc)
            if self.done:
                return None
        return fpos, lost_pts, lost_cnt

    def _next_low(self, row: tuple[int, ...], a: int, wr: int) -> int:
        """The lowest value from ``a`` on where a run of ``row``'s suit holding a natural can start: a run starting
        at ``a`` fills the gap below the first natural at or above it with at most ``wr`` wilds (past the highest
        value when no natural is left)."""
        pool, hi = self.pool, self.rules.hi
        v = a
        while v <= hi and not pool[row[v]]:
            v += 1
        if v > hi:
            return hi + 1
        return v - wr if v - a > wr else a

    def _pass_over(self, fpos: int, stop: int, lost_pts: int, lost_cnt: int) -> tuple[int, int, int]:
        """Move the frontier from ``fpos`` to ``stop``, counting the naturals passed over that no group can take
        (they stay in hand): the new (``fpos``, ``lost_pts``, ``lost_cnt``)."""
        pool, groupable, points = self.pool, self.groupable, self.rules.points
        while fpos < stop:
            c = FRONTIER_ORDER[fpos]
            k = pool[c]
            if k and not groupable[c]:
                lost_pts += k * points[c]
                lost_cnt += k
            fpos += 1
        return fpos, lost_pts, lost_cnt

    def _greedy_runs(self, i: int, s: int, a: int, bmax: int, kb: int, fpos: int, lost_pts: int, lost_cnt: int,
                     wr: int, rpts: int, rcnt: int, rgp: int, rgc: int, cuts: _SlotCuts, rest_reach: int, others: int,
                     pair_cut: int) -> None:
        """Every run of suit ``s`` from value ``a`` to at most ``bmax`` (and at least ``kb``) taking the naturals of
        the pool greedily (every natural of the pool in [a, b]), each followed by the later slots; a run past the
        slot's minimum needs natural ends."""
        rules = self.rules
        pool, hand, ends, groupable, rank_cnt = self.pool, self.hand, self.ends, self.groupable, self.rank_cnt
        points = rules.points
        row = rules.card_at[s]
        lm = self.plan.run_mins[i]
        skip_wild_only = self.defer_wild_runs
        adjacent = rules.adjacent
        masks_now = self.masks
        track = not self.first_only  # (a search for any lay-down stops at the first: it never reads the masks)
        stack = self.stack
        cut, after, pair, base, next_same = cuts.cut, cuts.after, cuts.pair, cuts.base, cuts.next_same
        lo = rules.lo
        taken: list[int] = []
        w = tp = tg = tgc = 0
        ca = row[a]
        a_end = hand[ca] - ends[ca] > 0
        for b in range(a, bmax + 1):
            c = row[b]
            if pool[c]:
                pool[c] -= 1
                if track and not pool[c]:
                    masks_now[s] ^= 1 << (RANK_OF[c] - 1)
                rank_cnt[RANK_OF[c]] -= 1
                taken.append(c)
                tp += points[c]
                if groupable[c]:
                    tg += points[c]
                    tgc += 1
            else:
                w += 1
                if w > wr:
                    break
            size = b - a + 1
            if size < lm or b < kb:
                continue
            if not taken and skip_wild_only:
                continue
            if not adjacent and self._touches(s, a, b):
                continue
            if tp < cut:
                continue
            if after:
                if pair and tp + rest_reach < pair_cut:
                    continue
                if tp < base - rest_after(self, i, s, a if next_same else lo, wr - w, others):
                    continue
            longer = size > lm
            if longer:
                if not a_end:
                    break
                if hand[c] - ends[c] <= 0:
                    continue
                ends[ca] += 1
                ends[c] += 1
            stack.append((i, s, a, b, taken, len(taken)))
            self._runs(i + 1, s, a, b, 0, fpos, lost_pts, lost_cnt, wr - w, rpts + tp, rcnt + len(taken), rgp + tg,
                       rgc + tgc)
            stack.pop()
            if longer:
                ends[ca] -= 1
                ends[c] -= 1
            if self.done:
                break
        self._put_back(s, taken, track)

    def _put_back(self, s: int, taken: list[int], track: bool) -> None:
        """Return the naturals ``taken`` (of suit ``s``) to the pool; with ``track``, keep the masks in step."""
        pool, rank_cnt, masks_now = self.pool, self.rank_cnt, self.masks
        for c in taken:
            if track and not pool[c]:
                masks_now[s] |= 1 << (RANK_OF[c] - 1)
            pool[c] += 1
            rank_cnt[RANK_OF[c]] += 1

    def _wild_runs(self, i: int, least: int, fpos: int, lost_pts: int, lost_cnt: int, wr: int, rpts: int,
                   rcnt: int, rgp: int, rgc: int) -> None:
        """Fill run slot ``i`` with a run made only of wilds, of at least ``least`` cards, placed when the meld is
        built (key: WILD_RUN_SUIT, length), each followed by the later slots."""
        lm = self.plan.run_mins[i]
        if i >= self.plan.run_last_block:
            fpos, lost_pts, lost_cnt = self._pass_over(fpos, 52, lost_pts, lost_cnt)
            if self._over(lost_pts, lost_cnt):
                return
        top = lm if (self.greedy or self.rules.exact) else min(13, wr)
        for size in range(max(lm, least), top + 1):
            if size > wr or self.done:
                break
            self.stack.append((i, WILD_RUN_SUIT, size, 0, [], 0))
            self._runs(i + 1, WILD_RUN_SUIT, size, 0, 0, fpos, lost_pts, lost_cnt, wr - size, rpts, rcnt, rgp, rgc)
            self.stack.pop()

    def _runs_full(self, i: int, s: int, a: int, bmax: int, lm: int, kb: int, km: int, fpos: int,
                   lost_pts: int, lost_cnt: int, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None:
        """Every run of suit ``s`` starting at value ``a``, with every choice of available naturals.

        In the last run slot a natural that no group can take and that is worth at least as much as
        any wild is always used: otherwise it stays in hand, and swapping it for the wild keeps the
        lay-down valid (fewer wilds), leaves as many cards and no more points.
        """
        rules = self.rules
        pool, groupable, rank_cnt = self.pool, self.groupable, self.rank_cnt
        points = rules.points
        row = rules.card_at[s]
        policy = rules.policy
        exact = rules.exact
        allow_wild_only = rules.all_wild and not self.defer_wild_runs
        last = i == self.plan.n_runs - 1
        top_wild = self.top_wild_pts[1] if self.n_wilds else 0
        avail: list[int] = []
        forced: list[int] = []  # positions of avail whose natural must be used
        for b in range(a, bmax + 1):
            if pool[row[b]]:
                c = row[b]
                if last and not groupable[c] and points[c] >= top_wild:
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
            least = _least_naturals(policy, size, wr, allow_wild_only)
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
                        rank_cnt[RANK_OF[c]] -= 1
                        tp += points[c]
                        if groupable[c]:
                            tg += points[c]
                            tgc += 1
                    self.stack.append((i, s, a, b, taken, n))
                    self._runs(i + 1, s, a, b, mask, fpos, lost_pts, lost_cnt, wr - (size - n), rpts + tp,
                               rcnt + n, rgp + tg, rgc + tgc)
                    self.stack.pop()
                    for c in taken:
                        pool[c] += 1
                        rank_cnt[RANK_OF[c]] += 1
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
        """All run slots filled: fill the groups from what is left and offer the result."""
        plan = self.plan
        n_wilds, wp = self.n_wilds, self.top_wild_pts
        rem_pts = self.live_pts - rpts
        rem_cnt = self.live_cnt - rcnt
        if plan.n_groups == 0:
            extra = 0
            if self.greedy and wr:
                room = 0
                for _, s, a, b, _, _ in self.stack:
                    room += 13 - (a if s == WILD_RUN_SUIT else b - a + 1)
                extra = min(wr, room)
            used_w = n_wilds - wr + extra
            self._offer(self.dead_pts + rem_pts + self.wild_total - wp[used_w],
                        self.dead_cnt + rem_cnt + n_wilds - used_w, None, wr, extra)
            return
        sure_pts = self.dead_pts + rem_pts - (self.live_groupable_pts - rgp)
        sure_cnt = self.dead_cnt + rem_cnt - (self.live_groupable_cnt - rgc)
        if self.require_all and sure_cnt:
            return
        if sure_pts > self.best_pts or (sure_pts == self.best_pts and sure_cnt >= self.best_cnt):
            return
        key = (tuple(self.rank_cnt), wr)
        if key in self.group_memo:
            res = self.group_memo[key]
        else:
            fill = label_groups if plan.label_ok else general_groups
            res = self.group_memo[key] = fill(self, wr)
        if res is None:
            return
        value, count, solution = res
        used_pts = rpts + wp[n_wilds - wr] + value
        used_cnt = rcnt + n_wilds - wr + count
        self._offer(self.dead_pts + self.live_pts + self.wild_total - used_pts,
                    self.dead_cnt + self.live_cnt + n_wilds - used_cnt, solution, wr, 0)

    def _offer(self, left_pts: int, left_cnt: int, groups: GroupSolution | None, wr: int, extra: int) -> None:
        """Record a complete lay-down leaving these cards if it is allowed and the best so far."""
        if (self.require_all and left_cnt) or (self.forbid_one and left_cnt == 1):
            return
        if left_pts < self.best_pts or (left_pts == self.best_pts and left_cnt < self.best_cnt):
            self.best_pts, self.best_cnt = left_pts, left_cnt
            self.from_seed = False
            self.best_runs = [(i, s, a, b, tuple(t[:n])) for i, s, a, b, t, n in self.stack]
            self.best_groups = groups
            self.best_wr = wr
            self.best_extra = extra
            if self.first_only or (left_pts == self.dead_pts and left_cnt == self.dead_cnt):
                self.done = True


class _SlotCuts:
    """What cuts the runs of one run slot against the best lay-down found so far (greedy search only)."""

    __slots__ = ("cut", "masks", "after", "pair", "base", "next_same", "later", "groups_bound")

    def __init__(self, search: LayDownSearch | None, i: int = 0, wr: int = 0, rpts: int = 0) -> None:
        # A run taking ``tp`` points is cut when even the best the later slots could add leaves more.
        self.cut = -INF  # (no search, no lay-down found yet, or not greedy: nothing to cut against)
        if search is not None and search.greedy and search.best_pts < INF:
            self.cut = search.dead_pts + search.live_pts - rpts - rest_bound(search, i + 1, wr) - search.best_pts
        # With a lay-down to beat, greedy runs are cut by the best window of their suit (``reach``) and, once
        # built, by what the later slots can take from what they leave (:func:`~rummy.engine.solver.bounds.rest_after`).
        self.masks = search.masks if search is not None and self.cut > 0 else None
        # ``after``: a run is checked against what the later slots can take from what it leaves (one run slot
        # left at most; useless when nothing follows); ``pair``: first with a cheap bound of the next run.
        self.after = self.pair = self.next_same = False
        self.base = self.groups_bound = 0
        self.later: list[int] = []
        if search is None or self.masks is None:
            return
        plan, rules = search.plan, search.rules
        last = i + 1 == plan.n_runs
        self.after = plan.n_runs - i <= 2 and not (last and not plan.n_groups)
        self.pair = self.after and not last
        if self.after:
            self.base = search.dead_pts + search.live_pts - rpts - search.best_pts
            self.next_same = not last and plan.run_same[i + 1]
            masks = search.masks
            self.later = [0] * 4 if last else [rules.run_points(masks[s], wr)[rules.lo] for s in range(4)]
            self.groups_bound = bound_of_groups(search)


_NO_CUTS = _SlotCuts(None)  # (nothing to cut against: shared by every slot until a lay-down is found)


def _suit_cuts(rules: VariantRules, cuts: _SlotCuts, s: int, wr: int) -> tuple[tuple[int, ...] | None, int, int]:
    """What cuts the runs of suit ``s`` in a slot: per low value the most points a run from there can take
    (None: nothing to cut against), the most a run of another suit can take for the next slot, and what this
    run and the next one must take together."""
    if cuts.masks is None:
        return None, 0, 0
    reach = rules.run_points(cuts.masks[s], wr)
    if not cuts.after:
        return reach, 0, 0
    later = cuts.later
    others = max(later[s + 1:] if cuts.next_same else later[:s] + later[s + 1:], default=0)
    return reach, others, cuts.base - cuts.groups_bound


def _least_naturals(policy: int, size: int, wr: int, allow_wild_only: bool) -> int:
    """The fewest naturals a run of ``size`` cards holds with at most ``wr`` wilds under the wild ``policy``."""
    least = size - wr
    if policy == POLICY_RATIO:
        least = max(least, (size + 1) // 2)
    elif policy == POLICY_ONE:
        least = max(least, size - 1)
    if least <= 0:
        least = 0 if allow_wild_only else 1
    return least
