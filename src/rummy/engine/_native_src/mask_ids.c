/*
 * numbered(space, state, moves, entries, table, kit) -> (ids, composites, unslotted)
 *
 * rummy.engine.action_space.ActionSpace.numbered, compiled: the ids of a listing (`moves`, a CandidateMoves, and
 * `entries`, its moves.entries()) in listing order, the first COMPOSITE_SLOTS composite moves (read through
 * moves[index], which works a deferred entry out) and how many moves onto the table had no meld slot.  The ids are
 * worked out as id_of does; what needs more than arithmetic is asked of the space: an implicit run end
 * (space._end_index(state, action, slot)), and any move the shortcuts do not cover (space.id_of(state, action):
 * a family the table does not use, a move that names no card or no meld on the table), which raises as it does.
 *
 *   table  the table's melds (state.table), read for their ids;
 *   kit    (verbs, starts, used, Action, players, move_to_hand, composite_slots, meld_slots, card_count): the Verb
 *          members in the order of the enum below, the id each family starts at (the composite slots' for the
 *          composite verbs), per verb 1 when the table uses its family, the Action class, the table's seats,
 *          whether a relocated wild goes to the hand, and the space's constants.
 *
 * None, nothing read, when the kit or the lists are malformed: the Python numbering answers then.
 */
#include "core.h"

#include <limits.h>
#include <stdbool.h>

enum {
    DRAW, TAKE, BUY, PASS, DISCARD, DOWN, MELD, REARRANGE, BATCH, BOOK, LAYOFF, SWAP, MOVE, PURCHASE, TRADE, EXCHANGE,
    VERB_COUNT
};
enum { A_VERB, A_CARD, A_MELD, A_END, A_TARGET, A_NEW_PC, A_SEAT, A_ID, A_END_INDEX, A_ID_OF, A_NAMES };
static const char *const attribute_text[A_NAMES] = {"verb", "card", "meld", "end", "target", "new_pc", "seat", "id",
                                                    "_end_index", "id_of"};
static PyObject *attribute_names[A_NAMES];

typedef struct {
    PyObject *verbs[VERB_COUNT];
    long starts[VERB_COUNT];
    bool used[VERB_COUNT];
    PyObject *action_type;
    long players, composite_slots, meld_slots, card_count;
    bool move_to_hand;
} Kit;

static bool read_long_item(PyObject *tuple, Py_ssize_t index, long *value)
{
    return get_long(PyTuple_GET_ITEM(tuple, index), value);
}

static bool read_kit(PyObject *object, Kit *kit)
{
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 9)
        return false;
    PyObject *verbs = PyTuple_GET_ITEM(object, 0), *starts = PyTuple_GET_ITEM(object, 1);
    PyObject *used = PyTuple_GET_ITEM(object, 2);
    if (!PyTuple_Check(verbs) || PyTuple_GET_SIZE(verbs) != VERB_COUNT || !PyTuple_Check(starts)
        || PyTuple_GET_SIZE(starts) != VERB_COUNT || !PyBytes_Check(used) || PyBytes_GET_SIZE(used) != VERB_COUNT)
        return false;
    for (int i = 0; i < VERB_COUNT; i++) {
        kit->verbs[i] = PyTuple_GET_ITEM(verbs, i);
        if (!read_long_item(starts, i, &kit->starts[i]))
            return false;
        kit->used[i] = PyBytes_AS_STRING(used)[i] != 0;
    }
    kit->action_type = PyTuple_GET_ITEM(object, 3);
    kit->move_to_hand = PyTuple_GET_ITEM(object, 5) == Py_True;
    return PyType_Check(kit->action_type) && read_long_item(object, 4, &kit->players) && kit->players > 0
           && read_long_item(object, 6, &kit->composite_slots) && read_long_item(object, 7, &kit->meld_slots)
           && read_long_item(object, 8, &kit->card_count);
}

/* An int attribute that may be None: 1 with `value` set, 0 when None, -1 when neither (no exception set). */
static int optional_long(PyObject *object, int name, long *value)
{
    return long_or_none_attribute(object, attribute_names[name], value);
}

