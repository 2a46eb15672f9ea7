"""A quick first lay-down for the branch-and-bound search of a large hand (:func:`seed_incumbent`).

The search cuts a branch against the best lay-down found so far; on a large hand the first lay-downs it
meets (in its canonical order: clubs first, low runs first) are weak, so little is cut for a long time.
A few lay-downs built greedily (each run slot takes the run of a chosen suit worth the most points, the
groups are then filled by the search's own group step) give a bound at once.  It never changes the answer:
the search accepts a lay-down as good as the seed (ties included), it is exact, so it meets a lay-down at
least as good, and the first such one it meets is the one it would have returned without the seed.
"""

from __future__ import annotations

import itertools
from typing import Protocol

from rummy.engine.solver.tables import INF, RANK_OF, ContractPlan, VariantRules


class LayDownSearch(Protocol):
    """What the seed reads and sets of a lay-down search (:class:`rummy.engine.solver.search.LayDownSearch`)."""

    rules: VariantRules
    plan: ContractPlan
    pool: list[int]
    rank_cnt: list[int]
    groupable: list[bool]
    n_wilds: int
    stack: list[tuple[int, int, int, int, list[int], int]]
    masks: list[int]
    best_pts: int
    best_cnt: int
    done: bool
    from_seed: bool

    def _touches(self, s: int, a: int, b: int) -> bool: ...

    def _leaf(self, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None: ...

#: Hands smaller than this are searched fast enough without a seed.
SEED_FROM_CARDS = 20


def seed_incumbent(search: LayDownSearch) -> None:
    """Offer a greedily built lay-down to ``search`` (greedy mode), then let the search accept ties with the best.

    With one or two run slots, the choice of suits for the runs (each run the best of its suit, the first
    one also without wilds) whose runs take the most points; otherwise each run slot takes the best run of
    any suit.  Afterwards
    ``search.from_seed`` is true while the best lay-down recorded is a seed's.
    """
    plan = search.plan
    if plan.n_runs <= 2 and search.rules.adjacent:
        same = plan.n_runs == 2 and plan.run_same[1]
        best: tuple[int, tuple[int, ...], int] | None = None  # (points, suits, first run's wilds)
        for suits in itertools.product(range(4), repeat=plan.n_runs):
            if same and suits[1] < suits[0]:
                continue
            for first_wilds in (search.n_wilds, 0) if search.n_wilds else (0,):
                points = _greedy_points(search, suits, first_wilds)
                if points >= 0 and (best is None or points > best[0]):
                    best = (points, suits, first_wilds)
        if best is not None:
            _offer_greedy(search, best[1], best[2])
    else:
        _offer_greedy(search, None, search.n_wilds)
    search.from_seed = search.best_pts < INF
    if search.from_seed:
        search.best_cnt += 1  # a lay-down exactly as good as the seed is still taken
        search.done = False


def _greedy_points(search: LayDownSearch, suits: tuple[int, ...], first_wilds: int) -> int:
    """Points of the naturals the runs of :func:`_offer_greedy` take (runs may touch), or -1 if it finds none."""
    rules, plan, masks = search.rules, search.plan, search.masks
    wr = search.n_wilds
    total = 0
    s0 = suits[0]
    found = rules.best_run(masks[s0], first_wilds, plan.run_mins[0])
    if found is None:
        return -1
    total, w, a, b = found
    if plan.n_runs == 2:
        s1 = suits[1]
        mask = masks[s1]
        if s1 == s0:  # the second run of the suit sees what the first one left
            pool, row = search.pool, rules.card_at[s0]
            for v in range(a, b + 1):
                if pool[row[v]] == 1:
                    mask &= ~(1 << ((v - 1) % 13))
        second = rules.best_run(mask, wr - w, plan.run_mins[1])
        if second is None:
            return -1
        total += second[0]
    return total


def _offer_greedy(search: LayDownSearch, suits: tuple[int, ...] | None, first_wilds: int) -> None:
    """Offer the lay-down whose run slots take, in turn, the run worth the most points (then with the fewest
    wilds) of suit ``suits[i]`` (of any suit if None), the first one with at most ``first_wilds`` wilds."""
    rules, plan = search.rules, search.plan
    pool, rank_cnt, groupable, points = search.pool, search.rank_cnt, search.groupable, rules.points
    masks = search.masks  # kept in step with the pool
    wr = search.n_wilds
    rpts = rcnt = rgp = rgc = 0
    chosen: list[list[int]] = []
    for i in range(plan.n_runs):
        budget = first_wilds if i == 0 else wr
        best = _best_greedy_run(search, range(4) if suits is None else (suits[i],), budget, plan.run_mins[i])
        if best is None:
            break
        tp, minus_w, s, a, b = best
        row = rules.card_at[s]
        taken = [row[v] for v in range(a, b + 1) if pool[row[v]]]
        for c in taken:
            pool[c] -= 1
            if not pool[c]:
                masks[s] ^= 1 << (RANK_OF[c] - 1)
            rank_cnt[RANK_OF[c]] -= 1
            if groupable[c]:
                rgp += points[c]
                rgc += 1
        rpts += tp
        rcnt += len(taken)
        wr += minus_w
        chosen.append(taken)
        search.stack.append((i, s, a, b, taken, len(taken)))
    if len(chosen) == plan.n_runs:
        search._leaf(wr, rpts, rcnt, rgp, rgc)
    for taken in chosen:
        for c in taken:
            if not pool[c]:
                masks[c // 13] |= 1 << (RANK_OF[c] - 1)
            pool[c] += 1
            rank_cnt[RANK_OF[c]] += 1
    search.stack.clear()


# A greedy run: (points of its naturals, -wilds, suit, low, high).
GreedyRun = tuple[int, int, int, int, int]


def _best_greedy_run(search: LayDownSearch, suits: range | tuple[int], budget: int, lm: int) -> GreedyRun | None:
    """The run of at least ``lm`` cards and at most ``budget`` wilds, of one of ``suits``, worth the most
    points of the pool (then with the fewest wilds; the first found of equals), or None."""
    rules = search.rules
    best: GreedyRun | None = None
    for s in suits:
        if rules.adjacent:
            found = rules.best_run(search.masks[s], budget, lm)
            if found is not None and (best is None or (found[0], -found[1]) > best[:2]):
                best = (found[0], -found[1], s, found[2], found[3])
            continue
        best = _best_run_not_touching(search, s, budget, lm, best)
    return best


def _best_run_not_touching(search: LayDownSearch, s: int, budget: int, lm: int,
                           best: GreedyRun | None) -> GreedyRun | None:
    """``best``, or a better run of suit ``s`` that touches no run already taken (runs may not touch)."""
    rules, pool, points = search.rules, search.pool, search.rules.points
    lo, hi = rules.lo, rules.hi
    row = rules.card_at[s]
    reach = rules.run_points(search.masks[s], budget)  # per low value, the most points a run from there can take
    for a in range(lo, hi - lm + 2):
        if best is not None and reach[a] < best[0]:
            break
        tp = w = n = 0
        for b in range(a, min(hi, a + 12) + 1):
            if pool[row[b]]:  # (a run of at most 13 values never meets the same card twice)
                tp += points[row[b]]
                n += 1
            else:
                w += 1
                if w > budget:
                    break
            if b - a + 1 < lm or not n or search._touches(s, a, b):
                continue
            if best is None or (tp, -w) > best[:2]:
                best = (tp, -w, s, a, b)
    return best
