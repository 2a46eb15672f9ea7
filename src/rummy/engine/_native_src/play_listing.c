/*
 * Pieces of the play phase's listing (rummy.engine.moves._play_actions), compiled; each function names the Python
 * one it follows, which stays the reference and the fallback (None: the Python code answers).
 *
 *   most_cards_laid(hand, rules, runs, groups) -> int | None
 *       lay_down.most_cards_laid: at most how many cards a lay-down of a contract of `runs` run slots and `groups`
 *       group slots uses from `hand` (53 counts); `rules` is meld_rules.compiled_meld_rules (only its wild flags are
 *       read).
 *   discards(hand, actions, taken) -> list | None
 *       moves._discards' last step: the discard action of each card kind the hand holds, ascending, but `taken`
 *       (a card kind, or -1 for none); `actions` is the tuple of the seat's 53 discards.
 *   gather_offers(table, variant, memo, work_out, kit, put) -> (layoffs, swaps, splits) | None
 *       TableOffers.__init__'s pass over a table: each meld's offers from table_offers._MELD_OFFERS (`memo`: id of a
 *       meld -> (meld, variant, offers)), else worked out in C (meld_offers.c, from `kit`, table_offers._offers_kit;
 *       None: not asked) and stored by `put` (memo.put), else (a meld the C does not read) from `work_out(meld,
 *       variant)` (table_offers._meld_offers, which memoises them); concatenated in table order into three new lists.
 *   layoffs(kind, rank, suit, low, length, wilds, rules) -> tuple | None, going_out(cards, table, rules)
 *       meld_offers._try_layoffs and moves._going_out_batch's search (each described below).
 *
 * None for a malformed argument (a hand that is not 53 small counts, a table that is not a tuple, an offer entry
 * that is not a triple of tuples, a card out of range).
 */
#include "core.h"

PyObject *most_cards_laid(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "most_cards_laid(hand, rules, runs, groups)");
        return NULL;
    }
    MeldRules rules;
    long runs, groups;
    if (!read_meld_rules(args[1], &rules) || !get_long(args[2], &runs) || !get_long(args[3], &groups) || runs < 0
        || groups < 0 || runs > 1000 || groups > 1000)
        Py_RETURN_NONE;
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    if (read == 0)
        Py_RETURN_NONE;
    const unsigned char *wild = rules.wild;
    long wilds = 0;
    long by_rank[14] = {0};
    long kinds[4] = {0};
    for (int card = 0; card < CARD_COUNT; card++) {
        int count = hand[card];
        if (!count)
            continue;
        if (wild[card]) {
            wilds += count;
        } else {
            by_rank[card % 13 + 1] += count; /* (a joker that is not wild counts as an ace, as in the Python) */
            if (card < JOKER)
                kinds[card / 13] += 1;
        }
    }
    long most_kinds = 0;
    for (int suit = 0; suit < 4; suit++)
        if (kinds[suit] > most_kinds)
            most_kinds = kinds[suit];
    long total = wilds + (most_kinds < 13 ? most_kinds : 13) * runs;
    /* the `groups` largest of by_rank (sorted descending, the first `groups`) */
    bool taken[14] = {false};
    for (long g = 0; g < groups && g < 14; g++) {
        int best = -1;
        for (int rank = 0; rank < 14; rank++)
            if (!taken[rank] && (best < 0 || by_rank[rank] > by_rank[best]))
                best = rank;
        taken[best] = true;
        total += by_rank[best];
    }
    return PyLong_FromLong(total);
}

PyObject *discards(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "discards(hand, actions, taken)");
        return NULL;
    }
    long taken;
    if (!PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != CARD_COUNT || !get_long(args[2], &taken))
        Py_RETURN_NONE;
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    if (read == 0)
        Py_RETURN_NONE;
    Py_ssize_t size = 0;
    for (int card = 0; card < CARD_COUNT; card++)
        size += hand[card] && card != taken;
    PyObject *out = PyList_New(size);
    if (out == NULL)
        return NULL;
    Py_ssize_t at = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        if (hand[card] && card != taken) {
            PyObject *action = PyTuple_GET_ITEM(args[1], card);
            Py_INCREF(action);
            PyList_SET_ITEM(out, at++, action);
        }
    }
    return out;
}

/* The value memoised for `meld` under `variant` in `memo` at `key` (an entry (meld, variant, value)), else worked out:
 * by work_out_meld_offers(meld, kit) (meld_offers.c) and stored by put(memo, key, (meld, variant, value)) (memo.put),
 * or, for a meld that does not read, by work_out(meld, variant), which stores it.  A new reference, or NULL with an
 * exception set. */
