/* The best lay-down (best.h): the group slots (groups.label_groups). */
#include "best.h"

#include <string.h>

/* The state of groups._label_slots's search. */
typedef struct {
    const Best *best;
    int wr, budget, ncand, total_nat, w_before, w_gain_base, wild_gain;
    int left_before; /* naturals of ranks no slot can take (dead ones too): left in hand */
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
        if (left <= state->budget && !(best->forbid_one && state->left_before + left == 1)) {
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
bool label_groups(const Best *best, int wr, Groups *out)
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
    int left_before = best->dead_cnt + all_nat - total_nat; /* (read by the "no final discard" search) */
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
                if (left <= budget && !(best->forbid_one && left_before + left == 1)) {
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
            if (wmin && wmin <= wr && total_nat <= budget && !(best->forbid_one && left_before + total_nat == 1)) {
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
    state.left_before = left_before;
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
