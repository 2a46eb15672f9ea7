/*
 * spare_builds(hand, held, spares, rules, run_min, group_min) -> list | None
 *
 * rummy.engine.deadlock.SpareBuilds.each's builds, found by the compiled search (spare_search.c): the new melds a
 * hand can make of its naturals (at least one) and spare table cards (at least one, each from a different meld),
 * in the same order and with the same cards.  What a build is made into (the `make` callback, SpareBuilds' memo of
 * it) stays in Python: this returns, per build, what `make` is given, and the memo key
 * (SpareBuilds._native_each reads it).
 *
 *   hand     53 counts (a list or tuple); held: the hand's card kinds in the order `each` reads them;
 *   spares   the table's spares in table order (deadlock.table_spares), 3 bytes each: the card, and the index of
 *            its meld (low byte, high byte; equal indices for equal meld ids);
 *   rules    the variant's rules (meld_rules.compiled_meld_rules, core.h's MeldRules);
 *
 * Each build is a tuple (key, spare indices used, kind "set" or "run", cards, cards from the hand, wild count),
 * key (rank, own cards) for a set and (suit, lowest value, window) for a run, as SpareBuilds memoises them.
 * None when an argument is malformed or a minimum is out of range: the Python search answers then.
 */
#include "spare.h"

#include <stdlib.h>

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

/* The sink of spare_builds: append (key, used, kind, cards, from_hand, wild_count) to the list `context`, SpareBuilds'
 * `make` arguments and memo key.  0, or -1 with an exception set. */
static int append_build(void *context, const Build *build)
{
    PyObject *key = build->run ? Py_BuildValue("(iii)", build->suit, build->low, build->window) : NULL;
    if (!build->run) {
        PyObject *own = int_tuple(build->own, build->n_own);
        key = own == NULL ? NULL : Py_BuildValue("(iN)", build->rank, own);
    }
    if (key == NULL)
        return -1;
    PyObject *used = int_tuple(build->used, build->n_used);
    PyObject *cards = used == NULL ? NULL : int_tuple(build->cards, build->n_cards);
    PyObject *row = cards == NULL ? NULL
        : Py_BuildValue("(NNsNii)", key, used, build->run ? "run" : "set", cards, build->from_hand, build->wild_count);
    if (row == NULL) {
        if (cards == NULL) {
            Py_DECREF(key);
            Py_XDECREF(used);
        }
        return -1;
    }
    int failed = PyList_Append((PyObject *)context, row);
    Py_DECREF(row);
    return failed;
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
    if (nargs != 6 || !PyBytes_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "spare_builds(hand, held, spares: bytes, rules: bytes, run_min, group_min)");
        return NULL;
    }
    long run_min = PyLong_AsLong(args[4]);
    if (run_min == -1 && PyErr_Occurred())
        return NULL;
    long group_min = PyLong_AsLong(args[5]);
    if (group_min == -1 && PyErr_Occurred())
        return NULL;
    Search search = {.sink = append_build};
    Py_ssize_t spares_size = PyBytes_GET_SIZE(args[2]);
    if (spares_size % 3 != 0 || !spare_rules(&search, args[3], run_min, group_min))
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
    const unsigned char *packed = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    Py_ssize_t n = spares_size / 3;
    int n_melds = 0;
    bool well_formed = true;
    for (Py_ssize_t i = 0; i < n; i++) {
        int meld = packed[3 * i + 1] | packed[3 * i + 2] << 8;
        well_formed = well_formed && packed[3 * i] < CARD_COUNT;
        if (meld >= n_melds)
            n_melds = meld + 1;
    }
    PyObject *out = NULL;
    if (!well_formed) {
        out = Py_None;
        Py_INCREF(out);
    } else if (spare_alloc(&search, n, n_melds) == 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            search.card[i] = packed[3 * i];
            search.meld[i] = packed[3 * i + 1] | packed[3 * i + 2] << 8;
        }
        out = PyList_New(0);
        search.context = out;
        if (out != NULL && spare_each(&search, hand, held, n_held) < 0)
            Py_CLEAR(out);
    }
    spare_free(&search);
    free(held);
    return out;
}