static PyObject *memoised(PyObject *memo, PyObject *key, PyObject *meld, PyObject *variant, PyObject *work_out,
                          PyObject *kit, PyObject *put)
{
    PyObject *hit = PyDict_GetItemWithError(memo, key);
    if (hit != NULL && PyTuple_Check(hit) && PyTuple_GET_SIZE(hit) == 3 && PyTuple_GET_ITEM(hit, 0) == meld
        && PyTuple_GET_ITEM(hit, 1) == variant) {
        PyObject *value = PyTuple_GET_ITEM(hit, 2);
        Py_INCREF(value);
        return value;
    }
    if (hit == NULL && PyErr_Occurred())
        return NULL;
    if (kit != Py_None) {
        PyObject *value = work_out_meld_offers(meld, kit);
        if (value == NULL)
            return NULL;
        if (value != Py_None) {
            PyObject *entry = PyTuple_Pack(3, meld, variant, value);
            PyObject *stored = NULL;
            if (entry != NULL) {
                PyObject *put_args[3] = {memo, key, entry};
                stored = PyObject_Vectorcall(put, put_args, 3, NULL);
                Py_DECREF(entry);
            }
            if (stored == NULL) {
                Py_DECREF(value);
                return NULL;
            }
            Py_DECREF(stored);
            return value;
        }
        Py_DECREF(value);
    }
    PyObject *call_args[2] = {meld, variant};
    return PyObject_Vectorcall(work_out, call_args, 2, NULL);
}

/* Append the items of the tuple `items` to `list`: 1, 0 when it is not a tuple, -1 with an exception set. */
static int extend(PyObject *list, PyObject *items)
{
    if (!PyTuple_Check(items))
        return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(items); i++)
        if (PyList_Append(list, PyTuple_GET_ITEM(items, i)))
            return -1;
    return 1;
}

PyObject *gather_offers(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "gather_offers(table, variant, memo: dict, work_out, kit, put)");
        return NULL;
    }
    PyObject *table = args[0], *variant = args[1], *memo = args[2], *work_out = args[3], *kit = args[4], *put = args[5];
    if (!PyTuple_Check(table))
        Py_RETURN_NONE;
    PyObject *lists = Py_BuildValue("([][][])");
    if (lists == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(table); i++) {
        PyObject *meld = PyTuple_GET_ITEM(table, i);
        PyObject *key = PyLong_FromVoidPtr(meld); /* id(meld) */
        if (key == NULL)
            goto failed;
        PyObject *offers = memoised(memo, key, meld, variant, work_out, kit, put);
        Py_DECREF(key);
        if (offers == NULL)
            goto failed;
        int done = PyTuple_Check(offers) && PyTuple_GET_SIZE(offers) == 3;
        for (Py_ssize_t part = 0; done == 1 && part < 3; part++)
            done = extend(PyTuple_GET_ITEM(lists, part), PyTuple_GET_ITEM(offers, part));
        Py_DECREF(offers);
        if (done < 0)
            goto failed;
        if (done == 0) {
            Py_DECREF(lists);
            Py_RETURN_NONE;
        }
    }
    return lists;
failed:
    Py_DECREF(lists);
    return NULL;
}

/*
 * layoffs(kind, rank, suit, low, length, wilds, rules) -> tuple | None
 *
 * meld_offers._try_layoffs: every (card kind, end) melds.lay_off accepts on a meld of this shape, trying the cards
 * meld_offers.layoff_candidates names, ascending, each at every end melds.layoff_ends names (end None, "low" or
 * "high").  `kind`: 0 a run, 1 a set, 2 a pair, 3 a book; `rank` (groups, 0 for a trio of wilds), `suit`, `low`
 * (runs), the meld's card count and wild count; `rules` the variant's (meld_rules.compiled_meld_rules, core.h's
 * MeldRules).  None for a malformed argument.
 */

static bool value_matches(int card, int value) /* melds._value_matches (a natural) */
{
    int rank = card % 13 + 1;
    return rank == value || (rank == 1 && value == 14);
}

/* melds.lay_off on a meld of this shape: whether it accepts `card` at `end` (0 None, 1 low, 2 high); when it does,
 * `grown` (if not NULL) gets the lowest value and wild count of the meld after it. */
