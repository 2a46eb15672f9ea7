/*
 * The best lay-down of a contract, compiled: rummy.engine.solver.contract.find_lay_down's answer, the same melds,
 * cards and order, with a final discard allowed and nothing required to be used, for every rule mix the label
 * search fills the groups of (ContractPlan.label_ok) except exact contract sizes.  The dispatch,
 * rummy.engine.solver.native.best_lay_down, sends only those here (and never twos_natural_in_place).
 *
 *   best_lay_down(hand, spec, extra) -> tuple[(kind, cards, declared), ...] | False | None
 *       The melds in contract order; False when there is no lay-down; None when this search does not answer for
 *       this hand (a malformed hand, or more than MAX_CARDS cards: the Python search answers).
 *
 * The Python search (solver/search.py) returns the *first* best lay-down of its canonical order; this one walks
 * the same order (the same run slots, suits, low values, lengths; in the greedy mode runs taking the pool's
 * naturals greedily, in the full mode every choice of them; runs of 13 cards; the same group labelling and the
 * same building of the melds, solver/assemble.py) and keeps a lay-down only when it is strictly better, so it
 * finds the same one.  The Python search's bounds, its frontier of passed-over naturals and its seed only skip
 * what cannot be strictly better; this search keeps only its simplest bound (rest_bound), walks more lay-downs,
 * faster, and its answer is the same.
 * Each function names the Python function it follows.
 */
#include "core.h"

#include <stdbool.h>
#include <string.h>

#define MAX_CARDS 255
#define WILD_RUN_SUIT 4 /* tables.WILD_RUN_SUIT: a run of wilds only, placed when the meld is built */

/* The layout of `spec` (solver.native.contract_spec): as lay_down.c reads it. */
enum {
    SPEC_LO, SPEC_HI, SPEC_POLICY, SPEC_ALL_WILD, SPEC_TRIO_MIN, SPEC_SAME_RANK, SPEC_ADJACENT, SPEC_EXACT,
    SPEC_NEED, SPEC_RUNS, SPEC_GROUPS, SPEC_HEADER
};

/* Wild policies: tables.POLICY_NONE, POLICY_RATIO, POLICY_ONE. */
enum { POLICY_NONE = 0, POLICY_RATIO = 1, POLICY_ONE = 2 };

typedef struct {
    int min_size;
    bool accepts_wilds, is_pair;
} GroupSlot;

/* A run chosen for a run slot (LayDownSearch.stack): suit (or WILD_RUN_SUIT), low value (or length), high value,
 * the naturals it takes. */
typedef struct {
    int suit, low, high, n_taken;
    int taken[13];
} Run;

typedef struct {
    /* the rules (VariantRules) */
    int lo, hi, policy, trio_min;
    bool all_wild, same_rank, adjacent, greedy; /* greedy: LayDownSearch.greedy */
    int points[CARD_COUNT];
    bool wild[CARD_COUNT];
    int rank_points[14];
    /* the contract (ContractPlan): slots sorted, with their places in the contract */
    int need, n_runs, n_groups;
    int run_min[MAX_SLOTS], run_index[MAX_SLOTS];
    bool run_same[MAX_SLOTS];
    GroupSlot group[MAX_SLOTS];
    int group_index[MAX_SLOTS];
    bool group_same[MAX_SLOTS];
    int group_last_block;
    /* the hand (LayDownSearch._prepare) */
    int wilds[MAX_CARDS]; /* the wild cards, most points first (then card order) */
    int n_wilds, wild_total, total;
    int top_wild_pts[MAX_CARDS + 1];
    int hand[NATURALS], pool[NATURALS], ends[NATURALS], rank_cnt[14];
    bool groupable[NATURALS];
    int dead_pts, dead_cnt, live_pts, live_cnt, live_groupable_pts, live_groupable_cnt, budget;
    bool defer_wild_runs;
    /* the search */
    Run stack[MAX_SLOTS];
    int best_pts, best_cnt, best_wr, best_extra;
    Run best_runs[MAX_SLOTS];
    int best_labels[MAX_SLOTS];
    bool best_has_groups, done;
} Best;

/* -- the rules' small facts (VariantRules) ------------------------------------------------------------------ */

static int card_at(int suit, int value) { return suit * 13 + (value - 1) % 13; }

static int rank_of(int card) { return card % 13 + 1; }

/* VariantRules.max_wilds: most wilds a meld with `naturals` natural cards may hold. */
static int max_wilds(const Best *best, int naturals)
{
    if (best->policy == POLICY_NONE)
        return UNLIMITED;
    return best->policy == POLICY_RATIO ? naturals : 1;
}

/* VariantRules.wild_only_group_size, 0 for None. */
static int wild_only_group_size(const Best *best, const GroupSlot *slot)
{
    if (best->all_wild && slot->accepts_wilds)
        return slot->min_size;
    if (best->trio_min && !slot->is_pair)
        return slot->min_size > best->trio_min ? slot->min_size : best->trio_min;
    return 0;
}

static int most_of(int a, int b) { return a > b ? a : b; }

/* ContractPlan.group_need: fewest naturals of a rank that can make some group slot with `wilds` wilds. */
static int group_need(const Best *best, int wilds)
{
    int need = UNLIMITED;
    for (int j = 0; j < best->n_groups; j++) {
        int size = best->group[j].min_size, here;
        if (!best->group[j].accepts_wilds)
            here = size;
        else if (best->policy == POLICY_NONE)
            here = most_of(1, size - wilds);
        else if (best->policy == POLICY_RATIO)
            here = most_of(most_of(1, (size + 1) / 2), size - wilds);
        else
            here = most_of(1, size - (wilds < 1 ? wilds : 1));
        if (here < need)
            need = here;
    }
    return need;
}

/* VariantRules.split_wild_range for one group: its fewest and most wilds with `naturals` naturals, or false. */
static bool slot_wild_range(const Best *best, const GroupSlot *slot, int naturals, int *fewest, int *most)
{
    *fewest = slot->min_size > naturals ? slot->min_size - naturals : 0;
    *most = slot->accepts_wilds ? max_wilds(best, naturals) : 0;
    return *fewest <= *most;
}

/* VariantRules.wild_range's loop over the splits (tables.compositions) of `rest` naturals over slots[at...]. */
static void wild_range_from(const Best *best, const GroupSlot *const *slots, int n_slots, int at, int rest,
                            int lo, int hi, int *best_lo, int *best_hi)
{
    int first_most = at == n_slots - 1 ? rest : rest - (n_slots - at) + 1;
    for (int first = at == n_slots - 1 ? rest : 1; first <= first_most; first++) {
        int fewest, most;
        if (first < 1 || !slot_wild_range(best, slots[at], first, &fewest, &most))
            continue;
        int new_lo = lo + fewest, new_hi = hi + most < UNLIMITED ? hi + most : UNLIMITED;
        if (at == n_slots - 1) {
            *best_lo = new_lo < *best_lo ? new_lo : *best_lo;
            *best_hi = new_hi > *best_hi ? new_hi : *best_hi;
        } else {
            wild_range_from(best, slots, n_slots, at + 1, rest - first, new_lo, new_hi, best_lo, best_hi);
        }
    }
}

