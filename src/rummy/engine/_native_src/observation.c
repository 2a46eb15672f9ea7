/*
 * observation(out, inverse, layout, hand, discard, show_all, melds, claim, head, seats, seat, counts, ring,
 *             candidates, kit, hand_size) -> True | None
 *
 * rummy.features.observation.Encoder.encode_game, compiled: writes one seat's observation vector (float32) into
 * `out` (a writable buffer of `layout`'s size, any contents on entry), the same numbers, scaled and capped the
 * same way, as the Python encoder (encode_game and its _write_facts, _write_candidates and _write_history); the
 * caller works out what stays Python (the history's counts brought up to date, the contract's facts) and hands it
 * over.
 *
 *   inverse    float32, 1 / the scale of every position (Encoder.scale);
 *   layout     (players, hand, discard_top, discard_seen, table, claim_card, facts, facts_stop, candidates,
 *              candidate_size, left_field, history, events, size): the block starts (Encoder's layout);
 *   hand       the seat's 53 counts;  discard  the discard pile (cards);  show_all  whether the whole pile is seen;
 *   melds      the table's melds (each with `cards`);  claim  the card a claim window offers, or None;
 *   head       (phase index or -1, round, rounds, group slots, run slots, cards needed, stock, discard, melds, kitty);
 *   seats      (sizes, down, claims_used, totals, active, waiting, played_to_table, purchase_cards or None);
 *   seat       the observer;  counts, ring  the history (History.counts, History.ring: float32, scaled already);
 *   candidates the composite candidates (Actions; the first 32 are described, as CandidateEncoder._describe does);
 *   kit        (the verbs down, meld, rearrange, batch, book, layoff, swap, move; 53 doubles: each card kind's points;
 *              53 bytes: 1 for a wild; whether a relocated wild goes to the hand);  hand_size  the seat's hand size.
 *
 * The arithmetic is numpy's: each number made a float32 (through a double, as numpy converts a Python number),
 * multiplied by its float32 inverse, then capped (facts into [-1, 1], candidate numbers at 1; card counts are not
 * capped).  None, with nothing promised about `out`, when an argument is malformed: the Python encoder answers.
 */
#include "core.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

enum {
    L_PLAYERS, L_HAND, L_TOP, L_SEEN, L_TABLE, L_CLAIM, L_FACTS, L_FACTS_STOP, L_CANDIDATES, L_CANDIDATE_SIZE, L_LEFT,
    L_HISTORY, L_EVENTS, L_SIZE, LAYOUT_SIZE
};
#define HEAD_SIZE 10
#define SEAT_FIELDS 8
#define SLOTS 32
#define HISTORY_BLOCKS 5
#define EVENT_ROWS 8
#define EVENT_KINDS 12
#define MAX_SEATS 64
#define CANDIDATE_CARDS 15 /* the candidate row's fields before its card counts (CANDIDATE_FIELDS) */

/* The attribute names read, interned once (a C string would be made a str at every read). */
enum { N_CARDS, N_ID, N_VERB, N_MELD, N_CARD, N_MELDS, N_KIND, N_SOURCES, N_STEPS, NAMES };
static const char *const name_text[NAMES] = {"cards", "id", "verb", "meld", "card", "melds", "kind", "sources", "steps"};
static PyObject *names[NAMES];

static bool intern_names(void)
{
    for (int i = 0; i < NAMES; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(name_text[i])) == NULL) {
            PyErr_Clear();
            return false;
        }
    return true;
}

/* A Python int or float as numpy makes it a float32: through a double. */
static bool get_number(PyObject *object, float *value)
{
    double number;
    if (PyFloat_Check(object))
        number = PyFloat_AS_DOUBLE(object);
    else if (PyLong_Check(object)) {
        number = PyLong_AsDouble(object);
        if (number == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return false;
        }
    } else
        return false;
    *value = (float)number;
    return true;
}

/* A card (0…52); false when `object` is not one. */
static bool get_card(PyObject *object, long *card)
{
    return get_long(object, card) && *card >= 0 && *card < CARD_COUNT;
}

/* The table's melds as the call reads them: each meld's cards (new references, released at the end of the call),
 * and its id, read when a rearrangement first needs it. */