static bool lays_off(const MeldRules *rules, int kind, int rank, int suit, int low, int length, int wilds, int card,
                     int end, int *grown)
{
    bool wild = rules->wild[card];
    if (kind == 3)
        return false;
    if (kind != 0) { /* _lay_off_on_group */
        if (end != 0 || (kind == 2 && !rules->pair_extendable))
            return false;
        if (rank == 0) {
            if (wild && grown != NULL) {
                grown[0] = low;
                grown[1] = wilds + 1;
            }
            return wild;
        }
        bool natural = natural_here(rules->wild, rules->twos_natural, card, rank, -1);
        if (natural && (card == JOKER || card % 13 + 1 != rank))
            return false;
        int after = wilds + (natural ? 0 : 1);
        if (!policy_allows(rules->policy, after, length + 1 - after))
            return false;
        if (grown != NULL) {
            grown[0] = low;
            grown[1] = after;
        }
        return true;
    }
    int high = low + length - 1; /* _lay_off_on_run */
    bool low_ok = run_end_open(rules, low, length, 1), high_ok = run_end_open(rules, low, length, 2);
    bool fits_low = low_ok, fits_high = high_ok;
    if (!wild) {
        bool same_suit = card != JOKER && card / 13 == suit;
        fits_low = low_ok && same_suit && value_matches(card, low - 1);
        fits_high = high_ok && same_suit && value_matches(card, high + 1);
        if (!fits_low && !fits_high)
            return false;
    }
    if (end == 0) {
        if (fits_low && fits_high)
            return false;
        end = fits_low ? 1 : 2;
    }
    if ((end == 1 && !fits_low) || (end == 2 && !fits_high))
        return false;
    int value = end == 1 ? low - 1 : high + 1;
    bool natural = natural_here(rules->wild, rules->twos_natural, card, value == 14 ? 1 : value, suit);
    int after = wilds + (natural ? 0 : 1);
    if (!policy_allows(rules->policy, after, length + 1 - after))
        return false;
    if (grown != NULL) {
        grown[0] = end == 1 ? low - 1 : low;
        grown[1] = after;
    }
    return true;
}

/* The ends as the listing names them: None, "low", "high" (made once). */
static PyObject *names[3];

static bool end_names(void)
{
    if (names[1] == NULL) {
        names[0] = Py_None;
        names[1] = PyUnicode_InternFromString("low");
        names[2] = PyUnicode_InternFromString("high");
        if (names[1] == NULL || names[2] == NULL) {
            Py_CLEAR(names[1]);
            Py_CLEAR(names[2]);
            return false;
        }
    }
    return true;
}

PyObject *end_object(int end)
{
    return end_names() ? names[end] : NULL;
}

int shape_layoffs(const MeldRules *rules, int kind, int rank, int suit, int low, int length, int wilds,
                  int *cards, int *ends)
{
    const unsigned char *packed = rules->wild;
    /* meld_offers.layoff_candidates */
    bool candidate[CARD_COUNT];
    for (int card = 0; card < CARD_COUNT; card++)
        candidate[card] = packed[card] != 0;
    if (kind == 0) {
        int sides[2] = {low - 1, low + length};
        for (int i = 0; i < 2; i++)
            if (sides[i] >= 1 && sides[i] <= 14)
                candidate[suit * 13 + (sides[i] == 14 ? 1 : sides[i]) - 1] = true;
    } else if (kind != 3 && rank) {
        for (int s = 0; s < 4; s++)
            candidate[s * 13 + rank - 1] = true;
    }
    int count = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        if (!candidate[card] || kind == 3)
            continue;
        /* melds.layoff_ends */
        bool wild = packed[card];
        int first = 0, last = 0;
        if (kind == 0) {
            if (!wild && (card == JOKER || card / 13 != suit))
                continue;
            if (wild || card % 13 == 0) {
                first = 1;
                last = 2;
            }
        } else if (!wild && (card == JOKER || card % 13 + 1 != rank)) {
            continue;
        }
        for (int end = first; end <= last; end++) {
            if (!lays_off(rules, kind, rank, suit, low, length, wilds, card, end, NULL))
                continue;
            cards[count] = card;
            ends[count++] = end;
        }
    }
    return count;
}

