/*
 * view_record(type, fields, state, seat, actions, kit) -> PlayerView | None
 *
 * rummy.engine.view.player_view, compiled but for the legal actions: the PlayerView of `seat` (an int, or None for a
 * spectator) whose legal actions `actions` (a tuple) the caller listed, its field values read from the game state as
 * view._view_fields (the reference) reads them and set in a new record as records.c's new_record sets them (`type`
 * and `fields` as new_record takes them).  Each field names the Python it follows: the phase's value (the `_value_`
 * of the kit's Phase member matched, which Phase.value reads), moves.seats_to_act, view.cards_held (the seat's own
 * hand: never another's, but at the round's or game's end, when every hand is revealed), the discard pile as the
 * variant shows it, the stock's size (never its cards), view._claim_from.
 *
 *   kit  (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER, then the slot descriptors of the
 *        state's fields read, in the order of view._STATE_READ), view.py's _VIEW_KIT.
 *
 * The state's fields are read from their slots, as state_copy.c reads them, once the descriptors are checked to be
 * object slots of the state's type (the check is made once per type and kit); the variant's, the round rules' and
 * the claim window's attributes are read by name.
 *
 * None, and the Python code answers, for what it does not read: a seat that is not an int of the table, a phase not
 * in the kit, a field never set, a hand that is not 53 counts from 0 to 255, a round number, claim window or
 * discarder that is not the plain int, list or set the state holds, a kit or record type of another shape.  An
 * exception from an attribute read propagates as Python's would.
 */
#include "core.h"

#include <structmember.h>

enum { CLAIM, DRAW_PHASE, PLAY, ROUND_OVER, GAME_OVER, PHASES, K_SLOTS = PHASES, KIT_SIZE };

/* The fields of PlayerView, in order. */
enum {
    F_SEAT, F_VARIANT, F_PLAYERS, F_ROUND, F_PHASE, F_ACTIVE, F_DEALER, F_TO_ACT, F_HAND, F_HAND_SIZES, F_TABLE,
    F_DISCARD, F_DISCARD_COUNT, F_STOCK_COUNT, F_DOWN, F_CLAIMS_USED, F_PURCHASE_CARDS, F_TOTALS, F_KITTY, F_CONTRACT,
    F_CLAIM_CARD, F_DISCARD_DEAD, F_LEGAL_ACTIONS, F_REVEALED_HANDS, F_RULES, F_PUBLIC_GAME, F_PLAYED_TO_TABLE,
    F_CLAIM_FROM, FIELDS,
};

/* The state's fields read from their slots, in the order of view._STATE_READ. */
enum {
    S_VARIANT, S_PLAYERS, S_ROUND_NUMBER, S_PHASE, S_ACTIVE, S_DEALER, S_WINDOW, S_HANDS, S_SIZES, S_TABLE, S_DISCARD,
    S_STOCK, S_DOWN, S_CLAIMS_USED, S_PURCHASE_CARDS, S_TOTALS, S_KITTY, S_RULES, S_DEAD, S_PLAYED_TO_TABLE,
    S_DISCARDERS, STATE_READ,
};

/* The attributes read by name, interned once. */
enum { N_ID, N_SHOW_DISCARD_HISTORY, N_CONTRACT, N_ELIGIBLE, N_ANSWERED, N_CARD, N_VALUE, NAMES };
static PyObject *names[NAMES];

