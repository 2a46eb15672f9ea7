/*
 * rearrangements(moves, hand, seat, size, quick, takers, game, table, offers, kit) -> int | None
 *
 * rummy.engine.moves._rearrangements, compiled: the rows it lists for the active player (run splits, then the
 * spare-card builds of spare_search.c), appended to `moves` in the same order, each the same Deferred or Action;
 * returns how many of them are deferred.  The Python glue is moves._native_rearrangements; what stays Python is
 * called back through `kit`: making an action, and judging in full (moves._applies) the rows that are not legal by
 * construction.
 *
 *   hand     the active player's 53 counts (a list or tuple); seat, size: the player and the hand's size;
 *   quick    down, owing no wild to the table; takers: None, or the table indices of the melds taking a wild the
 *            hand holds (moves._wild_takers) when a player who is down owes one;
 *   table    per table (TableOffers.native_rearrangements): (rules, run_min, group_min, parts), the variant's
 *            rules (meld_rules.compiled_meld_rules), and per meld of the table (table order) a part (spares, splits):
 *            spares 2 bytes a spare of the meld (deadlock.meld_spares's order): its card, whether the meld it leaves
 *            behind is valid (table_offers._rest); splits a tuple of (card the hand must hold, meld id, halves) for
 *            each split point whose halves are valid (meld_offers.split_halves);
 *   offers   the TableOffers, given back to the spare action's maker;
 *   kit      (Deferred, the slot descriptors of its verb, make and args, Verb.REARRANGE, split action(seat, meld id,
 *            halves), spare action(offers, seat, spare indices, kind, cards), applies(game, action)).
 *
 * None, with `moves` untouched, when an argument is malformed or a minimum is out of range: the Python listing
 * answers then.
 */
#include "spare.h"

#include <stdlib.h>

#define MAX_MELDS 1024 /* larger tables go to the Python listing */

enum { KIT_DEFERRED, KIT_DEFERRED_SLOTS, KIT_VERB, KIT_SPLIT_ACTION, KIT_SPARE_ACTION, KIT_APPLIES, KIT_SIZE };

/* One listing: what moves._rearrangements reads, and where its rows go. */
typedef struct {
    PyObject *moves, *game, *offers, *seat, *const *kit;
    int size;
    bool quick;
    int policy; /* the wild policy's code */
    const int *takers; /* table indices */
    Py_ssize_t n_takers;
    const unsigned char *rest_valid; /* per spare */
    const int *meld;                 /* per spare: its meld's table index */
    long deferred;
    PyObject *kinds[2]; /* "set", "run" */
} Listing;

/* Append `row` (stolen) to the listing's moves; 0, or -1 with an exception set. */
static int append(Listing *listing, PyObject *row)
{
    if (row == NULL)
        return -1;
    int failed = PyList_Append(listing->moves, row);
    Py_DECREF(row);
    return failed;
}

/* The row of a candidate: Deferred(REARRANGE, maker, args) when `deferred` (its slots set directly, as records.c's
 * new_record sets them: Deferred's __init__ is Python), else the action maker(*args) when applies(game, action) says
 * it is legal (nothing is appended when it is not).  0, or -1 with an exception. */
static int list_row(Listing *listing, bool deferred, PyObject *maker, PyObject *const *args, size_t n_args)
{
    PyObject *const *kit = listing->kit;
    if (deferred) {
        PyObject *arguments = PyTuple_New((Py_ssize_t)n_args);
        if (arguments == NULL)
            return -1;
        for (size_t i = 0; i < n_args; i++) {
            Py_INCREF(args[i]);
            PyTuple_SET_ITEM(arguments, (Py_ssize_t)i, args[i]);
        }
        PyObject *fields[5] = {kit[KIT_DEFERRED], kit[KIT_DEFERRED_SLOTS], kit[KIT_VERB], maker, arguments};
        PyObject *row = new_record(NULL, fields, 5);
        if (row == Py_None) { /* not a slotted class: its __init__ makes it */
            Py_DECREF(row);
            row = PyObject_Vectorcall(kit[KIT_DEFERRED], fields + 2, 3, NULL);
        }
        Py_DECREF(arguments);
        listing->deferred++;
        return append(listing, row);
    }
    PyObject *action = PyObject_Vectorcall(maker, args, n_args, NULL);
    if (action == NULL)
        return -1;
    PyObject *judge_args[2] = {listing->game, action};
    PyObject *verdict = PyObject_Vectorcall(kit[KIT_APPLIES], judge_args, 2, NULL);
    int legal = verdict == NULL ? -1 : PyObject_IsTrue(verdict);
    Py_XDECREF(verdict);
    if (legal != 1) {
        Py_DECREF(action);
        return legal;
    }
    return append(listing, action);
}

