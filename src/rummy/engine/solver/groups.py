"""Filling the group slots of a contract from the cards the runs left: a rank-labelling search, and an
explicit (rank, naturals, wilds) search for exact contract sizes and rare rule combinations.
"""

from __future__ import annotations

from typing import Protocol

from rummy.engine.solver.tables import INF, ContractPlan, VariantRules


class LayDownSearch(Protocol):
    """What the group searches read of a lay-down search (:class:`rummy.engine.solver.search.LayDownSearch`)."""

    rules: VariantRules
    plan: ContractPlan
    rank_cnt: list[int]
    top_wild_pts: list[int]
    n_wilds: int
    require_all: bool
    forbid_one: bool
    dead_cnt: int
    budget: int

# A group solution: labels per sorted group slot (rank, or 0 for wilds only) from the label search,
# or explicit (rank, naturals, wilds) per slot from the general search.
GroupSolution = tuple[tuple[int, ...], tuple[tuple[int, int, int], ...] | None]


def label_groups(search: LayDownSearch, wr: int) -> tuple[int, int, GroupSolution] | None:
    """Best labelling of the group slots with ranks (all naturals of a chosen rank join it), or None.

    Fills the slots from ``search.rank_cnt`` and ``wr`` wilds.  Returns (points gained, cards used,
    solution) where points and cards include the group wilds.  Pruned by the slack: naturals of ranks
    no slot takes stay in hand, and candidates are tried in a fixed order, so in the last block of
    identical slots a candidate passed over is lost for good.
    """
    found = _label_candidates(search, wr)
    if found is None:
        return None
    cands, budget = found
    rp, cnt = search.rules.rank_points, search.rank_cnt
    vals = [rp[r] * cnt[r] for r in cands]
    counts = [cnt[r] for r in cands]
    total_nat = sum(counts)
    left_before = search.dead_cnt + sum(cnt) - total_nat  # naturals of ranks no slot can take
    if len(search.plan.group_slots) == 1:
        return _label_one_group(search, wr, cands, vals, counts, budget, total_nat, left_before)
    return _label_slots(search, wr, cands, vals, counts, budget, left_before)


def _label_slots(search: LayDownSearch, wr: int, cands: list[int], vals: list[int], counts: list[int],
                 budget: int, left_before: int) -> tuple[int, int, GroupSolution] | None:
    """:func:`label_groups` for two or more group slots: a branch and bound over the label of each slot in
    turn (a candidate rank, best first, or wilds only), bounded by the best candidates still free."""
    rules, plan = search.rules, search.plan
    gslots, gsame = plan.group_slots, plan.group_same
    g = len(gslots)
    last_block = plan.group_last_block
    ncand = len(cands)
    total_nat = sum(counts)
    w_before = search.n_wilds - wr
    wp = search.top_wild_pts
    w_gain_base = wp[w_before]
    wild_gain = wp[w_before + wr] - w_gain_base
    same_rank, wild_range = rules.same_rank, rules.wild_range
    wild_min = [rules.wild_only_group_size(*slot) for slot in gslots]
    # assigned[k]: (min_size, accepts_wilds) of the slots labelled with candidate k so far, sorted.
    assigned: list[tuple[tuple[int, bool], ...]] = [()] * ncand
    lo_of, hi_of = [0] * ncand, [0] * ncand  # wilds the slots of candidate k need at least, at most
    labels = [0] * g
    best_val = best_cnt = -1
    best_labels: tuple[int, ...] | None = None
    forbid_one = search.forbid_one

    def rec(j: int, kmin: int, lo_sum: int, hi_sum: int, npts: int, ncnt: int, lost: int) -> None:
        nonlocal best_val, best_cnt, best_labels
        if j == g:
            wg = wr if hi_sum >= wr else hi_sum
            left = total_nat - ncnt + wr - wg  # naturals of candidate ranks and wilds left in hand
            if left <= budget and not (forbid_one and left_before + left == 1):
                val = npts + wp[w_before + wg] - w_gain_base
                if val > best_val or (val == best_val and ncnt + wg > best_cnt):
                    best_val, best_cnt, best_labels = val, ncnt + wg, tuple(labels)
            return
        start = kmin if gsame[j] else 0
        tail = j >= last_block
        if j == last_block:
            lost = 0
        # edge: the candidate completing the bound; a later one is worth at most ``but_one + vals[k]``
        ub, but_one, edge = _label_bound(npts + wild_gain, start if tail else 0, g - j, assigned, vals)
        if ub < best_val:
            return
        slot_t = gslots[j][:2]  # (min_size, accepts_wilds)
        for k in range(start, ncand):
            held = assigned[k]
            if k > edge and not held and but_one + vals[k] < best_val:
                # Candidates are sorted by value: neither this one nor any later one can do as well.
                if tail:
                    lost += sum(counts[k2] for k2 in range(k, ncand) if not assigned[k2])
                    if lost > budget:
                        return
                break
            if not (held and not same_rank):
                joined = tuple(sorted((*held, slot_t))) if held else (slot_t,)
                bounds = wild_range(counts[k], joined)
                if bounds is not None:
                    lo2, hi2 = bounds
                    new_lo = lo_sum - lo_of[k] + lo2
                    if new_lo <= wr:
                        new_hi = hi_sum - hi_of[k] + hi2
                        old = (held, lo_of[k], hi_of[k])
                        assigned[k], lo_of[k], hi_of[k] = joined, lo2, hi2
                        labels[j] = cands[k]
                        gain, gained = (0, 0) if held else (vals[k], counts[k])  # (a rank's naturals join once)
                        rec(j + 1, k, new_lo, new_hi, npts + gain, ncnt + gained, lost)
                        assigned[k], lo_of[k], hi_of[k] = old
            if tail and not held:
                lost += counts[k]  # passed over: later identical slots cannot take it
                if lost > budget:
                    return
        wmin = wild_min[j]
        if wmin is not None and lo_sum + wmin <= wr:
            labels[j] = 0
            rec(j + 1, ncand, lo_sum + wmin, INF, npts, ncnt, lost)

    rec(0, 0, 0, 0, 0, 0, 0)
    if best_labels is None:
        return None
    return best_val, best_cnt, (best_labels, None)


