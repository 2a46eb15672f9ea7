/*
 * Reading and writing the attributes of the Python objects the compiled queries are handed (every module), and
 * reading the values they are handed (observation.c, history.c): a float32 array, an int, an int or None.  Each
 * reader answers false (or -1) with no exception set when the value is not what is asked, so that the query answers
 * None and the Python code, the reference, raises its own error.
 */
#include "core.h"

#include <structmember.h>

/* Where `object` keeps its attribute `name`: the object slot a member descriptor of its type names (a __slots__
 * field), or NULL when `name` is not one or the type does not look attributes up the generic way (its own
 * __getattribute__; for `writing`, its own __setattr__ too, as a frozen dataclass has): then only
 * PyObject_GetAttr or PyObject_SetAttr give the Python semantics.  (state_copy.c's object_slot asks the same of a
 * descriptor plus whether it belongs to the type, which the lookup here settles: its subtype test costs about 2 %
 * of a uniform basic decision on this path.) */
static PyObject **attribute_slot(PyObject *object, PyObject *name, bool writing)
{
    PyTypeObject *type = Py_TYPE(object);
    if (type->tp_getattro != PyObject_GenericGetAttr || (writing && type->tp_setattro != PyObject_GenericSetAttr))
        return NULL;
    PyObject *descriptor = _PyType_Lookup(type, name); /* (borrowed; the type's attribute cache answers) */
    if (descriptor == NULL || !Py_IS_TYPE(descriptor, &PyMemberDescr_Type))
        return NULL;
    PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
    if (member->type != T_OBJECT_EX || (writing && (member->flags & READONLY)))
        return NULL;
    return (PyObject **)((char *)object + member->offset);
}

/* object.name (a new reference; NULL with an exception set): read from its slot where the attribute is one, what
 * PyObject_GetAttr returns for it, without calling the descriptor (the engine's state and records keep their fields
 * in slots). */
PyObject *get_attribute(PyObject *object, PyObject *name)
{
    PyObject **slot = attribute_slot(object, name, false);
    if (slot != NULL && *slot != NULL)
        return Py_NewRef(*slot);
    return PyObject_GetAttr(object, name);
}

/* object.name = value (0, or -1 with an exception set), into its slot where the attribute is one. */
int set_attribute(PyObject *object, PyObject *name, PyObject *value)
{
    PyObject **slot = value == NULL ? NULL : attribute_slot(object, name, true); /* (NULL: a deletion) */
    if (slot == NULL)
        return PyObject_SetAttr(object, name, value);
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
}

/* A float32 buffer of `count` numbers (C-contiguous); false, nothing held, when `object` is not one. */
bool get_floats(PyObject *object, Py_buffer *view, bool writable, Py_ssize_t count)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) {
        PyErr_Clear();
        return false;
    }
    const char *format = view->format;
    if (view->itemsize != 4 || format == NULL || (strcmp(format, "f") != 0 && strcmp(format, "<f") != 0)
        || view->len != count * 4) {
        PyBuffer_Release(view);
        return false;
    }
    return true;
}

/* A Python int (a bool included) as a long; false when it is not one or does not fit. */
bool get_long(PyObject *object, long *value)
{
    if (!PyLong_Check(object))
        return false;
    *value = PyLong_AsLong(object);
    if (*value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return true;
}

int long_or_none(PyObject *item, long *value)
{
    return item == Py_None ? 0 : get_long(item, value) ? 1 : -1;
}

int long_or_none_attribute(PyObject *object, PyObject *name, long *value)
{
    PyObject *item = get_attribute(object, name);
    if (item == NULL) {
        PyErr_Clear();
        return -1;
    }
    int result = long_or_none(item, value);
    Py_DECREF(item);
    return result;
}

PyObject *field_item(PyObject *object, PyObject *name, Py_ssize_t index)
{
    PyObject *list = get_attribute(object, name);
    PyObject *item = NULL;
    if (list != NULL && PyList_Check(list) && index >= 0 && index < PyList_GET_SIZE(list))
        item = Py_NewRef(PyList_GET_ITEM(list, index));
    Py_XDECREF(list);
    PyErr_Clear();
    return item;
}

PyObject *identity_of(PyObject *object, PyObject *name)
{
    PyObject *value = get_attribute(object, name);
    Py_XDECREF(value); /* compared by identity only: the values read this way outlive the call */
    return value;
}

int truth_of(PyObject *object, PyObject *name)
{
    PyObject *value = get_attribute(object, name);
    if (value == NULL)
        return -1;
    int truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    return truth;
}
