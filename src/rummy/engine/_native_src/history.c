/*
 * history_add(counts, ring, players, unit, log, start, stop, pickups, kit) -> True | None
 *
 * rummy.features.history.History._add, compiled: adds the actions log[start:stop] of a round to the observation's
 * history, as the Python loop of History.update does: per seat the copies of each card kind it took, bought,
 * discarded, melded and laid off (`counts`, float32, 5 × players × 53, each card adding `unit`, capped at 1), and
 * the ring of the last public events, the newest first (`ring`, float32, 8 rows of players + 12 + 53: the seat
 * one-hot, the kind one-hot, the cards it showed, each adding `unit`).  The cards a take or a buy picked up are
 * read from `pickups` ((log index, seat, card), in log order).
 *
 *   kit  the Verb members draw, take, buy, discard, down, meld, book, layoff, swap, move, rearrange, purchase,
 *        trade, exchange, batch (in this order).
 *
 * None when an argument is malformed: the numbers may then be partly written, and the caller reads the round anew
 * in Python.  The arithmetic is numpy's float32: a count is the float32 sum, then capped.
 */
#include "core.h"

#include <stdbool.h>
#include <string.h>

enum {
    H_DRAW, H_TAKE, H_BUY, H_DISCARD, H_DOWN, H_MELD, H_BOOK, H_LAYOFF, H_SWAP, H_MOVE, H_REARRANGE, H_PURCHASE,
    H_TRADE, H_EXCHANGE, H_BATCH, H_VERBS
};
/* the blocks of `counts` (HISTORY_COUNTS) and the event kinds (EVENT_KINDS) */
enum { TAKEN, BOUGHT, DISCARDED, MELDED, LAID_OFF, BLOCKS };
enum { K_DRAW, K_TAKE, K_BUY, K_DISCARD, K_MELD, K_LAYOFF, K_SWAP, K_MOVE, K_REARRANGE, K_PURCHASE, K_TRADE,
       K_EXCHANGE, KINDS };
#define RING_ROWS 8
#define MAX_CARDS 1024
#define MAX_DEPTH 4

enum { HN_VERB, HN_SEAT, HN_CARD, HN_STEPS, HN_MELDS, HN_CARDS, HN_NEW_PC, HN_NAMES };
static const char *const history_text[HN_NAMES] = {"verb", "seat", "card", "steps", "melds", "cards", "new_pc"};
static PyObject *history_names[HN_NAMES];

typedef struct {
    float *counts, *ring;
    long players, width;
    float unit;
    PyObject *verbs[H_VERBS];
    PyObject *pickups;
} History;

/* An attribute that is an int or None: 1 with `value` set, 0 for None, -1 otherwise. */
static int long_attribute(PyObject *object, int name, long *value)
{
    return long_or_none_attribute(object, history_names[name], value);
}

/* History._count: each card adds `unit` to the seat's row of `block`, capped at 1. */
static void count(const History *history, int block, long seat, const long *cards, long n)
{
    float *row = history->counts + (block * history->players + seat) * CARD_COUNT;
    for (long i = 0; i < n; i++) {
        float value = row[cards[i]] + history->unit;
        row[cards[i]] = value <= 1.0f ? value : 1.0f;
    }
}

/* History._event: the ring moves down a row and the new event is its first. */
static void event(const History *history, long seat, int kind, const long *cards, long n)
{
    float *ring = history->ring;
    long width = history->width;
    memmove(ring + width, ring, (size_t)((RING_ROWS - 1) * width) * sizeof(float));
    memset(ring, 0, (size_t)width * sizeof(float));
    ring[seat] = 1.0f;
    ring[history->players + kind] = 1.0f;
    float *shown = ring + history->players + KINDS;
    for (long i = 0; i < n; i++)
        shown[cards[i]] += history->unit;
}

/* The cards `seat` picked up by the action at log `index` (history._picked_up), in log order; -1 when the pickups
 * cannot be read. */
