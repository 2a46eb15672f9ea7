/*
 * The purchase variant's purchase, trade and exchange applied (rules/purchase.py's purchase_step), for the compiled
 * apply of the simple actions (simple_steps.c's simple_apply, once simple_check.c's judgement accepted the action):
 * the purchase card changes hands with a card of the discard pile (a purchase: the old purchase card goes where the
 * card was, or on top, by pc_discard_position), with another seat's purchase card (a trade) or with a card of the hand
 * (an exchange), and the turn's one purchase is used.
 */
#include "steps.h"

/* action.name as a card or seat (None read as `otherwise`, as the Python rules read it): 0, or -1 with an exception
 * set. */
static int field_or(PyObject *action, PyObject *name, long otherwise, long *value)
{
    int kind = long_of(action, name, value);
    if (kind == 0)
        *value = otherwise;
    return kind < 0 ? -1 : 0;
}

/* list[index] = value (a list of ints; the index in range). */
static int set_item(PyObject *list, Py_ssize_t index, long value)
{
    if (index < 0 || index >= PyList_GET_SIZE(list)) {
        PyErr_SetString(PyExc_IndexError, "simple_apply: an index out of its list");
        return -1;
    }
    PyObject *number = PyLong_FromLong(value);
    if (number == NULL)
        return -1;
    PyList_SetItem(list, index, number); /* steals the reference; drops the old item */
    return 0;
}

/* A purchase of `card` for `old_pc`: the last copy of the card in the pile replaced by the old purchase card in place,
 * or taken out and the old purchase card put on top (its discarder: `seat`). */
static int swap_with_pile(Apply *a, long seat, long card, long old_pc)
{
    PyObject *pile = list_of(a->state, step_names[N_DISCARD]);
    PyObject *by = pile == NULL ? NULL : list_of(a->state, step_names[N_DISCARDERS]);
    PyObject *position = by == NULL ? NULL : get_attribute(a->variant, step_more_names[M_PC_DISCARD_POSITION]);
    int result = -1;
    if (position != NULL) {
        Py_ssize_t index = PyList_GET_SIZE(pile) - 1;
        long item;
        while (index >= 0 && !(get_long(PyList_GET_ITEM(pile, index), &item) && item == card))
            index--;
        if (index < 0 || index >= PyList_GET_SIZE(by))
            PyErr_SetString(PyExc_ValueError, "simple_apply: the card purchased is not in the discard pile");
        else if (position == a->kit[K_IN_PLACE])
            result = set_item(pile, index, old_pc) < 0 || set_item(by, index, seat) < 0 ? -1 : 0;
        else
            result = PyList_SetSlice(pile, index, index + 1, NULL) < 0 || PyList_SetSlice(by, index, index + 1, NULL) < 0
                             || append_long(pile, old_pc) < 0 || append_long(by, seat) < 0
                         ? -1
                         : 0;
    }
    Py_XDECREF(position);
    Py_XDECREF(by);
    Py_XDECREF(pile);
    return result;
}

int purchase_step(Apply *a, long seat, PyObject *verb, PyObject *action)
{
    PyObject *pcs = list_of(a->state, step_more_names[M_PURCHASE_CARDS]);
    PyObject *hands = pcs == NULL ? NULL : list_of(a->state, step_names[N_HANDS]);
    if (hands == NULL) {
        Py_XDECREF(pcs);
        return -1;
    }
    PyObject *hand = seat < PyList_GET_SIZE(hands) ? PyList_GET_ITEM(hands, seat) : NULL;
    long old_pc, new_pc, gained;
    int result = -1;
    if (hand == NULL || !PyList_CheckExact(hand) || seat >= PyList_GET_SIZE(pcs)
        || !get_long(PyList_GET_ITEM(pcs, seat), &old_pc)) {
        PyErr_SetString(PyExc_TypeError, "simple_apply: a hand or purchase card that does not read");
    } else if (field_or(action, step_more_names[M_NEW_PC], 0, &new_pc) == 0) {
        if (verb == a->kit[K_PURCHASE]) {
            result = field_or(action, step_names[N_CARD], 0, &gained);
            result = result < 0 ? -1 : swap_with_pile(a, seat, gained, old_pc);
        } else if (verb == a->kit[K_TRADE]) {
            long target;
            result = field_or(action, step_more_names[M_TARGET], seat, &target);
            if (result == 0 && (target < 0 || target >= PyList_GET_SIZE(pcs)
                                || !get_long(PyList_GET_ITEM(pcs, target), &gained))) {
                PyErr_SetString(PyExc_TypeError, "simple_apply: a trade with a seat that does not read");
                result = -1;
            }
            result = result < 0 ? -1 : set_item(pcs, target, old_pc);
        } else {
            gained = old_pc;
            result = 0;
        }
        if (result == 0)
            result = add_to_item(hand, gained, 1) < 0 || add_to_item(hand, new_pc, -1) < 0
                             || set_item(pcs, seat, new_pc) < 0
                             || set_bool(a->state, step_names[N_PURCHASE_DONE], true) < 0
                         ? -1
                         : 0;
    }
    Py_DECREF(hands);
    Py_DECREF(pcs);
    return result;
}
