/*
 * spare_builds(hand, held, spares, rules, run_min, group_min) -> list | None
 *
 * The search of rummy.engine.deadlock.SpareBuilds.each, compiled: the new melds a hand can make of its naturals
 * (at least one) and spare table cards (at least one, each from a different meld), in the same order and with the
 * same cards.  Each function names the Python one it follows.  What a build is made into (the `make` callback,
 * SpareBuilds' memo of it) stays in Python: this returns, per build, what `make` is given, and the memo key.
 *
 *   hand     53 counts (a list or tuple); held: the hand's card kinds in the order `each` reads them;
 *   spares   the table's spares in table order (deadlock.table_spares), 3 bytes each: the card, and the index of
 *            its meld (low byte, high byte; equal indices for equal meld ids);
 *   rules    low and high run bounds, wilds may not outnumber, twos natural in place, a wild flag per card
 *            (deadlock.native_rules);
 *
 * Each build is a tuple (key, spare indices used, kind "set" or "run", cards, cards from the hand, wild count),
 * key (rank, own cards) for a set and (suit, lowest value, window) for a run, as SpareBuilds memoises them.
 * None when an argument is malformed or a minimum is out of range: the Python search answers then.
 */
#include "core.h"

#include <stdbool.h>
#include <stdlib.h>

enum { RULE_LOW, RULE_HIGH, RULE_NOT_OUTNUMBER, RULE_TWOS_IN_PLACE, RULE_WILD, RULES_SIZE = RULE_WILD + CARD_COUNT };

#define MAX_MINIMUM 1000 /* larger run or group minimums go to the Python search */

typedef struct {
    const unsigned char *wild;
    int low_bound, high_bound, run_min, group_min;
    bool not_outnumber, twos_in_place;
    Py_ssize_t n;     /* spares */
    int *card, *meld; /* per spare, table order */
    int *used;        /* the spares a build takes (at most n) */
    bool *taken;      /* per meld index: a spare of it is in `used` */
    int n_melds;
} Search;

static int rank_of(int card) { return card == JOKER ? 0 : card % 13 + 1; }

/* A tuple of the ints items[0..n). */
static PyObject *int_tuple(const int *items, Py_ssize_t n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(items[i]);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

/* Append (key, used, kind, cards, from_hand, wild_count) to `out`: SpareBuilds' `make` arguments.  0, or -1 with an
 * exception set.  Steals `key`. */
static int emit(PyObject *out, PyObject *key, const Search *search, int n_used, const char *kind, const int *cards,
                int n_cards, int from_hand, int wild_count)
{
    if (key == NULL)
        return -1;
    PyObject *used = int_tuple(search->used, n_used);
    PyObject *cards_tuple = used == NULL ? NULL : int_tuple(cards, n_cards);
    PyObject *build = cards_tuple == NULL ? NULL
        : Py_BuildValue("(NNsNii)", key, used, kind, cards_tuple, from_hand, wild_count);
    if (build == NULL) {
        if (cards_tuple == NULL) {
            Py_DECREF(key);
            Py_XDECREF(used);
        }
        return -1;
    }
    int failed = PyList_Append(out, build);
    Py_DECREF(build);
    return failed;
}

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
                bool fits = pass == 0 ? !search->wild[card] && rank_of(card) == rank : (bool)search->wild[card];
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
            bool fits = pass == 0 ? !search->wild[card] && rank_of(card) == rank : (bool)search->wild[card];
            if (fits && !search->taken[search->meld[i]])
                take(search, &n_used, i);
        }
    if (n_used > 0 && own + n_used >= search->group_min)
        return n_used;
    release(search, n_used);
    return 0;
}

/* SpareBuilds._set_build: the set of `rank` of the hand's naturals `own` and spare table cards; appended to `out`
 * when there is one.  0, or -1 with an exception set. */
static int set_build(Search *search, PyObject *out, int rank, const int *own, int n_own)
{
    int n_used = set_spares(search, rank, n_own < search->group_min ? n_own : search->group_min);
    release(search, n_used);
    if (n_used == 0)
        return 0;
    int wild_count = 0;
    for (int i = 0; i < n_used; i++)
        wild_count += search->wild[search->card[search->used[i]]];
    if (search->not_outnumber && wild_count > n_own + n_used - wild_count)
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
    if (search->twos_in_place && rank == 2) { /* a wild two is a natural two here */
        wild_count = 0;
        for (int i = 0; i < n_used; i++) {
            int card = search->card[search->used[i]];
            wild_count += search->wild[card] && card % 13 != 1;
        }
    }
    PyObject *own_tuple = int_tuple(own, n_own);
    PyObject *key = own_tuple == NULL ? NULL : Py_BuildValue("(iN)", rank, own_tuple);
    int result = emit(out, key, search, n_used, "set", cards, n_own + n_used, n_own, wild_count);
    free(cards);
    return result;
}

/* deadlock._free: the first spare of the card `exact_card` (a wild one when it is -1) whose meld gives no spare in
 * `used` yet; -1 for none. */
static Py_ssize_t free_spare(const Search *search, int exact_card)
{
    for (Py_ssize_t i = 0; i < search->n; i++) {
        int card = search->card[i];
        bool fits = exact_card >= 0 ? card == exact_card : (bool)search->wild[card];
        if (fits && !search->taken[search->meld[i]])
            return i;
    }
    return -1;
}

/* SpareBuilds._run_build: the run of `suit` from value `low` whose values in bit set `window` come from the hand
 * and the others from spare table cards (the spare of the card, else a wild one; each from a different meld);
 * appended to `out` when there is one.  0, or -1 with an exception set. */
