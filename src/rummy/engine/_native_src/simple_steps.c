/*
 * simple_apply(state, action, kit) -> True | None  (simple_steps.c)
 *
 * rummy.engine.rules.apply, compiled for the simple actions the compiled judgement (simple_check.c) accepts: the
 * answers to a claim window (buy, pass), the draw and the take of the draw phase, the discard, and the purchase
 * variant's purchase, trade and exchange (purchase_steps.c), with what each
 * sets going (a claim window's resolution, the penalty cards, the start of the next turn, the washout count, the
 * claim window before the draw, the draw phase).  Each step names the Python function it follows (rules/window.py's
 * answer and resolve, rules/claims.py's window_mode, claim_allowance_left, eligible, open_window and take_claim,
 * rules/draw.py's draw_error, enter_draw, draw, active_draws_stock and take, rules/stock.py's give, stock_drawable
 * and draw_from_stock, rules/discard.py's discard, rules/turns.py's start_turn, washed_out and washout_reached); the
 * action is appended to the log, as rules.apply does.  What is rare or needs Python's own machinery is called back,
 * in the kit: a round's end (end_round, and the tests that end it after a discard, is_stalemate and is_deadlocked),
 * the stock's refill from the pile (draw_from_stock when the stock is empty, deplete), and making a claim window
 * (the ClaimWindow class).
 *
 *   kit  rules/__init__.py's APPLY_KIT: the enum members below (K_...), those callables, and simple_check's kit.
 *
 * True once applied; None, with nothing changed, for what it does not cover (an action simple_check does not
 * accept, the active player acting while a claim window is open, the active player's own buy, the table plays and
 * books, a state of another shape): the Python rules.apply then applies or refuses it.
 *
 * draw_actions(state, actions, kit) -> list | None
 *
 * rummy.engine.moves._draw_actions, compiled: the draw phase's listing, of `actions` (the active player's draw, take
 * and own buy, in rules/draw.py's DRAW_VERBS order) each one draw_error allows (draw_allowed below, as enter_draw asks
 * it), in order.  None, and the Python listing answers, for a state out of its draw phase or one that does not read.
 */
#include "steps.h"

PyObject *step_names[N_COUNT];
PyObject *step_more_names[M_COUNT];

