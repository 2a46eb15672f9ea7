/*
 * new_record(type, fields, *values) -> object | None
 *
 * A new instance of the slotted (frozen) dataclass `type` whose fields hold `values`, as `type(*values)` makes it,
 * its slots set directly: what rummy.engine.game.Game.apply builds its Applied record with, one per action (the
 * frozen dataclass's __init__, one object.__setattr__ a field, costs more than the compiled apply of a pass or a
 * take).  Only for a dataclass whose __init__ sets each field from its argument and does nothing more (no
 * __post_init__, no converter): the caller vouches for that, the tests compare the records.
 *
 *   fields   a tuple of the slot descriptors of the fields, in the order of the values (type.__dict__[name] for
 *            each field of type.__dataclass_fields__).
 *
 * None when the arguments do not fit (not a type, a type with a __dict__ or with other slots than `fields`, a
 * descriptor that is not an object slot of `type`, a value count other than the fields'): the caller builds the
 * record in Python then.
 */
#include "core.h"

#include <structmember.h>

/* Whether `descriptor` is an object slot of `type` itself. */
static bool own_slot(PyObject *descriptor, PyTypeObject *type)
{
    if (!Py_IS_TYPE(descriptor, &PyMemberDescr_Type))
        return false;
    PyMemberDescrObject *member = (PyMemberDescrObject *)descriptor;
    return member->d_member->type == T_OBJECT_EX && PyDescr_TYPE(member) == type
           && (member->d_member->flags & READONLY) == 0;
}

/* How many members `type` declares itself (its __slots__). */
static Py_ssize_t slot_count(PyTypeObject *type)
{
    Py_ssize_t count = 0;
    for (PyMemberDef *member = type->tp_members; member != NULL && member->name != NULL; member++)
        count++;
    return count;
}

PyObject *new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs < 2)
        return PyErr_Format(PyExc_TypeError, "new_record takes at least 2 arguments, not %zd", nargs);
    if (!PyType_Check(args[0]) || !PyTuple_CheckExact(args[1]))
        Py_RETURN_NONE;
    PyTypeObject *type = (PyTypeObject *)args[0];
    PyObject *fields = args[1];
    Py_ssize_t count = PyTuple_GET_SIZE(fields);
    if (count != nargs - 2 || type->tp_dictoffset != 0 || type->tp_alloc == NULL || slot_count(type) != count
        || type->tp_base != &PyBaseObject_Type)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!own_slot(PyTuple_GET_ITEM(fields, i), type))
            Py_RETURN_NONE;
        for (Py_ssize_t j = 0; j < i; j++) /* each slot once: none left unset */
            if (PyTuple_GET_ITEM(fields, j) == PyTuple_GET_ITEM(fields, i))
                Py_RETURN_NONE;
    }
    PyObject *record = type->tp_alloc(type, 0);
    if (record == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t offset = ((PyMemberDescrObject *)PyTuple_GET_ITEM(fields, i))->d_member->offset;
        PyObject **slot = (PyObject **)((char *)record + offset);
        PyObject *old = *slot;
        Py_INCREF(args[i + 2]);
        *slot = args[i + 2];
        Py_XDECREF(old);
    }
    return record;
}