def _label_candidates(search: LayDownSearch, wr: int) -> tuple[list[int], int] | None:
    """The ranks a group slot could take with ``wr`` wilds (best first: most points, then lowest rank) and
    the slack left once the naturals of the other ranks stay in hand; None when that slack is exceeded."""
    rules, plan = search.rules, search.plan
    cnt = search.rank_cnt
    need = plan.group_need(rules, wr)
    budget = search.budget  # 0 with require_all: then every natural and wild must be used
    cands: list[int] = []
    for r in range(1, 14):
        if cnt[r]:
            if cnt[r] >= need:
                cands.append(r)
            else:
                budget -= cnt[r]
    if budget < 0:
        return None
    counts = sorted((cnt[r] for r in cands), reverse=True)
    if sum(counts[len(plan.group_slots):]) > budget:  # at most g distinct ranks can be used
        return None
    rp = rules.rank_points
    cands.sort(key=lambda r: (-rp[r] * cnt[r], r))
    return cands, budget


def _label_bound(ub: int, first: int, rem: int, assigned: list[tuple[tuple[int, bool], ...]], vals: list[int]
                 ) -> tuple[int, int, int]:
    """The most points ``rem`` more slots can reach from ``ub``, taking the best candidates from ``first`` on
    not yet assigned; the same with one slot fewer; and the candidate completing the bound (``len(vals)`` if
    none does)."""
    taken = 0
    edge = len(vals)
    but_one = ub
    for k in range(first, len(vals)):
        if not assigned[k]:
            ub += vals[k]
            taken += 1
            if taken == rem - 1:
                but_one = ub
            if taken == rem:
                edge = k
                break
    return ub, but_one, edge


def _label_one_group(search: LayDownSearch, wr: int, cands: list[int], vals: list[int], counts: list[int],
                     budget: int, total_nat: int, left_before: int) -> tuple[int, int, GroupSolution] | None:
    """:func:`label_groups` for a single group slot: the same choice, without the recursion."""
    rules, plan = search.rules, search.plan
    m, accepts, is_pair = plan.group_slots[0]
    slot_t = ((m, accepts),)
    w_before = search.n_wilds - wr
    wp = search.top_wild_pts
    w_gain_base = wp[w_before]
    forbid_one = search.forbid_one
    wild_range = rules.wild_range
    one_slot = plan.first_group_wilds  # (fewest, most) wilds of the slot per number of naturals
    best_val = best_cnt = -1
    best_label = -1
    lost = 0  # naturals of the candidates passed over: left in hand
    for k in range(len(cands)):
        n = counts[k]
        bounds = one_slot[n] if n < len(one_slot) else wild_range(n, slot_t)
        if bounds is not None and bounds[0] <= wr:
            wg = wr if bounds[1] >= wr else bounds[1]
            left = total_nat - counts[k] + wr - wg
            if left <= budget and not (forbid_one and left_before + left == 1):
                val = vals[k] + wp[w_before + wg] - w_gain_base
                if val > best_val or (val == best_val and counts[k] + wg > best_cnt):
                    best_val, best_cnt, best_label = val, counts[k] + wg, cands[k]
        lost += counts[k]
        if lost > budget:
            break
    else:
        wmin = rules.wild_only_group_size(m, accepts, is_pair)
        if wmin is not None and wmin <= wr:
            left = total_nat
            if left <= budget and not (forbid_one and left_before + left == 1):
                val = wp[w_before + wr] - w_gain_base
                if val > best_val or (val == best_val and wr > best_cnt):
                    best_val, best_cnt, best_label = val, wr, 0
    if best_label < 0:
        return None
    return best_val, best_cnt, ((best_label,), None)


def general_groups(search: LayDownSearch, wr: int) -> tuple[int, int, GroupSolution] | None:
    """Explicit search over (rank, naturals, wilds) per group slot (exact sizes and rare rules).

    Same contract as :func:`label_groups`; used where the label search's assumptions do not hold.
    """
    rules, plan = search.rules, search.plan
    cnt = list(search.rank_cnt)
    gslots, gsame = plan.group_slots, plan.group_same
    g = len(gslots)
    exact = rules.exact
    same_rank = rules.same_rank
    rp = rules.rank_points
    wp = search.top_wild_pts
    w_before = search.n_wilds - wr
    require_all = search.require_all
    forbid_one = search.forbid_one
    dead_cnt = search.dead_cnt
    wild_min = [rules.wild_only_group_size(*slot) for slot in gslots]
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
            if forbid_one and dead_cnt + sum(cnt) + wleft == 1:
                return
            val = npts + wp[w_before + wg] - wp[w_before]
            tot = ncnt + wg
            if val > best_val or (val == best_val and tot > best_cnt):
                best_val, best_cnt, best_choice = val, tot, tuple(choice)
            return
        if npts + rest + wp[w_before + wr] - wp[w_before] < best_val:
            return
        m, accepts, _ = gslots[j]
        low = prev if gsame[j] else (0, 0, 0)
        for r in range(1, 14):
            if not cnt[r] or (used_rank[r] and not same_rank) or r < low[0]:
                continue
            for n in range(1, cnt[r] + 1):
                if exact and n > m:
                    break
                most = min(wleft, rules.max_wilds(n) if accepts else 0)
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
