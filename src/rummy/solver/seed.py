"""A quick first lay-down for the branch-and-bound search of a large hand (:func:`seed_incumbent`).

The search cuts a branch against the best lay-down found so far; on a large hand the first lay-downs it
meets (in its canonical order: clubs first, low runs first) are weak, so little is cut for a long time.
A lay-down built greedily (each run slot takes the run worth the most points, the groups are then filled
by the search's own group step) gives a bound at once.  It never changes the answer: the search accepts a
lay-down as good as the seed (ties included), it is exact, so it meets a lay-down at least as good, and
the first such one it meets is the one it would have returned without the seed.
"""

from __future__ import annotations

from typing import Protocol

from rummy.solver.tables import INF, RANK_OF, ContractPlan, VariantRules


class LayDownSearch(Protocol):
    """What the seed reads and sets of a lay-down search (:class:`rummy.solver.search.LayDownSearch`)."""

    rules: VariantRules
    plan: ContractPlan
    pool: list[int]
    rank_cnt: list[int]
    groupable: list[bool]
    n_wilds: int
    stack: list[tuple[int, int, int, int, list[int], int]]
    best_pts: int
    best_cnt: int
    done: bool
    from_seed: bool

    def _touches(self, s: int, a: int, b: int) -> bool: ...

    def _leaf(self, wr: int, rpts: int, rcnt: int, rgp: int, rgc: int) -> None: ...

#: Hands smaller than this are searched fast enough without a seed.
SEED_FROM_CARDS = 20


def seed_incumbent(search: LayDownSearch) -> None:
    """Offer a greedily built lay-down to ``search`` (greedy mode), then let the search accept ties with it.

    Afterwards ``search.from_seed`` is true while the best lay-down recorded is the seed's.
    """
    rules, plan = search.rules, search.plan
    pool, rank_cnt, groupable, points = search.pool, search.rank_cnt, search.groupable, rules.points
    lo, hi = rules.lo, rules.hi
    wr = search.n_wilds
    rpts = rcnt = rgp = rgc = 0
    chosen: list[list[int]] = []
    for i in range(plan.n_runs):
        lm = plan.run_mins[i]
        best: tuple[int, int, int, int, int] | None = None  # (points, -wilds, suit, low, high)
        for s in range(4):
            row = rules.card_at[s]
            mask = 0
            for r in range(13):
                if pool[row[r + 1]]:
                    mask |= 1 << r
            if rules.adjacent:
                found = rules.best_run(s, mask, wr, lm)
                if found is not None and (best is None or (found[0], -found[1]) > best[:2]):
                    best = (found[0], -found[1], s, found[2], found[3])
                continue
            reach = rules.run_points(s, mask, wr)  # per low value, the most points a run from there can take
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
                        if w > wr:
                            break
                    if b - a + 1 < lm or not n or search._touches(s, a, b):
                        continue
                    if best is None or (tp, -w) > best[:2]:
                        best = (tp, -w, s, a, b)
        if best is None:
            break
        tp, minus_w, s, a, b = best
        row = rules.card_at[s]
        taken = [row[v] for v in range(a, b + 1) if pool[row[v]]]
        for c in taken:
            pool[c] -= 1
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
            pool[c] += 1
            rank_cnt[RANK_OF[c]] += 1
    search.stack.clear()
    search.from_seed = search.best_pts < INF
    if search.from_seed:
        search.best_cnt += 1  # a lay-down exactly as good as the seed is still taken
        search.done = False