static long picked_up(const History *history, long index, long seat, long *cards)
{
    PyObject *pickups = history->pickups;
    long n = 0;
    Py_ssize_t first = PyList_GET_SIZE(pickups);
    while (first > 0) { /* the pickups of this index and after, read from the end */
        PyObject *pickup = PyList_GET_ITEM(pickups, first - 1);
        long at;
        if (!PyTuple_Check(pickup) || PyTuple_GET_SIZE(pickup) != 3 || !get_long(PyTuple_GET_ITEM(pickup, 0), &at))
            return -1;
        if (at < index)
            break;
        first--;
    }
    for (Py_ssize_t i = first; i < PyList_GET_SIZE(pickups); i++) {
        PyObject *pickup = PyList_GET_ITEM(pickups, i);
        long at, who, card;
        if (!get_long(PyTuple_GET_ITEM(pickup, 0), &at) || !get_long(PyTuple_GET_ITEM(pickup, 1), &who)
            || !get_long(PyTuple_GET_ITEM(pickup, 2), &card))
            return -1;
        if (at == index && who == seat) {
            if (card < 0 || card >= CARD_COUNT || n == MAX_CARDS)
                return -1;
            cards[n++] = card;
        }
    }
    return n;
}

/* The cards of an action's melds, in order; -1 when they cannot be read. */
static long meld_cards(PyObject *action, long *cards)
{
    PyObject *melds = get_attribute(action, history_names[HN_MELDS]);
    if (melds == NULL) {
        PyErr_Clear();
        return -1;
    }
    long n = 0;
    bool good = PyTuple_Check(melds);
    for (Py_ssize_t i = 0; good && i < PyTuple_GET_SIZE(melds); i++) {
        PyObject *meld_cards_object = get_attribute(PyTuple_GET_ITEM(melds, i), history_names[HN_CARDS]);
        if (meld_cards_object == NULL) {
            PyErr_Clear();
            good = false;
            break;
        }
        good = PyTuple_Check(meld_cards_object);
        for (Py_ssize_t j = 0; good && j < PyTuple_GET_SIZE(meld_cards_object); j++) {
            long card;
            good = get_long(PyTuple_GET_ITEM(meld_cards_object, j), &card) && card >= 0 && card < CARD_COUNT
                   && n < MAX_CARDS;
            if (good)
                cards[n++] = card;
        }
        Py_DECREF(meld_cards_object);
    }
    Py_DECREF(melds);
    return good ? n : -1;
}

