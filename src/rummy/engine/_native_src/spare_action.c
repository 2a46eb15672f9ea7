/*
 * spare_action(offers, seat, used, kind, cards, kit) -> Action | None
 *
 * rummy.engine.table_offers.TableOffers.spare_rearrangement, compiled: the rearrangement by `seat` moving the spares
 * `used` (indices into deadlock.table_spares' list: its melds' spares in table order) into a new meld
 * MeldSpec(kind, cards): each source meld without its spare card, then the new meld, its sources the melds' ids.
 * The deferred spare-card rows of the compiled listing (rearrangements.c) are worked out by it when read.
 *
 * The spare at an index is placed as TableOffers._spare places it, through the packed table the listing read
 * (offers._packed, TableOffers.native_rearrangements: per meld its spares as two bytes each, the card first), and
 * what it leaves behind is deadlock.spare_cards' rest: a run's spares are its two ends (the first drops the low card,
 * the second the high one), a group's the first place of each card it spares; a pair leaves a set
 * (table_offers._rest).
 *
 *   kit  (Action, its field slots, MeldSpec, its field slots, Verb.REARRANGE), as new_record takes them.
 *
 * None when the offers have no packed table yet, an index is out of range, a meld or the kit does not read as
 * expected: the Python maker answers then.
 */
#include "core.h"

enum { KIT_ACTION, KIT_ACTION_SLOTS, KIT_SPEC, KIT_SPEC_SLOTS, KIT_REARRANGE, KIT_SIZE };
enum { NAME_TABLE, NAME_PACKED, NAME_KIND, NAME_CARDS, NAME_ID, NAME_COUNT };
static PyObject *names[NAME_COUNT];
static PyObject *run_kind, *pair_kind, *set_kind;

static bool intern_names(void)
{
    static const char *const spelled[NAME_COUNT] = {"_table", "_packed", "kind", "cards", "id"};
    for (int i = 0; i < NAME_COUNT; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return false;
    if (run_kind == NULL && (run_kind = PyUnicode_InternFromString("run")) == NULL)
        return false;
    if (pair_kind == NULL && (pair_kind = PyUnicode_InternFromString("pair")) == NULL)
        return false;
    return set_kind != NULL || (set_kind = PyUnicode_InternFromString("set")) != NULL;
}

/* MeldSpec(kind, cards): a new reference, None when new_record declines, or NULL with an exception set. */
static PyObject *meld_spec(PyObject *const *kit, PyObject *kind, PyObject *cards)
{
    PyObject *fields[5] = {kit[KIT_SPEC], kit[KIT_SPEC_SLOTS], kind, cards, Py_None};
    return new_record(NULL, fields, 5);
}

/* The cards `cards` (a tuple) without the one at `at`: a new reference, or NULL with an exception set. */
static PyObject *without(PyObject *cards, Py_ssize_t at)
{
    Py_ssize_t size = PyTuple_GET_SIZE(cards);
    PyObject *rest = PyTuple_New(size - 1);
    if (rest == NULL)
        return NULL;
    for (Py_ssize_t i = 0, j = 0; i < size; i++) {
        if (i == at)
            continue;
        PyObject *card = PyTuple_GET_ITEM(cards, i);
        Py_INCREF(card);
        PyTuple_SET_ITEM(rest, j++, card);
    }
    return rest;
}

/* Where the spare card `card`, the meld's `place`-th spare, leaves its meld of `kind` holding `cards`: its index in
 * the cards, or -1 when it is not there. */
static Py_ssize_t spare_place(PyObject *kind, PyObject *cards, int card, Py_ssize_t place)
{
    Py_ssize_t size = PyTuple_GET_SIZE(cards);
    if (size == 0)
        return -1;
    if (kind == run_kind || PyUnicode_Compare(kind, run_kind) == 0)
        return place == 0 ? 0 : place == 1 ? size - 1 : -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        long held;
        if (get_long(PyTuple_GET_ITEM(cards, i), &held) && held == card)
            return i;
    }
    return -1;
}

/* The spare at `index` of the packed table's `parts` and `table`: its meld's id (*source) and the meld it leaves
 * behind (*rest), new references; false, no exception left set, when it does not read. */
