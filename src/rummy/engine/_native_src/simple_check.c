/*
 * simple_check(state, action, kit) -> bool | None
 *
 * rummy.engine.rules.verify, compiled for the simple actions: whether the rules accept `action` in `state`, for
 * the answers to a claim window (buy, pass), the draw and the take of the draw phase, the discard, the purchase
 * variant's purchase, trade and exchange, and every action refused before its verb is judged (a seat the table lacks,
 * a round or game over, another seat's turn, an action out of its phase).  Each test names the Python one it follows
 * (rules/__init__.py's verify, rules/window.py's check_answer, rules/draw.py's draw_error, rules/stock.py's
 * stock_drawable, rules/discard.py's discard_error, rules/table.py's discardable, rules/purchase.py's
 * check_purchase_step and purchase_allowed).  Only legality is answered: where the action is refused, the Python
 * judgement runs to say why.
 *
 *   kit  (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Verb.BUY, Verb.PASS, Verb.DRAW, Verb.TAKE, Verb.DISCARD,
 *         StockRefill.KEEP_TOP, AfterClaimActiveDraw.STOCK_ONLY, Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE),
 *         rules/__init__.py's SIMPLE_KIT.
 *
 * None, and the Python judgement answers, for the rest: an action that closes a claim window (it is judged after the
 * window's resolution, on a copy), the active player's own buy, the table plays and books, and anything malformed (a
 * seat or card that is not a small int, a hand or kit of another shape).
 */
#include "core.h"

#include <stdbool.h>

enum { CLAIM, DRAW_PHASE, PLAY, BUY, PASS, DRAW, TAKE, DISCARD, KEEP_TOP, STOCK_ONLY, PURCHASE, TRADE, EXCHANGE,
       KIT_SIZE };

#define NOT_COVERED 2 /* answered by the Python judgement */

/* The attribute names read, interned once. */
static PyObject *names[22];
enum {
    N_SEAT, N_VERB, N_CARD, N_PLAYERS, N_PHASE, N_ACTIVE, N_WINDOW, N_ELIGIBLE, N_ANSWERED, N_STOCK, N_DISCARD,
    N_VARIANT, N_STOCK_REFILL, N_USES_PURCHASE_CARDS, N_AFTER_CLAIM, N_AFTER_CLAIM_ACTIVE_DRAW, N_HANDS, N_SIZES,
    N_RULES, N_FINAL_DISCARD_ALLOWED, N_TAKEN_CARD, N_STOLEN_PENDING,
};
static PyObject *more_names[8];
enum {
    N_MAY_DISCARD_TAKEN, N_STOLEN_MUST_BE_PLAYED, N_PURCHASE_CARDS, N_PURCHASE_DONE, N_NEW_PC, N_TARGET,
    N_TRADE_NEEDS_VALUE, N_ACE_PURCHASABLE_BY,
};

