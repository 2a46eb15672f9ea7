/*
 * The claim window's steps of the compiled apply of the simple actions (simple_steps.c's simple_apply): who may claim
 * and the window that opens, a claim with its penalty cards and price, an answer and the window's resolution, each
 * following the Python function it names (rules/claims.py's window_mode, claim_allowance_left, eligible, open_window
 * and take_claim; rules/window.py's answer and resolve).
 */
#include "steps.h"

/* ---- rules/claims.py ---- */

int window_mode(Apply *a)
{
    PyObject *mode = identity_of(a->variant, step_names[N_CLAIM_MODE]);
    if (mode == NULL)
        return -1;
    if (mode == a->kit[K_PRE_DRAW]) {
        int refusal = truth_of(a->variant, step_names[N_ACTIVE_FIRST_REFUSAL]);
        return refusal < 0 ? -1 : refusal ? MODE_DECLINE : MODE_PRE;
    }
    if (mode == a->kit[K_AFTER_DECLINE])
        return MODE_DECLINE;
    if (mode == a->kit[K_ACTIVE_FIRST_THEN_OTHERS])
        return MODE_CASCADE;
    return MODE_NONE;
}

/* The sum of state.claims_used, or its item `seat`: -1 with an exception set. */
static long claims_used(Apply *a, long seat, bool all)
{
    PyObject *used = list_of(a->state, step_names[N_CLAIMS_USED]);
    if (used == NULL)
        return -1;
    long total = 0, value;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(used); i++) {
        if (!get_long(PyList_GET_ITEM(used, i), &value)) {
            Py_DECREF(used);
            PyErr_SetString(PyExc_TypeError, "simple_apply: a claim count that is not an int");
            return -1;
        }
        if (all || i == seat)
            total += value;
    }
    Py_DECREF(used);
    return total;
}

/* claim_allowance_left(state, seat): 1, 0, -1. */
int claim_allowance_left(Apply *a, long seat)
{
    long limit;
    int kind = long_of(a->rules, step_names[N_CLAIM_LIMIT], &limit);
    if (kind <= 0)
        return kind < 0 ? -1 : 1;
    PyObject *scope = identity_of(a->variant, step_more_names[M_CLAIM_LIMIT_SCOPE]);
    if (scope == NULL)
        return -1;
    long used = claims_used(a, seat, scope == a->kit[K_TABLE_SCOPE]);
    return used < 0 ? -1 : used < limit;
}

/* eligible(state, discarder): a new list, NULL with an exception set. */
static PyObject *eligible(Apply *a, long discarder)
{
    PyObject *seats = PyList_New(0);
    if (seats == NULL)
        return NULL;
    long penalty, limit, active;
    int open = truth_of(a->rules, step_names[N_CLAIMS_OPEN]);
    if (open < 0 || long_of(a->rules, step_names[N_PENALTY_CARDS], &penalty) < 0)
        goto fail;
    if (!open)
        return seats;
    int drawable = stock_drawable(a, penalty, true);
    if (drawable <= 0) {
        if (drawable < 0)
            goto fail;
        return seats;
    }
    int limited = long_of(a->rules, step_names[N_CLAIM_LIMIT], &limit);
    int when_down = truth_of(a->variant, step_more_names[M_CLAIM_ALLOWED_WHEN_DOWN]);
    int discarder_may = truth_of(a->variant, step_more_names[M_DISCARDER_MAY_CLAIM]);
    if (limited < 0 || when_down < 0 || discarder_may < 0 || long_of(a->state, step_names[N_ACTIVE], &active) < 0)
        goto fail;
    PyObject *down = list_of(a->state, step_names[N_DOWN]);
    if (down == NULL)
        goto fail;
    for (long distance = 1; distance < a->n; distance++) {
        long seat = (active + distance) % a->n;
        int allowed = limited == 0 ? 1 : claim_allowance_left(a, seat);
        if (allowed < 0 || seat >= PyList_GET_SIZE(down)) {
            if (allowed >= 0)
                PyErr_SetString(PyExc_TypeError, "simple_apply: state.down is short");
            Py_DECREF(down);
            goto fail;
        }
        int is_down = PyObject_IsTrue(PyList_GET_ITEM(down, seat));
        if (is_down < 0) {
            Py_DECREF(down);
            goto fail;
        }
        if (allowed && (when_down || !is_down) && (discarder_may || seat != discarder) && append_long(seats, seat) < 0) {
            Py_DECREF(down);
            goto fail;
        }
    }
    Py_DECREF(down);
    return seats;
fail:
    Py_DECREF(seats);
    return NULL;
}

/* open_window(state, after_decline=...): 1 opened, 0 nobody may claim (nothing changed), -1. */
int open_window(Apply *a, bool after_decline)
{
    long card, discarder;
    int has_card = last_of(a->state, step_names[N_DISCARD], &card);
    if (has_card <= 0)
        return has_card;
    if (last_of(a->state, step_names[N_DISCARDERS], &discarder) <= 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "simple_apply: the pile has no discarders");
        return -1;
    }
    PyObject *seats = eligible(a, discarder);
    if (seats == NULL)
        return -1;
    if (PyList_GET_SIZE(seats) == 0) {
        Py_DECREF(seats);
        return 0;
    }
    PyObject *top = PyLong_FromLong(card);
    PyObject *window = top == NULL ? NULL : PyObject_CallFunctionObjArgs(
        a->kit[K_CLAIM_WINDOW], top, seats, after_decline ? Py_True : Py_False, NULL);
    Py_XDECREF(top);
    Py_DECREF(seats);
    if (window == NULL)
        return -1;
    int result = set_attribute(a->state, step_names[N_WINDOW], window);
    Py_DECREF(window);
    if (result < 0 || set_attribute(a->state, step_names[N_PHASE], a->kit[K_CLAIM]) < 0)
        return -1;
    return 1;
}