#define MAX_MELDS 1024
typedef struct {
    PyObject *melds;
    Py_ssize_t count;
    PyObject *cards[MAX_MELDS];
    long ids[MAX_MELDS];
    bool ids_read;
} Table;

/* Item `index` of a list of `count` items, or NULL when `object` is not such a list. */
static PyObject *list_item(PyObject *object, Py_ssize_t count, Py_ssize_t index)
{
    if (!PyList_Check(object) || PyList_GET_SIZE(object) != count)
        return NULL;
    return PyList_GET_ITEM(object, index);
}

/* facts into [-1, 1] (Encoder._write_facts: the block scaled, then np.maximum and np.minimum). */
static inline float fact(float number, float inverse)
{
    float value = number * inverse;
    if (value < -1.0f)
        value = -1.0f;
    if (value > 1.0f)
        value = 1.0f;
    return value;
}

/* Copies of each card kind in `cards` (a list or tuple of cards) added to `counts`; false when one is not a card. */
static bool add_cards(PyObject *cards, int *counts)
{
    if (!PyList_Check(cards) && !PyTuple_Check(cards))
        return false;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(cards);
    PyObject **items = PySequence_Fast_ITEMS(cards);
    for (Py_ssize_t i = 0; i < size; i++) {
        long card;
        if (!get_card(items[i], &card))
            return false;
        counts[card]++;
    }
    return true;
}

/* The card blocks (hand … claim_card), scaled (Encoder.encode_game, then _write_facts' one-hots and scaling). */
static bool write_cards(float *out, const float *inverse, const long *layout, PyObject *hand, PyObject *discard,
                        bool show_all, Table *table, PyObject *claim)
{
    PyObject *melds = table->melds;
    int counts[CARD_COUNT];
    int read = read_hand(hand, counts);
    if (read != 1) {
        if (read < 0)
            PyErr_Clear();
        return false;
    }
    for (int card = 0; card < CARD_COUNT; card++)
        out[layout[L_HAND] + card] = (float)counts[card];
    if (!PyList_Check(discard))
        return false;
    Py_ssize_t piled = PyList_GET_SIZE(discard);
    if (piled) {
        long top;
        if (!get_card(PyList_GET_ITEM(discard, piled - 1), &top))
            return false;
        out[layout[L_TOP] + top] = 1.0f;
        if (!show_all)
            out[layout[L_SEEN] + top] = 1.0f;
    }
    if (show_all) {
        memset(counts, 0, sizeof counts);
        if (!add_cards(discard, counts))
            return false;
        for (int card = 0; card < CARD_COUNT; card++)
            out[layout[L_SEEN] + card] = (float)counts[card];
    }
    if (!PyList_Check(melds) || PyList_GET_SIZE(melds) > MAX_MELDS)
        return false;
    memset(counts, 0, sizeof counts);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(melds); i++) {
        PyObject *cards = get_attribute(PyList_GET_ITEM(melds, i), names[N_CARDS]);
        if (cards == NULL) {
            PyErr_Clear();
            return false;
        }
        table->cards[table->count++] = cards;
        if (!PyTuple_Check(cards) || !add_cards(cards, counts))
            return false;
    }
    for (int card = 0; card < CARD_COUNT; card++)
        out[layout[L_TABLE] + card] = (float)counts[card];
    if (claim != Py_None) {
        long card;
        if (!get_card(claim, &card))
            return false;
        out[layout[L_CLAIM] + card] = 1.0f;
    }
    for (long at = layout[L_HAND]; at < layout[L_FACTS]; at++)
        out[at] *= inverse[at];
    return true;
}

