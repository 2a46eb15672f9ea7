/*
 * copy_fields(state, fields, kinds) -> object | None
 *
 * The field copying of rummy.engine.state.GameState.copy, compiled: a new object of the state's own type whose
 * every field holds the state's value, each list field a copy of the list (cards, actions and melds are immutable,
 * so their lists are copied shallowly), each list of count vectors a new list of copies of them.  What else copy does
 * (the RNG's sharing, the claim window's copy) stays Python.
 *
 *   fields   a tuple of the slot descriptors of the fields (GameState.__dict__[name] for each field);
 *   kinds    a bytes object, one byte a field: 0 shared, 1 a list copied, 2 a list of lists copied two levels deep
 *            (a field of kind 1 or 2 that holds something else than a list, None for one, is shared).
 *
 * None when an argument does not fit (a descriptor that is not an object slot of the state's type, kinds of another
 * length or with another byte, a state whose type has a __dict__ that the copy would lose): the Python copy answers
 * then.
 */
#include "core.h"

#include <stdbool.h>
#include <structmember.h>

enum { SHARED = 0, LIST = 1, LISTS = 2 };

bool object_slot(PyObject *descriptor, PyTypeObject *type)
{
    if (!Py_IS_TYPE(descriptor, &PyMemberDescr_Type))
        return false;
    PyMemberDescrObject *member = (PyMemberDescrObject *)descriptor;
    return member->d_member->type == T_OBJECT_EX && PyType_IsSubtype(type, PyDescr_TYPE(member));
}

/* A copy of the list `list` and, two levels deep (`deep`), of each list in it.  A new reference, or NULL with an
 * exception set. */
static PyObject *copy_list(PyObject *list, bool deep)
{
    Py_ssize_t size = PyList_GET_SIZE(list);
    PyObject *copy = PyList_New(size);
    if (copy == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (deep && PyList_CheckExact(item)) {
            item = PyList_GetSlice(item, 0, PyList_GET_SIZE(item));
            if (item == NULL) {
                Py_DECREF(copy);
                return NULL;
            }
        } else {
            Py_INCREF(item);
        }
        PyList_SET_ITEM(copy, i, item);
    }
    return copy;
}

PyObject *copy_fields(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "copy_fields takes 3 arguments, not %zd", nargs);
    PyObject *state = args[0], *fields = args[1], *kinds = args[2];
    PyTypeObject *type = Py_TYPE(state);
    if (!PyTuple_Check(fields) || !PyBytes_Check(kinds) || PyBytes_GET_SIZE(kinds) != PyTuple_GET_SIZE(fields)
        || type->tp_dictoffset != 0)
        Py_RETURN_NONE;
    Py_ssize_t count = PyTuple_GET_SIZE(fields);
    const char *kind = PyBytes_AS_STRING(kinds);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!object_slot(PyTuple_GET_ITEM(fields, i), type) || kind[i] < SHARED || kind[i] > LISTS)
            Py_RETURN_NONE;
    PyObject *copy = type->tp_alloc(type, 0);
    if (copy == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t offset = ((PyMemberDescrObject *)PyTuple_GET_ITEM(fields, i))->d_member->offset;
        PyObject *value = *(PyObject **)((char *)state + offset);
        if (value == NULL) /* a field never set (GameState's are all set by __init__) */
            continue;
        if (kind[i] != SHARED && PyList_CheckExact(value)) {
            value = copy_list(value, kind[i] == LISTS);
            if (value == NULL) {
                Py_DECREF(copy);
                return NULL;
            }
        } else {
            Py_INCREF(value);
        }
        *(PyObject **)((char *)copy + offset) = value;
    }
    return copy;
}
