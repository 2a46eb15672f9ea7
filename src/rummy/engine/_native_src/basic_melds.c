/*
 * The new melds of free melding (basic), compiled: two queries of the listing and of the stalemate check.
 *
 * single_melds(hand, rules, group_min, run_min, kit) -> list | None
 *
 *   rummy.engine.moves._single_melds: every set and run of natural cards the hand can form on its own, as MeldSpec
 *   values (kit[0](kit[1], cards) for a set, kit[0](kit[2], cards) for a run), in the Python generator's order:
 *   first the sets, rank by rank in the order of the lowest natural card held of each rank (a natural joker is rank
 *   0), each size from group_min up to the cards of that rank held, and for each size every distinct choice of that
 *   many of them (identical cards of several decks are one choice) in ascending order of the card tuples; then the
 *   runs, suit by suit, from each value held (low to high: 2 ... 14 when the ace is high only, 1 ... 13 when low
 *   only, else 1 ... 14, the ace counting as 1 and as 14) each run of values held from it of run_min cards or more,
 *   shortest first, never from the ace low up to the ace high.  The run values are read off the whole hand, wild
 *   cards included, as the Python generator reads them.
 *
 *     hand   53 counts (a list or tuple);  rules  the variant's (meld_rules.compiled_meld_rules, core.h's MeldRules):
 *     its wild flags and lowest and highest run value (1 or 2, 13 or 14) are read.
 *
 *   None when an argument is malformed (a hand that is not 53 small counts, rules out of shape or run bounds other
 *   than these) or a minimum is below 1 or above 1,000: the Python generator answers then.
 *
 * unmeldable_pool(pack, table, group_min, run_min, ace_high) -> False | list | None
 *
 *   The first two tests of rummy.engine.deadlock.is_stalemate (rules.md §6.9) on the cards off the table
 *   (deadlock.off_table_pool: the pack less the cards of each meld of `table`, a list of melds with a `cards` tuple):
 *   False when they could still form a new set (group_min cards of one rank) or run (run_min cards of one suit in
 *   sequence, _pool_has_run: values 1 ... 13, and 14 for the ace too when `ace_high`); else the pool itself, a list of
 *   53 counts, for the lay-off test that stays Python.  None when an argument is malformed (a pack that is not 53
 *   small counts, a meld whose cards are not a tuple of cards, more of a card on the table than in the pack) or a
 *   minimum is below 1 or above 1,000: the Python check answers then.
 */
#include "core.h"

#include <stdbool.h>

#define MOST 1000
#define LONGEST (4 * 255) /* the most cards of one rank a hand of small counts holds */

typedef struct {
    PyObject *out, *make, *kind;
    int cards[LONGEST];
} Melds;

/* Append the meld kit_make(kind, cards[0:size]).  0, or -1 with an exception set. */
static int append_meld(Melds *melds, PyObject *kind, int size)
{
    PyObject *cards = PyTuple_New(size);
    if (cards == NULL)
        return -1;
    for (int i = 0; i < size; i++) {
        PyObject *card = PyLong_FromLong(melds->cards[i]);
        if (card == NULL) {
            Py_DECREF(cards);
            return -1;
        }
        PyTuple_SET_ITEM(cards, i, card);
    }
    PyObject *items[2] = {kind, cards};
    PyObject *meld = PyObject_Vectorcall(melds->make, items, 2, NULL);
    Py_DECREF(cards);
    if (meld == NULL)
        return -1;
    int failed = PyList_Append(melds->out, meld);
    Py_DECREF(meld);
    return failed;
}

/* Every distinct choice of `size` cards among the kinds `kinds` (ascending) with `left` of each still to choose,
 * from position `at` and the kind `from` on: in ascending order of the card tuples (the kinds taken in ascending
 * order, each as often as it is left, before the next). */
static int choose(Melds *melds, const int *kinds, int *left, int count, int from, int at, int size)
{
    if (at == size)
        return append_meld(melds, melds->kind, size);
    for (int k = from; k < count; k++) {
        if (!left[k])
            continue;
        left[k]--;
        melds->cards[at] = kinds[k];
        int failed = choose(melds, kinds, left, count, k, at + 1, size);
        left[k]++;
        if (failed)
            return -1;
    }
    return 0;
}

static int card_of_value(int value, int suit) { return suit * 13 + (value == 14 ? 1 : value) - 1; }

