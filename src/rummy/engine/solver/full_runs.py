"""Lay-downs whose runs all hold 13 cards (:func:`offer_full_runs`), which the greedy search's canonical form
leaves out for contracts of runs only.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import Protocol

from rummy.engine.solver.groups import GroupSolution
from rummy.engine.solver.tables import ContractPlan, VariantRules


class LayDownSearch(Protocol):
    """What this module reads and sets of a lay-down search (:class:`rummy.engine.solver.search.LayDownSearch`)."""

    rules: VariantRules
    plan: ContractPlan
    pool: list[int]
    masks: list[int]
    top_wild_pts: list[int]
    n_wilds: int
    wild_total: int
    dead_pts: int
    dead_cnt: int
    live_pts: int
    live_cnt: int
    stack: list[tuple[int, int, int, int, list[int], int]]
    done: bool

    def _offer(self, left_pts: int, left_cnt: int, groups: GroupSolution | None, wr: int, extra: int) -> None: ...


def offer_full_runs(search: LayDownSearch) -> None:
    """Offer the best lay-down whose runs all hold 13 cards (a contract of runs only, greedy mode).

    Greedy mode's exchange argument moves a wild to a run end with room; when every run is full there
    is none, and an optimal lay-down may hold a wild where the hand still has the natural (a joker
    laid down is worth more than the natural left).  Those lay-downs are searched here: for every
    choice of full runs, the naturals present fill their places, wilds the others, and further
    naturals give way to wilds while a wild is worth more.
    """
    rules, plan = search.rules, search.plan
    points, pool, wilds = rules.points, search.pool, search.top_wild_pts
    n_wilds = search.n_wilds
    places = [(s, a) for s in range(4) for a in range(rules.lo, rules.hi - 11)]  # 13 values a…a+12
    # The naturals full runs hold (wilds fill the rest) are known before they are taken: 13 values hold
    # every rank once, so the k-th full run of a suit holds one natural per rank held k times or more.
    lacking = 13 * plan.n_runs - n_wilds
    if plan.n_runs * max(mask.bit_count() for mask in search.masks) < lacking:
        return
    layers = [[sum(1 for c in range(s * 13, s * 13 + 13) if pool[c] > k) for k in range(plan.n_runs)]
              for s in range(4)]
    for choice in combinations_with_replacement(places, plan.n_runs):
        if _naturals_held(choice, layers) < lacking:
            continue
        runs, naturals = _full_runs_at(rules, pool, choice)
        forced = 13 * plan.n_runs - len(naturals)
        if forced > n_wilds:
            continue
        values = sorted(points[c] for c in naturals)
        given = 0  # naturals (the cheapest) that give way to wilds worth more
        while forced + given < n_wilds and given < len(values) and \
                wilds[forced + given + 1] - wilds[forced + given] > values[given]:
            given += 1
        if given:
            _give_way(runs, sorted(naturals, key=lambda c: (points[c], c))[:given])
        used_pts = sum(values[given:]) + wilds[forced + given]
        search.stack[:] = runs
        search._offer(search.dead_pts + search.live_pts + search.wild_total - used_pts,
                    search.dead_cnt + search.live_cnt + n_wilds - 13 * plan.n_runs, None,
                    n_wilds - forced - given, 0)
        search.stack.clear()
        if search.done:
            return


def _naturals_held(choice: tuple[tuple[int, int], ...], layers: list[list[int]]) -> int:
    """How many naturals the full runs at ``choice`` would hold: the k-th run of a suit holds
    ``layers[suit][k]``."""
    held = 0
    for index, (s, _) in enumerate(choice):
        k = 0  # runs of this suit before this one
        while k < index and choice[index - 1 - k][0] == s:
            k += 1
        held += layers[s][k]
    return held


def _full_runs_at(rules: VariantRules, pool: list[int], choice: tuple[tuple[int, int], ...]
                  ) -> tuple[list[tuple[int, int, int, int, list[int], int]], list[int]]:
    """The full runs at ``choice`` (suit, lowest value) as search stack entries, each holding the naturals
    of ``pool`` at its places (taken run by run, so two runs of a suit share none), and all those naturals.
    ``pool`` is left as it was."""
    runs: list[tuple[int, int, int, int, list[int], int]] = []
    naturals: list[int] = []
    for i, (s, a) in enumerate(choice):
        row = rules.card_at[s]
        taken = [row[v] for v in range(a, a + 13) if pool[row[v]]]
        for c in taken:
            pool[c] -= 1
        naturals += taken
        runs.append((i, s, a, a + 12, taken, len(taken)))
    for _, _, _, _, taken, _ in runs:
        for c in taken:
            pool[c] += 1
    return runs, naturals


def _give_way(runs: list[tuple[int, int, int, int, list[int], int]], giving_way: list[int]) -> None:
    """Take the naturals ``giving_way`` out of ``runs`` (wilds take their places)."""
    giving = Counter(giving_way)
    for index, (i, s, a, b, taken, _) in enumerate(runs):
        kept = []
        for c in taken:
            if giving[c]:
                giving[c] -= 1
            else:
                kept.append(c)
        runs[index] = (i, s, a, b, kept, len(kept))