/* VariantRules.wild_range: fewest and most wilds `n_slots` groups of one rank can hold with all `naturals` of it,
 * each group a natural at least; false when no split of the naturals makes every group valid. */
static bool wild_range(const Best *best, int naturals, const GroupSlot *const *slots, int n_slots, int *fewest,
                       int *most)
{
    if (naturals < n_slots)
        return false;
    if (best->policy == POLICY_NONE && best->greedy) { /* (every slot accepts any number of wilds) */
        int sizes = 0;
        for (int j = 0; j < n_slots; j++)
            sizes += slots[j]->min_size;
        *fewest = sizes > naturals ? sizes - naturals : 0;
        *most = UNLIMITED;
        return true;
    }
    int best_lo = UNLIMITED, best_hi = -1;
    wild_range_from(best, slots, n_slots, 0, naturals, 0, 0, &best_lo, &best_hi);
    if (best_hi < 0)
        return false;
    *fewest = best_lo;
    *most = best_hi;
    return true;
}

/* -- dead naturals (tables.remove_dead_naturals) --------------------------------------------------------------- */

/* VariantRules.run_capable: ranks of `mask` in some `lmin`-window completable with `wcap` wilds. */
static int run_capable(const Best *best, int mask, int wcap, int lmin)
{
    int capable = 0, least = lmin - wcap;
    for (int low = best->lo; low <= best->hi - lmin + 1; low++) {
        int window = 0;
        for (int value = low; value < low + lmin; value++)
            window |= 1 << ((value - 1) % 13);
        int present = window & mask;
        if (present && __builtin_popcount((unsigned)present) >= least)
            capable |= present;
    }
    return capable;
}

/* Take the dead naturals out of the hand: tables.remove_dead_naturals (with VariantRules.dead_ranks). */
static void remove_dead_naturals(Best *best, int *nat, const bool *groupable_rank)
{
    if (!best->n_runs) {
        for (int card = 0; card < NATURALS; card++)
            if (nat[card] && !groupable_rank[rank_of(card)]) {
                best->dead_cnt += nat[card];
                best->dead_pts += nat[card] * best->points[card];
                nat[card] = 0;
            }
        return;
    }
    int loose_ranks = 0;
    for (int rank = 1; rank <= 13; rank++)
        if (!groupable_rank[rank])
            loose_ranks |= 1 << (rank - 1);
    if (!loose_ranks)
        return;
    int lmin = best->run_min[best->n_runs - 1]; /* (the shortest run slot: they are sorted) */
    int cap = best->policy == POLICY_ONE ? 1 : lmin;
    int wcap = best->n_wilds < cap ? best->n_wilds : cap;
    for (int suit = 0; suit < 4; suit++) {
        int mask = 0;
        for (int rank = 1; rank <= 13; rank++)
            if (nat[suit * 13 + rank - 1])
                mask |= 1 << (rank - 1);
        int loose = mask & loose_ranks, gone = 0;
        if (!loose)
            continue;
        for (;;) {
            int dying = loose & ~gone & ~run_capable(best, mask & ~gone, wcap, lmin);
            if (!dying)
                break;
            gone |= dying;
        }
        for (int rank = 1; rank <= 13; rank++) {
            int card = suit * 13 + rank - 1;
            if (gone >> (rank - 1) & 1) {
                best->dead_cnt += nat[card];
                best->dead_pts += nat[card] * best->points[card];
                nat[card] = 0;
            }
        }
    }
}

/* -- the group slots (groups.label_groups) ---------------------------------------------------------------------- */

/* What the labelling of the group slots found: points and cards it adds (wilds included), its labels. */
typedef struct {
    int value, count;
    int labels[MAX_SLOTS];
} Groups;

/* The state of groups._label_slots's search. */
typedef struct {
    const Best *best;
    int wr, budget, ncand, total_nat, w_before, w_gain_base, wild_gain;
    int cands[13], vals[13], counts[13];
    const GroupSlot *assigned[13][MAX_SLOTS]; /* per candidate, the slots labelled with it so far */
    int n_assigned[13], lo_of[13], hi_of[13];
    int labels[MAX_SLOTS];
    int best_val, best_cnt;
    int best_labels[MAX_SLOTS];
    bool found;
} Labelling;

/* groups._label_bound: (ub, but_one, edge). */
static void label_bound(const Labelling *state, int ub, int first, int rem, int *out_ub, int *but_one, int *edge)
{
    int taken = 0;
    *edge = state->ncand;
    *but_one = ub;
    for (int k = first; k < state->ncand; k++) {
        if (!state->n_assigned[k]) {
            ub += state->vals[k];
            taken++;
            if (taken == rem - 1)
                *but_one = ub;
            if (taken == rem) {
                *edge = k;
                break;
            }
        }
    }
    *out_ub = ub;
}

/* groups._label_slots's rec. */
static void label_slot(Labelling *state, int j, int kmin, int lo_sum, int hi_sum, int npts, int ncnt, int lost)
{
    const Best *best = state->best;
    int g = best->n_groups, wr = state->wr;
    if (j == g) {
        int wg = hi_sum >= wr ? wr : hi_sum;
        int left = state->total_nat - ncnt + wr - wg;
        if (left <= state->budget) {
            int val = npts + best->top_wild_pts[state->w_before + wg] - state->w_gain_base;
            if (val > state->best_val || (val == state->best_val && ncnt + wg > state->best_cnt)) {
                state->best_val = val;
                state->best_cnt = ncnt + wg;
                memcpy(state->best_labels, state->labels, sizeof state->labels);
                state->found = true;
            }
        }
        return;
    }
    int start = best->group_same[j] ? kmin : 0;
    bool tail = j >= best->group_last_block;
    if (j == best->group_last_block)
        lost = 0;
    int ub, but_one, edge;
    label_bound(state, npts + state->wild_gain, tail ? start : 0, g - j, &ub, &but_one, &edge);
    if (ub < state->best_val)
        return;
    const GroupSlot *slot = &best->group[j];
    for (int k = start; k < state->ncand; k++) {
        bool held = state->n_assigned[k] > 0;
        if (k > edge && !held && but_one + state->vals[k] < state->best_val) {
            if (tail) {
                for (int k2 = k; k2 < state->ncand; k2++)
                    if (!state->n_assigned[k2])
                        lost += state->counts[k2];
                if (lost > state->budget)
                    return;
            }
            break;
        }
        if (!(held && !best->same_rank)) {
            int n = state->n_assigned[k];
            state->assigned[k][n] = slot;
            int lo2, hi2;
            if (wild_range(best, state->counts[k], state->assigned[k], n + 1, &lo2, &hi2)) {
                int new_lo = lo_sum - state->lo_of[k] + lo2;
                if (new_lo <= wr) {
                    int new_hi = hi_sum - state->hi_of[k] + hi2;
                    int old_lo = state->lo_of[k], old_hi = state->hi_of[k];
                    state->n_assigned[k] = n + 1;
                    state->lo_of[k] = lo2;
                    state->hi_of[k] = hi2;
                    state->labels[j] = state->cands[k];
                    int gain = held ? 0 : state->vals[k], gained = held ? 0 : state->counts[k];
                    label_slot(state, j + 1, k, new_lo, new_hi, npts + gain, ncnt + gained, lost);
                    state->n_assigned[k] = n;
                    state->lo_of[k] = old_lo;
                    state->hi_of[k] = old_hi;
                }
            }
        }
        if (tail && !held) {
            lost += state->counts[k];
            if (lost > state->budget)
                return;
        }
    }
    int wmin = wild_only_group_size(best, slot);
    if (wmin && lo_sum + wmin <= wr) {
        state->labels[j] = 0;
        label_slot(state, j + 1, state->ncand, lo_sum + wmin, UNLIMITED, npts, ncnt, lost);
    }
}