PyObject *layoffs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "layoffs(kind, rank, suit, low, length, wilds, rules)");
        return NULL;
    }
    long shape[6];
    for (int i = 0; i < 6; i++)
        if (!get_long(args[i], &shape[i]) || shape[i] < -1 || shape[i] > 1000)
            Py_RETURN_NONE;
    MeldRules rules;
    if (!read_meld_rules(args[6], &rules) || shape[0] < 0 || shape[0] > 3 || shape[1] < 0 || shape[1] > 13
        || shape[4] < 1 || (shape[0] == 0 && (shape[2] < 0 || shape[2] > 3)))
        Py_RETURN_NONE;
    int cards[2 * CARD_COUNT], ends[2 * CARD_COUNT];
    int count = shape_layoffs(&rules, (int)shape[0], (int)shape[1], (int)shape[2], (int)shape[3], (int)shape[4],
                              (int)shape[5], cards, ends);
    PyObject *result = PyTuple_New(count);
    if (result == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *end = end_object(ends[i]);
        PyObject *pair = end == NULL ? NULL : Py_BuildValue("(iO)", cards[i], end);
        if (pair == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, pair);
    }
    return result;
}

/*
 * going_out(cards, table, rules) -> tuple | False | None
 *
 * moves._going_out_batch's search: a way to lay off every card of `cards` (a list of card kinds, in order, each as
 * often as held) on the melds of `table` (a list of TableMeld), the first in the Python search's order (each card in
 * turn, the melds in table order, a run's low end before its high end, every meld grown by the cards laid on it
 * before).  Its (meld index, end) per card, flattened into one tuple (end 0 None, 1 low, 2 high); False when there is
 * none.  `rules` as layoffs reads them.  None for a malformed argument, a meld read_offer_meld does not read
 * (meld_offers.c), more than 64 cards or 256 melds.
 */
typedef struct {
    int kind, rank, suit, low, length, wilds;
} Shape;

enum { MOST_MELDS = 256, MOST_CARDS = 64 };

/* _going_out_batch's search(remaining, steps): the accepted-cards and may_fit tests of the Python search only skip
 * what lay_off refuses, so trying lay_off alone visits the same successes in the same order. */
static bool search_out(const MeldRules *rules, Shape *melds, int count, const int *cards, int left, int *steps)
{
    if (left == 0)
        return true;
    int card = cards[0];
    for (int m = 0; m < count; m++) {
        Shape *meld = &melds[m];
        int first = meld->kind == 0 ? 1 : 0, last = meld->kind == 0 ? 2 : 0;
        for (int end = first; end <= last; end++) {
            int grown[2];
            if (!lays_off(rules, meld->kind, meld->rank, meld->suit, meld->low, meld->length, meld->wilds, card, end,
                          grown))
                continue;
            Shape before = *meld;
            meld->low = grown[0];
            meld->wilds = grown[1];
            meld->length += 1;
            steps[0] = m;
            steps[1] = end;
            bool found = search_out(rules, melds, count, cards + 1, left - 1, steps + 2);
            *meld = before;
            if (found)
                return true;
        }
    }
    return false;
}

PyObject *going_out(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "going_out(cards, table, rules)");
        return NULL;
    }
    PyObject *card_list = args[0], *table = args[1];
    MeldRules rules;
    if (!read_meld_rules(args[2], &rules) || !PyList_Check(card_list) || !PyList_Check(table)
        || PyList_GET_SIZE(card_list) > MOST_CARDS || PyList_GET_SIZE(table) > MOST_MELDS)
        Py_RETURN_NONE;
    int cards[MOST_CARDS];
    int count = (int)PyList_GET_SIZE(card_list);
    for (int i = 0; i < count; i++) {
        long card;
        if (!get_long(PyList_GET_ITEM(card_list, i), &card) || card < 0 || card >= CARD_COUNT)
            Py_RETURN_NONE;
        cards[i] = (int)card;
    }
    Shape melds[MOST_MELDS];
    int meld_count = (int)PyList_GET_SIZE(table);
    for (int m = 0; m < meld_count; m++) {
        OfferMeld read;
        if (!read_offer_meld(PyList_GET_ITEM(table, m), &read))
            Py_RETURN_NONE;
        melds[m] = (Shape){read.kind, read.rank, read.suit, read.low, read.length, read.wilds};
    }
    int steps[2 * MOST_CARDS];
    if (!search_out(&rules, melds, meld_count, cards, count, steps))
        Py_RETURN_FALSE;
    PyObject *found = PyTuple_New(2 * count);
    if (found == NULL)
        return NULL;
    for (int i = 0; i < 2 * count; i++) {
        PyObject *value = PyLong_FromLong(steps[i]);
        if (value == NULL) {
            Py_DECREF(found);
            return NULL;
        }
        PyTuple_SET_ITEM(found, i, value);
    }
    return found;
}
