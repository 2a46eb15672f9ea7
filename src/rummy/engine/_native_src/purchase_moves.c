/*
 * purchase_moves(out, hand, seat, purchase_cards, discard, done, rules, kit, game, held) -> True | None
 *
 * rummy.engine.moves._purchase_actions, compiled: the play-phase moves of the purchase variant (rules.md §7) after the
 * discards.  Appends to the list `out`, in the Python listing's order, the books the hand holds, then (unless the
 * player has already purchased, traded or exchanged this turn, `done`) each purchase, trade and exchange:
 *
 *   purchase  for each card of the discard pile (once per kind, ascending) that the purchase card may buy
 *             (rules.purchase.purchase_allowed), each new purchase card among the kinds held and that card, ascending;
 *   trade     for each other seat in seat order whose purchase card may be bought (or every one, where the trade
 *             needs no value rule), each new purchase card among the kinds held and that seat's purchase card;
 *   exchange  each kind held other than the purchase card.
 *
 * Each is the shared action moves.purchase_action(seat, verb, card, target, new_pc), read from its memo (kit[0], a
 * dict: seat -> a list of PLACES actions, each at its place as moves._purchase_place gives it, None until made) and,
 * when it is not there yet, made here with new_record (kit[6:8], the Action class and its field slots) and kept at
 * its place, or by kit[1] while the seat has no list; kit[2:5] are the verbs purchase, trade and exchange.
 *
 * The books: the Python listing tries every four cards of the hand (melds.check_book) and lists the books in the
 * order of a set of those combinations, which only Python's set gives; here the hand is searched for any book (four
 * cards of one rank, the joker counting as rank 0, or four values of one suit in sequence, the ace high, or low too
 * under book_ace_mode low_or_high), and only a hand that holds one calls kit[5](game, held) (moves._book_actions, the
 * Python listing of the books) for them.  Hands rarely hold a book (the round ends when one is tabled).
 *
 *   hand            53 counts (a list or tuple);
 *   purchase_cards  a list of the seats' purchase cards (its length is the number of players);
 *   discard         a list of the cards of the discard pile;
 *   rules           an int: bit 0 trade_requires_value_rule, bit 1 book_ace_mode low_or_high, bit 8 + r for each
 *                   rank r of ace_purchasable_by (moves._purchase_rules).
 *
 * None, `out` untouched, when an argument is malformed (a hand that is not 53 small counts, a card that is not an int
 * from 0 to 52, a seat out of range, more than 64 players): the Python listing answers then.
 */
#include "core.h"

#include <stdbool.h>

#define TRADE_NEEDS_VALUE 1
#define BOOK_ACE_LOW 2
#define ACE_BUYERS_SHIFT 8
#define MAX_PLAYERS 64 /* moves._TRADE_TARGETS */
/* The places of a seat's actions in its list (moves._purchase_place): the purchases by card, the trades by seat, the
 * exchanges, each by the new purchase card. */
#define TRADES (CARD_COUNT * CARD_COUNT)
#define EXCHANGES (TRADES + MAX_PLAYERS * CARD_COUNT)
#define PLACES (EXCHANGES + CARD_COUNT)

/* Whether some four cards of the hand make a book (melds.check_book). */
static bool holds_book(const int *hand, long rules)
{
    if (hand[JOKER] >= 4)
        return true; /* four jokers: one rank (0) */
    for (int rank = 0; rank < 13; rank++)
        if (hand[rank] + hand[13 + rank] + hand[26 + rank] + hand[39 + rank] >= 4)
            return true;
    for (int suit = 0; suit < 4; suit++) {
        /* values 1 (the ace low, under low_or_high only) ... 14 (the ace high) */
        int streak = 0;
        for (int value = (rules & BOOK_ACE_LOW) ? 1 : 2; value <= 14; value++) {
            streak = hand[suit * 13 + (value == 14 ? 0 : value - 1)] ? streak + 1 : 0;
            if (streak >= 4)
                return true;
        }
    }
    return false;
}