/* phase … seats (Encoder._write_facts): the head, then a row per seat from the observer to its left. */
static bool write_facts(float *out, const float *inverse, const long *layout, PyObject *head, PyObject *seats,
                        long seat)
{
    long players = layout[L_PLAYERS];
    long start = layout[L_FACTS];
    if (!PyTuple_Check(head) || PyTuple_GET_SIZE(head) != HEAD_SIZE || !PyTuple_Check(seats)
        || PyTuple_GET_SIZE(seats) != SEAT_FIELDS)
        return false;
    long phase;
    if (!get_long(PyTuple_GET_ITEM(head, 0), &phase) || phase >= 5)
        return false;
    for (long i = 0; i < 5; i++)
        out[start + i] = fact(i == phase ? 1.0f : 0.0f, inverse[start + i]);
    long at = start + 5;
    for (Py_ssize_t i = 1; i < HEAD_SIZE; i++, at++) {
        float number;
        if (!get_number(PyTuple_GET_ITEM(head, i), &number))
            return false;
        out[at] = fact(number, inverse[at]);
    }
    PyObject *sizes = PyTuple_GET_ITEM(seats, 0), *down = PyTuple_GET_ITEM(seats, 1);
    PyObject *claims = PyTuple_GET_ITEM(seats, 2), *totals = PyTuple_GET_ITEM(seats, 3);
    PyObject *waiting = PyTuple_GET_ITEM(seats, 5), *played = PyTuple_GET_ITEM(seats, 6);
    PyObject *purchase = PyTuple_GET_ITEM(seats, 7);
    long active;
    if (!get_long(PyTuple_GET_ITEM(seats, 4), &active) || !PyList_Check(waiting))
        return false;
    bool to_act[MAX_SEATS] = {false};
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(waiting); i++) {
        long other;
        if (!get_long(PyList_GET_ITEM(waiting, i), &other))
            return false;
        if (other >= 0 && other < players)
            to_act[other] = true;
    }
    for (long turn = 0; turn < players; turn++) {
        long other = (seat + turn) % players;
        PyObject *fields[4] = {list_item(sizes, players, other), list_item(down, players, other),
                               list_item(claims, players, other), list_item(totals, players, other)};
        PyObject *played_here = list_item(played, players, other);
        float numbers[SEAT_FIELDS];
        for (int i = 0; i < 4; i++)
            if (fields[i] == NULL || !get_number(fields[i], &numbers[i]))
                return false;
        numbers[4] = other == active ? 1.0f : 0.0f;
        numbers[5] = to_act[other] ? 1.0f : 0.0f;
        if (played_here == NULL || !get_number(played_here, &numbers[6]))
            return false;
        numbers[7] = 0.0f;
        if (purchase != Py_None) {
            PyObject *card = list_item(purchase, players, other);
            long value;
            if (card == NULL || !get_long(card, &value))
                return false;
            numbers[7] = (float)(double)(value + 1);
        }
        for (int i = 0; i < SEAT_FIELDS; i++, at++)
            out[at] = fact(numbers[i], inverse[at]);
    }
    return at == layout[L_FACTS_STOP];
}

/* What the candidate rows read of the engine (the kit, packed by Encoder): the verbs, then per card kind its points
 * (53 doubles) and whether it is wild (53 bytes), whether a relocated wild goes to the hand. */
enum { V_DOWN, V_MELD, V_REARRANGE, V_BATCH, V_BOOK, V_LAYOFF, V_SWAP, V_MOVE, VERBS };
typedef struct {
    PyObject *verbs[VERBS];
    double points[CARD_COUNT];
    const char *wild;
    bool move_to_hand;
} Kit;

#define MAX_EXTENDED 256
#define MAX_STEPS 64

static bool read_kit(PyObject *object, Kit *kit)
{
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 4)
        return false;
    PyObject *verbs = PyTuple_GET_ITEM(object, 0), *points = PyTuple_GET_ITEM(object, 1);
    PyObject *wild = PyTuple_GET_ITEM(object, 2);
    if (!PyTuple_Check(verbs) || PyTuple_GET_SIZE(verbs) != VERBS || !PyBytes_Check(points)
        || PyBytes_GET_SIZE(points) != CARD_COUNT * (Py_ssize_t)sizeof(double) || !PyBytes_Check(wild)
        || PyBytes_GET_SIZE(wild) != CARD_COUNT)
        return false;
    for (int i = 0; i < VERBS; i++)
        kit->verbs[i] = PyTuple_GET_ITEM(verbs, i);
    memcpy(kit->points, PyBytes_AS_STRING(points), sizeof kit->points);
    kit->wild = PyBytes_AS_STRING(wild);
    kit->move_to_hand = PyTuple_GET_ITEM(object, 3) == Py_True;
    return true;
}

/* The attribute `name` of `object` (a new reference), or NULL with no exception set. */
static PyObject *attribute(PyObject *object, int name)
{
    PyObject *value = get_attribute(object, names[name]);
    if (value == NULL)
        PyErr_Clear();
    return value;
}

