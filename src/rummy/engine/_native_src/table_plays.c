/*
 * held_actions(out, hand, seat, offers, verb, memo, make) -> True | None
 *
 * rummy.engine.moves._held_layoffs and _held_swaps, compiled: the listing's pass over a table's lay-off or wild-swap offers
 * (TableOffers.layoffs, TableOffers.swaps) against a hand.  Appends to the list `out`, in the offers' order, the
 * simple action of each offer whose card the hand holds: moves.simple_action(seat, verb, card, meld id, end), read
 * from its memo `memo` (moves._SIMPLE) and made by `make` (moves.simple_action, which memoises it) when it is not
 * there yet.
 *
 *   hand     53 counts (a list or tuple);
 *   offers   a list of (card, meld id, end) when `verb` is a verb, of (verb, card, meld id, end) when it is None;
 *
 * None, `out` untouched, when an argument is malformed (a hand that is not 53 small counts, an offer that is not
 * such a tuple of a card below 53): the Python pass answers then.
 */
#include "core.h"

#include <stdbool.h>

/* Whether `offers` is a list of well-formed offers of `width` items whose card (item `at`) is below 53. */
static bool read_offers(PyObject *offers, Py_ssize_t width, Py_ssize_t at)
{
    if (!PyList_Check(offers))
        return false;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(offers); i++) {
        PyObject *offer = PyList_GET_ITEM(offers, i);
        if (!PyTuple_Check(offer) || PyTuple_GET_SIZE(offer) != width || !PyLong_Check(PyTuple_GET_ITEM(offer, at)))
            return false;
        long card = PyLong_AsLong(PyTuple_GET_ITEM(offer, at));
        if (card < 0 || card >= CARD_COUNT) {
            PyErr_Clear(); /* (an int too large for a long) */
            return false;
        }
    }
    return true;
}

/* The simple action (seat, verb, card, meld, end): from `memo`, else made by `make`.  A new reference, or NULL with
 * an exception set. */
static PyObject *simple_action(PyObject *memo, PyObject *make, PyObject *const *key_items)
{
    PyObject *key = PyTuple_Pack(5, key_items[0], key_items[1], key_items[2], key_items[3], key_items[4]);
    if (key == NULL)
        return NULL;
    PyObject *action = PyDict_GetItemWithError(memo, key);
    Py_DECREF(key);
    if (action != NULL) {
        Py_INCREF(action);
        return action;
    }
    if (PyErr_Occurred())
        return NULL;
    return PyObject_Vectorcall(make, key_items, 5, NULL);
}

PyObject *held_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7 || !PyList_Check(args[0]) || !PyDict_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "held_actions(out: list, hand, seat, offers, verb, memo: dict, make)");
        return NULL;
    }
    PyObject *out = args[0], *offers = args[3], *verb = args[4], *memo = args[5], *make = args[6];
    bool own_verbs = verb == Py_None; /* each offer names its verb first */
    Py_ssize_t at = own_verbs ? 1 : 0;
    int hand[CARD_COUNT];
    int read = read_hand(args[1], hand);
    if (read < 0)
        return NULL;
    if (read == 0 || !read_offers(offers, own_verbs ? 4 : 3, at))
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(offers); i++) {
        PyObject *offer = PyList_GET_ITEM(offers, i);
        if (!hand[PyLong_AsLong(PyTuple_GET_ITEM(offer, at))])
            continue;
        PyObject *key_items[5] = {args[2], own_verbs ? PyTuple_GET_ITEM(offer, 0) : verb, PyTuple_GET_ITEM(offer, at),
                                  PyTuple_GET_ITEM(offer, at + 1), PyTuple_GET_ITEM(offer, at + 2)};
        PyObject *action = simple_action(memo, make, key_items);
        if (action == NULL)
            return NULL;
        int failed = PyList_Append(out, action);
        Py_DECREF(action);
        if (failed)
            return NULL;
    }
    Py_RETURN_TRUE;
}