/* Read a card (an int from 0 to 52) into `card`: 1, or 0 when it is not one. */
static int read_card(PyObject *object, int *card)
{
    if (!PyLong_Check(object))
        return 0;
    long value = PyLong_AsLong(object);
    if (value < 0 || value >= CARD_COUNT) {
        PyErr_Clear(); /* (an int too large for a long) */
        return 0;
    }
    *card = (int)value;
    return 1;
}

/* Read a list of cards into `counts` (per kind, from zero) and, when `cards` is not NULL, the cards in order.  1, or
 * 0 when it is not a list of cards (or more than `most` of them). */
static int read_cards(PyObject *list, int *counts, int *cards, Py_ssize_t most)
{
    if (!PyList_Check(list) || (cards != NULL && PyList_GET_SIZE(list) > most))
        return 0;
    memset(counts, 0, CARD_COUNT * sizeof *counts);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        int card;
        if (!read_card(PyList_GET_ITEM(list, i), &card))
            return 0;
        counts[card]++;
        if (cards != NULL)
            cards[i] = card;
    }
    return 1;
}

typedef struct {
    PyObject *out, *seat, *memo, *make;
    PyObject *action_type, *action_slots; /* what new_record makes an Action with */
    PyObject *actions; /* the seat's list in the memo (borrowed), NULL while it has none */
} Listing;

static PyObject *int_or_none(int value) { return value < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(value); }

/* The seat's list of actions in the memo, or NULL when there is none (or the memo holds something else there). */
static PyObject *seat_actions(const Listing *listing)
{
    PyObject *actions = PyDict_GetItemWithError(listing->memo, listing->seat);
    return actions != NULL && PyList_CheckExact(actions) && PyList_GET_SIZE(actions) == PLACES ? actions : NULL;
}

/* Action(seat, verb, card=card, target=target, new_pc=new_pc) as actions.new_action makes it: a new reference, None
 * when new_record declines, or NULL with an exception set. */
static PyObject *made_action(const Listing *listing, PyObject *verb, PyObject *card, PyObject *target, PyObject *new_pc)
{
    PyObject *none = PyTuple_New(0);
    if (none == NULL)
        return NULL;
    PyObject *fields[12] = {listing->action_type, listing->action_slots, listing->seat, verb, card, Py_None, Py_None,
                            none, none, target, new_pc, none};
    PyObject *action = new_record(NULL, fields, 12);
    Py_DECREF(none);
    return action;
}

/* Append the action (seat, verb, card, target, new_pc) (a card or target of -1: None) from the memo, else made here
 * and kept at its place in the seat's list, or, while the seat has none, made by `make` (which makes the list).  0, or
 * -1 with an exception set. */
static int append(Listing *listing, PyObject *verb, int card, int target, int new_pc)
{
    Py_ssize_t place = card >= 0 ? card * CARD_COUNT + new_pc
                       : target >= 0 ? TRADES + target * CARD_COUNT + new_pc : EXCHANGES + new_pc;
    PyObject *action = listing->actions == NULL ? NULL : PyList_GET_ITEM(listing->actions, place);
    if (action != NULL && action != Py_None) {
        Py_INCREF(action);
    } else {
        PyObject *card_object = int_or_none(card), *target_object = int_or_none(target),
                 *new_pc_object = PyLong_FromLong(new_pc);
        action = NULL;
        if (card_object != NULL && target_object != NULL && new_pc_object != NULL) {
            if (listing->actions != NULL) {
                action = made_action(listing, verb, card_object, target_object, new_pc_object);
                if (action == Py_None)
                    Py_CLEAR(action); /* (the class is not one new_record makes: make makes it) */
                else if (action != NULL)
                    PyList_SetItem(listing->actions, place, Py_NewRef(action)); /* (steals the new reference) */
            }
            if (action == NULL && !PyErr_Occurred()) {
                PyObject *items[5] = {listing->seat, verb, card_object, target_object, new_pc_object};
                action = PyObject_Vectorcall(listing->make, items, 5, NULL);
                if (action != NULL) /* (make keeps it in the seat's list, made if the seat had none) */
                    listing->actions = seat_actions(listing);
                if (action != NULL && listing->actions == NULL && PyErr_Occurred())
                    Py_CLEAR(action);
            }
        }
        Py_XDECREF(card_object);
        Py_XDECREF(target_object);
        Py_XDECREF(new_pc_object);
    }
    if (action == NULL)
        return -1;
    int failed = PyList_Append(listing->out, action);
    Py_DECREF(action);
    return failed;
}