/* The attribute `name` of `object` as a tuple (a new reference), or NULL. */
static PyObject *tuple_attribute(PyObject *object, int name)
{
    PyObject *value = attribute(object, name);
    if (value != NULL && !PyTuple_Check(value)) {
        Py_DECREF(value);
        return NULL;
    }
    return value;
}

/* An int attribute that may be None: 1 with `value` set, 0 when None, -1 when neither. */
static int optional_long_attribute(PyObject *object, int name, long *value)
{
    return long_or_none_attribute(object, names[name], value);
}

static bool add_extended(long *extended, int *count, long meld)
{
    for (int i = 0; i < *count; i++)
        if (extended[i] == meld)
            return true;
    if (*count == MAX_EXTENDED)
        return false;
    extended[(*count)++] = meld;
    return true;
}

/* The cards of table meld `id` subtracted from `laid` (none when no meld has that id: table.get(source, ()) of
 * {meld.id: meld.cards for meld in table}, so the last meld of an id). */
static bool take_table_cards(Table *table, long id, int *laid)
{
    if (!table->ids_read) {
        for (Py_ssize_t i = 0; i < table->count; i++) {
            long meld_id;
            int found = optional_long_attribute(PyList_GET_ITEM(table->melds, i), N_ID, &meld_id);
            if (found < 0)
                return false;
            table->ids[i] = found ? meld_id : LONG_MIN;
        }
        table->ids_read = true;
    }
    for (Py_ssize_t i = table->count - 1; i >= 0; i--) {
        if (table->ids[i] != id)
            continue;
        int counts[CARD_COUNT] = {0};
        if (!add_cards(table->cards[i], counts))
            return false;
        for (int card = 0; card < CARD_COUNT; card++)
            laid[card] -= counts[card];
        return true;
    }
    return true;
}

/* One step of a candidate (CandidateEncoder._describe's loop body). */
static bool describe_step(PyObject *step, const Kit *kit, Table *melds, int *played, long *extended,
                          int *extended_count, long *made, long *groups, long *back)
{
    PyObject *verb = attribute(step, N_VERB);
    if (verb == NULL)
        return false;
    Py_DECREF(verb); /* a Verb member: alive in the enum */
    if (verb == kit->verbs[V_LAYOFF] || verb == kit->verbs[V_SWAP] || verb == kit->verbs[V_MOVE]) {
        long meld, card;
        int has_meld = optional_long_attribute(step, N_MELD, &meld);
        int has_card = optional_long_attribute(step, N_CARD, &card);
        if (has_meld < 0 || has_card < 0 || (has_card && (card < 0 || card >= CARD_COUNT)))
            return false;
        if (has_meld && !add_extended(extended, extended_count, meld))
            return false;
        if (verb != kit->verbs[V_MOVE] && has_card)
            played[card]++;
        *back += verb == kit->verbs[V_SWAP] || (verb == kit->verbs[V_MOVE] && kit->move_to_hand);
        return true;
    }
    int laid[CARD_COUNT] = {0};
    PyObject *step_melds = tuple_attribute(step, N_MELDS);
    if (step_melds == NULL)
        return false;
    bool good = true;
    for (Py_ssize_t i = 0; good && i < PyTuple_GET_SIZE(step_melds); i++) {
        PyObject *meld = PyTuple_GET_ITEM(step_melds, i);
        PyObject *kind = attribute(meld, N_KIND), *cards = tuple_attribute(meld, N_CARDS);
        good = kind != NULL && cards != NULL && PyUnicode_Check(kind) && add_cards(cards, laid);
        if (good) {
            (*made)++;
            *groups += PyUnicode_CompareWithASCIIString(kind, "set") == 0
                       || PyUnicode_CompareWithASCIIString(kind, "pair") == 0
                       || PyUnicode_CompareWithASCIIString(kind, "book") == 0;
        }
        Py_XDECREF(kind);
        Py_XDECREF(cards);
    }
    Py_DECREF(step_melds);
    if (!good)
        return false;
    if (verb == kit->verbs[V_REARRANGE]) { /* the cards of the melds it rearranges were on the table already */
        PyObject *sources = tuple_attribute(step, N_SOURCES);
        if (sources == NULL)
            return false;
        for (Py_ssize_t i = 0; good && i < PyTuple_GET_SIZE(sources); i++) {
            long source;
            good = get_long(PyTuple_GET_ITEM(sources, i), &source) && add_extended(extended, extended_count, source)
                   && take_table_cards(melds, source, laid);
        }
        Py_DECREF(sources);
        if (!good)
            return false;
    }
    for (int card = 0; card < CARD_COUNT; card++)
        if (laid[card] > 0)
            played[card] += laid[card];
    return true;
}