/* The id of `action` from the space (space.id_of(state, action)): -1 with its exception set when it raises. */
static long ask_id_of(PyObject *space, PyObject *state, PyObject *action)
{
    PyObject *answer = PyObject_CallMethodObjArgs(space, attribute_names[A_ID_OF], state, action, NULL);
    if (answer == NULL)
        return -1;
    long id = PyLong_AsLong(answer);
    Py_DECREF(answer);
    return id;
}

/* The end index of a lay-off or relocation onto `slot` (ActionSpace._end_index): -1 with an exception set on error. */
static long end_index(PyObject *space, PyObject *state, PyObject *action, long slot, const Kit *kit, int verb)
{
    if (verb == MOVE && kit->move_to_hand)
        return 0;
    PyObject *end = get_attribute(action, attribute_names[A_END]);
    if (end == NULL)
        return -1;
    long index = -2;
    if (PyUnicode_Check(end)) {
        if (PyUnicode_CompareWithASCIIString(end, "low") == 0)
            index = 0;
        else if (PyUnicode_CompareWithASCIIString(end, "high") == 0)
            index = 1;
    }
    Py_DECREF(end);
    if (index >= 0)
        return index;
    PyObject *slot_object = PyLong_FromLong(slot);
    if (slot_object == NULL)
        return -1;
    PyObject *answer = PyObject_CallMethodObjArgs(space, attribute_names[A_END_INDEX], state, action, slot_object,
                                                  NULL);
    Py_DECREF(slot_object);
    if (answer == NULL)
        return -1;
    index = PyLong_AsLong(answer);
    Py_DECREF(answer);
    return index;
}

#define MAX_MELDS 1024

/* The ids of the table's melds, read at the first move onto the table (LONG_MIN for one that is not an int). */
typedef struct {
    long ids[MAX_MELDS];
    Py_ssize_t count;
    bool read;
} Slots;

/* The slot of meld `meld` ({meld.id: slot for the table}: the last meld of that id), -1 when none; -2 when the
 * table cannot be read (no exception set). */
static long slot_of(PyObject *table, Slots *slots, long meld)
{
    if (!slots->read) {
        Py_ssize_t count = PyList_GET_SIZE(table);
        if (count > MAX_MELDS)
            return -2;
        for (Py_ssize_t i = 0; i < count; i++) {
            long id;
            int found = optional_long(PyList_GET_ITEM(table, i), A_ID, &id);
            if (found < 0)
                return -2;
            slots->ids[i] = found ? id : LONG_MIN;
        }
        slots->count = count;
        slots->read = true;
    }
    for (Py_ssize_t i = slots->count - 1; i >= 0; i--)
        if (slots->ids[i] == meld)
            return (long)i;
    return -1;
}

/* Which of the kit's verbs `verb` is (VERB_COUNT when none). */
static int verb_of(PyObject *verb, const Kit *kit)
{
    for (int i = 0; i < VERB_COUNT; i++)
        if (verb == kit->verbs[i])
            return i;
    return VERB_COUNT;
}

/* The id of the non-composite move `action` of verb `verb` (ActionSpace.numbered's shortcuts, else id_of): the id,
 * -1 for a move onto a meld past the last meld slot, -2 with an exception set when it raises, -3 when the table
 * cannot be read. */
