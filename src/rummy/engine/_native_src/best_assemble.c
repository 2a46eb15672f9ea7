/* The best lay-down (best.h): the melds (assemble.build_lay_down). */
#include "best.h"

#include <string.h>

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
void build_lay_down(const Best *best, Meld *melds)
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
