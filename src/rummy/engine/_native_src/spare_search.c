/*
 * The search of rummy.engine.deadlock.SpareBuilds.each, compiled: the new melds a hand can make of its naturals
 * (at least one) and spare table cards (at least one, each from a different meld), in the same order and with the
 * same cards.  Each function names the Python one it follows.  Each build goes to the search's sink (spare.h):
 * spare_builds.c makes it into what SpareBuilds' `make` is given, rearrangements.c into a listed row.
 */
#include "spare.h"

#include <stdlib.h>

static int rank_of(int card) { return card == JOKER ? 0 : card % 13 + 1; }

static void take(Search *search, int *n_used, Py_ssize_t spare)
{
    search->used[(*n_used)++] = (int)spare;
    search->taken[search->meld[spare]] = true;
}

static void release(Search *search, int n_used)
{
    for (int i = 0; i < n_used; i++)
        search->taken[search->meld[search->used[i]]] = false;
}

/* SpareBuilds._set_spares: the spares completing a set of `rank` with `own` naturals of the hand (own at most
 * group_min): a natural spare of the rank, else a wild one, each from its own meld.  How many it took (in
 * search->used, their melds marked taken), or 0 for None. */
static int set_spares(Search *search, int rank, int own)
{
    int wanted = search->group_min - own > 1 ? search->group_min - own : 1;
    int n_used = 0;
    if (wanted == 1) { /* the first spare of the rank, else the first wild one */
        for (int pass = 0; pass < 2 && n_used == 0; pass++)
            for (Py_ssize_t i = 0; i < search->n; i++) {
                int card = search->card[i];
                bool fits = pass == 0 ? !search->rules.wild[card] && rank_of(card) == rank : (bool)search->rules.wild[card];
                if (fits) {
                    take(search, &n_used, i);
                    break;
                }
            }
        return n_used;
    }
    for (int pass = 0; pass < 2 && n_used < wanted; pass++)
        for (Py_ssize_t i = 0; i < search->n && n_used < wanted; i++) {
            int card = search->card[i];
            bool fits = pass == 0 ? !search->rules.wild[card] && rank_of(card) == rank : (bool)search->rules.wild[card];
            if (fits && !search->taken[search->meld[i]])
                take(search, &n_used, i);
        }
    if (n_used > 0 && own + n_used >= search->group_min)
        return n_used;
    release(search, n_used);
    return 0;
}

/* SpareBuilds._set_build: the set of `rank` of the hand's naturals `own` and spare table cards; given to the sink
 * when there is one.  0, or -1 with an exception set. */
static int set_build(Search *search, int rank, const int *own, int n_own)
{
    int n_used = set_spares(search, rank, n_own < search->group_min ? n_own : search->group_min);
    release(search, n_used);
    if (n_used == 0)
        return 0;
    int wild_count = 0;
    for (int i = 0; i < n_used; i++)
        wild_count += search->rules.wild[search->card[search->used[i]]];
    if (search->rules.policy == POLICY_RATIO && wild_count > n_own + n_used - wild_count)
        return 0;
    int *cards = malloc(sizeof(int) * (size_t)(n_own + n_used));
    if (cards == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < n_own; i++)
        cards[i] = own[i];
    for (int i = 0; i < n_used; i++)
        cards[n_own + i] = search->card[search->used[i]];
    if (search->rules.twos_natural && rank == 2) { /* a wild two is a natural two here */
        wild_count = 0;
        for (int i = 0; i < n_used; i++) {
            int card = search->card[search->used[i]];
            wild_count += search->rules.wild[card] && card % 13 != 1;
        }
    }
    Build build = {.run = false, .rank = rank, .own = own, .n_own = n_own, .used = search->used, .n_used = n_used,
                   .cards = cards, .n_cards = n_own + n_used, .from_hand = n_own, .wild_count = wild_count};
    int result = search->sink(search->context, &build);
    free(cards);
    return result;
}

/* deadlock._free: the first spare of the card `exact_card` (a wild one when it is -1) whose meld gives no spare in
 * `used` yet; -1 for none. */
static Py_ssize_t free_spare(const Search *search, int exact_card)
{
    for (Py_ssize_t i = 0; i < search->n; i++) {
        int card = search->card[i];
        bool fits = exact_card >= 0 ? card == exact_card : (bool)search->rules.wild[card];
        if (fits && !search->taken[search->meld[i]])
            return i;
    }
    return -1;
}

/* SpareBuilds._run_build: the run of `suit` from value `low` whose values in bit set `window` come from the hand
 * and the others from spare table cards (the spare of the card, else a wild one; each from a different meld);
 * given to the sink when there is one.  0, or -1 with an exception set. */
static int run_build(Search *search, int suit, int low, int window)
{
    int cards[14];
    int n_used = 0, wild_count = 0, n_cards = search->run_min;
    for (int offset = 0; offset < n_cards; offset++) {
        int value = low + offset;
        int card = suit * 13 + (value == 14 ? 0 : value - 1);
        if (window >> offset & 1) {
            cards[offset] = card; /* a natural of the hand */
            continue;
        }
        Py_ssize_t pick = free_spare(search, card);
        if (pick < 0)
            pick = free_spare(search, -1);
        if (pick < 0) {
            release(search, n_used);
            return 0;
        }
        take(search, &n_used, pick);
        cards[offset] = search->card[pick];
        wild_count += search->rules.wild[search->card[pick]];
    }
    release(search, n_used);
    if (n_used == 0 || (search->rules.policy == POLICY_RATIO && wild_count > n_cards - wild_count))
        return 0;
    if (search->rules.twos_natural && low <= 2 && 2 < low + n_cards && search->rules.wild[cards[2 - low]]) {
        int two = cards[2 - low];
        if (two != JOKER && two % 13 == 1 && two / 13 == suit) /* a wild two of the suit in its place */
            wild_count--;
    }
    Build build = {.run = true, .suit = suit, .low = low, .window = window, .used = search->used, .n_used = n_used,
                   .cards = cards, .n_cards = n_cards, .from_hand = __builtin_popcount((unsigned)window),
                   .wild_count = wild_count};
    return search->sink(search->context, &build);
}