/* groups.label_groups (with _label_candidates, _label_one_group, _label_slots): the best labelling of the group
 * slots from the pool's ranks and `wr` wilds, or false. */
static bool label_groups(const Best *best, int wr, Groups *out)
{
    Labelling state;
    state.best = best;
    state.wr = wr;
    int need = group_need(best, wr), budget = best->budget, ncand = 0;
    for (int rank = 1; rank <= 13; rank++) {
        int held = best->rank_cnt[rank];
        if (held) {
            if (held >= need)
                state.cands[ncand++] = rank;
            else
                budget -= held;
        }
    }
    if (budget < 0)
        return false;
    /* At most g distinct ranks can be used: the naturals of the others stay in hand. */
    int counts[13];
    for (int k = 0; k < ncand; k++)
        counts[k] = best->rank_cnt[state.cands[k]];
    for (int k = 1; k < ncand; k++) /* (insertion sort, most first) */
        for (int m = k; m > 0 && counts[m] > counts[m - 1]; m--) {
            int t = counts[m];
            counts[m] = counts[m - 1];
            counts[m - 1] = t;
        }
    int beyond = 0;
    for (int k = best->n_groups; k < ncand; k++)
        beyond += counts[k];
    if (beyond > budget)
        return false;
    /* Candidates best first: most points, then the lowest rank (an insertion sort is stable). */
    for (int k = 1; k < ncand; k++)
        for (int m = k; m > 0; m--) {
            int a = state.cands[m - 1], b = state.cands[m];
            if (best->rank_points[b] * best->rank_cnt[b] <= best->rank_points[a] * best->rank_cnt[a])
                break;
            state.cands[m - 1] = b;
            state.cands[m] = a;
        }
    int total_nat = 0, all_nat = 0;
    for (int k = 0; k < ncand; k++) {
        int rank = state.cands[k];
        state.counts[k] = best->rank_cnt[rank];
        state.vals[k] = best->rank_points[rank] * best->rank_cnt[rank];
        total_nat += state.counts[k];
    }
    for (int rank = 1; rank <= 13; rank++)
        all_nat += best->rank_cnt[rank];
    (void)all_nat; /* (left_before: only the "no final discard" search reads it) */
    int w_before = best->n_wilds - wr;
    const int *wp = best->top_wild_pts;
    if (best->n_groups == 1) { /* _label_one_group */
        const GroupSlot *slot = &best->group[0];
        int best_val = -1, best_cnt = -1, best_label = -1, lost = 0;
        bool broke = false;
        for (int k = 0; k < ncand; k++) {
            int n = state.counts[k], fewest, most;
            if (wild_range(best, n, &slot, 1, &fewest, &most) && fewest <= wr) {
                int wg = most >= wr ? wr : most;
                int left = total_nat - n + wr - wg;
                if (left <= budget) {
                    int val = state.vals[k] + wp[w_before + wg] - wp[w_before];
                    if (val > best_val || (val == best_val && n + wg > best_cnt)) {
                        best_val = val;
                        best_cnt = n + wg;
                        best_label = state.cands[k];
                    }
                }
            }
            lost += n;
            if (lost > budget) {
                broke = true;
                break;
            }
        }
        if (!broke) {
            int wmin = wild_only_group_size(best, slot);
            if (wmin && wmin <= wr && total_nat <= budget) {
                int val = wp[w_before + wr] - wp[w_before];
                if (val > best_val || (val == best_val && wr > best_cnt)) {
                    best_val = val;
                    best_cnt = wr;
                    best_label = 0;
                }
            }
        }
        if (best_label < 0)
            return false;
        out->value = best_val;
        out->count = best_cnt;
        out->labels[0] = best_label;
        return true;
    }
    state.budget = budget;
    state.ncand = ncand;
    state.total_nat = total_nat;
    state.w_before = w_before;
    state.w_gain_base = wp[w_before];
    state.wild_gain = wp[w_before + wr] - wp[w_before];
    memset(state.n_assigned, 0, sizeof state.n_assigned);
    memset(state.lo_of, 0, sizeof state.lo_of);
    memset(state.hi_of, 0, sizeof state.hi_of);
    memset(state.labels, 0, sizeof state.labels);
    state.best_val = state.best_cnt = -1;
    state.found = false;
    label_slot(&state, 0, 0, 0, 0, 0, 0, 0);
    if (!state.found)
        return false;
    out->value = state.best_val;
    out->count = state.best_cnt;
    memcpy(out->labels, state.best_labels, sizeof out->labels);
    return true;
}

/* -- the run slots (LayDownSearch._runs and what it calls) ------------------------------------------------------ */

/* LayDownSearch._offer: keep the lay-down on the stack if it is strictly better (never one leaving fewer than the
 * dead cards: then the search is done). */
static void offer(Best *best, int left_pts, int left_cnt, const Groups *groups, int wr, int extra)
{
    if (left_pts < best->best_pts || (left_pts == best->best_pts && left_cnt < best->best_cnt)) {
        best->best_pts = left_pts;
        best->best_cnt = left_cnt;
        memcpy(best->best_runs, best->stack, sizeof best->stack);
        best->best_has_groups = groups != NULL;
        if (groups != NULL)
            memcpy(best->best_labels, groups->labels, sizeof best->best_labels);
        best->best_wr = wr;
        best->best_extra = extra;
        if (left_pts == best->dead_pts && left_cnt == best->dead_cnt)
            best->done = true;
    }
}