static long move_id(PyObject *space, PyObject *state, PyObject *table, Slots *slots, PyObject *action, int verb,
                    const Kit *kit)
{
    long card, second, id;
    if (verb == VERB_COUNT || !kit->used[verb])
        goto ask;
    if (verb <= PASS)
        return kit->starts[verb];
    if (verb == DISCARD) {
        int has = optional_long(action, A_CARD, &card);
        if (has == 1)
            return kit->starts[verb] + card;
        if (has < 0)
            return -3;
        goto ask; /* no card: id_of raises */
    }
    if (verb == LAYOFF || verb == SWAP || verb == MOVE) {
        int has_meld = optional_long(action, A_MELD, &second), has_card = optional_long(action, A_CARD, &card);
        if (has_meld < 0 || has_card < 0)
            return -3;
        long slot = has_meld ? slot_of(table, slots, second) : -1;
        if (slot == -2)
            return -3;
        if (slot < 0)
            goto ask; /* no such meld: id_of raises */
        if (slot >= kit->meld_slots)
            return -1;
        if (has_card == 0)
            goto ask; /* no card: id_of raises */
        long index = slot * kit->card_count + card;
        if (verb == SWAP)
            return kit->starts[verb] + index;
        long end = end_index(space, state, action, slot, kit, verb);
        return end < 0 ? (PyErr_Occurred() ? -2 : -3) : kit->starts[verb] + index * 2 + end;
    }
    if (verb == PURCHASE) {
        int has_card = optional_long(action, A_CARD, &card), has_pc = optional_long(action, A_NEW_PC, &second);
        if (has_card < 0 || has_pc < 0)
            return -3;
        if (has_card && has_pc)
            return kit->starts[verb] + card * kit->card_count + second;
        goto ask;
    }
    if (verb == TRADE) {
        long seat, target;
        int has_pc = optional_long(action, A_NEW_PC, &second), has_seat = optional_long(action, A_SEAT, &seat);
        int has_target = optional_long(action, A_TARGET, &target);
        if (has_pc < 0 || has_seat != 1 || has_target < 0)
            return -3;
        if (!has_target)
            target = seat;
        long offset = ((target - seat) % kit->players + kit->players) % kit->players - 1;
        if (offset < 0 || !has_pc)
            goto ask;
        return kit->starts[verb] + offset * kit->card_count + second;
    }
    if (verb == EXCHANGE) {
        int has_pc = optional_long(action, A_NEW_PC, &second);
        if (has_pc < 0)
            return -3;
        if (has_pc)
            return kit->starts[verb] + second;
    }
ask:
    id = ask_id_of(space, state, action);
    return id == -1 && PyErr_Occurred() ? -2 : id;
}

static bool intern_attribute_names(void)
{
    for (int i = 0; i < A_NAMES; i++)
        if (attribute_names[i] == NULL && (attribute_names[i] = PyUnicode_InternFromString(attribute_text[i])) == NULL)
            return false;
    return true;
}

PyObject *numbered(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "numbered() takes 6 arguments");
        return NULL;
    }
    PyObject *space = args[0], *state = args[1], *moves = args[2], *entries = args[3], *table = args[4];
    Kit kit;
    if (!intern_attribute_names())
        return NULL;
    if (!PyList_Check(entries) || !PyList_Check(table) || !read_kit(args[5], &kit))
        Py_RETURN_NONE;
    PyObject *ids = PyList_New(0), *composites = PyList_New(0);
    if (ids == NULL || composites == NULL)
        goto fail;
    Slots slots;
    slots.read = false;
    slots.count = 0;
    long unslotted = 0;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(entries); index++) {
        PyObject *entry = PyList_GET_ITEM(entries, index);
        PyObject *verb_object = get_attribute(entry, attribute_names[A_VERB]);
        if (verb_object == NULL)
            goto fail;
        int verb = verb_of(verb_object, &kit);
        Py_DECREF(verb_object);
        long id;
        if (verb >= DOWN && verb <= BOOK) {
            Py_ssize_t count = PyList_GET_SIZE(composites);
            if (count >= kit.composite_slots)
                continue;
            PyObject *move = PySequence_GetItem(moves, index); /* works a deferred entry out */
            if (move == NULL)
                goto fail;
            int appended = PyList_Append(composites, move);
            Py_DECREF(move);
            if (appended < 0)
                goto fail;
            id = kit.starts[verb] + (long)count;
        } else {
            PyObject *action = entry;
            Py_INCREF(action);
            if ((PyObject *)Py_TYPE(entry) != kit.action_type) {
                Py_DECREF(action);
                action = PySequence_GetItem(moves, index);
                if (action == NULL)
                    goto fail;
            }
            id = move_id(space, state, table, &slots, action, verb, &kit);
            Py_DECREF(action);
            if (id == -2)
                goto fail;
            if (id == -3) { /* something the shortcuts cannot read: the Python numbering answers */
                Py_DECREF(ids);
                Py_DECREF(composites);
                Py_RETURN_NONE;
            }
            if (id == -1) {
                unslotted++;
                continue;
            }
        }
        PyObject *number = PyLong_FromLong(id);
        if (number == NULL)
            goto fail;
        int appended = PyList_Append(ids, number);
        Py_DECREF(number);
        if (appended < 0)
            goto fail;
    }
    return Py_BuildValue("(NNl)", ids, composites, unslotted);
fail:
    Py_XDECREF(ids);
    Py_XDECREF(composites);
    return NULL;
}