/* The row of one candidate but for cards_left and goes_out (CandidateEncoder._describe), into `row` (zero on
 * entry); the change of the hand's size in `change`. */
static bool describe(PyObject *action, const Kit *kit, Table *melds, float *row, long *change)
{
    PyObject *verb = attribute(action, N_VERB);
    if (verb == NULL)
        return false;
    Py_DECREF(verb);
    int field = 0;
    for (int i = V_DOWN; i <= V_BOOK; i++)
        if (verb == kit->verbs[i])
            field = 1 + i;
    if (field == 0)
        return false;
    PyObject *steps = NULL;
    if (verb == kit->verbs[V_BATCH]) {
        steps = tuple_attribute(action, N_STEPS);
        if (steps == NULL || PyTuple_GET_SIZE(steps) > MAX_STEPS) {
            Py_XDECREF(steps);
            return false;
        }
    }
    int played[CARD_COUNT] = {0};
    long extended[MAX_EXTENDED];
    int extended_count = 0;
    long made = 0, groups = 0, back = 0;
    bool good = true;
    if (steps == NULL)
        good = describe_step(action, kit, melds, played, extended, &extended_count, &made, &groups, &back);
    else {
        for (Py_ssize_t i = 0; good && i < PyTuple_GET_SIZE(steps); i++)
            good = describe_step(PyTuple_GET_ITEM(steps, i), kit, melds, played, extended, &extended_count, &made,
                                 &groups, &back);
        Py_DECREF(steps);
    }
    if (!good)
        return false;
    long count = 0, wilds = 0;
    double points = 0.0;
    for (int card = 0; card < CARD_COUNT; card++) {
        int n = played[card];
        if (n) {
            row[CANDIDATE_CARDS + card] = (float)(double)n;
            count += n;
            wilds += kit->wild[card] ? n : 0;
            points += kit->points[card] * n;
        }
    }
    row[0] = 1.0f;
    row[field] = 1.0f;
    double numbers[7] = {(double)count, (double)wilds, points, (double)made, (double)groups, (double)(made - groups),
                         (double)extended_count};
    for (int i = 0; i < 7; i++)
        row[6 + i] = (float)numbers[i];
    *change = back - count;
    return true;
}

/* The candidate rows (CandidateEncoder.write, then Encoder._write_candidates' scaling and cap at 1). */
static bool write_candidates(float *out, const float *inverse, const long *layout, PyObject *candidates,
                             PyObject *kit_object, Table *melds, long hand_size)
{
    long width = layout[L_CANDIDATE_SIZE], left_field = layout[L_LEFT];
    if (!PyList_Check(candidates) && !PyTuple_Check(candidates))
        return false;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(candidates);
    if (count > SLOTS)
        count = SLOTS;
    if (count == 0)
        return true;
    Kit kit;
    if (!read_kit(kit_object, &kit) || width != CANDIDATE_CARDS + CARD_COUNT || left_field != CANDIDATE_CARDS - 2)
        return false;
    PyObject **items = PySequence_Fast_ITEMS(candidates);
    for (Py_ssize_t k = 0; k < count; k++) {
        long at = layout[L_CANDIDATES] + k * width, change;
        if (!describe(items[k], &kit, melds, out + at, &change))
            return false;
        long left = hand_size + change;
        out[at + left_field] = (float)(double)left;
        out[at + left_field + 1] = left == 0 ? 1.0f : 0.0f;
        for (long i = 0; i < width; i++) {
            float value = out[at + i] * inverse[at + i];
            out[at + i] = value > 1.0f ? 1.0f : value;
        }
    }
    return true;
}