/* LayDownSearch._leaf: every run slot filled; fill the groups from what is left and offer the result. */
static void leaf(Best *best, int wr, int rpts, int rcnt, int rgp, int rgc)
{
    const int *wp = best->top_wild_pts;
    int rem_pts = best->live_pts - rpts, rem_cnt = best->live_cnt - rcnt;
    if (!best->n_groups) {
        int extra = 0;
        if (best->greedy && wr) {
            int room = 0;
            for (int i = 0; i < best->n_runs; i++) {
                const Run *run = &best->stack[i];
                room += 13 - (run->suit == WILD_RUN_SUIT ? run->low : run->high - run->low + 1);
            }
            extra = wr < room ? wr : room;
        }
        int used_w = best->n_wilds - wr + extra;
        offer(best, best->dead_pts + rem_pts + best->wild_total - wp[used_w],
              best->dead_cnt + rem_cnt + best->n_wilds - used_w, NULL, wr, extra);
        return;
    }
    int sure_pts = best->dead_pts + rem_pts - (best->live_groupable_pts - rgp);
    int sure_cnt = best->dead_cnt + rem_cnt - (best->live_groupable_cnt - rgc);
    if (sure_pts > best->best_pts || (sure_pts == best->best_pts && sure_cnt >= best->best_cnt))
        return;
    Groups groups;
    if (!label_groups(best, wr, &groups))
        return;
    int used_pts = rpts + wp[best->n_wilds - wr] + groups.value;
    int used_cnt = rcnt + best->n_wilds - wr + groups.count;
    offer(best, best->dead_pts + best->live_pts + best->wild_total - used_pts,
          best->dead_cnt + best->live_cnt + best->n_wilds - used_cnt, &groups, wr, 0);
}

static void fill_runs(Best *best, int slot, int ks, int ka, int kb, int km, int wr, int rpts, int rcnt, int rgp,
                      int rgc);

/* LayDownSearch._touches: whether run [low, high] of `suit` overlaps or touches a run chosen before `slot`. */
static bool touches(const Best *best, int slot, int suit, int low, int high)
{
    for (int i = 0; i < slot; i++) {
        const Run *run = &best->stack[i];
        if (run->suit == suit && low <= run->high + 1 && run->low <= high + 1)
            return true;
    }
    return false;
}

/* The sum of the `take` largest of `values` (at most 4 * MAX_SLOTS of them). */
static int sum_of_largest(int *values, int n, int take)
{
    for (int k = 1; k < n; k++) /* (insertion sort, largest first) */
        for (int m = k; m > 0 && values[m] > values[m - 1]; m--) {
            int t = values[m];
            values[m] = values[m - 1];
            values[m - 1] = t;
        }
    int sum = 0;
    for (int k = 0; k < take && k < n; k++)
        sum += values[k];
    return sum;
}

/* At most the points of naturals the run slots from `slot` on and the group slots can take from the pool
 * (bounds.rest_bound): k runs take at most the k best "layers" (per suit, the first, second, ... copy of each
 * value), a group slot every natural of one rank (cards counted by both are counted twice: a bound). */
static int rest_bound(const Best *best, int slot)
{
    int k = best->n_runs - slot, bound = 0;
    if (k > 0) {
        int layers[4 * MAX_SLOTS] = {0};
        for (int card = 0; card < NATURALS; card++) {
            int copies = best->pool[card] < k ? best->pool[card] : k;
            for (int layer = 0; layer < copies; layer++)
                layers[card / 13 * k + layer] += best->points[card];
        }
        bound += sum_of_largest(layers, 4 * k, k);
    }
    if (best->n_groups) {
        int totals[13];
        for (int rank = 1; rank <= 13; rank++)
            totals[rank - 1] = best->rank_points[rank] * best->rank_cnt[rank];
        bound += sum_of_largest(totals, 13, best->n_groups);
    }
    return bound;
}

/* LayDownSearch._greedy_runs: every run of `suit` from value `low` to at most `top` (and at least `kb`) taking the
 * pool's naturals greedily, each followed by the later slots; a run past the slot's minimum needs natural ends. */
static void greedy_runs(Best *best, int slot, int suit, int low, int top, int kb, int wr, int rpts, int rcnt,
                        int rgp, int rgc)
{
    int min_size = best->run_min[slot];
    Run *run = &best->stack[slot];
    int wilds = 0, tp = 0, tg = 0, tgc = 0;
    run->n_taken = 0;
    int low_card = card_at(suit, low);
    bool low_end = best->hand[low_card] - best->ends[low_card] > 0;
    for (int high = low; high <= top; high++) {
        int card = card_at(suit, high);
        if (best->pool[card]) {
            best->pool[card]--;
            best->rank_cnt[rank_of(card)]--;
            run->taken[run->n_taken++] = card;
            tp += best->points[card];
            if (best->groupable[card]) {
                tg += best->points[card];
                tgc++;
            }
        } else if (++wilds > wr) {
            break;
        }
        int size = high - low + 1;
        if (size < min_size || high < kb)
            continue;
        if (!run->n_taken && best->defer_wild_runs)
            continue;
        if (!best->adjacent && touches(best, slot, suit, low, high))
            continue;
        bool longer = size > min_size;
        if (longer) {
            if (!low_end)
                break;
            if (best->hand[card] - best->ends[card] <= 0)
                continue;
            best->ends[low_card]++;
            best->ends[card]++;
        }
        run->suit = suit;
        run->low = low;
        run->high = high;
        fill_runs(best, slot + 1, suit, low, high, 0, wr - wilds, rpts + tp, rcnt + run->n_taken, rgp + tg,
                  rgc + tgc);
        if (longer) {
            best->ends[low_card]--;
            best->ends[card]--;
        }
        if (best->done)
            break;
    }
    for (int k = 0; k < run->n_taken; k++) { /* LayDownSearch._put_back */
        best->pool[run->taken[k]]++;
        best->rank_cnt[rank_of(run->taken[k])]++;
    }
}

/* LayDownSearch._least_naturals: the fewest naturals a run of `size` cards holds with at most `wr` wilds. */
static int least_naturals(const Best *best, int size, int wr, bool allow_wild_only)
{
    int least = size - wr;
    if (best->policy == POLICY_RATIO)
        least = most_of(least, (size + 1) / 2);
    else if (best->policy == POLICY_ONE)
        least = most_of(least, size - 1);
    if (least <= 0)
        least = allow_wild_only ? 0 : 1;
    return least;
}

/* One run of runs_full: the naturals at values forced[...] and avail[picks[...]] of [low, high], then the later
 * slots (the body of LayDownSearch._runs_full's innermost loop). */
static void take_run(Best *best, int slot, int suit, int low, int high, int mask, const int *values, int n, int wr,
                     int rpts, int rcnt, int rgp, int rgc)
{
    Run *run = &best->stack[slot];
    *run = (Run){.suit = suit, .low = low, .high = high, .n_taken = n};
    int tp = 0, tg = 0, tgc = 0;
    for (int k = 0; k < n; k++) {
        int card = card_at(suit, values[k]);
        run->taken[k] = card;
        best->pool[card]--;
        best->rank_cnt[rank_of(card)]--;
        tp += best->points[card];
        if (best->groupable[card]) {
            tg += best->points[card];
            tgc++;
        }
    }
    fill_runs(best, slot + 1, suit, low, high, mask, wr - (high - low + 1 - n), rpts + tp, rcnt + n, rgp + tg,
              rgc + tgc);
    for (int k = 0; k < n; k++) {
        best->pool[run->taken[k]]++;
        best->rank_cnt[rank_of(run->taken[k])]++;
    }
}

/* LayDownSearch._runs_full: every run of `suit` from value `low` (to at most `top`, its key at least (kb, km)) with
 * every choice of the pool's naturals, most naturals first, each choice in itertools.combinations order.  In the
 * last run slot a natural no group can take and worth at least as much as any wild is always used. */