/* Whether a taker meld is left alone by a candidate whose source melds are `sources` (moves._rearrangements'
 * `takers - {meld.id}` and `takers.difference(build.sources)`). */
static bool taker_left(const Listing *listing, const int *sources, int n_sources)
{
    for (Py_ssize_t t = 0; t < listing->n_takers; t++) {
        bool among = false;
        for (int i = 0; i < n_sources && !among; i++)
            among = sources[i] == listing->takers[t];
        if (!among)
            return true;
    }
    return false;
}

/* moves._rearrangements, its first loop: the run splits at a card the hand holds. */
static int list_splits(Listing *listing, PyObject *parts, const int *hand)
{
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(parts); index++) {
        PyObject *splits = PyTuple_GET_ITEM(PyList_GET_ITEM(parts, index), 1);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(splits); i++) {
            PyObject *split = PyTuple_GET_ITEM(splits, i);
            if (!hand[PyLong_AsLong(PyTuple_GET_ITEM(split, 0))])
                continue;
            int meld = (int)index;
            bool deferred = (listing->quick && listing->size > 2)
                || (listing->n_takers > 0 && listing->size > 3 && taker_left(listing, &meld, 1));
            PyObject *args[3] = {listing->seat, PyTuple_GET_ITEM(split, 1), PyTuple_GET_ITEM(split, 2)};
            if (list_row(listing, deferred, listing->kit[KIT_SPLIT_ACTION], args, 3) < 0)
                return -1;
        }
    }
    return 0;
}

/* A tuple of the ints items[0..n). */
static PyObject *int_tuple(const int *items, Py_ssize_t n)
{
    PyObject *tuple = PyTuple_New(n);
    for (Py_ssize_t i = 0; tuple != NULL && i < n; i++) {
        PyObject *item = PyLong_FromLong(items[i]);
        if (item == NULL)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

/* The sink of the spare search: moves._rearrangements' second loop, one spare-card build (the validity judged from
 * counts as table_offers._new_build and SpareBuild do: the new meld under the wild policy, each meld left behind). */
static int list_build(void *context, const Build *build)
{
    Listing *listing = context;
    int kept = listing->size - build->from_hand;
    int sources[MAX_MELDS];
    for (int i = 0; i < build->n_used; i++)
        sources[i] = listing->meld[build->used[i]];
    bool deferred = (listing->quick && kept >= 2)
        || (listing->n_takers > 0 && kept >= 3 && taker_left(listing, sources, build->n_used));
    if (deferred) {
        int wilds = build->wild_count;
        bool valid = policy_allows(listing->policy, wilds, build->n_cards - wilds);
        for (int i = 0; i < build->n_used && valid; i++)
            valid = listing->rest_valid[build->used[i]];
        if (!valid)
            return 0;
    }
    PyObject *used = int_tuple(build->used, build->n_used);
    PyObject *cards = used == NULL ? NULL : int_tuple(build->cards, build->n_cards);
    int result = -1;
    if (cards != NULL) {
        PyObject *args[5] = {listing->offers, listing->seat, used, listing->kinds[build->run], cards};
        result = list_row(listing, deferred, listing->kit[KIT_SPARE_ACTION], args, 5);
    }
    Py_XDECREF(used);
    Py_XDECREF(cards);
    return result;
}

/* Whether the table's parts are well formed (see the header); counts their spares into *n. */
static bool read_parts(PyObject *parts, Py_ssize_t *n)
{
    *n = 0;
    if (!PyList_Check(parts) || PyList_GET_SIZE(parts) > MAX_MELDS)
        return false;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(parts); index++) {
        PyObject *part = PyList_GET_ITEM(parts, index);
        if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) != 2 || !PyBytes_Check(PyTuple_GET_ITEM(part, 0))
            || !PyTuple_Check(PyTuple_GET_ITEM(part, 1)))
            return false;
        PyObject *spares = PyTuple_GET_ITEM(part, 0);
        const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(spares);
        if (PyBytes_GET_SIZE(spares) % 2 != 0)
            return false;
        for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(spares); i += 2)
            if (bytes[i] >= CARD_COUNT)
                return false;
        *n += PyBytes_GET_SIZE(spares) / 2;
        PyObject *splits = PyTuple_GET_ITEM(part, 1);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(splits); i++) {
            PyObject *split = PyTuple_GET_ITEM(splits, i);
            if (!PyTuple_Check(split) || PyTuple_GET_SIZE(split) != 3 || !PyLong_Check(PyTuple_GET_ITEM(split, 0)))
                return false;
            long card = PyLong_AsLong(PyTuple_GET_ITEM(split, 0));
            if (card < 0 || card >= CARD_COUNT) {
                PyErr_Clear(); /* (an int too large for a long) */
                return false;
            }
        }
    }
    return true;
}

