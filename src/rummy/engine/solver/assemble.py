"""Turning the best lay-down a :class:`~rummy.engine.solver.search.LayDownSearch` found into concrete
:class:`PlannedMeld` objects: which natural and which wild card goes where.
"""

from __future__ import annotations

from collections.abc import Iterator

from rummy.engine.solver.groups import GroupSolution
from rummy.engine.solver.planned import PlannedMeld
from rummy.engine.solver.search import LayDownSearch
from rummy.engine.solver.tables import INF, WILD_RUN_SUIT, ContractPlan, VariantRules, compositions


def build_lay_down(search: LayDownSearch) -> tuple[PlannedMeld, ...]:
    """The best lay-down ``search`` found, one meld per contract slot in contract order."""
    rules, plan = search.rules, search.plan
    pool = search.hand[:]  # naturals not yet placed
    for _, _, _, _, naturals in search.best_runs:
        for c in naturals:
            pool[c] -= 1
    melds: list[PlannedMeld | None] = [None] * len(plan.slots)
    wilds_used = search.n_wilds - search.best_wr + search.best_extra
    groups = search.best_groups
    # Naturals and wilds per group slot: whatever the group solution uses.
    group_sizes: list[int] = []
    group_wilds: list[int] = []
    if groups is not None:
        group_sizes = _group_naturals(rules, plan, groups, pool)
        group_wilds = _group_wilds(rules, plan, groups, group_sizes, search.best_wr)
        wilds_used += sum(group_wilds)
    wild_cards = sorted(search.wilds[:wilds_used])  # the most valuable wilds, in card order
    wild_iter = iter(wild_cards)  # (taken in order: the wilds of each meld stay in card order)
    _place_runs(search, melds, wild_iter)
    if groups is not None:
        _place_groups(rules, plan, groups, group_sizes, group_wilds, pool, melds, wild_iter)
    result = tuple(m for m in melds if m is not None)
    assert len(result) == len(plan.slots)
    return result


def _place_runs(search: LayDownSearch, melds: list[PlannedMeld | None], wild_iter: Iterator[int]) -> None:
    """The run slots of ``melds``: runs with naturals keep their place, runs of wilds only go to the lowest
    free spot; the extra wilds lengthen them in order."""
    rules, plan = search.rules, search.plan
    extra = search.best_extra
    taken_suits: dict[int, list[tuple[int, int]]] = {}
    for _, s, a, b, _ in search.best_runs:
        if s != WILD_RUN_SUIT:
            taken_suits.setdefault(s, []).append((a, b))
    for i, s, a, b, naturals in search.best_runs:
        if s == WILD_RUN_SUIT:
            size = a
            grow = min(extra, 13 - size)
            extra -= grow
            size += grow
            s, a = _place_wild_run(rules, size, taken_suits)
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


def _place_groups(rules: VariantRules, plan: ContractPlan, groups: GroupSolution, group_sizes: list[int],
                  group_wilds: list[int], pool: list[int], melds: list[PlannedMeld | None],
                  wild_iter: Iterator[int]) -> None:
    """The group slots of ``melds``: the naturals of each slot's rank from ``pool`` (in card order), then its
    wilds; a slot of wilds only declares a rank no other slot takes where the variant asks for one."""
    labels, _ = groups
    free_ranks = [r for r in range(1, 14) if r not in labels] if 0 in labels else []
    for j, label in enumerate(labels):
        _, accepts, is_pair = plan.group_slots[j]
        kind = "pair" if is_pair else "set"
        if label:
            nats: list[int] = []  # (in card order)
            want = group_sizes[j]
            for c in range(label - 1, 52, 13):
                while pool[c] and len(nats) < want:
                    pool[c] -= 1
                    nats.append(c)
            nats.extend(next(wild_iter) for _ in range(group_wilds[j]))
            melds[plan.group_index[j]] = PlannedMeld(kind, tuple(nats))
        else:
            cards = tuple(next(wild_iter) for _ in range(group_wilds[j]))
            if rules.all_wild and accepts:
                rank = free_ranks.pop(0) if free_ranks else 1
                melds[plan.group_index[j]] = PlannedMeld(kind, cards, rank)
            else:
                melds[plan.group_index[j]] = PlannedMeld("set", cards, None)


def _place_wild_run(rules: VariantRules, size: int, taken: dict[int, list[tuple[int, int]]]) -> tuple[int, int]:
    """Suit and low value for a run of ``size`` wilds (the lowest free spot, clubs first)."""
    for s in range(4):
        for a in range(rules.lo, rules.hi - size + 2):
            b = a + size - 1
            if a == 1 and b == 14:
                continue
            if rules.adjacent or all(not (a <= b2 + 1 and a2 <= b + 1) for a2, b2 in taken.get(s, [])):
                return s, a
    return 0, rules.lo  # unreachable: wild-only runs are only deferred when runs may touch


def _group_naturals(rules: VariantRules, plan: ContractPlan, groups: GroupSolution, pool: list[int]) -> list[int]:
    """How many naturals each group slot gets, from the naturals the runs left (``pool``)."""
    labels, explicit = groups
    if explicit is not None:
        return [n for _, n, _ in explicit]
    sizes = [0] * len(labels)
    for r in set(labels) - {0}:
        slots = [j for j, label in enumerate(labels) if label == r]
        split = _best_split(rules, plan, r, slots, pool)
        for j, n in zip(slots, split, strict=True):
            sizes[j] = n
    return sizes


def _best_split(rules: VariantRules, plan: ContractPlan, rank: int, slots: list[int], pool: list[int]
                ) -> tuple[int, ...]:
    """The split of the naturals of ``rank`` over group ``slots`` that needs the fewest wilds."""
    total = pool[rank - 1] + pool[12 + rank] + pool[25 + rank] + pool[38 + rank]
    if len(slots) == 1:
        return (total,)
    slot_rules = [plan.group_slots[j][:2] for j in slots]
    best: tuple[int, ...] | None = None
    best_lo = INF
    for split in compositions(total, len(slots)):
        bounds = rules.split_wild_range(split, slot_rules)
        if bounds is not None and bounds[0] < best_lo:
            best, best_lo = split, bounds[0]
    assert best is not None
    return best


def _group_wilds(rules: VariantRules, plan: ContractPlan, groups: GroupSolution, sizes: list[int], wr: int
                 ) -> list[int]:
    """Wilds per group slot: deficits first, then the ``wr`` spare wilds where the policy allows."""
    labels, explicit = groups
    if explicit is not None:
        return [w for _, _, w in explicit]
    wilds = [0] * len(labels)
    room = [0] * len(labels)
    for j, label in enumerate(labels):
        m, accepts, is_pair = plan.group_slots[j]
        if label:
            n = sizes[j]
            wilds[j] = m - n if m > n else 0
            room[j] = (rules.max_wilds(n) if accepts else 0) - wilds[j]
        else:
            size = rules.wild_only_group_size(m, accepts, is_pair)
            assert size is not None
            wilds[j] = size
            room[j] = INF
    spare = wr - sum(wilds)
    for j in range(len(labels)):
        add = min(spare, room[j])
        wilds[j] += add
        spare -= add
    return wilds