static int run_build(Search *search, PyObject *out, int suit, int low, int window)
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
        wild_count += search->wild[search->card[pick]];
    }
    release(search, n_used);
    if (n_used == 0 || (search->not_outnumber && wild_count > n_cards - wild_count))
        return 0;
    if (search->twos_in_place && low <= 2 && 2 < low + n_cards && search->wild[cards[2 - low]]) {
        int two = cards[2 - low];
        if (two != JOKER && two % 13 == 1 && two / 13 == suit) /* a wild two of the suit in its place */
            wild_count--;
    }
    PyObject *key = Py_BuildValue("(iii)", suit, low, window);
    return emit(out, key, search, n_used, "run", cards, n_cards, __builtin_popcount((unsigned)window), wild_count);
}

/* SpareBuilds.each: the sets by rank, then the runs by suit and lowest value (deadlock._run_windows). */
static int each(Search *search, PyObject *out, const int *hand, const int *held, Py_ssize_t n_held)
{
    if (search->n == 0)
        return 0;
    const unsigned char *wild = search->wild;
    int in_bounds = ((1 << (search->high_bound + 1)) - 1) & ~((1 << search->low_bound) - 1);
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
        result = set_build(search, out, rank, own + start[rank], n_own[rank]);
    }
    free(own);
    int run_min = search->run_min;
    if (result != 0 || run_min > search->high_bound - search->low_bound + 1)
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
        for (int low = search->low_bound; low < search->high_bound - run_min + 2 && result == 0; low++) {
            int window = (held_values >> low) & full;
            if (window && window != full
                && __builtin_popcount((unsigned)(full & ~window & ~(exact[suit] >> low))) <= wild_melds)
                result = run_build(search, out, suit, low, window);
        }
    }
    return result;
}

/* Read `held`: 1 when it is a list or tuple of card kinds below 53 (into *cards, malloc'ed), 0 when it is not, -1
 * with an exception set. */
static int read_held(PyObject *held_object, int **cards, Py_ssize_t *n)
{
    if (!PyList_Check(held_object) && !PyTuple_Check(held_object))
        return 0;
    PyObject *fast = PySequence_Fast(held_object, "held is a sequence of cards");
    if (fast == NULL)
        return -1;
    *n = PySequence_Fast_GET_SIZE(fast);
    *cards = malloc(sizeof(int) * (size_t)(*n > 0 ? *n : 1));
    int result = 1;
    if (*cards == NULL) {
        PyErr_NoMemory();
        result = -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; result == 1 && i < *n; i++) {
        long card = PyLong_AsLong(items[i]);
        if (card == -1 && PyErr_Occurred())
            result = -1;
        else if (card < 0 || card >= CARD_COUNT)
            result = 0;
        else
            (*cards)[i] = (int)card;
    }
    Py_DECREF(fast);
    if (result != 1) {
        free(*cards);
        *cards = NULL;
    }
    return result;
}

PyObject *spare_builds(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyBytes_Check(args[2]) || !PyBytes_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "spare_builds(hand, held, spares: bytes, rules: bytes, run_min, group_min)");
        return NULL;
    }
    long run_min = PyLong_AsLong(args[4]);
    if (run_min == -1 && PyErr_Occurred())
        return NULL;
    long group_min = PyLong_AsLong(args[5]);
    if (group_min == -1 && PyErr_Occurred())
        return NULL;
    const unsigned char *rules = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    Py_ssize_t spares_size = PyBytes_GET_SIZE(args[2]);
    if (PyBytes_GET_SIZE(args[3]) != RULES_SIZE || spares_size % 3 != 0 || run_min < 1 || run_min > MAX_MINIMUM
        || group_min < 1 || group_min > MAX_MINIMUM || rules[RULE_LOW] > rules[RULE_HIGH] || rules[RULE_HIGH] > 14)
        Py_RETURN_NONE;
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read <= 0) {
        if (read < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    int *held = NULL;
    Py_ssize_t n_held = 0;
    read = read_held(args[1], &held, &n_held);
    if (read <= 0) {
        if (read < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    Search search = {
        .wild = rules + RULE_WILD, .low_bound = rules[RULE_LOW], .high_bound = rules[RULE_HIGH],
        .run_min = (int)run_min, .group_min = (int)group_min, .not_outnumber = rules[RULE_NOT_OUTNUMBER] != 0,
        .twos_in_place = rules[RULE_TWOS_IN_PLACE] != 0, .n = spares_size / 3, .n_melds = 0,
    };
    const unsigned char *packed = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    size_t n = (size_t)(search.n > 0 ? search.n : 1);
    search.card = malloc(sizeof(int) * n);
    search.meld = malloc(sizeof(int) * n);
    search.used = malloc(sizeof(int) * n);
    PyObject *out = NULL;
    bool well_formed = true;
    if (search.card != NULL && search.meld != NULL && search.used != NULL) {
        for (Py_ssize_t i = 0; i < search.n; i++) {
            search.card[i] = packed[3 * i];
            search.meld[i] = packed[3 * i + 1] | packed[3 * i + 2] << 8;
            well_formed = well_formed && search.card[i] < CARD_COUNT;
            if (search.meld[i] >= search.n_melds)
                search.n_melds = search.meld[i] + 1;
        }
        search.taken = calloc((size_t)(search.n_melds > 0 ? search.n_melds : 1), sizeof(bool));
        if (search.taken != NULL)
            {
            out = well_formed ? PyList_New(0) : Py_None;
            if (out == Py_None)
                Py_INCREF(out);
        }
        else
            PyErr_NoMemory();
    } else {
        search.taken = NULL;
        PyErr_NoMemory();
    }
    if (out != NULL && out != Py_None && each(&search, out, hand, held, n_held) < 0)
        Py_CLEAR(out);
    free(search.taken);
    free(search.used);
    free(search.meld);
    free(search.card);
    free(held);
    return out;
}