static bool spare_at(PyObject *const *kit, PyObject *table, PyObject *parts, Py_ssize_t index, PyObject **source,
                     PyObject **rest)
{
    *source = *rest = NULL;
    Py_ssize_t melds = PyTuple_GET_SIZE(table);
    for (Py_ssize_t m = 0; m < melds && m < PyList_GET_SIZE(parts); m++) {
        PyObject *part = PyList_GET_ITEM(parts, m);
        if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) < 1 || !PyBytes_Check(PyTuple_GET_ITEM(part, 0)))
            return false;
        PyObject *spares = PyTuple_GET_ITEM(part, 0);
        Py_ssize_t count = PyBytes_GET_SIZE(spares) / 2;
        if (index >= count) {
            index -= count;
            continue;
        }
        PyObject *meld = PyTuple_GET_ITEM(table, m);
        int card = (unsigned char)PyBytes_AS_STRING(spares)[2 * index];
        PyObject *kind = get_attribute(meld, names[NAME_KIND]);
        PyObject *cards = kind == NULL ? NULL : get_attribute(meld, names[NAME_CARDS]);
        Py_ssize_t at = cards != NULL && PyUnicode_Check(kind) && PyTuple_Check(cards)
                            ? spare_place(kind, cards, card, index) : -1;
        PyObject *rest_cards = at < 0 ? NULL : without(cards, at);
        if (rest_cards != NULL) {
            bool pair = kind == pair_kind || PyUnicode_Compare(kind, pair_kind) == 0;
            *rest = meld_spec(kit, pair ? set_kind : kind, rest_cards);
            Py_DECREF(rest_cards);
        }
        if (*rest != NULL && *rest != Py_None)
            *source = get_attribute(meld, names[NAME_ID]);
        Py_XDECREF(kind);
        Py_XDECREF(cards);
        if (*source != NULL)
            return true;
        Py_CLEAR(*rest);
        PyErr_Clear(); /* a meld that does not read (or no memory): the Python maker answers */
        return false;
    }
    return false;
}

/* The rearrangement, its melds and sources made: a new reference, or None when something does not read (no exception
 * left set). */
static PyObject *rearrangement(PyObject *const *kit, PyObject *table, PyObject *parts, PyObject *seat,
                               PyObject *used, PyObject *kind, PyObject *cards)
{
    Py_ssize_t count = PyTuple_GET_SIZE(used);
    PyObject *melds = PyTuple_New(count + 1), *sources = PyTuple_New(count), *steps = PyTuple_New(0);
    PyObject *action = NULL;
    if (melds == NULL || sources == NULL || steps == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        long index;
        PyObject *source, *rest;
        if (!get_long(PyTuple_GET_ITEM(used, i), &index) || index < 0
            || !spare_at(kit, table, parts, index, &source, &rest))
            goto done;
        PyTuple_SET_ITEM(sources, i, source);
        PyTuple_SET_ITEM(melds, i, rest);
    }
    PyObject *made = meld_spec(kit, kind, cards);
    if (made == NULL || made == Py_None) {
        Py_XDECREF(made);
        goto done;
    }
    PyTuple_SET_ITEM(melds, count, made);
    PyObject *fields[12] = {kit[KIT_ACTION], kit[KIT_ACTION_SLOTS], seat, kit[KIT_REARRANGE], Py_None, Py_None, Py_None,
                            melds, sources, Py_None, Py_None, steps};
    action = new_record(NULL, fields, 12);
done:
    Py_XDECREF(melds);
    Py_XDECREF(sources);
    Py_XDECREF(steps);
    if (action == NULL)
        PyErr_Clear();
    return action != NULL ? action : Py_NewRef(Py_None);
}

PyObject *spare_action(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "spare_action(offers, seat, used, kind, cards, kit)");
        return NULL;
    }
    PyObject *offers = args[0], *used = args[2], *kind = args[3], *cards = args[4], *kit = args[5];
    if (!intern_names())
        return NULL;
    if (!PyTuple_Check(used) || !PyTuple_Check(kit) || PyTuple_GET_SIZE(kit) != KIT_SIZE)
        Py_RETURN_NONE;
    PyObject *table = get_attribute(offers, names[NAME_TABLE]);
    PyObject *packed = table == NULL ? NULL : get_attribute(offers, names[NAME_PACKED]);
    if (packed == NULL) {
        Py_XDECREF(table);
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *result;
    if (PyTuple_Check(table) && PyTuple_Check(packed) && PyTuple_GET_SIZE(packed) == 4
        && PyList_Check(PyTuple_GET_ITEM(packed, 3)))
        result = rearrangement(&PyTuple_GET_ITEM(kit, 0), table, PyTuple_GET_ITEM(packed, 3), args[1], used, kind,
                               cards);
    else
        result = Py_NewRef(Py_None); /* the packed table not made yet (None) */
    Py_DECREF(table);
    Py_DECREF(packed);
    return result;
}