/* Read `takers` (None or a tuple of table indices) into listing->takers (malloc'ed): 1, 0 when malformed, -1 with
 * an exception set. */
static int read_takers(PyObject *takers, Py_ssize_t n_melds, Listing *listing, int **storage)
{
    *storage = NULL;
    listing->n_takers = 0;
    if (takers == Py_None)
        return 1;
    if (!PyTuple_Check(takers))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(takers);
    *storage = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (*storage == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long index = PyLong_AsLong(PyTuple_GET_ITEM(takers, i));
        if (index == -1 && PyErr_Occurred())
            return -1;
        if (index < 0 || index >= n_melds)
            return 0;
        (*storage)[i] = (int)index;
    }
    listing->takers = *storage;
    listing->n_takers = n;
    return 1;
}

PyObject *rearrangements(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 10 || !PyList_Check(args[0]) || !PyTuple_Check(args[7]) || PyTuple_GET_SIZE(args[7]) != 4
        || !PyTuple_Check(args[9]) || PyTuple_GET_SIZE(args[9]) != KIT_SIZE) {
        PyErr_SetString(PyExc_TypeError, "rearrangements(moves: list, hand, seat, size, quick, takers, game, "
                        "table: tuple of 4, offers, kit: tuple of 6)");
        return NULL;
    }
    PyObject *const *table = &PyTuple_GET_ITEM(args[7], 0);
    long size = PyLong_AsLong(args[3]), run_min = PyLong_AsLong(table[1]), group_min = PyLong_AsLong(table[2]);
    int quick = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || quick < 0)
        return NULL;
    Search search = {.sink = list_build};
    Py_ssize_t n = 0;
    int hand[CARD_COUNT];
    int read = 1;
    if (!spare_rules(&search, table[0], run_min, group_min) || !read_parts(table[3], &n))
        read = 0;
    if (read == 1)
        read = read_hand(args[1], hand);
    Listing listing = {
        .moves = args[0], .seat = args[2], .size = (int)size, .quick = quick, .game = args[6], .offers = args[8],
        .kit = &PyTuple_GET_ITEM(args[9], 0), .policy = search.rules.policy,
    };
    int *takers = NULL;
    if (read == 1)
        read = read_takers(args[5], PyList_GET_SIZE(table[3]), &listing, &takers);
    unsigned char *rest_valid = NULL;
    int held[CARD_COUNT];
    Py_ssize_t n_held = 0;
    if (read == 1 && spare_alloc(&search, n, (int)PyList_GET_SIZE(table[3])) == 0
        && (rest_valid = malloc((size_t)(n > 0 ? n : 1))) != NULL) {
        Py_ssize_t spare = 0;
        for (Py_ssize_t index = 0; index < PyList_GET_SIZE(table[3]); index++) {
            PyObject *spares = PyTuple_GET_ITEM(PyList_GET_ITEM(table[3], index), 0);
            const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(spares);
            for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(spares); i += 2, spare++) {
                search.card[spare] = bytes[i];
                search.meld[spare] = (int)index;
                rest_valid[spare] = bytes[i + 1];
            }
        }
        for (int card = 0; card < CARD_COUNT; card++) /* the hand's card kinds, ascending (moves._play_actions) */
            if (hand[card])
                held[n_held++] = card;
        listing.rest_valid = rest_valid;
        listing.meld = search.meld;
        search.context = &listing;
        listing.kinds[0] = PyUnicode_InternFromString("set");
        listing.kinds[1] = PyUnicode_InternFromString("run");
        if (listing.kinds[0] == NULL || listing.kinds[1] == NULL || list_splits(&listing, table[3], hand) < 0
            || spare_each(&search, hand, held, n_held) < 0)
            read = -1;
        Py_XDECREF(listing.kinds[0]);
        Py_XDECREF(listing.kinds[1]);
    } else if (read == 1) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        read = -1;
    }
    spare_free(&search);
    free(rest_valid);
    free(takers);
    if (read < 0)
        return NULL;
    if (read == 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(listing.deferred);
}