static int intern_names(void)
{
    static const char *const spelled[] = {
        "seat", "verb", "card", "phase", "active", "window", "eligible", "answered", "claimants", "after_decline",
        "stock", "discard", "discarders", "hands", "sizes", "received", "pickups", "log", "variant", "rules",
        "players", "down", "claims_used", "kitty", "pennies_paid", "dead", "after_claim", "taken_card",
        "melds_this_turn", "stolen_pending", "purchase_done", "played_before_turn", "played_to_table", "own_turns",
        "turns_played", "table", "table_cards", "quiet_turns", "cards", "deplete_after_draw",
        "claim_mode", "active_first_refusal", "claims_open", "penalty_cards", "claim_limit", "stock_refill",
    };
    static const char *const more[] = {
        "depletion_check", "claim_limit_scope", "claim_allowed_when_down", "discarder_may_claim", "claim_priority",
        "claims_per_window", "claim_cost", "blind_card_cost", "uses_purchase_cards", "after_claim_active_draw",
        "stalemate_detection", "has_contracts", "max_turns", "washout_laps", "free_melding", "purchase_cards",
        "pc_discard_position", "new_pc", "target",
    };
    _Static_assert(sizeof spelled / sizeof *spelled == N_COUNT, "a name for each N_");
    _Static_assert(sizeof more / sizeof *more == M_COUNT, "a name for each M_");
    if (step_names[0] != NULL)
        return 0;
    for (size_t i = 0; i < N_COUNT; i++)
        if ((step_names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    for (size_t i = 0; i < M_COUNT; i++)
        if ((step_more_names[i] = PyUnicode_InternFromString(more[i])) == NULL)
            return -1;
    return 0;
}

/* ---- reading and writing the state's fields (-1, or NULL, with an exception set) ---- */

/* object.name as a long; an int or None as long_or_none reads it (1 an int, 0 None); -1 with an exception set. */
int long_of(PyObject *object, PyObject *name, long *value)
{
    PyObject *item = get_attribute(object, name);
    if (item == NULL)
        return -1;
    int kind = long_or_none(item, value);
    Py_DECREF(item);
    if (kind < 0)
        PyErr_Format(PyExc_TypeError, "simple_apply: %U is not an int", name);
    return kind;
}

int set_long(PyObject *object, PyObject *name, long value)
{
    PyObject *number = PyLong_FromLong(value);
    if (number == NULL)
        return -1;
    int result = set_attribute(object, name, number);
    Py_DECREF(number);
    return result;
}

int set_bool(PyObject *object, PyObject *name, bool value)
{
    return set_attribute(object, name, value ? Py_True : Py_False);
}

/* The list state.name (a new reference), NULL with an exception set (a TypeError when it is not a list). */
PyObject *list_of(PyObject *object, PyObject *name)
{
    PyObject *value = get_attribute(object, name);
    if (value != NULL && !PyList_CheckExact(value)) {
        Py_DECREF(value);
        PyErr_Format(PyExc_TypeError, "simple_apply: %U is not a list", name);
        return NULL;
    }
    return value;
}

Py_ssize_t length_of(PyObject *object, PyObject *name)
{
    PyObject *value = list_of(object, name);
    if (value == NULL)
        return -1;
    Py_ssize_t size = PyList_GET_SIZE(value);
    Py_DECREF(value);
    return size;
}

/* list[index] += delta, on a list of ints. */
int add_to_item(PyObject *list, Py_ssize_t index, long delta)
{
    long value;
    if (index < 0 || index >= PyList_GET_SIZE(list) || !get_long(PyList_GET_ITEM(list, index), &value)) {
        PyErr_SetString(PyExc_TypeError, "simple_apply: a count that is not an int");
        return -1;
    }
    PyObject *number = PyLong_FromLong(value + delta);
    if (number == NULL)
        return -1;
    PyList_SetItem(list, index, number); /* steals the reference; drops the old item */
    return 0;
}

/* state.name[index] += delta. */
int add_to_field(PyObject *state, PyObject *name, Py_ssize_t index, long delta)
{
    PyObject *list = list_of(state, name);
    if (list == NULL)
        return -1;
    int result = add_to_item(list, index, delta);
    Py_DECREF(list);
    return result;
}

/* list.pop() of a non-empty list of ints: the int, -1 with an exception set. */
long pop_int(PyObject *list)
{
    Py_ssize_t size = PyList_GET_SIZE(list);
    long value;
    if (size == 0 || !get_long(PyList_GET_ITEM(list, size - 1), &value)) {
        PyErr_SetString(PyExc_TypeError, "simple_apply: a pile that is empty or not of ints");
        return -1;
    }
    if (PyList_SetSlice(list, size - 1, size, NULL) < 0)
        return -1;
    return value;
}

int append_long(PyObject *list, long value)
{
    PyObject *number = PyLong_FromLong(value);
    if (number == NULL)
        return -1;
    int result = PyList_Append(list, number);
    Py_DECREF(number);
    return result;
}

/* Call a callback of the kit with (state, *more); its result dropped. */
int call_back(Apply *a, int which, PyObject *first, PyObject *second)
{
    PyObject *result = first == NULL ? PyObject_CallOneArg(a->kit[which], a->state)
                                     : PyObject_CallFunctionObjArgs(a->kit[which], a->state, first, second, NULL);
    if (result == NULL)
        return -1;
    Py_DECREF(result);
    return 0;
}

/* rules/round_end.py's end_round(state, end, went_out). */
int end_round(Apply *a, int end, PyObject *went_out)
{
    return call_back(a, K_END_ROUND, a->kit[end], went_out);
}

/* ---- rules/stock.py ---- */

/* give(state, seat, card). */
int give(Apply *a, long seat, long card)
{
    PyObject *hands = list_of(a->state, step_names[N_HANDS]);
    if (hands == NULL)
        return -1;
    int result = -1;
    if (seat < 0 || seat >= PyList_GET_SIZE(hands) || !PyList_CheckExact(PyList_GET_ITEM(hands, seat)))
        PyErr_SetString(PyExc_TypeError, "simple_apply: a hand that is not a list");
    else if (add_to_item(PyList_GET_ITEM(hands, seat), card, 1) == 0
             && add_to_field(a->state, step_names[N_SIZES], seat, 1) == 0) {
        PyObject *received = list_of(a->state, step_names[N_RECEIVED]);
        PyObject *entry = received == NULL ? NULL : Py_BuildValue("(ll)", seat, card);
        if (entry != NULL)
            result = PyList_Append(received, entry);
        Py_XDECREF(entry);
        Py_XDECREF(received);
    }
    Py_DECREF(hands);
    return result;
}

/* The pile's top card into `seat`'s hand, face up (stock.pick_up, which draw.take and claims.take_claim share):
 * popped with its discarder, given, and noted in state.pickups.  The card, -1 with an exception set. */
long pick_up(Apply *a, long seat)
{
    PyObject *discard = list_of(a->state, step_names[N_DISCARD]);
    PyObject *discarders = discard == NULL ? NULL : list_of(a->state, step_names[N_DISCARDERS]);
    long card = discarders == NULL ? -1 : pop_int(discard);
    long by = card < 0 ? -1 : pop_int(discarders);
    Py_XDECREF(discard);
    Py_XDECREF(discarders);
    if ((by == -1 && PyErr_Occurred()) || give(a, seat, card) < 0)
        return -1;
    Py_ssize_t logged = length_of(a->state, step_names[N_LOG]);
    PyObject *pickups = logged < 0 ? NULL : list_of(a->state, step_names[N_PICKUPS]);
    PyObject *entry = pickups == NULL ? NULL : Py_BuildValue("(nll)", logged, seat, card);
    int appended = entry == NULL ? -1 : PyList_Append(pickups, entry);
    Py_XDECREF(entry);
    Py_XDECREF(pickups);
    return appended < 0 ? -1 : card;
}

/* stock_drawable(state, count, removing_top=...): 1, 0, -1. */
int stock_drawable(Apply *a, long count, bool removing_top)
{
    Py_ssize_t stock = length_of(a->state, step_names[N_STOCK]);
    if (stock < 0)
        return -1;
    if (stock >= count)
        return 1;
    PyObject *refill = identity_of(a->variant, step_names[N_STOCK_REFILL]);
    if (refill == NULL)
        return -1;
    if (refill != a->kit[K_KEEP_TOP])
        return 0;
    Py_ssize_t pile = length_of(a->state, step_names[N_DISCARD]);
    if (pile < 0)
        return -1;
    pile -= removing_top ? 1 : 0;
    return stock + (pile - 1 > 0 ? pile - 1 : 0) >= count;
}

/* draw_from_stock(state): the card, -1 with an exception set.  An empty stock (its refill from the pile, shuffled
 * with Python's RNG) is the Python function's. */
long draw_from_stock(Apply *a)
{
    PyObject *stock = list_of(a->state, step_names[N_STOCK]);
    if (stock == NULL)
        return -1;
    if (PyList_GET_SIZE(stock) == 0) {
        Py_DECREF(stock);
        PyObject *card = PyObject_CallOneArg(a->kit[K_DRAW_FROM_STOCK], a->state);
        long value = -1;
        if (card != NULL && !get_long(card, &value))
            PyErr_SetString(PyExc_TypeError, "simple_apply: draw_from_stock gave no card");
        Py_XDECREF(card);
        return PyErr_Occurred() ? -1 : value;
    }
    long card = pop_int(stock);
    bool empty = PyList_GET_SIZE(stock) == 0;
    Py_DECREF(stock);
    if (card < 0 || !empty)
        return card;
    PyObject *refill = identity_of(a->variant, step_names[N_STOCK_REFILL]);
    PyObject *check = refill == NULL ? NULL : identity_of(a->variant, step_more_names[M_DEPLETION_CHECK]);
    if (check == NULL)
        return -1;
    if (refill == a->kit[K_WHOLE_PILE_ONCE] && check == a->kit[K_ON_LAST_CARD_DRAWN]
        && set_bool(a->state, step_names[N_DEPLETE_AFTER_DRAW], true) < 0)
        return -1;
    return card;
}

/* The last item of state.name as a long (the pile's top card, its discarder): 1, 0 when the list is empty, -1. */
int last_of(PyObject *state, PyObject *name, long *value)
{
    PyObject *list = list_of(state, name);
    if (list == NULL)
        return -1;
    Py_ssize_t size = PyList_GET_SIZE(list);
    int found = size > 0;
    if (found && !get_long(PyList_GET_ITEM(list, size - 1), value)) {
        PyErr_SetString(PyExc_TypeError, "simple_apply: a pile that is not of ints");
        found = -1;
    }
    Py_DECREF(list);
    return found;
}

/* ---- rules/draw.py ---- */

/* draw_error(state, verb) is None: 1 allowed, 0 refused, -1. */
static int draw_allowed(Apply *a, int verb)
{
    if (verb == K_DRAW)
        return stock_drawable(a, 1, false);
    long top;
    int has_top = last_of(a->state, step_names[N_DISCARD], &top);
    if (has_top < 0)
        return -1;
    if (verb == K_TAKE) {
        int purchase = truth_of(a->variant, step_more_names[M_USES_PURCHASE_CARDS]);
        if (purchase != 0)
            return purchase < 0 ? -1 : 0;
        if (!has_top)
            return 0;
        int after_claim = truth_of(a->state, step_names[N_AFTER_CLAIM]);
        if (after_claim <= 0)
            return after_claim < 0 ? -1 : 1;
        PyObject *rule = identity_of(a->variant, step_more_names[M_AFTER_CLAIM_ACTIVE_DRAW]);
        if (rule == NULL)
            return -1;
        if (rule != a->kit[K_STOCK_ONLY])
            return 1;
        int drawable = stock_drawable(a, 1, false);
        return drawable < 0 ? -1 : !drawable;
    }
    /* buy */
    int mode = window_mode(a);
    if (mode != MODE_CASCADE)
        return mode < 0 ? -1 : 0;
    int open = truth_of(a->rules, step_names[N_CLAIMS_OPEN]);
    if (open <= 0 || !has_top)
        return open < 0 ? -1 : 0;
    int dead = truth_of(a->state, step_names[N_DEAD]);
    if (dead != 0)
        return dead < 0 ? -1 : 0;
    long active, penalty;
    if (long_of(a->state, step_names[N_ACTIVE], &active) < 0)
        return -1;
    int left = claim_allowance_left(a, active);
    if (left <= 0 || long_of(a->rules, step_names[N_PENALTY_CARDS], &penalty) < 0)
        return left <= 0 && !PyErr_Occurred() ? 0 : -1;
    return stock_drawable(a, penalty, true);
}

/* enter_draw(state). */
int enter_draw(Apply *a)
{
    if (set_attribute(a->state, step_names[N_PHASE], a->kit[K_DRAW_PHASE]) < 0)
        return -1;
    static const int verbs[] = {K_DRAW, K_TAKE, K_BUY};
    for (size_t i = 0; i < 3; i++) {
        int allowed = draw_allowed(a, verbs[i]);
        if (allowed != 0)
            return allowed < 0 ? -1 : 0;
    }
    return end_round(a, K_EXHAUSTED, Py_None);
}

/* active_draws_stock(state). */
int active_draws_stock(Apply *a)
{
    long active;
    if (set_bool(a->state, step_names[N_DEPLETE_AFTER_DRAW], false) < 0 || long_of(a->state, step_names[N_ACTIVE], &active) < 0)
        return -1;
    long card = draw_from_stock(a);
    if (card < 0 || give(a, active, card) < 0 || set_attribute(a->state, step_names[N_PHASE], a->kit[K_PLAY]) < 0)
        return -1;
    int deplete = truth_of(a->state, step_names[N_DEPLETE_AFTER_DRAW]);
    if (deplete <= 0)
        return deplete;
    return call_back(a, K_DEPLETE, NULL, NULL);
}

/* draw(state). */
static int draw(Apply *a)
{
    int mode = window_mode(a);
    if (mode < 0)
        return -1;
    if (mode == MODE_DECLINE || mode == MODE_CASCADE) {
        Py_ssize_t pile = length_of(a->state, step_names[N_DISCARD]);
        int dead = pile > 0 ? truth_of(a->state, step_names[N_DEAD]) : 0;
        int open = pile > 0 && dead == 0 ? truth_of(a->rules, step_names[N_CLAIMS_OPEN]) : 0;
        if (pile < 0 || dead < 0 || open < 0)
            return -1;
        if (open) {
            int opened = open_window(a, true);
            if (opened != 0)
                return opened < 0 ? -1 : 0;
        }
    }
    return active_draws_stock(a);
}

/* take(state). */
static int take(Apply *a)
{
    long active;
    if (long_of(a->state, step_names[N_ACTIVE], &active) < 0)
        return -1;
    long top = pick_up(a, active);
    if (top < 0 || set_long(a->state, step_names[N_TAKEN_CARD], top) < 0)
        return -1;
    return set_attribute(a->state, step_names[N_PHASE], a->kit[K_PLAY]);
}

/* ---- rules/turns.py and rules/discard.py ---- */

/* washed_out(state) then washout_reached(state): 1, 0, -1. */
static int washed_out(Apply *a)
{
    PyObject *table = list_of(a->state, step_names[N_TABLE]);
    if (table == NULL)
        return -1;
    Py_ssize_t cards = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(table); i++) {
        PyObject *meld_cards = get_attribute(PyList_GET_ITEM(table, i), step_names[N_CARDS]);
        Py_ssize_t size = meld_cards == NULL ? -1 : PyObject_Length(meld_cards);
        Py_XDECREF(meld_cards);
        if (size < 0) {
            Py_DECREF(table);
            return -1;
        }
        cards += size;
    }
    Py_DECREF(table);
    long counted, quiet, laps;
    if (long_of(a->state, step_names[N_TABLE_CARDS], &counted) < 0 || long_of(a->state, step_names[N_QUIET_TURNS], &quiet) < 0)
        return -1;
    if (cards > counted) {
        if (set_long(a->state, step_names[N_TABLE_CARDS], cards) < 0)
            return -1;
        quiet = 0;
    }
    if (set_long(a->state, step_names[N_QUIET_TURNS], quiet + 1) < 0)
        return -1;
    int limited = long_of(a->variant, step_more_names[M_WASHOUT_LAPS], &laps);
    return limited <= 0 ? limited : quiet + 1 > laps * a->n;
}

/* start_turn(state, seat). */
static int start_turn(Apply *a, long seat)
{
    PyObject *played = list_of(a->state, step_names[N_PLAYED_TO_TABLE]);
    if (played == NULL)
        return -1;
    if (seat >= PyList_GET_SIZE(played)) {
        Py_DECREF(played);
        PyErr_SetString(PyExc_TypeError, "simple_apply: state.played_to_table is short");
        return -1;
    }
    PyObject *before = PyList_GET_ITEM(played, seat);
    Py_INCREF(before);
    Py_DECREF(played);
    int failed = set_long(a->state, step_names[N_ACTIVE], seat) < 0
                 || add_to_field(a->state, step_names[N_OWN_TURNS], seat, 1) < 0
                 || set_bool(a->state, step_names[N_DEAD], false) < 0 || set_bool(a->state, step_names[N_AFTER_CLAIM], false) < 0
                 || set_attribute(a->state, step_names[N_TAKEN_CARD], Py_None) < 0
                 || set_long(a->state, step_names[N_MELDS_THIS_TURN], 0) < 0
                 || set_long(a->state, step_names[N_STOLEN_PENDING], 0) < 0
                 || set_bool(a->state, step_names[N_PURCHASE_DONE], false) < 0
                 || set_attribute(a->state, step_names[N_PLAYED_BEFORE_TURN], before) < 0
                 || set_attribute(a->state, step_names[N_WINDOW], Py_None) < 0;
    Py_DECREF(before);
    if (failed)
        return -1;
    long max_turns, turns;
    int limited = long_of(a->variant, step_more_names[M_MAX_TURNS], &max_turns);
    if (limited < 0 || long_of(a->state, step_names[N_TURNS_PLAYED], &turns) < 0)
        return -1;
    if (limited && turns >= max_turns)
        return end_round(a, K_STALEMATE, Py_None);
    int washed = washed_out(a);
    if (washed != 0)
        return washed < 0 ? -1 : end_round(a, K_EXHAUSTED, Py_None);
    if (set_long(a->state, step_names[N_TURNS_PLAYED], turns + 1) < 0)
        return -1;
    PyObject *refill = identity_of(a->variant, step_names[N_STOCK_REFILL]);
    PyObject *check = refill == NULL ? NULL : identity_of(a->variant, step_more_names[M_DEPLETION_CHECK]);
    Py_ssize_t stock = check == NULL ? -1 : length_of(a->state, step_names[N_STOCK]);
    if (stock < 0)
        return -1;
    if (refill == a->kit[K_WHOLE_PILE_ONCE] && check == a->kit[K_TURN_START] && stock == 0) {
        PyObject *kept = PyObject_CallOneArg(a->kit[K_DEPLETE], a->state);
        if (kept == NULL)
            return -1;
        int truth = PyObject_IsTrue(kept);
        Py_DECREF(kept);
        if (truth <= 0)
            return truth;
    }
    if (refill == a->kit[K_NO_REFILL] && stock == 0) {
        int free_melding = truth_of(a->variant, step_more_names[M_FREE_MELDING]);
        if (free_melding != 0)
            return free_melding < 0 ? -1 : end_round(a, K_STALEMATE, Py_None);
    }
    int mode = window_mode(a);
    if (mode < 0)
        return -1;
    if (mode == MODE_PRE) {
        int opened = open_window(a, false);
        if (opened != 0)
            return opened < 0 ? -1 : 0;
    }
    return enter_draw(a);
}

/* discard(state, action) of `card` by the active player `seat`. */
static int discard(Apply *a, long seat, long card)
{
    PyObject *hands = list_of(a->state, step_names[N_HANDS]);
    if (hands == NULL)
        return -1;
    int failed = seat >= PyList_GET_SIZE(hands) || !PyList_CheckExact(PyList_GET_ITEM(hands, seat))
                 || add_to_item(PyList_GET_ITEM(hands, seat), card, -1) < 0;
    if (failed && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "simple_apply: a hand that is not a list");
    Py_DECREF(hands);
    if (failed || add_to_field(a->state, step_names[N_SIZES], seat, -1) < 0)
        return -1;
    PyObject *pile = list_of(a->state, step_names[N_DISCARD]);
    PyObject *by = pile == NULL ? NULL : list_of(a->state, step_names[N_DISCARDERS]);
    failed = by == NULL || append_long(pile, card) < 0 || append_long(by, seat) < 0;
    Py_XDECREF(pile);
    Py_XDECREF(by);
    if (failed || set_bool(a->state, step_names[N_DEAD], false) < 0)
        return -1;
    PyObject *sizes = list_of(a->state, step_names[N_SIZES]);
    long size = -1;
    if (sizes == NULL || !get_long(PyList_GET_ITEM(sizes, seat), &size)) {
        if (sizes != NULL)
            PyErr_SetString(PyExc_TypeError, "simple_apply: a size that is not an int");
        Py_XDECREF(sizes);
        return -1;
    }
    Py_DECREF(sizes);
    if (size == 0) {
        PyObject *out = PyLong_FromLong(seat);
        int result = out == NULL ? -1 : end_round(a, K_OUT, out);
        Py_XDECREF(out);
        return result;
    }
    for (int test = 0; test < 2; test++) { /* the stalemate (basic), then the deadlock (the contract variants) */
        int applies = truth_of(a->variant, step_more_names[test == 0 ? M_STALEMATE_DETECTION : M_HAS_CONTRACTS]);
        if (applies < 0)
            return -1;
        if (!applies)
            continue;
        PyObject *verdict = PyObject_CallOneArg(a->kit[test == 0 ? K_IS_STALEMATE : K_IS_DEADLOCKED], a->state);
        int ended = verdict == NULL ? -1 : PyObject_IsTrue(verdict);
        Py_XDECREF(verdict);
        if (ended != 0)
            return ended < 0 ? -1 : end_round(a, test == 0 ? K_STALEMATE : K_EXHAUSTED, Py_None);
    }
    return start_turn(a, (seat + 1) % a->n);
}

/* ---- the entry point ---- */

/* Apply `action` (judged legal) in `phase` with `verb`: 0 done, -1 with an exception set. */
static int perform(Apply *a, PyObject *phase, PyObject *verb, long seat, PyObject *action)
{
    if (phase == a->kit[K_CLAIM])
        return answer(a, seat, verb == a->kit[K_BUY]);
    if (verb == a->kit[K_DRAW])
        return draw(a);
    if (verb == a->kit[K_TAKE])
        return take(a);
    if (verb == a->kit[K_PURCHASE] || verb == a->kit[K_TRADE] || verb == a->kit[K_EXCHANGE])
        return purchase_step(a, seat, verb, action);
    long card;
    int kind = long_of(action, step_names[N_CARD], &card);
    if (kind < 0)
        return -1;
    return discard(a, seat, kind == 0 ? 0 : card); /* a discard without a card is of card 0, as discard.discard reads it */
}

PyObject *simple_apply(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "simple_apply takes 3 arguments, not %zd", nargs);
    PyObject *state = args[0], *action = args[1];
    if (!PyTuple_CheckExact(args[2]) || PyTuple_GET_SIZE(args[2]) != KIT_SIZE)
        Py_RETURN_NONE;
    if (intern_names() < 0)
        return NULL;
    PyObject *const *kit = &PyTuple_GET_ITEM(args[2], 0);
    PyObject *phase = identity_of(state, step_names[N_PHASE]);
    PyObject *verb = phase == NULL ? NULL : identity_of(action, step_names[N_VERB]);
    if (verb == NULL)
        return NULL;
    long seat;
    if (long_of(action, step_names[N_SEAT], &seat) <= 0 || seat < 0) {
        if (PyErr_Occurred())
            PyErr_Clear(); /* a malformed seat: the Python rules refuse it */
        Py_RETURN_NONE;
    }
    bool claim_answer = verb == kit[K_BUY] || verb == kit[K_PASS];
    if (phase == kit[K_CLAIM] ? !claim_answer : (phase != kit[K_DRAW_PHASE] && phase != kit[K_PLAY]) || claim_answer)
        Py_RETURN_NONE; /* the active player closing a window, an own buy, a phase without simple actions */
    bool purchase_verb = verb == kit[K_PURCHASE] || verb == kit[K_TRADE] || verb == kit[K_EXCHANGE];
    if (phase != kit[K_CLAIM] && verb != kit[K_DRAW] && verb != kit[K_TAKE] && verb != kit[K_DISCARD] && !purchase_verb)
        Py_RETURN_NONE; /* the table plays and books */
    PyObject *check_args[3] = {state, action, kit[K_CHECK_KIT]};
    PyObject *verdict = simple_check(module, check_args, 3);
    if (verdict == NULL)
        return NULL;
    bool accepted = verdict == Py_True;
    Py_DECREF(verdict);
    if (!accepted)
        Py_RETURN_NONE; /* refused (the Python rules say why), or not judged here */
    Apply a = {state, NULL, NULL, kit, 0};
    a.variant = get_attribute(state, step_names[N_VARIANT]);
    a.rules = a.variant == NULL ? NULL : get_attribute(state, step_names[N_RULES]);
    a.n = a.rules == NULL ? -1 : length_of(state, step_names[N_PLAYERS]);
    int result = -1;
    if (a.n > 0 && seat < a.n && perform(&a, phase, verb, seat, action) == 0) {
        PyObject *log = list_of(state, step_names[N_LOG]);
        result = log == NULL ? -1 : PyList_Append(log, action);
        Py_XDECREF(log);
    }
    else if (a.n >= 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "simple_apply: a state without players");
    Py_XDECREF(a.rules);
    Py_XDECREF(a.variant);
    if (result < 0)
        return NULL;
    Py_RETURN_TRUE;
}

