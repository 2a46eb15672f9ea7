/* The best lay-down (best.h): the rules' small facts (VariantRules). */
#include "best.h"

/* VariantRules.max_wilds: most wilds a meld with `naturals` natural cards may hold. */
int max_wilds(const Best *best, int naturals)
{
    if (best->policy == POLICY_NONE)
        return UNLIMITED;
    return best->policy == POLICY_RATIO ? naturals : 1;
}

/* VariantRules.wild_only_group_size, 0 for None. */
int wild_only_group_size(const Best *best, const GroupSlot *slot)
{
    if (best->all_wild && slot->accepts_wilds)
        return slot->min_size;
    if (best->trio_min && !slot->is_pair)
        return slot->min_size > best->trio_min ? slot->min_size : best->trio_min;
    return 0;
}

/* ContractPlan.group_need: fewest naturals of a rank that can make some group slot with `wilds` wilds. */
int group_need(const Best *best, int wilds)
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
bool slot_wild_range(const Best *best, const GroupSlot *slot, int naturals, int *fewest, int *most)
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
bool wild_range(const Best *best, int naturals, const GroupSlot *const *slots, int n_slots, int *fewest,
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