static int intern_names(void)
{
    static const char *const spelled[] = {
        "seat", "verb", "card", "players", "phase", "active", "window", "eligible", "answered", "stock", "discard",
        "variant", "stock_refill", "uses_purchase_cards", "after_claim", "after_claim_active_draw", "hands", "sizes",
        "rules", "final_discard_allowed", "taken_card", "stolen_pending",
    };
    static const char *const more[] = {
        "may_discard_card_taken_from_discard", "stolen_joker_must_be_played", "purchase_cards", "purchase_done", "new_pc",
        "target", "trade_requires_value_rule", "ace_purchasable_by",
    };
    _Static_assert(sizeof more / sizeof *more == sizeof more_names / sizeof *more_names, "a name for each N_");
    if (names[0] != NULL)
        return 0;
    for (size_t i = 0; i < sizeof spelled / sizeof *spelled; i++)
        if ((names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        if ((more_names[i] = PyUnicode_InternFromString(more[i])) == NULL)
            return -1;
    return 0;
}

/* len(object.name): the length, or -1 with an exception set. */
static Py_ssize_t length_of(PyObject *object, PyObject *name)
{
    PyObject *value = get_attribute(object, name);
    if (value == NULL)
        return -1;
    Py_ssize_t size = PyObject_Length(value);
    Py_DECREF(value);
    return size;
}

/* object.name as a small int: the value, NOT_SMALL when it is not an int from -1,000,000 to 1,000,000, or -2 (with
 * ERROR_SET) with an exception set. */
#define NOT_SMALL (-3000000L)
static long small_int(PyObject *value)
{
    if (!PyLong_CheckExact(value))
        return NOT_SMALL;
    int overflow = 0;
    long number = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || number < -1000000L || number > 1000000L)
        return NOT_SMALL;
    return number;
}

/* item `index` of the list or tuple `sequence` as a small int (NOT_SMALL when it is not one or not there). */
static long small_item(PyObject *sequence, long index)
{
    if (PyList_CheckExact(sequence) && index >= 0 && index < PyList_GET_SIZE(sequence))
        return small_int(PyList_GET_ITEM(sequence, index));
    return NOT_SMALL;
}

/* rules/stock.py's stock_drawable(state, 1): 1, 0, or -1 with an exception set. */
static int one_card_drawable(PyObject *state, PyObject *variant, PyObject *const *kit)
{
    Py_ssize_t stock = length_of(state, names[N_STOCK]);
    if (stock < 0)
        return -1;
    if (stock >= 1)
        return 1;
    PyObject *refill = identity_of(variant, names[N_STOCK_REFILL]);
    if (refill == NULL)
        return -1;
    if (refill != kit[KEEP_TOP])
        return 0;
    Py_ssize_t pile = length_of(state, names[N_DISCARD]);
    if (pile < 0)
        return -1;
    return stock + (pile - 1 > 0 ? pile - 1 : 0) >= 1;
}

/* rules/window.py's check_answer: 1 accepted, 0 refused, -1 with an exception set. */
static int answer_allowed(PyObject *state, long seat)
{
    PyObject *window = get_attribute(state, names[N_WINDOW]);
    if (window == NULL)
        return -1;
    if (window == Py_None) {
        Py_DECREF(window);
        return NOT_COVERED;
    }
    PyObject *eligible = get_attribute(window, names[N_ELIGIBLE]);
    PyObject *answered = eligible == NULL ? NULL : get_attribute(window, names[N_ANSWERED]);
    Py_DECREF(window);
    int verdict = -1;
    PyObject *key = answered == NULL ? NULL : PyLong_FromLong(seat);
    if (key != NULL) {
        int in_eligible = PySequence_Contains(eligible, key);
        if (in_eligible == 0)
            verdict = 0;
        else if (in_eligible == 1) {
            int in_answered = PySequence_Contains(answered, key);
            verdict = in_answered < 0 ? -1 : !in_answered;
        }
    }
    Py_XDECREF(key);
    Py_XDECREF(eligible);
    Py_XDECREF(answered);
    return verdict;
}

/* rules/draw.py's draw_error for a take: 1 allowed, 0 refused, -1 with an exception set. */
static int take_allowed(PyObject *state, PyObject *variant, PyObject *const *kit)
{
    int purchase = truth_of(variant, names[N_USES_PURCHASE_CARDS]);
    if (purchase != 0)
        return purchase < 0 ? -1 : 0;
    Py_ssize_t pile = length_of(state, names[N_DISCARD]);
    if (pile <= 0)
        return pile < 0 ? -1 : 0;
    int after_claim = truth_of(state, names[N_AFTER_CLAIM]);
    if (after_claim <= 0)
        return after_claim < 0 ? -1 : 1;
    PyObject *draw = identity_of(variant, names[N_AFTER_CLAIM_ACTIVE_DRAW]);
    if (draw == NULL)
        return -1;
    if (draw != kit[STOCK_ONLY])
        return 1;
    int stock_ok = one_card_drawable(state, variant, kit);
    return stock_ok < 0 ? -1 : !stock_ok;
}

/* A card field of `action` (None read as card 0, as the Python rules read it): the card, or NOT_SMALL when it is not
 * one of the 53, or -2 with an exception set. */
static long card_field(PyObject *action, PyObject *name)
{
    PyObject *value = get_attribute(action, name);
    if (value == NULL)
        return -2;
    long card = value == Py_None ? 0 : small_int(value);
    Py_DECREF(value);
    return card >= 0 && card < CARD_COUNT ? card : NOT_SMALL;
}

/* rules/discard.py's discard_error (with rules/table.py's discardable) is None: 1, 0, NOT_COVERED for a card that
 * is not one of the 53, or -1 with an exception set. */
static int discard_allowed(PyObject *state, PyObject *variant, PyObject *action, long seat)
{
    long card = card_field(action, names[N_CARD]);
    if (card < 0)
        return card == NOT_SMALL ? NOT_COVERED : -1;
    PyObject *hands = get_attribute(state, names[N_HANDS]);
    if (hands == NULL)
        return -1;
    PyObject *hand = PyList_CheckExact(hands) && seat < PyList_GET_SIZE(hands) ? PyList_GET_ITEM(hands, seat) : NULL;
    long held = hand == NULL ? NOT_SMALL : small_item(hand, card);
    Py_DECREF(hands);
    if (held == NOT_SMALL)
        return NOT_COVERED;
    if (held == 0) /* card-not-in-hand */
        return 0;
    PyObject *sizes = get_attribute(state, names[N_SIZES]);
    if (sizes == NULL)
        return -1;
    long size = small_item(sizes, seat);
    Py_DECREF(sizes);
    if (size == NOT_SMALL)
        return NOT_COVERED;
    if (size == 1) { /* no-final-discard (discard_error, then discardable) */
        PyObject *rules = get_attribute(state, names[N_RULES]);
        if (rules == NULL)
            return -1;
        int final = truth_of(rules, names[N_FINAL_DISCARD_ALLOWED]);
        Py_DECREF(rules);
        if (final <= 0)
            return final < 0 ? -1 : 0;
    }
    PyObject *taken = get_attribute(state, names[N_TAKEN_CARD]);
    if (taken == NULL)
        return -1;
    long taken_card = taken == Py_None ? -1 : small_int(taken);
    Py_DECREF(taken);
    if (taken_card == NOT_SMALL)
        return NOT_COVERED;
    if (taken_card == card && held == 1) { /* discard-taken-card (discardable) */
        int may = truth_of(variant, more_names[N_MAY_DISCARD_TAKEN]);
        if (may <= 0)
            return may < 0 ? -1 : 0;
    }
    int pending = truth_of(state, names[N_STOLEN_PENDING]); /* stolen-joker-must-be-played */
    if (pending <= 0)
        return pending < 0 ? -1 : 1;
    int must = truth_of(variant, more_names[N_STOLEN_MUST_BE_PLAYED]);
    return must < 0 ? -1 : !must;
}

/* core.h's purchase_allowed, the variant's ace_purchasable_by read for the rank of `pc` when `target` is an ace: 1, 0,
 * or -1 with an exception set. */
static int may_purchase(PyObject *variant, long pc, long target)
{
    long pc_rank = pc == JOKER ? 0 : pc % 13 + 1, ace_buyers = 0;
    if (target != JOKER && target % 13 == 0) {
        PyObject *buyers = get_attribute(variant, more_names[N_ACE_PURCHASABLE_BY]);
        PyObject *rank = buyers == NULL ? NULL : PyLong_FromLong(pc_rank);
        int buys = rank == NULL ? -1 : PySequence_Contains(buyers, rank);
        Py_XDECREF(rank);
        Py_XDECREF(buyers);
        if (buys < 0)
            return -1;
        ace_buyers = (long)buys << pc_rank;
    }
    return purchase_allowed(ace_buyers, (int)pc, (int)target);
}

/* rules/purchase.py's check_purchase_step for `verb` (a purchase, trade or exchange) by the active player `seat`: 1,
 * 0, NOT_COVERED (a field not read here), or -1 with an exception set. */
static int purchase_step_allowed(PyObject *state, PyObject *variant, PyObject *action, long seat, PyObject *verb,
                                 PyObject *const *kit)
{
    int uses = truth_of(variant, names[N_USES_PURCHASE_CARDS]);
    int done = uses <= 0 ? uses : truth_of(state, more_names[N_PURCHASE_DONE]);
    if (uses <= 0 || done != 0) /* verb-not-in-variant, one-action-per-turn */
        return uses < 0 || done < 0 ? -1 : 0;
    PyObject *pcs = get_attribute(state, more_names[N_PURCHASE_CARDS]);
    PyObject *hands = pcs == NULL ? NULL : get_attribute(state, names[N_HANDS]);
    if (hands == NULL) {
        Py_XDECREF(pcs);
        return -1;
    }
    int verdict = NOT_COVERED;
    long old_pc = small_item(pcs, seat), new_pc = card_field(action, more_names[N_NEW_PC]), gained = -1;
    PyObject *hand = PyList_CheckExact(hands) && seat < PyList_GET_SIZE(hands) ? PyList_GET_ITEM(hands, seat) : NULL;
    if (new_pc == -2) {
        verdict = -1;
    } else if (pcs == Py_None) {
        verdict = 0;
    } else if (old_pc >= 0 && old_pc < CARD_COUNT && new_pc != NOT_SMALL && hand != NULL) {
        if (verb == kit[PURCHASE]) {
            long card = card_field(action, names[N_CARD]);
            PyObject *pile = card < 0 ? NULL : get_attribute(state, names[N_DISCARD]);
            PyObject *key = pile == NULL ? NULL : PyLong_FromLong(card);
            int in_pile = key == NULL ? -1 : PySequence_Contains(pile, key);
            int may = in_pile == 1 ? may_purchase(variant, old_pc, card) : in_pile;
            verdict = card == NOT_SMALL ? NOT_COVERED : may; /* not-in-discard, purchase-value */
            gained = card;
            Py_XDECREF(key);
            Py_XDECREF(pile);
        } else if (verb == kit[TRADE]) {
            PyObject *target_object = get_attribute(action, more_names[N_TARGET]);
            bool read = target_object != NULL;
            long target = !read || target_object == Py_None ? seat : small_int(target_object);
            Py_XDECREF(target_object);
            gained = target >= 0 ? small_item(pcs, target) : NOT_SMALL;
            if (!read) {
                verdict = -1;
            } else if (gained < 0 || gained >= CARD_COUNT) {
                verdict = NOT_COVERED; /* a seat the table lacks, or a purchase card not read here */
            } else if (target == seat) { /* trade-self */
                verdict = 0;
            } else {
                int needs_value = truth_of(variant, more_names[N_TRADE_NEEDS_VALUE]);
                verdict = needs_value <= 0 ? (needs_value < 0 ? -1 : 1) : may_purchase(variant, old_pc, gained);
            }
        } else { /* an exchange: exchange-same-card */
            verdict = new_pc != old_pc;
            gained = old_pc;
        }
        if (verdict == 1) { /* card-not-in-hand */
            long held = small_item(hand, new_pc);
            verdict = held == NOT_SMALL ? NOT_COVERED : held > 0 || (new_pc == gained && verb != kit[EXCHANGE]);
        }
    }
    Py_DECREF(hands);
    Py_DECREF(pcs);
    return verdict;
}

/* rules/__init__.py's verify for the covered actions: 1, 0, NOT_COVERED, or -1 with an exception set. */
static int judge(PyObject *state, PyObject *action, PyObject *const *kit)
{
    PyObject *seat_object = get_attribute(action, names[N_SEAT]);
    if (seat_object == NULL)
        return -1;
    long seat = small_int(seat_object);
    Py_DECREF(seat_object);
    PyObject *verb = identity_of(action, names[N_VERB]);
    if (verb == NULL)
        return -1;
    if (seat == NOT_SMALL)
        return NOT_COVERED;
    Py_ssize_t players = length_of(state, names[N_PLAYERS]);
    if (players < 0)
        return -1;
    if (seat < 0 || seat >= players) /* wrong-seat */
        return 0;
    PyObject *phase = identity_of(state, names[N_PHASE]);
    if (phase == NULL)
        return -1;
    if (phase != kit[CLAIM] && phase != kit[DRAW_PHASE] && phase != kit[PLAY]) /* round-over */
        return 0;
    PyObject *active_object = get_attribute(state, names[N_ACTIVE]);
    if (active_object == NULL)
        return -1;
    long active = small_int(active_object);
    Py_DECREF(active_object);
    if (active == NOT_SMALL)
        return NOT_COVERED;
    bool answer = verb == kit[BUY] || verb == kit[PASS];
    if (phase == kit[CLAIM]) {
        if (!answer) /* implies_closing_window (judged on a copy), else wrong-phase */
            return seat == active ? NOT_COVERED : 0;
        return answer_allowed(state, seat);
    }
    if (verb == kit[PASS] || (verb == kit[BUY] && seat != active)) /* not-eligible */
        return 0;
    if (seat != active) /* wrong-seat */
        return 0;
    bool draw_verb = answer || verb == kit[DRAW] || verb == kit[TAKE];
    PyObject *variant = identity_of(state, names[N_VARIANT]); /* (the state keeps it) */
    if (variant == NULL)
        return -1;
    if (phase == kit[DRAW_PHASE]) {
        if (!draw_verb) /* draw-first */
            return 0;
        if (verb == kit[DRAW])
            return one_card_drawable(state, variant, kit);
        if (verb == kit[TAKE])
            return take_allowed(state, variant, kit);
        return NOT_COVERED; /* the active player's own buy */
    }
    if (draw_verb) /* already-drew */
        return 0;
    if (verb == kit[DISCARD])
        return discard_allowed(state, variant, action, seat);
    if (verb == kit[PURCHASE] || verb == kit[TRADE] || verb == kit[EXCHANGE])
        return purchase_step_allowed(state, variant, action, seat, verb, kit);
    return NOT_COVERED;
}

PyObject *simple_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "simple_check takes 3 arguments, not %zd", nargs);
    if (!PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[2]) != KIT_SIZE)
        Py_RETURN_NONE;
    if (intern_names() < 0)
        return NULL;
    int verdict = judge(args[0], args[1], &PyTuple_GET_ITEM(args[2], 0));
    if (verdict < 0)
        return NULL;
    if (verdict == NOT_COVERED)
        Py_RETURN_NONE;
    return PyBool_FromLong(verdict);
}