static void runs_full(Best *best, int slot, int suit, int low, int top, int kb, int km, int wr, int rpts, int rcnt,
                      int rgp, int rgc)
{
    int min_size = best->run_min[slot];
    bool allow_wild_only = best->all_wild && !best->defer_wild_runs;
    bool last = slot == best->n_runs - 1;
    int top_wild = best->n_wilds ? best->top_wild_pts[1] : 0;
    int avail[14], forced[14], n_avail = 0, n_forced = 0;
    for (int high = low; high <= top; high++) {
        int card = card_at(suit, high);
        if (best->pool[card]) {
            if (last && !best->groupable[card] && best->points[card] >= top_wild)
                forced[n_forced++] = high;
            else
                avail[n_avail++] = high;
        }
        int size = high - low + 1;
        if (size - n_avail - n_forced > wr)
            break;
        if (size < min_size || high < kb)
            continue;
        if (!best->adjacent && touches(best, slot, suit, low, high))
            continue;
        int least = least_naturals(best, size, wr, allow_wild_only);
        for (int n = n_avail + n_forced; n >= most_of(least, n_forced); n--) {
            int r = n - n_forced, picks[14];
            for (int k = 0; k < r; k++)
                picks[k] = k;
            for (;;) {
                int values[14], mask = 0;
                for (int k = 0; k < n_forced; k++)
                    values[k] = forced[k];
                for (int k = 0; k < r; k++)
                    values[n_forced + k] = avail[picks[k]];
                for (int k = 0; k < n; k++)
                    mask |= 1 << values[k];
                if (!(high == kb && mask < km))
                    take_run(best, slot, suit, low, high, mask, values, n, wr, rpts, rcnt, rgp, rgc);
                if (best->done)
                    return;
                int k = r - 1; /* the next combination of r of the n_avail positions */
                while (k >= 0 && picks[k] == n_avail - r + k)
                    k--;
                if (k < 0)
                    break;
                picks[k]++;
                for (int m = k + 1; m < r; m++)
                    picks[m] = picks[m - 1] + 1;
            }
        }
    }
}

/* LayDownSearch._next_low: the lowest value from `low` on where a run of `suit` holding a natural can start. */
static int next_low(const Best *best, int suit, int low, int wr)
{
    int value = low;
    while (value <= best->hi && !best->pool[card_at(suit, value)])
        value++;
    if (value > best->hi)
        return best->hi + 1;
    return value - low > wr ? value - wr : low;
}

/* LayDownSearch._runs_of_suit: fill run slot `slot` with runs of `suit`, from low value `ka` on when it is the
 * key's suit (its high value `kb` then bounds a run from `ka`). */
static void runs_of_suit(Best *best, int slot, int suit, int ka, int kb, int km, int wr, int rpts, int rcnt,
                         int rgp, int rgc)
{
    int min_size = best->run_min[slot];
    int last_low = best->hi - min_size + 1;
    bool sparse = best->defer_wild_runs || !best->all_wild;
    int low = (ka > best->lo ? ka : best->lo) - 1;
    while (low < last_low) {
        low++;
        if (sparse) {
            low = next_low(best, suit, low, wr);
            if (low > last_low)
                break;
        }
        int top = best->hi < low + 12 ? best->hi : low + 12;
        if (best->greedy)
            greedy_runs(best, slot, suit, low, top, low == ka ? kb : 0, wr, rpts, rcnt, rgp, rgc);
        else
            runs_full(best, slot, suit, low, top, low == ka ? kb : 0, low == ka ? km : 0, wr, rpts, rcnt, rgp, rgc);
        if (best->done)
            return;
    }
}

/* LayDownSearch._runs: fill run slot `slot` and the later ones with runs whose key (suit, low value, high value,
 * mask of its naturals' values; the mask only in the full mode) is at least (ks, ka, kb, km) when the slot is
 * identical to the one before; then the groups.  Greedy runs (greedy_runs) or every choice of naturals
 * (runs_full), and runs of wilds only (LayDownSearch._wild_runs) after every suit. */
static void fill_runs(Best *best, int slot, int ks, int ka, int kb, int km, int wr, int rpts, int rcnt, int rgp,
                      int rgc)
{
    if (slot == best->n_runs) {
        leaf(best, wr, rpts, rcnt, rgp, rgc);
        return;
    }
    /* The Python search's cut (LayDownSearch._SlotCuts.cut): even if the later slots took every natural they
     * could and every wild were laid down, this branch would leave more points than the best lay-down found. */
    if (best->best_pts < UNLIMITED
        && best->dead_pts + best->live_pts - rpts - rest_bound(best, slot) > best->best_pts)
        return;
    if (!best->run_same[slot])
        ks = ka = kb = km = 0;
    for (int suit = ks; suit < 4; suit++) {
        runs_of_suit(best, slot, suit, suit == ks ? ka : -1, kb, km, wr, rpts, rcnt, rgp, rgc);
        if (best->done)
            return;
    }
    int min_size = best->run_min[slot];
    if (best->defer_wild_runs && wr >= min_size) { /* LayDownSearch._wild_runs (greedy runs are never longer) */
        int top = best->greedy ? min_size : (wr < 13 ? wr : 13);
        for (int size = most_of(min_size, ks == WILD_RUN_SUIT ? ka : 0); size <= top && size <= wr; size++) {
            best->stack[slot] = (Run){.suit = WILD_RUN_SUIT, .low = size, .high = 0, .n_taken = 0};
            fill_runs(best, slot + 1, WILD_RUN_SUIT, size, 0, 0, wr - size, rpts, rcnt, rgp, rgc);
            if (best->done)
                return;
        }
    }
}

/* -- runs of 13 cards (full_runs.offer_full_runs) ------------------------------------------------------------------ */

/* The naturals the full runs at places[choice[...]] (suit, lowest value) hold, the k-th run of a suit the k-th
 * layer of copies (full_runs._naturals_held). */
static int naturals_held(const int *choice, int n_runs, const int (*places)[2], int (*layers)[MAX_SLOTS])
{
    int held = 0;
    for (int index = 0; index < n_runs; index++) {
        int suit = places[choice[index]][0], k = 0;
        while (k < index && places[choice[index - 1 - k]][0] == suit)
            k++;
        held += layers[suit][k];
    }
    return held;
}

/* Offer the lay-downs of runs only whose runs all hold 13 cards, for each choice of places (in
 * itertools.combinations_with_replacement order): the naturals of the pool fill their places run by run, wilds
 * the others, and the cheapest naturals give way to wilds while a wild is worth more (full_runs.offer_full_runs,
 * _full_runs_at, _give_way). */