/* take_claim(state, seat). */
static int take_claim(Apply *a, long seat)
{
    if (pick_up(a, seat) < 0)
        return -1;
    long penalty, claim_cost, blind_cost;
    if (long_of(a->rules, step_names[N_PENALTY_CARDS], &penalty) < 0)
        return -1;
    for (long i = 0; i < penalty; i++) {
        long drawn = draw_from_stock(a);
        if (drawn < 0 || give(a, seat, drawn) < 0)
            return -1;
    }
    if (add_to_field(a->state, step_names[N_CLAIMS_USED], seat, 1) < 0
        || long_of(a->variant, step_more_names[M_CLAIM_COST], &claim_cost) < 0
        || long_of(a->variant, step_more_names[M_BLIND_CARD_COST], &blind_cost) < 0)
        return -1;
    long cost = claim_cost + blind_cost * penalty, kitty;
    if (long_of(a->state, step_names[N_KITTY], &kitty) < 0 || set_long(a->state, step_names[N_KITTY], kitty + cost) < 0)
        return -1;
    return add_to_field(a->state, step_names[N_PENNIES_PAID], seat, cost);
}

/* ---- rules/window.py ---- */

/* resolve(state, winner): winner -1 for None. */
static int resolve(Apply *a, PyObject *window, long winner)
{
    int after_decline = truth_of(window, step_names[N_AFTER_DECLINE]);
    if (after_decline < 0 || set_attribute(a->state, step_names[N_WINDOW], Py_None) < 0)
        return -1;
    if (winner >= 0) {
        if (take_claim(a, winner) < 0)
            return -1;
        PyObject *per_window = identity_of(a->variant, step_more_names[M_CLAIMS_PER_WINDOW]);
        if (per_window == NULL)
            return -1;
        bool cascade = per_window == a->kit[K_CASCADE_CLAIMS];
        if (!cascade && set_bool(a->state, step_names[N_DEAD], true) < 0)
            return -1;
        if (!after_decline) {
            if (set_bool(a->state, step_names[N_AFTER_CLAIM], true) < 0)
                return -1;
            if (cascade) {
                int opened = open_window(a, false);
                if (opened != 0)
                    return opened < 0 ? -1 : 0;
            }
            return enter_draw(a);
        }
        int mode = window_mode(a);
        if (mode < 0)
            return -1;
        if (mode == MODE_CASCADE) {
            if (set_bool(a->state, step_names[N_AFTER_CLAIM], true) < 0)
                return -1;
            return enter_draw(a);
        }
    }
    else if (!after_decline)
        return enter_draw(a);
    /* After a declined discard the active player's stock card comes now. */
    int drawable = stock_drawable(a, 1, false);
    if (drawable < 0)
        return -1;
    if (drawable)
        return active_draws_stock(a);
    if (set_bool(a->state, step_names[N_DEAD], false) < 0)
        return -1;
    return enter_draw(a);
}

/* answer(state, window, action) for `seat`'s buy or pass. */
int answer(Apply *a, long seat, bool buy)
{
    PyObject *window = get_attribute(a->state, step_names[N_WINDOW]);
    if (window == NULL)
        return -1;
    int result = -1;
    PyObject *answered = get_attribute(window, step_names[N_ANSWERED]);
    PyObject *claimants = answered == NULL ? NULL : get_attribute(window, step_names[N_CLAIMANTS]);
    PyObject *seats = claimants == NULL ? NULL : get_attribute(window, step_names[N_ELIGIBLE]);
    PyObject *key = seats == NULL ? NULL : PyLong_FromLong(seat);
    if (key == NULL)
        goto done;
    if (!PySet_Check(answered) || !PySet_Check(claimants) || !PyList_CheckExact(seats)) {
        PyErr_SetString(PyExc_TypeError, "simple_apply: a claim window of another shape");
        goto done;
    }
    if (PySet_Add(answered, key) < 0)
        goto done;
    if (buy) {
        PyObject *priority = identity_of(a->variant, step_more_names[M_CLAIM_PRIORITY]);
        if (priority == NULL)
            goto done;
        if (priority == a->kit[K_FIRST_CALL]) {
            result = resolve(a, window, seat);
            goto done;
        }
        if (PySet_Add(claimants, key) < 0)
            goto done;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(seats); i++) {
        PyObject *candidate = PyList_GET_ITEM(seats, i);
        long number;
        int claims = PySet_Contains(claimants, candidate);
        if (claims < 0 || !get_long(candidate, &number)) {
            if (claims >= 0)
                PyErr_SetString(PyExc_TypeError, "simple_apply: a seat that is not an int");
            goto done;
        }
        if (claims) {
            result = resolve(a, window, number);
            goto done;
        }
        int did = PySet_Contains(answered, candidate);
        if (did <= 0) {
            result = did;
            goto done;
        }
    }
    result = resolve(a, window, -1);
done:
    Py_XDECREF(key);
    Py_XDECREF(seats);
    Py_XDECREF(claimants);
    Py_XDECREF(answered);
    Py_DECREF(window);
    return result;
}
