/* The best lay-down (best.h): dead naturals (tables.remove_dead_naturals). */
#include "best.h"

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
void remove_dead_naturals(Best *best, int *nat, const bool *groupable_rank)
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