static void offer_full_runs(Best *best)
{
    int places[8][2], n_places = 0, n_runs = best->n_runs;
    for (int suit = 0; suit < 4; suit++)
        for (int low = best->lo; low <= best->hi - 12; low++) {
            places[n_places][0] = suit;
            places[n_places++][1] = low;
        }
    int lacking = 13 * n_runs - best->n_wilds, most_kinds = 0;
    int layers[4][MAX_SLOTS];
    for (int suit = 0; suit < 4; suit++) {
        int kinds = 0;
        for (int k = 0; k < n_runs; k++) {
            layers[suit][k] = 0;
            for (int card = suit * 13; card < suit * 13 + 13; card++)
                layers[suit][k] += best->pool[card] > k;
        }
        for (int card = suit * 13; card < suit * 13 + 13; card++)
            kinds += best->pool[card] > 0;
        most_kinds = kinds > most_kinds ? kinds : most_kinds;
    }
    if (n_runs * most_kinds < lacking || !n_places)
        return;
    const int *wp = best->top_wild_pts;
    int choice[MAX_SLOTS] = {0};
    for (;;) {
        if (naturals_held(choice, n_runs, places, layers) >= lacking) {
            int naturals[13 * MAX_SLOTS], n_naturals = 0;
            for (int i = 0; i < n_runs; i++) { /* _full_runs_at */
                Run *run = &best->stack[i];
                *run = (Run){.suit = places[choice[i]][0], .low = places[choice[i]][1], .n_taken = 0};
                run->high = run->low + 12;
                for (int value = run->low; value <= run->high; value++) {
                    int card = card_at(run->suit, value);
                    if (best->pool[card]) {
                        best->pool[card]--;
                        run->taken[run->n_taken++] = card;
                        naturals[n_naturals++] = card;
                    }
                }
            }
            for (int k = 0; k < n_naturals; k++)
                best->pool[naturals[k]]++;
            int forced = 13 * n_runs - n_naturals;
            if (forced <= best->n_wilds) {
                /* The naturals cheapest first (then card order): those that give way to wilds worth more. */
                for (int k = 1; k < n_naturals; k++)
                    for (int m = k; m > 0; m--) {
                        int a = naturals[m - 1], b = naturals[m];
                        if (best->points[a] < best->points[b] || (best->points[a] == best->points[b] && a <= b))
                            break;
                        naturals[m - 1] = b;
                        naturals[m] = a;
                    }
                int given = 0;
                while (forced + given < best->n_wilds && given < n_naturals
                       && wp[forced + given + 1] - wp[forced + given] > best->points[naturals[given]])
                    given++;
                int used_pts = wp[forced + given];
                for (int k = given; k < n_naturals; k++)
                    used_pts += best->points[naturals[k]];
                int giving[NATURALS] = {0};
                for (int k = 0; k < given; k++)
                    giving[naturals[k]]++;
                for (int i = 0; i < n_runs && given; i++) { /* _give_way */
                    Run *run = &best->stack[i];
                    int kept = 0;
                    for (int k = 0; k < run->n_taken; k++) {
                        if (giving[run->taken[k]])
                            giving[run->taken[k]]--;
                        else
                            run->taken[kept++] = run->taken[k];
                    }
                    run->n_taken = kept;
                }
                offer(best, best->dead_pts + best->live_pts + best->wild_total - used_pts,
                      best->dead_cnt + best->live_cnt + best->n_wilds - 13 * n_runs, NULL,
                      best->n_wilds - forced - given, 0);
                if (best->done)
                    return;
            }
        }
        /* The next choice, non-decreasing place indexes (combinations_with_replacement). */
        int i = n_runs - 1;
        while (i >= 0 && choice[i] == n_places - 1)
            i--;
        if (i < 0)
            return;
        choice[i]++;
        for (int k = i + 1; k < n_runs; k++)
            choice[k] = choice[i];
    }
}

/* -- the melds (assemble.build_lay_down) --------------------------------------------------------------------------- */

/* A meld being built: kind, cards, declared (-1: None). */
typedef struct {
    const char *kind;
    int cards[MAX_CARDS];
    int n_cards, declared;
} Meld;

typedef struct {
    const int *cards;
    int next, count;
} WildQueue;

static int next_wild(WildQueue *queue) { return queue->next < queue->count ? queue->cards[queue->next++] : JOKER; }

/* assemble._place_wild_run: suit and low value of a run of `size` wilds (the lowest free spot, clubs first). */
static void place_wild_run(const Best *best, int size, const Run *placed, int n_placed, int *suit, int *low)
{
    for (int s = 0; s < 4; s++)
        for (int a = best->lo; a <= best->hi - size + 1; a++) {
            int b = a + size - 1;
            if (a == 1 && b == 14)
                continue;
            bool free = true;
            for (int k = 0; k < n_placed && !best->adjacent; k++)
                if (placed[k].suit == s && a <= placed[k].high + 1 && placed[k].low <= b + 1)
                    free = false;
            if (free) {
                *suit = s;
                *low = a;
                return;
            }
        }
    *suit = 0;
    *low = best->lo;
}

/* assemble._best_split: the first split of `rest` naturals over the slots from `at` on (in tables.compositions
 * order) whose groups are all valid and need the fewest wilds. */
static void best_split(const Best *best, const GroupSlot *const *slots, int n_slots, int at, int rest, int deficit,
                       int *split, int *chosen, int *least)
{
    bool last = at == n_slots - 1;
    for (int first = last ? rest : 1; first <= (last ? rest : rest - (n_slots - at) + 1); first++) {
        int fewest, most;
        if (first < 1 || !slot_wild_range(best, slots[at], first, &fewest, &most))
            continue;
        split[at] = first;
        if (!last) {
            best_split(best, slots, n_slots, at + 1, rest - first, deficit + fewest, split, chosen, least);
        } else if (deficit + fewest < *least) {
            *least = deficit + fewest;
            memcpy(chosen, split, sizeof(int) * (size_t)n_slots);
        }
    }
}