static int intern_names(void)
{
    static const char *const spelled[NAMES] = {"id", "show_discard_history", "contract", "eligible", "answered",
                                               "card", "_value_"};
    if (names[NAMES - 1] != NULL)
        return 0;
    for (int i = 0; i < NAMES; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    return 0;
}

/* A marker a reader answers when it does not read a value (never a reference): the Python code answers then. */
static char not_read;
#define NOT_READ ((PyObject *)&not_read)

/* tuple(value): a new reference, or NULL with an exception set. */
static PyObject *as_tuple(PyObject *value)
{
    if (PyList_CheckExact(value))
        return PyList_AsTuple(value);
    if (PyTuple_CheckExact(value)) {
        Py_INCREF(value);
        return value;
    }
    return PySequence_Tuple(value);
}

/* view.cards_held(counts): the cards of a count vector in canonical order; NOT_READ when it is not 53 counts from
 * 0 to 255 (a new reference otherwise, or NULL with an exception set). */
static PyObject *cards_held(PyObject *counts)
{
    int hand[CARD_COUNT];
    int read = read_hand(counts, hand);
    if (read <= 0) {
        if (read < 0) { /* a count that is not an int: the Python code says what it makes of it */
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return NULL;
            PyErr_Clear();
        }
        return NOT_READ;
    }
    Py_ssize_t size = 0;
    for (int card = 0; card < CARD_COUNT; card++)
        size += hand[card];
    PyObject *cards = PyTuple_New(size);
    if (cards == NULL)
        return NULL;
    Py_ssize_t at = 0;
    for (int card = 0; card < CARD_COUNT; card++)
        for (int copy = 0; copy < hand[card]; copy++) {
            PyObject *item = PyLong_FromLong(card);
            if (item == NULL) {
                Py_DECREF(cards);
                return NULL;
            }
            PyTuple_SET_ITEM(cards, at++, item);
        }
    return cards;
}

/* moves.seats_to_act as a tuple: the seats a claim window waits for (ClaimWindow.waiting: the eligible seats not
 * answered, sorted), the active seat in a turn, else none.  NOT_READ for a window that is not the list and set it
 * holds. */
static PyObject *seats_to_act(PyObject *window, int phase, PyObject *active)
{
    if (phase == CLAIM && window != Py_None) {
        PyObject *eligible = get_attribute(window, names[N_ELIGIBLE]);
        if (eligible == NULL)
            return NULL;
        PyObject *answered = get_attribute(window, names[N_ANSWERED]);
        if (answered == NULL) {
            Py_DECREF(eligible);
            return NULL;
        }
        PyObject *waiting = NOT_READ;
        if (PyList_CheckExact(eligible) && PyAnySet_CheckExact(answered)) {
            waiting = PyList_New(0);
            for (Py_ssize_t i = 0; waiting != NULL && i < PyList_GET_SIZE(eligible); i++) {
                PyObject *seat = PyList_GET_ITEM(eligible, i);
                int in = PySet_Contains(answered, seat);
                if (in < 0 || (in == 0 && PyList_Append(waiting, seat) < 0))
                    Py_CLEAR(waiting);
            }
            if (waiting != NULL && PyList_Sort(waiting) < 0)
                Py_CLEAR(waiting);
            if (waiting != NULL) {
                PyObject *tuple = PyList_AsTuple(waiting);
                Py_DECREF(waiting);
                waiting = tuple;
            }
        }
        Py_DECREF(eligible);
        Py_DECREF(answered);
        return waiting;
    }
    if (phase == DRAW_PHASE || phase == PLAY)
        return PyTuple_Pack(1, active);
    return PyTuple_New(0);
}

/* view._claim_from: the seat that discarded the pile's top while a claim window offers it (None for the upcard, -1,
 * or without a window).  NOT_READ when the discarders are not a list of ints. */
static PyObject *claim_from(PyObject *discarders, PyObject *window)
{
    if (window == Py_None)
        Py_RETURN_NONE;
    PyObject *seat = NOT_READ;
    Py_ssize_t size = PyList_CheckExact(discarders) ? PyList_GET_SIZE(discarders) : -1;
    PyObject *last = size > 0 ? PyList_GET_ITEM(discarders, size - 1) : NULL;
    if (size == 0) {
        seat = Py_None;
    } else if (last != NULL && PyLong_CheckExact(last)) {
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(last, &overflow);
        if (value == -1 && PyErr_Occurred())
            seat = NULL;
        else
            seat = overflow < 0 || (overflow == 0 && value < 0) ? Py_None : last;
    }
    if (seat != NULL && seat != NOT_READ)
        Py_INCREF(seat);
    return seat;
}

/* view.py's max(round_number, 1), for a plain int; NOT_READ otherwise. */
static PyObject *round_of(PyObject *number)
{
    if (!PyLong_CheckExact(number))
        return NOT_READ;
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(number, &overflow);
    if (value == -1 && PyErr_Occurred())
        return NULL;
    if (overflow < 0 || (overflow == 0 && value < 1))
        return PyLong_FromLong(1);
    Py_INCREF(number);
    return number;
}

/* The discard pile as the variant shows it: all of it, or its top card only. */
static PyObject *visible_discard(PyObject *discard, int show_all)
{
    if (show_all || !PyList_CheckExact(discard))
        return show_all ? as_tuple(discard) : NOT_READ;
    Py_ssize_t size = PyList_GET_SIZE(discard);
    return size ? PyTuple_Pack(1, PyList_GET_ITEM(discard, size - 1)) : PyTuple_New(0);
}

/* Every hand, revealed at the round's or the game's end: NOT_READ when there are fewer hands than players. */
static PyObject *revealed_hands(PyObject *hands, Py_ssize_t players)
{
    if (!PyList_CheckExact(hands) || PyList_GET_SIZE(hands) < players)
        return NOT_READ;
    PyObject *revealed = PyTuple_New(players);
    if (revealed == NULL)
        return NULL;
    for (Py_ssize_t seat = 0; seat < players; seat++) {
        PyObject *cards = cards_held(PyList_GET_ITEM(hands, seat));
        if (cards == NULL || cards == NOT_READ) {
            Py_DECREF(revealed);
            return cards;
        }
        PyTuple_SET_ITEM(revealed, seat, cards);
    }
    return revealed;
}

/* The slot descriptors last found to be object slots of the state type last read (strong references, so that
 * neither is another object at the same address later). */
static PyObject *checked_slots, *checked_type;

/* Whether the tuple `slots` holds STATE_READ object slots of `type` (or of a base). */
static bool state_slots(PyObject *slots, PyTypeObject *type)
{
    if (slots == checked_slots && (PyObject *)type == checked_type)
        return true;
    if (!PyTuple_CheckExact(slots) || PyTuple_GET_SIZE(slots) != STATE_READ || type->tp_dictoffset != 0)
        return false;
    for (Py_ssize_t i = 0; i < STATE_READ; i++)
        if (!object_slot(PyTuple_GET_ITEM(slots, i), type))
            return false;
    Py_INCREF(slots);
    Py_INCREF(type);
    Py_XSETREF(checked_slots, slots);
    Py_XSETREF(checked_type, (PyObject *)type);
    return true;
}

/* The state's fields into `at` (new references): false, with those read released, when one was never set. */
static bool read_state(PyObject **at, PyObject *state, PyObject *slots)
{
    for (Py_ssize_t i = 0; i < STATE_READ; i++) {
        Py_ssize_t offset = ((PyMemberDescrObject *)PyTuple_GET_ITEM(slots, i))->d_member->offset;
        PyObject *value = *(PyObject **)((char *)state + offset);
        if (value == NULL) {
            while (--i >= 0)
                Py_DECREF(at[i]);
            return false;
        }
        Py_INCREF(value);
        at[i] = value;
    }
    return true;
}

/* The fields of the view into `field` (new references; those not filled stay NULL, the caller releases the rest): 1
 * filled, 0 when something was not read (the Python code answers), -1 with an exception set.  `at` holds the
 * state's fields, `phase` the index of the state's phase in the kit. */
static int fill(PyObject **field, PyObject *const *at, PyObject *seat, PyObject *actions, int phase)
{
#define SET(index, expression)                                                                                         \
    do {                                                                                                               \
        PyObject *value_ = (expression);                                                                               \
        if (value_ == NULL)                                                                                            \
            return -1;                                                                                                 \
        if (value_ == NOT_READ)                                                                                        \
            return 0;                                                                                                  \
        field[index] = value_;                                                                                         \
    } while (0)
#define SHARE(index, value)                                                                                            \
    do {                                                                                                               \
        Py_INCREF(value);                                                                                              \
        field[index] = (value);                                                                                        \
    } while (0)
    PyObject *window = at[S_WINDOW], *hands = at[S_HANDS], *discard = at[S_DISCARD];
    SHARE(F_SEAT, seat);
    SET(F_VARIANT, get_attribute(at[S_VARIANT], names[N_ID]));
    SET(F_PLAYERS, as_tuple(at[S_PLAYERS]));
    Py_ssize_t players = PyTuple_GET_SIZE(field[F_PLAYERS]);
    long seat_number = -1;
    if (seat != Py_None) {
        int overflow = 0;
        if (!PyLong_CheckExact(seat))
            return 0;
        seat_number = PyLong_AsLongAndOverflow(seat, &overflow);
        if (seat_number == -1 && PyErr_Occurred())
            return -1;
        if (overflow || seat_number < 0 || seat_number >= players) /* the Python code raises its error */
            return 0;
    }
    SET(F_ROUND, round_of(at[S_ROUND_NUMBER]));
    SET(F_PHASE, get_attribute(at[S_PHASE], names[N_VALUE])); /* Phase.value of the member matched */
    SHARE(F_ACTIVE, at[S_ACTIVE]);
    SHARE(F_DEALER, at[S_DEALER]);
    SET(F_TO_ACT, seats_to_act(window, phase, at[S_ACTIVE]));
    if (seat == Py_None)
        SET(F_HAND, PyTuple_New(0));
    else if (PyList_CheckExact(hands) && seat_number < PyList_GET_SIZE(hands))
        SET(F_HAND, cards_held(PyList_GET_ITEM(hands, seat_number)));
    else
        return 0;
    SET(F_HAND_SIZES, as_tuple(at[S_SIZES]));
    SET(F_TABLE, as_tuple(at[S_TABLE]));
    PyObject *show = get_attribute(at[S_VARIANT], names[N_SHOW_DISCARD_HISTORY]);
    if (show == NULL)
        return -1;
    int show_all = PyObject_IsTrue(show);
    Py_DECREF(show);
    if (show_all < 0)
        return -1;
    SET(F_DISCARD, visible_discard(discard, show_all));
    Py_ssize_t size = PyObject_Length(discard);
    if (size < 0)
        return -1;
    SET(F_DISCARD_COUNT, PyLong_FromSsize_t(size));
    size = PyObject_Length(at[S_STOCK]); /* the stock's size only */
    if (size < 0)
        return -1;
    SET(F_STOCK_COUNT, PyLong_FromSsize_t(size));
    SET(F_DOWN, as_tuple(at[S_DOWN]));
    SET(F_CLAIMS_USED, as_tuple(at[S_CLAIMS_USED]));
    if (at[S_PURCHASE_CARDS] == Py_None)
        SHARE(F_PURCHASE_CARDS, Py_None);
    else
        SET(F_PURCHASE_CARDS, as_tuple(at[S_PURCHASE_CARDS]));
    SET(F_TOTALS, as_tuple(at[S_TOTALS]));
    SHARE(F_KITTY, at[S_KITTY]);
    SET(F_CONTRACT, get_attribute(at[S_RULES], names[N_CONTRACT]));
    if (window == Py_None)
        SHARE(F_CLAIM_CARD, Py_None);
    else
        SET(F_CLAIM_CARD, get_attribute(window, names[N_CARD]));
    SHARE(F_DISCARD_DEAD, at[S_DEAD]);
    SHARE(F_LEGAL_ACTIONS, actions);
    if (phase == ROUND_OVER || phase == GAME_OVER)
        SET(F_REVEALED_HANDS, revealed_hands(hands, players));
    else
        SHARE(F_REVEALED_HANDS, Py_None);
    SHARE(F_RULES, at[S_VARIANT]);
    SHARE(F_PUBLIC_GAME, Py_None);
    SET(F_PLAYED_TO_TABLE, as_tuple(at[S_PLAYED_TO_TABLE]));
    SET(F_CLAIM_FROM, claim_from(at[S_DISCARDERS], window));
    return 1;
#undef SHARE
#undef SET
}

/* The record type and field descriptors new_record last accepted (strong references). */
static PyObject *record_type, *record_fields;

/* A new record of `type` holding `field` (whose references it takes: each is NULL after), as new_record makes it: a
 * new reference, None when new_record declines, or NULL with an exception set. */
static PyObject *make_record(PyObject *module, PyObject *type, PyObject *fields, PyObject **field)
{
    if (type != record_type || fields != record_fields) { /* new_record checks them, once */
        PyObject *args[FIELDS + 2] = {type, fields};
        for (int i = 0; i < FIELDS; i++)
            args[i + 2] = field[i];
        PyObject *record = new_record(module, args, FIELDS + 2);
        if (record != NULL && record != Py_None) {
            Py_INCREF(type);
            Py_INCREF(fields);
            Py_XSETREF(record_type, type);
            Py_XSETREF(record_fields, fields);
        }
        return record;
    }
    PyTypeObject *kind = (PyTypeObject *)type;
    PyObject *record = kind->tp_alloc(kind, 0);
    if (record == NULL)
        return NULL;
    for (int i = 0; i < FIELDS; i++) {
        Py_ssize_t offset = ((PyMemberDescrObject *)PyTuple_GET_ITEM(fields, i))->d_member->offset;
        *(PyObject **)((char *)record + offset) = field[i]; /* (tp_alloc left every slot NULL) */
        field[i] = NULL;
    }
    return record;
}

PyObject *view_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6)
        return PyErr_Format(PyExc_TypeError, "view_record takes 6 arguments, not %zd", nargs);
    PyObject *type = args[0], *fields = args[1], *state = args[2], *seat = args[3], *actions = args[4];
    PyObject *kit = args[5];
    if (!PyTuple_CheckExact(kit) || PyTuple_GET_SIZE(kit) != KIT_SIZE || !PyTuple_CheckExact(actions)
        || !state_slots(PyTuple_GET_ITEM(kit, K_SLOTS), Py_TYPE(state)))
        Py_RETURN_NONE;
    if (intern_names() < 0)
        return NULL;
    PyObject *at[STATE_READ];
    if (!read_state(at, state, PyTuple_GET_ITEM(kit, K_SLOTS)))
        Py_RETURN_NONE;
    int phase = 0;
    while (phase < PHASES && PyTuple_GET_ITEM(kit, phase) != at[S_PHASE])
        phase++;
    PyObject *field[FIELDS] = {NULL};
    int filled = phase == PHASES ? 0 : fill(field, at, seat, actions, phase);
    for (int i = 0; i < STATE_READ; i++)
        Py_DECREF(at[i]);
    PyObject *record = NULL;
    if (filled == 1)
        record = make_record(module, type, fields, field);
    for (int i = 0; i < FIELDS; i++)
        Py_XDECREF(field[i]);
    if (filled == 0)
        Py_RETURN_NONE;
    return record;
}