/* Append (verb, card, target, new_pc) for each new purchase card among the kinds held and `gained`, ascending. */
static int append_each_new_pc(Listing *listing, const int *hand, PyObject *verb, int card, int target, int gained)
{
    for (int new_pc = 0; new_pc < CARD_COUNT; new_pc++)
        if ((hand[new_pc] || new_pc == gained) && append(listing, verb, card, target, new_pc) < 0)
            return -1;
    return 0;
}

PyObject *purchase_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 10 || !PyList_Check(args[0]) || !PyLong_Check(args[2]) || !PyLong_Check(args[6])
        || !PyTuple_Check(args[7]) || PyTuple_GET_SIZE(args[7]) != 8 || !PyDict_Check(PyTuple_GET_ITEM(args[7], 0))) {
        PyErr_SetString(PyExc_TypeError, "purchase_moves(out: list, hand, seat: int, purchase_cards: list, discard: "
                                         "list, done, rules: int, kit: tuple of 8, game, held)");
        return NULL;
    }
    PyObject *kit = args[7];
    Listing listing = {args[0], args[2], PyTuple_GET_ITEM(kit, 0), PyTuple_GET_ITEM(kit, 1), PyTuple_GET_ITEM(kit, 6),
                       PyTuple_GET_ITEM(kit, 7), NULL};
    PyObject *purchase = PyTuple_GET_ITEM(kit, 2), *trade = PyTuple_GET_ITEM(kit, 3),
             *exchange = PyTuple_GET_ITEM(kit, 4), *books = PyTuple_GET_ITEM(kit, 5);
    int hand[CARD_COUNT], discard[CARD_COUNT], pc_counts[CARD_COUNT], pcs[MAX_PLAYERS];
    int read = read_hand(args[1], hand);
    if (read < 0)
        return NULL;
    long seat = PyLong_AsLong(args[2]);
    long rules = PyLong_AsLong(args[6]);
    if ((seat == -1 || rules == -1) && PyErr_Occurred())
        PyErr_Clear(); /* (out of range: malformed) */
    int done = PyObject_IsTrue(args[5]);
    if (done < 0)
        return NULL;
    if (read == 0 || !read_cards(args[3], pc_counts, pcs, MAX_PLAYERS) || !read_cards(args[4], discard, NULL, 0) || seat < 0
        || seat >= PyList_GET_SIZE(args[3]) || rules < 0)
        Py_RETURN_NONE;
    Py_ssize_t players = PyList_GET_SIZE(args[3]);
    if (holds_book(hand, rules)) {
        PyObject *listed = PyObject_CallFunctionObjArgs(books, args[8], args[9], NULL);
        if (listed == NULL)
            return NULL;
        Py_ssize_t size = PyList_GET_SIZE(listing.out);
        int failed = PyList_SetSlice(listing.out, size, size, listed);
        Py_DECREF(listed);
        if (failed)
            return NULL;
    }
    if (done)
        Py_RETURN_TRUE;
    listing.actions = seat_actions(&listing);
    if (listing.actions == NULL && PyErr_Occurred())
        return NULL;
    int pc = pcs[seat];
    for (int card = 0; card < CARD_COUNT; card++)
        if (discard[card] && purchase_allowed(rules >> ACE_BUYERS_SHIFT, pc, card)
            && append_each_new_pc(&listing, hand, purchase, card, -1, card) < 0)
            return NULL;
    for (int other = 0; other < players; other++)
        if (other != seat && (!(rules & TRADE_NEEDS_VALUE) || purchase_allowed(rules >> ACE_BUYERS_SHIFT, pc, pcs[other]))
            && append_each_new_pc(&listing, hand, trade, -1, other, pcs[other]) < 0)
            return NULL;
    for (int new_pc = 0; new_pc < CARD_COUNT; new_pc++)
        if (hand[new_pc] && new_pc != pc && append(&listing, exchange, -1, -1, new_pc) < 0)
            return NULL;
    Py_RETURN_TRUE;
}