/* assemble.build_lay_down: the best lay-down found as melds in contract order. */
static void build_lay_down(const Best *best, Meld *melds)
{
    int pool[NATURALS];
    memcpy(pool, best->hand, sizeof pool);
    for (int i = 0; i < best->n_runs; i++)
        for (int k = 0; k < best->best_runs[i].n_taken; k++)
            pool[best->best_runs[i].taken[k]]--;
    int wilds_used = best->n_wilds - best->best_wr + best->best_extra;
    int group_sizes[MAX_SLOTS] = {0}, group_wilds[MAX_SLOTS] = {0};
    const int *labels = best->best_labels;
    if (best->best_has_groups) {
        /* _group_naturals: per rank, the split of its naturals over its slots needing the fewest wilds. */
        for (int rank = 1; rank <= 13; rank++) {
            const GroupSlot *slots[MAX_SLOTS];
            int where[MAX_SLOTS], n_slots = 0;
            for (int j = 0; j < best->n_groups; j++)
                if (labels[j] == rank) {
                    where[n_slots] = j;
                    slots[n_slots++] = &best->group[j];
                }
            if (!n_slots)
                continue;
            int total = 0;
            for (int suit = 0; suit < 4; suit++)
                total += pool[suit * 13 + rank - 1];
            int split[MAX_SLOTS], chosen[MAX_SLOTS] = {0}, least = UNLIMITED;
            if (n_slots == 1)
                chosen[0] = total;
            else
                best_split(best, slots, n_slots, 0, total, 0, split, chosen, &least);
            for (int k = 0; k < n_slots; k++)
                group_sizes[where[k]] = chosen[k];
        }
        /* _group_wilds: the deficits, then the spare wilds where there is room. */
        int room[MAX_SLOTS], spare = best->best_wr;
        for (int j = 0; j < best->n_groups; j++) {
            const GroupSlot *slot = &best->group[j];
            if (labels[j]) {
                int n = group_sizes[j];
                group_wilds[j] = slot->min_size > n ? slot->min_size - n : 0;
                room[j] = (slot->accepts_wilds ? max_wilds(best, n) : 0) - group_wilds[j];
            } else {
                group_wilds[j] = wild_only_group_size(best, slot);
                room[j] = UNLIMITED;
            }
            spare -= group_wilds[j];
        }
        for (int j = 0; j < best->n_groups; j++) {
            int add = spare < room[j] ? spare : room[j];
            group_wilds[j] += add;
            spare -= add;
            wilds_used += group_wilds[j];
        }
    }
    /* The most valuable wilds (the first of `wilds`), in card order. */
    int wild_cards[MAX_CARDS];
    memcpy(wild_cards, best->wilds, sizeof(int) * (size_t)wilds_used);
    for (int k = 1; k < wilds_used; k++)
        for (int m = k; m > 0 && wild_cards[m] < wild_cards[m - 1]; m--) {
            int t = wild_cards[m];
            wild_cards[m] = wild_cards[m - 1];
            wild_cards[m - 1] = t;
        }
    WildQueue queue = {wild_cards, 0, wilds_used};
    /* _place_runs */
    Run placed[MAX_SLOTS];
    int n_placed = 0, extra = best->best_extra;
    for (int i = 0; i < best->n_runs; i++)
        if (best->best_runs[i].suit != WILD_RUN_SUIT)
            placed[n_placed++] = best->best_runs[i];
    for (int i = 0; i < best->n_runs; i++) {
        const Run *run = &best->best_runs[i];
        Meld *meld = &melds[best->run_index[i]];
        meld->kind = "run";
        meld->n_cards = 0;
        meld->declared = -1;
        int suit = run->suit, low = run->low, high = run->high;
        if (suit == WILD_RUN_SUIT) {
            int size = low, grow = extra < 13 - size ? extra : 13 - size;
            extra -= grow;
            size += grow;
            place_wild_run(best, size, placed, n_placed, &suit, &low);
            high = low + size - 1;
            placed[n_placed++] = (Run){.suit = suit, .low = low, .high = high};
            for (int k = 0; k < size; k++)
                meld->cards[meld->n_cards++] = next_wild(&queue);
            meld->declared = card_at(suit, low);
            continue;
        }
        int size = high - low + 1, grow = extra < 13 - size ? extra : 13 - size;
        extra -= grow;
        int up = grow;
        if (best->hi - high < up)
            up = best->hi - high;
        if (low + 12 - high < up)
            up = low + 12 - high;
        int new_high = high + up, new_low = low - (grow - up);
        for (int value = new_low; value <= new_high; value++) {
            int card = card_at(suit, value);
            bool have = false;
            for (int k = 0; k < run->n_taken; k++)
                have = have || run->taken[k] == card;
            meld->cards[meld->n_cards++] = have ? card : next_wild(&queue);
        }
        if (!run->n_taken)
            meld->declared = card_at(suit, new_low);
    }
    if (!best->best_has_groups)
        return;
    /* _place_groups */
    bool labelled[14] = {false}, wild_only = false;
    for (int j = 0; j < best->n_groups; j++) {
        labelled[labels[j]] = true;
        wild_only = wild_only || !labels[j];
    }
    int free_ranks[13], n_free = 0, next_free = 0;
    for (int rank = 1; rank <= 13 && wild_only; rank++)
        if (!labelled[rank])
            free_ranks[n_free++] = rank;
    for (int j = 0; j < best->n_groups; j++) {
        const GroupSlot *slot = &best->group[j];
        Meld *meld = &melds[best->group_index[j]];
        meld->kind = slot->is_pair ? "pair" : "set";
        meld->n_cards = 0;
        meld->declared = -1;
        if (labels[j]) {
            for (int card = labels[j] - 1; card < NATURALS; card += 13)
                while (pool[card] && meld->n_cards < group_sizes[j]) {
                    pool[card]--;
                    meld->cards[meld->n_cards++] = card;
                }
            for (int k = 0; k < group_wilds[j]; k++)
                meld->cards[meld->n_cards++] = next_wild(&queue);
        } else {
            for (int k = 0; k < group_wilds[j]; k++)
                meld->cards[meld->n_cards++] = next_wild(&queue);
            if (best->all_wild && slot->accepts_wilds)
                meld->declared = next_free < n_free ? free_ranks[next_free++] : 1;
            else
                meld->kind = "set";
        }
    }
}

/* -- the entry point ----------------------------------------------------------------------------------------------- */

/* Read spec and extra (run_index, group_index, points per card) into `best`; false with an exception set when
 * malformed. */
static bool read_rules(Best *best, PyObject *spec_object, PyObject *extra_object)
{
    if (!PyBytes_Check(spec_object) || !PyBytes_Check(extra_object)) {
        PyErr_SetString(PyExc_TypeError, "best_lay_down(hand, spec: bytes, extra: bytes)");
        return false;
    }
    const unsigned char *spec = (const unsigned char *)PyBytes_AS_STRING(spec_object);
    Py_ssize_t length = PyBytes_GET_SIZE(spec_object);
    if (length < SPEC_HEADER) {
        PyErr_SetString(PyExc_ValueError, "contract spec too short");
        return false;
    }
    best->lo = spec[SPEC_LO];
    best->hi = spec[SPEC_HI];
    best->policy = spec[SPEC_POLICY];
    best->all_wild = spec[SPEC_ALL_WILD];
    best->trio_min = spec[SPEC_TRIO_MIN];
    best->same_rank = spec[SPEC_SAME_RANK];
    best->adjacent = spec[SPEC_ADJACENT];
    best->need = spec[SPEC_NEED];
    best->n_runs = spec[SPEC_RUNS];
    best->n_groups = spec[SPEC_GROUPS];
    int slots = best->n_runs + best->n_groups;
    bool refusing = false; /* (a group slot refusing wilds) */
    if (best->n_runs > MAX_SLOTS || best->n_groups > MAX_SLOTS || best->lo < 1 || best->hi > 14
        || best->policy > POLICY_ONE || spec[SPEC_EXACT]
        || length != SPEC_HEADER + best->n_runs + 3 * best->n_groups + CARD_COUNT
        || PyBytes_GET_SIZE(extra_object) != slots + CARD_COUNT) {
        PyErr_SetString(PyExc_ValueError, "malformed contract spec (or exact sizes)");
        return false;
    }
    const unsigned char *at = spec + SPEC_HEADER;
    for (int i = 0; i < best->n_runs; i++) {
        best->run_min[i] = *at++;
        best->run_same[i] = i > 0 && best->run_min[i] == best->run_min[i - 1];
    }
    for (int j = 0; j < best->n_groups; j++) {
        best->group[j] = (GroupSlot){at[0], at[1], at[2]};
        at += 3;
        best->group_same[j] = j > 0 && best->group[j].min_size == best->group[j - 1].min_size
                              && best->group[j].accepts_wilds == best->group[j - 1].accepts_wilds
                              && best->group[j].is_pair == best->group[j - 1].is_pair;
        refusing = refusing || !best->group[j].accepts_wilds;
    }
    if (best->policy == POLICY_RATIO && best->same_rank && refusing) {
        PyErr_SetString(PyExc_ValueError, "not covered: ContractPlan.label_ok is false");
        return false;
    }
    best->greedy = best->policy == POLICY_NONE && best->all_wild && !refusing && (best->n_groups || best->adjacent);
    int last = best->n_groups - 1; /* tables._last_block_start */
    while (last > 0 && best->group_same[last])
        last--;
    best->group_last_block = last > 0 ? last : 0;
    for (int card = 0; card < CARD_COUNT; card++)
        best->wild[card] = at[card];
    const unsigned char *extra = (const unsigned char *)PyBytes_AS_STRING(extra_object);
    for (int i = 0; i < best->n_runs; i++)
        best->run_index[i] = *extra++;
    for (int j = 0; j < best->n_groups; j++)
        best->group_index[j] = *extra++;
    for (int card = 0; card < CARD_COUNT; card++)
        best->points[card] = extra[card];
    for (int rank = 1; rank <= 13; rank++)
        best->rank_points[rank] = best->points[rank - 1];
    return true;
}

