"""Upper bounds on the points of naturals the later slots of a lay-down can still take, with which the
branch-and-bound search (:mod:`rummy.engine.solver.search`) cuts runs that cannot lead to a lay-down as good as the best
one found.
"""

from __future__ import annotations

from operator import mul
from typing import Protocol

from rummy.engine.solver.tables import ContractPlan, VariantRules


class LayDownSearch(Protocol):
    """What the bounds read of a lay-down search (:class:`rummy.engine.solver.search.LayDownSearch`)."""

    rules: VariantRules
    plan: ContractPlan
    pool: list[int]
    masks: list[int]
    rank_cnt: list[int]


def rest_bound(search: LayDownSearch, j: int, wilds: int) -> int:
    """At most the points of naturals that run slots ``j``… and the group slots can take from the pool.

    A run takes at most one copy of each value of its suit, so k runs take at most the k best
    "layers" (per suit, the first, second, … copy of each value); a single run takes at most the best
    window of its suit that the ``wilds`` wilds left can complete; a group slot takes at most every
    natural of one rank.  Cards counted by both are counted twice: it is only a bound.
    """
    plan = search.plan
    points, pool = search.rules.points, search.pool
    bound = 0
    k = plan.n_runs - j
    if k == 1:
        run_points = search.rules.run_points
        for mask in search.masks:
            if mask:
                best = run_points(mask, wilds)[0]
                if best > bound:
                    bound = best
    elif k > 1:
        layers: list[int] = []
        for s in range(4):
            base = s * 13
            suit_layers = [0] * k
            for c in range(base, base + 13):
                copies = pool[c]
                if copies:
                    p = points[c]
                    for layer in range(copies if copies < k else k):
                        suit_layers[layer] += p
            layers += suit_layers
        layers.sort(reverse=True)
        bound += sum(layers[:k])
    g = plan.n_groups
    if g:
        rank_points, rank_cnt = search.rules.rank_points, search.rank_cnt
        totals = sorted((rank_points[r] * rank_cnt[r] for r in range(1, 14)), reverse=True)
        bound += sum(totals[:g])
    return bound


def rest_after(search: LayDownSearch, i: int, s: int, a: int, wilds: int, others: int) -> int:
    """At most the points of naturals the slots after run slot ``i`` can take once its run (of suit ``s``)
    has left the pool: the last run slot, if any, from the best window of ``s`` from value ``a`` on (or
    ``others``, the best of the other suits it may use), the group slots from the ranks held most."""
    bound = 0
    if i + 1 < search.plan.n_runs:
        bound = search.rules.run_points(search.masks[s], wilds)[a]
        if others > bound:
            bound = others
    return bound + bound_of_groups(search)


def bound_of_groups(search: LayDownSearch) -> int:
    """At most the points of naturals the group slots can take from the pool: per slot one rank, those held
    most (by points)."""
    g = search.plan.n_groups
    if not g:
        return 0
    totals: list[int] = list(map(mul, search.rules.rank_points, search.rank_cnt))
    if g == 1:
        return max(totals)
    totals.sort(reverse=True)
    return sum(totals[:g])