/* SpareBuilds.each: the sets by rank, then the runs by suit and lowest value (deadlock._run_windows). */
int spare_each(Search *search, const int *hand, const int *held, Py_ssize_t n_held)
{
    if (search->n == 0)
        return 0;
    const unsigned char *wild = search->rules.wild;
    int in_bounds = ((1 << (search->rules.high_bound + 1)) - 1) & ~((1 << search->rules.low_bound) - 1);
    int values[4] = {0, 0, 0, 0}; /* per suit, the run values (bits 1…14) the hand holds naturally */
    int n_own[14] = {0};
    int total = 0;
    for (Py_ssize_t i = 0; i < n_held; i++)
        if (held[i] != JOKER && !wild[held[i]])
            total += hand[held[i]];
    int *own = malloc(sizeof(int) * (size_t)(total > 0 ? total : 1)); /* the hand's naturals, by rank in turn */
    if (own == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int start[15] = {0};
    for (Py_ssize_t i = 0; i < n_held; i++) {
        int card = held[i];
        if (card != JOKER && !wild[card]) { /* a joker that is not wild joins no new meld */
            int rank = card % 13 + 1;
            n_own[rank] += hand[card];
            values[card / 13] |= rank == 1 ? (1 << 1 | 1 << 14) : 1 << rank;
        }
    }
    for (int rank = 1; rank < 14; rank++)
        start[rank + 1] = start[rank] + n_own[rank];
    int filled[14] = {0};
    for (Py_ssize_t i = 0; i < n_held; i++) {
        int card = held[i];
        if (card != JOKER && !wild[card]) {
            int rank = card % 13 + 1;
            for (int copy = 0; copy < hand[card]; copy++)
                own[start[rank] + filled[rank]++] = card;
        }
    }
    bool any_wild = false, natural_of_rank[14] = {false};
    int exact[4] = {0, 0, 0, 0}; /* SpareBuilds._exact_spares */
    for (Py_ssize_t i = 0; i < search->n; i++) {
        int card = search->card[i];
        if (wild[card])
            any_wild = true;
        else
            natural_of_rank[rank_of(card)] = true;
        if (card != JOKER)
            exact[card / 13] |= card % 13 == 0 ? (1 << 1 | 1 << 14) : 1 << (card % 13 + 1);
    }
    int result = 0;
    for (int rank = 1; rank < 14 && result == 0; rank++) {
        if (n_own[rank] == 0 || (!any_wild && !natural_of_rank[rank]))
            continue; /* no naturals, or no spare card could join them */
        result = set_build(search, rank, own + start[rank], n_own[rank]);
    }
    free(own);
    int run_min = search->run_min;
    if (result != 0 || run_min > search->rules.high_bound - search->rules.low_bound + 1)
        return result; /* no window of run_min values fits the bounds */
    /* SpareBuilds._wild_spare_melds: how many melds can spare a wild (more than run_min never matters) */
    int wild_melds = 0;
    for (Py_ssize_t i = 0; i < search->n; i++)
        if (wild[search->card[i]] && !search->taken[search->meld[i]]) {
            search->taken[search->meld[i]] = true;
            wild_melds++;
        }
    for (Py_ssize_t i = 0; i < search->n; i++)
        search->taken[search->meld[i]] = false;
    if (wild_melds > run_min)
        wild_melds = run_min;
    int full = (1 << run_min) - 1;
    for (int suit = 0; suit < 4 && result == 0; suit++) {
        int held_values = values[suit] & in_bounds;
        if (!held_values)
            continue;
        for (int low = search->rules.low_bound; low < search->rules.high_bound - run_min + 2 && result == 0; low++) {
            int window = (held_values >> low) & full;
            if (window && window != full
                && __builtin_popcount((unsigned)(full & ~window & ~(exact[suit] >> low))) <= wild_melds)
                result = run_build(search, suit, low, window);
        }
    }
    return result;
}

int spare_rules(Search *search, PyObject *rules_object, long run_min, long group_min)
{
    if (!read_meld_rules(rules_object, &search->rules) || run_min < 1 || run_min > MAX_MINIMUM || group_min < 1
        || group_min > MAX_MINIMUM)
        return 0;
    search->run_min = (int)run_min;
    search->group_min = (int)group_min;
    return 1;
}

int spare_alloc(Search *search, Py_ssize_t n, int n_melds)
{
    size_t size = (size_t)(n > 0 ? n : 1);
    search->n = n;
    search->n_melds = n_melds;
    search->card = malloc(sizeof(int) * size);
    search->meld = malloc(sizeof(int) * size);
    search->used = malloc(sizeof(int) * size);
    search->taken = calloc((size_t)(n_melds > 0 ? n_melds : 1), sizeof(bool));
    if (search->card == NULL || search->meld == NULL || search->used == NULL || search->taken == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void spare_free(Search *search)
{
    free(search->taken);
    free(search->used);
    free(search->meld);
    free(search->card);
    search->taken = NULL;
    search->used = search->meld = search->card = NULL;
}
