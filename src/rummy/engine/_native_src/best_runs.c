/* The best lay-down (best.h): the run slots (LayDownSearch._runs and what it calls). */
#include "best.h"

#include <string.h>

/* LayDownSearch._offer: keep the lay-down on the stack if it is allowed (nothing left under require_all, not
 * exactly one card under forbid_one) and strictly better (never one leaving fewer than the dead cards: then the
 * search is done). */
void offer(Best *best, int left_pts, int left_cnt, const Groups *groups, int wr, int extra)
{
    if ((best->require_all && left_cnt) || (best->forbid_one && left_cnt == 1))
        return;
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
    if (best->require_all && sure_cnt)
        return;
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

/* The sum of the `take` largest of `values` (none negative; taken ones are marked -1): the search calls this at
 * every branch, and `take` is small. */
static int sum_of_largest(int *values, int n, int take)
{
    int sum = 0;
    for (int k = 0; k < take && k < n; k++) {
        int largest = 0;
        for (int m = 1; m < n; m++)
            if (values[m] > values[largest])
                largest = m;
        sum += values[largest];
        values[largest] = -1;
    }
    return sum;
}

/* At most the points of naturals the run slots from `slot` on and the group slots can take from the pool
 * (bounds.rest_bound): k runs take at most the k best "layers" (per suit, the first, second, ... copy of each
 * value), a group slot every natural of one rank (cards counted by both are counted twice: a bound). */
static int rest_bound(const Best *best, int slot)
{
    int k = best->n_runs - slot, bound = 0;
    if (k > 0) {
        int layers[4 * MAX_SLOTS];
        memset(layers, 0, sizeof *layers * 4 * (size_t)k);
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
void fill_runs(Best *best, int slot, int ks, int ka, int kb, int km, int wr, int rpts, int rcnt, int rgp,
               int rgc)
{
    /* The Python search's cut (LayDownSearch._SlotCuts.cut): even if the later slots took every natural they
     * could and every wild were laid down, this branch would leave more points than the best lay-down found.  (Also
     * made before the group slots are labelled, where the leaf's own cut counts every groupable natural.) */
    if (best->best_pts < UNLIMITED && (slot < best->n_runs || best->n_groups)
        && best->dead_pts + best->live_pts - rpts - rest_bound(best, slot) > best->best_pts)
        return;
    if (slot == best->n_runs) {
        leaf(best, wr, rpts, rcnt, rgp, rgc);
        return;
    }
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
