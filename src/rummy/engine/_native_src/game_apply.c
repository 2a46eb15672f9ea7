/*
 * game_apply(game, action, kit, kind, fields) -> Applied | None
 *
 * rummy.engine.game.Game.apply, compiled for the actions simple_apply (simple_steps.c) applies: the action applied
 * and the record Game.apply returns of it, step by step as Game.apply makes it: the phase before, the claim counts
 * before and the number of round results before are read; the state's `received` journal starts empty; the action
 * is applied; then the record (new_record, records.c) holds the action, the phase before and after, the cards
 * received, the first seat whose claim count grew (the claim the action closed) and the round's result when the
 * action ended the round.
 *
 *   kit           rules/__init__.py's APPLY_KIT, simple_apply's.
 *   kind, fields  the record's type (Applied) and its slot descriptors (backends.record_slots), as new_record takes
 *                 them; where new_record does not fit them the type itself is called, as backends.frozen_record does.
 *
 * None, with nothing changed, where simple_apply answers None (Game.apply's Python path then applies or refuses the
 * action) or the game's claim counts and round results are not lists.
 */
#include "core.h"

static PyObject *names[4];
enum { N_PHASE, N_CLAIMS_USED, N_RESULTS, N_RECEIVED };

static int intern_names(void)
{
    static const char *const spelled[] = {"phase", "claims_used", "results", "received"};
    if (names[0] != NULL)
        return 0;
    for (size_t i = 0; i < sizeof spelled / sizeof *spelled; i++)
        if ((names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    return 0;
}

/* game.name if it is a list (a new reference); NULL, with an exception set only on an error, otherwise. */
static PyObject *list_field(PyObject *game, PyObject *name)
{
    PyObject *value = get_attribute(game, name);
    if (value != NULL && !PyList_CheckExact(value))
        Py_CLEAR(value);
    return value;
}

/* Game.apply's claimed_by: the first seat whose count in `after` differs from `before`, or None (a new reference);
 * NULL with an exception set. */
static PyObject *claimed_by(PyObject *before, PyObject *after)
{
    Py_ssize_t seats = PyList_GET_SIZE(before) < PyList_GET_SIZE(after) ? PyList_GET_SIZE(before)
                                                                         : PyList_GET_SIZE(after);
    for (Py_ssize_t seat = 0; seat < seats; seat++) {
        int same = PyObject_RichCompareBool(PyList_GET_ITEM(before, seat), PyList_GET_ITEM(after, seat), Py_EQ);
        if (same < 0)
            return NULL;
        if (!same)
            return PyLong_FromSsize_t(seat);
    }
    Py_RETURN_NONE;
}

/* The record of an applied action: new_record's, else kind(*values) (a new reference, or NULL). */
static PyObject *record_of(PyObject *module, PyObject *kind, PyObject *fields, PyObject *const *values)
{
    PyObject *record_args[8] = {kind, fields, values[0], values[1], values[2], values[3], values[4], values[5]};
    PyObject *record = new_record(module, record_args, 8);
    if (record != Py_None)
        return record;
    Py_DECREF(record);
    return PyObject_Vectorcall(kind, values, 6, NULL);
}

PyObject *game_apply(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5)
        return PyErr_Format(PyExc_TypeError, "game_apply takes 5 arguments, not %zd", nargs);
    if (intern_names() < 0)
        return NULL;
    PyObject *game = args[0], *action = args[1];
    PyObject *claims = list_field(game, names[N_CLAIMS_USED]);
    PyObject *results = claims == NULL ? NULL : list_field(game, names[N_RESULTS]);
    PyObject *journal = results == NULL ? NULL : get_attribute(game, names[N_RECEIVED]);
    PyObject *phase_before = journal == NULL ? NULL : get_attribute(game, names[N_PHASE]);
    PyObject *claims_before = phase_before == NULL ? NULL : PyList_GetSlice(claims, 0, PyList_GET_SIZE(claims));
    PyObject *received = claims_before == NULL ? NULL : PyList_New(0);
    Py_ssize_t results_before = results == NULL ? 0 : PyList_GET_SIZE(results);
    Py_XDECREF(claims);
    Py_XDECREF(results);
    PyObject *applied = NULL, *record = NULL;
    if (received == NULL || set_attribute(game, names[N_RECEIVED], received) < 0)
        goto done; /* (a field that is not a list: None, the Python path answers) */
    PyObject *apply_args[3] = {game, action, args[2]};
    applied = simple_apply(module, apply_args, 3);
    if (applied != Py_True) { /* not covered (None, nothing changed), or an error: the journal as it was */
        if (set_attribute(game, names[N_RECEIVED], journal) < 0)
            Py_CLEAR(applied);
        goto done;
    }
    PyObject *values[6] = {action, phase_before, NULL, NULL, NULL, NULL};
    PyObject *claims_after = list_field(game, names[N_CLAIMS_USED]);
    PyObject *results_after = claims_after == NULL ? NULL : list_field(game, names[N_RESULTS]);
    PyObject *received_now = results_after == NULL ? NULL : get_attribute(game, names[N_RECEIVED]);
    values[2] = received_now == NULL ? NULL : get_attribute(game, names[N_PHASE]);
    values[3] = values[2] == NULL ? NULL : PySequence_Tuple(received_now);
    values[4] = values[3] == NULL ? NULL : claimed_by(claims_before, claims_after);
    if (values[4] != NULL) {
        Py_ssize_t size = PyList_GET_SIZE(results_after);
        values[5] = size > results_before ? PyList_GET_ITEM(results_after, size - 1) : Py_None;
        Py_INCREF(values[5]);
        record = record_of(module, args[3], args[4], values);
    }
    else if (!PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "game_apply: a game whose claim counts or results are not lists");
    for (int i = 2; i < 6; i++)
        Py_XDECREF(values[i]);
    Py_XDECREF(received_now);
    Py_XDECREF(results_after);
    Py_XDECREF(claims_after);
done:
    Py_XDECREF(received);
    Py_XDECREF(claims_before);
    Py_XDECREF(phase_before);
    Py_XDECREF(journal);
    if (applied == Py_True) {
        Py_DECREF(applied);
        return record;
    }
    if (applied == NULL && PyErr_Occurred())
        return NULL;
    Py_XDECREF(applied);
    Py_RETURN_NONE;
}