/* History._add of one action at log `index`. */
static bool add(const History *history, PyObject *action, long index, int depth)
{
    PyObject *verb = get_attribute(action, history_names[HN_VERB]);
    if (verb == NULL) {
        PyErr_Clear();
        return false;
    }
    Py_DECREF(verb); /* a Verb member: alive in the enum */
    int which = H_VERBS;
    for (int i = 0; i < H_VERBS; i++)
        if (verb == history->verbs[i])
            which = i;
    long seat;
    if (long_attribute(action, HN_SEAT, &seat) != 1 || seat < 0 || seat >= history->players)
        return false;
    if (which == H_BATCH) {
        if (depth >= MAX_DEPTH)
            return false;
        PyObject *steps = get_attribute(action, history_names[HN_STEPS]);
        if (steps == NULL) {
            PyErr_Clear();
            return false;
        }
        bool good = PyTuple_Check(steps);
        for (Py_ssize_t i = 0; good && i < PyTuple_GET_SIZE(steps); i++)
            good = add(history, PyTuple_GET_ITEM(steps, i), index, depth + 1);
        Py_DECREF(steps);
        return good;
    }
    long cards[MAX_CARDS], card, n = 0;
    int has;
    switch (which) {
    case H_DRAW:
        event(history, seat, K_DRAW, cards, 0);
        return true;
    case H_TAKE:
    case H_BUY:
        n = picked_up(history, index, seat, cards);
        if (n < 0)
            return false;
        count(history, which == H_TAKE ? TAKEN : BOUGHT, seat, cards, n);
        event(history, seat, which == H_TAKE ? K_TAKE : K_BUY, cards, n);
        return true;
    case H_DISCARD:
        has = long_attribute(action, HN_CARD, &card);
        if (has < 0 || (has && (card < 0 || card >= CARD_COUNT)))
            return false;
        if (has) { /* (a discard without a card records nothing) */
            count(history, DISCARDED, seat, &card, 1);
            event(history, seat, K_DISCARD, &card, 1);
        }
        return true;
    case H_DOWN:
    case H_MELD:
    case H_BOOK:
        n = meld_cards(action, cards);
        if (n < 0)
            return false;
        count(history, MELDED, seat, cards, n);
        event(history, seat, K_MELD, cards, n);
        return true;
    case H_LAYOFF:
    case H_SWAP:
    case H_MOVE:
    case H_PURCHASE:
    case H_TRADE:
    case H_EXCHANGE:
        has = long_attribute(action, which == H_TRADE || which == H_EXCHANGE ? HN_NEW_PC : HN_CARD, &card);
        if (has < 0 || (has && (card < 0 || card >= CARD_COUNT)))
            return false;
        n = has;
        if (which == H_LAYOFF || which == H_SWAP)
            count(history, LAID_OFF, seat, &card, n);
        else if (which == H_PURCHASE)
            count(history, BOUGHT, seat, &card, n);
        event(history, seat,
              which == H_LAYOFF ? K_LAYOFF : which == H_SWAP ? K_SWAP : which == H_MOVE ? K_MOVE
              : which == H_PURCHASE ? K_PURCHASE : which == H_TRADE ? K_TRADE : K_EXCHANGE, &card, n);
        return true;
    case H_REARRANGE:
        event(history, seat, K_REARRANGE, cards, 0);
        return true;
    default: /* a pass, which is not recorded */
        return true;
    }
}

PyObject *history_add(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "history_add() takes 9 arguments");
        return NULL;
    }
    for (int i = 0; i < HN_NAMES; i++)
        if (history_names[i] == NULL && (history_names[i] = PyUnicode_InternFromString(history_text[i])) == NULL)
            return NULL;
    History history;
    long start, stop;
    double unit;
    PyObject *log = args[4], *kit = args[8];
    history.pickups = args[7];
    if (!get_long(args[2], &history.players) || history.players < 1 || history.players > 64 || !PyFloat_Check(args[3])
        || !get_long(args[5], &start) || !get_long(args[6], &stop) || !PyList_Check(log) || start < 0 || stop < start
        || stop > PyList_GET_SIZE(log) || !PyList_Check(history.pickups) || !PyTuple_Check(kit)
        || PyTuple_GET_SIZE(kit) != H_VERBS)
        Py_RETURN_NONE;
    unit = PyFloat_AS_DOUBLE(args[3]);
    history.unit = (float)unit;
    history.width = history.players + KINDS + CARD_COUNT;
    for (int i = 0; i < H_VERBS; i++)
        history.verbs[i] = PyTuple_GET_ITEM(kit, i);
    Py_buffer counts, ring;
    if (!get_floats(args[0], &counts, true, BLOCKS * history.players * CARD_COUNT))
        Py_RETURN_NONE;
    if (!get_floats(args[1], &ring, true, RING_ROWS * history.width)) {
        PyBuffer_Release(&counts);
        Py_RETURN_NONE;
    }
    history.counts = counts.buf;
    history.ring = ring.buf;
    bool good = true;
    for (long index = start; good && index < stop; index++) {
        PyObject *action = PyList_GET_ITEM(log, index);
        Py_INCREF(action);
        good = add(&history, action, index, 0);
        Py_DECREF(action);
    }
    PyBuffer_Release(&counts);
    PyBuffer_Release(&ring);
    if (!good)
        Py_RETURN_NONE;
    Py_RETURN_TRUE;
}