/* The history blocks turned to the observer (Encoder._write_history): per block, the seats from `seat` on. */
static void write_history(float *out, const long *layout, const float *counts, const float *ring, long seat)
{
    long players = layout[L_PLAYERS];
    long at = layout[L_HISTORY];
    for (long block = 0; block < HISTORY_BLOCKS; block++)
        for (long turn = 0; turn < players; turn++, at += CARD_COUNT)
            memcpy(out + at, counts + (block * players + (seat + turn) % players) * CARD_COUNT,
                   CARD_COUNT * sizeof(float));
    long width = players + EVENT_KINDS + CARD_COUNT;
    for (long row = 0; row < EVENT_ROWS; row++) {
        float *to = out + layout[L_EVENTS] + row * width;
        const float *from = ring + row * width;
        for (long turn = 0; turn < players; turn++)
            to[turn] = from[(seat + turn) % players];
        memcpy(to + players, from + players, (size_t)(width - players) * sizeof(float));
    }
}

PyObject *observation(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 16) {
        PyErr_SetString(PyExc_TypeError, "observation() takes 16 arguments");
        return NULL;
    }
    if (!intern_names())
        Py_RETURN_NONE;
    PyObject *layout_object = args[2];
    long layout[LAYOUT_SIZE];
    if (!PyTuple_Check(layout_object) || PyTuple_GET_SIZE(layout_object) != LAYOUT_SIZE)
        Py_RETURN_NONE;
    for (int i = 0; i < LAYOUT_SIZE; i++)
        if (!get_long(PyTuple_GET_ITEM(layout_object, i), &layout[i]) || layout[i] < 0)
            Py_RETURN_NONE;
    long players = layout[L_PLAYERS], seat, hand_size;
    int show_all = PyObject_IsTrue(args[5]);
    if (show_all < 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    long history_size = HISTORY_BLOCKS * players * CARD_COUNT;
    long ring_size = EVENT_ROWS * (players + EVENT_KINDS + CARD_COUNT);
    /* the blocks in order, each inside the vector (so that no write leaves it) */
    if (players < 1 || players > MAX_SEATS || !get_long(args[10], &seat) || seat < 0 || seat >= players
        || !get_long(args[15], &hand_size) || layout[L_TOP] != layout[L_HAND] + CARD_COUNT
        || layout[L_SEEN] != layout[L_TOP] + CARD_COUNT || layout[L_TABLE] != layout[L_SEEN] + CARD_COUNT
        || layout[L_CLAIM] != layout[L_TABLE] + CARD_COUNT || layout[L_FACTS] != layout[L_CLAIM] + CARD_COUNT
        || layout[L_FACTS_STOP] != layout[L_FACTS] + 5 + HEAD_SIZE - 1 + SEAT_FIELDS * players
        || layout[L_CANDIDATES] < layout[L_FACTS_STOP]
        || layout[L_HISTORY] < layout[L_CANDIDATES] + SLOTS * layout[L_CANDIDATE_SIZE]
        || layout[L_EVENTS] != layout[L_HISTORY] + history_size || layout[L_SIZE] != layout[L_EVENTS] + ring_size)
        Py_RETURN_NONE;
    Py_buffer out, inverse, counts, ring;
    if (!get_floats(args[0], &out, true, layout[L_SIZE]))
        Py_RETURN_NONE;
    if (!get_floats(args[1], &inverse, false, layout[L_SIZE])) {
        PyBuffer_Release(&out);
        Py_RETURN_NONE;
    }
    if (!get_floats(args[11], &counts, false, history_size)) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&inverse);
        Py_RETURN_NONE;
    }
    if (!get_floats(args[12], &ring, false, ring_size)) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&inverse);
        PyBuffer_Release(&counts);
        Py_RETURN_NONE;
    }
    float *vector = out.buf;
    const float *scale = inverse.buf;
    memset(vector, 0, (size_t)layout[L_SIZE] * sizeof(float));
    Table table;
    table.melds = args[6];
    table.count = 0;
    table.ids_read = false;
    bool good = write_cards(vector, scale, layout, args[3], args[4], show_all, &table, args[7])
                && write_facts(vector, scale, layout, args[8], args[9], seat)
                && write_candidates(vector, scale, layout, args[13], args[14], &table, hand_size);
    for (Py_ssize_t i = 0; i < table.count; i++)
        Py_DECREF(table.cards[i]);
    if (good)
        write_history(vector, layout, counts.buf, ring.buf, seat);
    PyBuffer_Release(&out);
    PyBuffer_Release(&inverse);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&ring);
    if (!good)
        Py_RETURN_NONE;
    Py_RETURN_TRUE;
}