PyObject *draw_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "draw_actions takes 3 arguments, not %zd", nargs);
    PyObject *state = args[0], *actions = args[1];
    if (!PyTuple_CheckExact(actions) || PyTuple_GET_SIZE(actions) != 3 || !PyTuple_CheckExact(args[2])
        || PyTuple_GET_SIZE(args[2]) != KIT_SIZE)
        Py_RETURN_NONE;
    if (intern_names() < 0)
        return NULL;
    PyObject *const *kit = &PyTuple_GET_ITEM(args[2], 0);
    PyObject *phase = identity_of(state, step_names[N_PHASE]);
    if (phase == NULL)
        return NULL;
    if (phase != kit[K_DRAW_PHASE])
        Py_RETURN_NONE;
    Apply a = {state, NULL, NULL, kit, 0}; /* (draw_allowed reads no seat count) */
    a.variant = get_attribute(state, step_names[N_VARIANT]);
    a.rules = a.variant == NULL ? NULL : get_attribute(state, step_names[N_RULES]);
    PyObject *listed = a.rules == NULL ? NULL : PyList_New(0);
    static const int verbs[] = {K_DRAW, K_TAKE, K_BUY}; /* rules/draw.py's DRAW_VERBS */
    for (size_t i = 0; i < 3 && listed != NULL; i++) {
        int allowed = draw_allowed(&a, verbs[i]);
        if (allowed < 0 || (allowed && PyList_Append(listed, PyTuple_GET_ITEM(actions, i)) < 0))
            Py_CLEAR(listed);
    }
    Py_XDECREF(a.rules);
    Py_XDECREF(a.variant);
    if (listed == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) { /* a field that does not read */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return listed;
}