/* LayDownSearch.__init__ and _prepare: the wilds, the dead naturals, the totals; false when the contract cannot
 * be laid down (too few cards, or more dead cards than the slack). */
static bool prepare(Best *best, const int *hand)
{
    int nat[NATURALS];
    best->n_wilds = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        if (best->wild[card])
            for (int k = 0; k < hand[card]; k++)
                best->wilds[best->n_wilds++] = card;
        if (card < NATURALS)
            nat[card] = best->wild[card] ? 0 : hand[card];
    }
    for (int k = 1; k < best->n_wilds; k++) /* most points first, then card order */
        for (int m = k; m > 0 && best->points[best->wilds[m]] > best->points[best->wilds[m - 1]]; m--) {
            int t = best->wilds[m];
            best->wilds[m] = best->wilds[m - 1];
            best->wilds[m - 1] = t;
        }
    best->top_wild_pts[0] = 0;
    for (int k = 0; k < best->n_wilds; k++)
        best->top_wild_pts[k + 1] = best->top_wild_pts[k] + best->points[best->wilds[k]];
    best->wild_total = best->top_wild_pts[best->n_wilds];
    best->total = best->n_wilds;
    for (int card = 0; card < NATURALS; card++)
        best->total += nat[card];
    if (best->total < best->need)
        return false;
    memset(best->rank_cnt, 0, sizeof best->rank_cnt);
    for (int card = 0; card < NATURALS; card++)
        best->rank_cnt[rank_of(card)] += nat[card];
    int need = best->n_groups ? group_need(best, best->n_wilds) : UNLIMITED;
    bool groupable_rank[14];
    for (int rank = 0; rank <= 13; rank++)
        groupable_rank[rank] = best->rank_cnt[rank] >= need;
    remove_dead_naturals(best, nat, groupable_rank);
    if (best->dead_cnt) {
        memset(best->rank_cnt, 0, sizeof best->rank_cnt);
        for (int card = 0; card < NATURALS; card++)
            best->rank_cnt[rank_of(card)] += nat[card];
    }
    best->budget = best->total - best->need - best->dead_cnt;
    if (best->budget < 0)
        return false;
    memcpy(best->hand, nat, sizeof nat);
    memcpy(best->pool, nat, sizeof nat);
    memset(best->ends, 0, sizeof best->ends);
    for (int card = 0; card < NATURALS; card++) {
        best->groupable[card] = groupable_rank[rank_of(card)];
        best->live_pts += nat[card] * best->points[card];
        best->live_cnt += nat[card];
    }
    for (int rank = 1; rank <= 13; rank++)
        if (groupable_rank[rank]) {
            best->live_groupable_pts += best->rank_points[rank] * best->rank_cnt[rank];
            best->live_groupable_cnt += best->rank_cnt[rank];
        }
    best->defer_wild_runs = best->all_wild && best->adjacent;
    return true;
}

/* A meld as (kind, cards, declared) for rummy.engine.melds.MeldSpec. */
static PyObject *meld_tuple(const Meld *meld)
{
    PyObject *cards = PyTuple_New(meld->n_cards);
    if (cards == NULL)
        return NULL;
    for (int k = 0; k < meld->n_cards; k++) {
        PyObject *card = PyLong_FromLong(meld->cards[k]);
        if (card == NULL) {
            Py_DECREF(cards);
            return NULL;
        }
        PyTuple_SET_ITEM(cards, k, card);
    }
    if (meld->declared < 0)
        return Py_BuildValue("(sNO)", meld->kind, cards, Py_None);
    return Py_BuildValue("(sNi)", meld->kind, cards, meld->declared);
}

/* The melds of the best lay-down (`best`, searched) as a tuple of (kind, cards, declared); NULL with an exception
 * set when memory runs out. */
static PyObject *lay_down_tuple(const Best *best)
{
    int n_melds = best->n_runs + best->n_groups;
    Meld *melds = PyMem_Calloc((size_t)n_melds, sizeof *melds);
    if (melds == NULL)
        return PyErr_NoMemory();
    build_lay_down(best, melds);
    PyObject *result = PyTuple_New(n_melds);
    for (int k = 0; result != NULL && k < n_melds; k++) {
        PyObject *meld = meld_tuple(&melds[k]);
        if (meld == NULL)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, k, meld);
    }
    PyMem_Free(melds);
    return result;
}

/* best_lay_down(hand, spec, extra): see the top of this file.  (Its state is its own, on the heap: a finaliser
 * run by an allocation may call it again.) */
PyObject *best_lay_down(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "best_lay_down(hand, spec: bytes, extra: bytes)");
        return NULL;
    }
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    Best *best = PyMem_Calloc(1, sizeof *best);
    if (best == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    int total = 0;
    for (int card = 0; read == 1 && card < CARD_COUNT; card++)
        total += hand[card];
    if (!read_rules(best, args[1], args[2])) {
        result = NULL;
    } else if (read == 0 || total > MAX_CARDS) {
        result = Py_NewRef(Py_None);
    } else if (!prepare(best, hand)) {
        result = Py_NewRef(Py_False);
    } else {
        best->best_pts = best->best_cnt = UNLIMITED;
        fill_runs(best, 0, 0, 0, 0, 0, best->n_wilds, 0, 0, 0, 0);
        if (best->greedy && !best->n_groups && best->total >= 13 * best->n_runs && !best->done)
            offer_full_runs(best); /* (LayDownSearch._search) */
        result = best->best_pts == UNLIMITED ? Py_NewRef(Py_False) : lay_down_tuple(best);
    }
    PyMem_Free(best);
    return result;
}