PyObject *single_melds(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5 || !PyLong_Check(args[2]) || !PyLong_Check(args[3]) || !PyTuple_Check(args[4])
        || PyTuple_GET_SIZE(args[4]) != 3) {
        PyErr_SetString(PyExc_TypeError, "single_melds(hand, rules: bytes, group_min: int, run_min: int, kit)");
        return NULL;
    }
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    long group_min = PyLong_AsLong(args[2]), run_min = PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        PyErr_Clear(); /* (an int too large for a long: malformed) */
    MeldRules rules;
    if (read == 0 || !read_meld_rules(args[1], &rules) || group_min < 1 || group_min > MOST || run_min < 1
        || run_min > MOST || rules.low_bound > 2 || rules.high_bound < 13)
        Py_RETURN_NONE;
    const unsigned char *wild = rules.wild;
    int low = rules.low_bound, high = rules.high_bound;
    Melds listing, *melds = &listing;
    melds->out = PyList_New(0);
    melds->make = PyTuple_GET_ITEM(args[4], 0);
    if (melds->out == NULL)
        return NULL;
    /* The sets: ranks in the order of their lowest natural card held. */
    bool listed[14] = {false};
    for (int first = 0; first < CARD_COUNT; first++) {
        if (!hand[first] || wild[first])
            continue;
        int rank = first == JOKER ? 0 : first % 13 + 1;
        if (listed[rank])
            continue;
        listed[rank] = true;
        int kinds[4], left[4], count = 0, held = 0;
        for (int card = first; card < CARD_COUNT; card += 13) {
            if (rank == 0 && card != JOKER)
                break;
            if (hand[card] && !wild[card] && (card == JOKER ? 0 : card % 13 + 1) == rank) {
                kinds[count] = card;
                left[count++] = hand[card];
                held += hand[card];
            }
            if (card == JOKER)
                break;
        }
        melds->kind = PyTuple_GET_ITEM(args[4], 1);
        for (int size = (int)group_min; size <= held; size++)
            if (choose(melds, kinds, left, count, 0, 0, size) < 0)
                goto failed;
    }
    /* The runs. */
    melds->kind = PyTuple_GET_ITEM(args[4], 2);
    for (int suit = 0; suit < 4; suit++) {
        for (int start = low; start <= high; start++) {
            if (!hand[card_of_value(start, suit)])
                continue;
            for (int end = start + 1; end <= high && hand[card_of_value(end, suit)] && !(start == 1 && end == 14);
                 end++) {
                if (end - start + 1 < run_min)
                    continue;
                for (int value = start; value <= end; value++)
                    melds->cards[value - start] = card_of_value(value, suit);
                if (append_meld(melds, melds->kind, end - start + 1) < 0)
                    goto failed;
            }
        }
    }
    return melds->out;
failed:
    Py_DECREF(melds->out);
    return NULL;
}

PyObject *unmeldable_pool(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5 || !PyLong_Check(args[2]) || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "unmeldable_pool(pack, table, group_min: int, run_min: int, ace_high)");
        return NULL;
    }
    int pool[CARD_COUNT];
    int read = read_hand(args[0], pool);
    if (read < 0)
        return NULL;
    long group_min = PyLong_AsLong(args[2]), run_min = PyLong_AsLong(args[3]);
    if (PyErr_Occurred())
        PyErr_Clear(); /* (an int too large for a long: malformed) */
    int ace_high = PyObject_IsTrue(args[4]);
    if (ace_high < 0)
        return NULL;
    if (read == 0 || !PyList_Check(args[1]) || group_min < 1 || group_min > MOST || run_min < 1 || run_min > MOST)
        Py_RETURN_NONE;
    static PyObject *cards_name = NULL;
    if (cards_name == NULL && (cards_name = PyUnicode_InternFromString("cards")) == NULL)
        return NULL;
    for (Py_ssize_t m = 0; m < PyList_GET_SIZE(args[1]); m++) {
        PyObject *cards = get_attribute(PyList_GET_ITEM(args[1], m), cards_name);
        if (cards == NULL)
            return NULL;
        bool ok = PyTuple_Check(cards);
        for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(cards); i++) {
            PyObject *item = PyTuple_GET_ITEM(cards, i);
            long card = PyLong_Check(item) ? PyLong_AsLong(item) : -1;
            if (card == -1 && PyErr_Occurred())
                PyErr_Clear();
            ok = card >= 0 && card < CARD_COUNT && pool[card] > 0;
            if (ok)
                pool[card]--;
        }
        Py_DECREF(cards);
        if (!ok)
            Py_RETURN_NONE;
    }
    /* A new set: group_min cards of one rank (the joker left out). */
    int most = 0;
    for (int rank = 0; rank < 13; rank++) {
        int count = pool[rank] + pool[13 + rank] + pool[26 + rank] + pool[39 + rank];
        most = count > most ? count : most;
    }
    if (most >= group_min)
        Py_RETURN_FALSE;
    /* A new run: run_min values of one suit in sequence. */
    for (int suit = 0; suit < 4; suit++) {
        int streak = 0;
        for (int value = 1; value <= (ace_high ? 14 : 13); value++) {
            streak = pool[card_of_value(value, suit)] > 0 ? streak + 1 : 0;
            if (streak >= run_min)
                Py_RETURN_FALSE;
        }
    }
    PyObject *list = PyList_New(CARD_COUNT);
    if (list == NULL)
        return NULL;
    for (int card = 0; card < CARD_COUNT; card++) {
        PyObject *count = PyLong_FromLong(pool[card]);
        if (count == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, card, count);
    }
    return list;
}
