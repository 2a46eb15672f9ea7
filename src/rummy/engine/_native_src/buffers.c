/*
 * Reading Python values the compiled queries are handed (observation.c, history.c): a float32 array, an int, an int
 * or None.  Each answers false (or -1) with no exception set when the value is not what is asked, so that the
 * query answers None and the Python code, the reference, raises its own error.
 */
#include "core.h"

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
    PyObject *item = PyObject_GetAttr(object, name);
    if (item == NULL) {
        PyErr_Clear();
        return -1;
    }
    int result = long_or_none(item, value);
    Py_DECREF(item);
    return result;
}

PyObject *identity_of(PyObject *object, PyObject *name)
{
    PyObject *value = PyObject_GetAttr(object, name);
    Py_XDECREF(value); /* compared by identity only: the values read this way outlive the call */
    return value;
}

int truth_of(PyObject *object, PyObject *name)
{
    PyObject *value = PyObject_GetAttr(object, name);
    if (value == NULL)
        return -1;
    int truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    return truth;
}
