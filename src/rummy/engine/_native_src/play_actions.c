/*
 * play_actions(game, facts, kit) -> (moves, deferred) | None
 *
 * rummy.engine.moves._play_actions, compiled for the variants without books: the active player's candidate moves in
 * the play phase, in the same order, and how many are deferred.  It walks the same steps and asks the compiled pieces
 * directly (discards and most_cards_laid of play_listing.c, lay_down_exists of lay_down.c, held_actions of
 * table_plays.c, rearrangements of rearrangements.c, single_melds of basic_melds.c); the steps that judge candidates
 * in full stay Python and are called back, each the same function the Python listing calls (kit below): a lay-down
 * that cannot be deferred, the single new melds the hand forms (not called when it forms none), lay-offs and
 * rearrangements for a hand of two cards or a wild owed, judged wild swaps, and going out.  The Python listing stays
 * the reference and the fallback.
 *
 *   facts  moves._play_facts(game): (flags, the contract's spec for lay_down_exists or None when that search does
 *          not cover it, meld_rules.compiled_meld_rules, the contract's run slots, its group slots, the variant's
 *          group_min and run_min); the flags are the F_ bits below, of the variant and the round's rules.
 *   kit    moves._PLAY_KIT (the K_ items below).
 *
 * None, having listed nothing the caller sees, for what it does not read (a state of another shape, a hand that is
 * not 53 small counts, a contract the compiled search does not cover when the lay-down is asked, a piece that does
 * not answer): the Python listing answers then.
 */
#include "core.h"

enum { /* facts[0]'s bits (moves._play_facts) */
    F_HAS_CONTRACTS = 1 << 0,
    F_NEW_MELDS_AFTER_LAYDOWN = 1 << 1,
    F_LAYOFF_REQUIRES_DOWN = 1 << 2,
    F_LAYOFF_NEXT_TURN = 1 << 3,
    F_SWAPS = 1 << 4,
    F_SWAP_TO_HAND = 1 << 5,
    F_SWAP_NEXT_TURN = 1 << 6,
    F_STOLEN_MUST_BE_PLAYED = 1 << 7,
    F_REARRANGING = 1 << 8,
    F_MAY_DISCARD_TAKEN = 1 << 9,
    F_FINAL_DISCARD = 1 << 10,
    F_MUST_GO_OUT_ON_LAYDOWN = 1 << 11,
};
enum { FACT_FLAGS, FACT_SPEC, FACT_MELD_RULES, FACT_RUNS, FACT_GROUPS, FACT_GROUP_MIN, FACT_RUN_MIN, FACT_COUNT };
enum { /* moves._PLAY_KIT */
    K_DISCARDS_MEMO,    /* moves._DISCARDS: seat -> its 53 discards */
    K_SEAT_DISCARDS,    /* moves._seat_discards(seat) */
    K_LAYOFF,           /* Verb.LAYOFF */
    K_SIMPLE,           /* moves._SIMPLE */
    K_SIMPLE_ACTION,    /* moves.simple_action */
    K_DEFERRED,         /* Deferred */
    K_DEFERRED_SLOTS,   /* the slot descriptors of its verb, make and args */
    K_DOWN,             /* Verb.DOWN */
    K_BEST_LAY_DOWN,    /* moves._best_lay_down_action(seat, variant, contract, hand) */
    K_LAY_DOWN,         /* moves._lay_down(game) */
    K_SINGLE_MELDS,     /* moves._list_single_melds(game, None, moves) */
    K_TABLE_OFFERS,     /* table_offers.table_offers(table, variant) */
    K_JUDGED_LAYOFFS,   /* moves._list_layoffs_and_rearrangements(game, offers, None, moves) -> int */
    K_SWAPS,            /* moves._list_swaps(game, offers, moves) */
    K_GOING_OUT,        /* moves._list_going_out(game, None, moves) */
    K_REARRANGE_KIT,    /* moves._KIT, for rearrangements */
    K_MELD_KIT,         /* moves._MELD_KIT, for single_melds */
    K_JUDGED_MELDS,     /* moves._list_judged_melds(game, specs, moves) */
    K_COUNT
};

enum { S_ACTIVE, S_HANDS, S_SIZES, S_DOWN, S_DOWN_TURN, S_OWN_TURNS, S_STOLEN, S_TAKEN, S_TABLE, S_VARIANT, S_RULES,
       S_CONTRACT, S_LAYOFFS, S_SWAPS, S_NATIVE_REARRANGEMENTS, S_COUNT };
static PyObject *names[S_COUNT];

static int intern_names(void)
{
    static const char *const spelled[S_COUNT] = {
        "active", "hands", "sizes", "down", "down_turn", "own_turns", "stolen_pending", "taken_card", "table",
        "variant", "rules", "contract", "layoffs", "swaps", "native_rearrangements",
    };
    for (int i = 0; i < S_COUNT; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    return 0;
}

/* The listing under way: what the steps read, and the list they append to. */
typedef struct {
    PyObject *game, *const *kit, *moves, *seat_object, *hand_object;
    int hand[CARD_COUNT];
    long seat, size, stolen;
    bool down;
    long deferred;
} Listing;

/* Item `seat` of the list state.<name> as a long: false when it does not read (a missing or odd value). */
static bool seat_long(PyObject *state, int name, long seat, long *value)
{
    PyObject *item = field_item(state, names[name], seat);
    bool read = item != NULL && get_long(item, value);
    Py_XDECREF(item);
    return read;
}

/* A Python step: kit[step](*args) appended to the listing's moves by the callee (an int it returns, when `counts`,
 * is added to the deferred entries).  0, or -1 with an exception set. */
static int call_step(Listing *listing, int step, PyObject *const *args, size_t nargs, bool counts)
{
    PyObject *result = PyObject_Vectorcall(listing->kit[step], args, nargs, NULL);
    if (result == NULL)
        return -1;
    long deferred = 0;
    bool read = !counts || get_long(result, &deferred);
    Py_DECREF(result);
    if (!read) {
        PyErr_SetString(PyExc_TypeError, "play_actions: a listing step gave no count");
        return -1;
    }
    listing->deferred += deferred;
    return 0;
}

/* The answer of a compiled piece called with `args`: 1 when it answered (True, or a count added to the deferred
 * entries), 0 when it did not (None), -1 with an exception set. */
typedef PyObject *(*Piece)(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

static int call_piece(Listing *listing, Piece piece, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *result = piece(NULL, args, nargs);
    if (result == NULL)
        return -1;
    int answered = result != Py_None;
    if (answered && PyLong_CheckExact(result))
        listing->deferred += PyLong_AsLong(result);
    Py_DECREF(result);
    return answered;
}

/* moves._discards: the moves to start from (a new list), or NULL: with an exception set, or none for a hand the
 * compiled discards do not read (then *answered is false). */
static PyObject *list_discards(Listing *listing, long flags, bool *answered)
{
    *answered = true;
    if ((listing->size == 1 && !(flags & F_FINAL_DISCARD)) || (listing->stolen && (flags & F_STOLEN_MUST_BE_PLAYED)))
        return PyList_New(0);
    long taken = -1;
    PyObject *taken_object = get_attribute(listing->game, names[S_TAKEN]);
    if (taken_object == NULL)
        return NULL;
    int read = long_or_none(taken_object, &taken);
    Py_DECREF(taken_object);
    if (read < 0 || (read == 1 && (taken < 0 || taken >= CARD_COUNT))) {
        *answered = false;
        return NULL;
    }
    if (read == 0 || (flags & F_MAY_DISCARD_TAKEN) || listing->hand[taken] != 1)
        taken = -1;
    PyObject *actions = PyDict_GetItemWithError(listing->kit[K_DISCARDS_MEMO], listing->seat_object);
    if (actions != NULL) {
        Py_INCREF(actions);
    } else {
        if (PyErr_Occurred())
            return NULL;
        actions = PyObject_CallOneArg(listing->kit[K_SEAT_DISCARDS], listing->seat_object);
        if (actions == NULL)
            return NULL;
    }
    PyObject *taken_card = PyLong_FromLong(taken);
    PyObject *args[3] = {listing->hand_object, actions, taken_card};
    PyObject *moves = taken_card == NULL ? NULL : discards(NULL, args, 3);
    Py_DECREF(actions);
    Py_XDECREF(taken_card);
    if (moves == Py_None) {
        Py_DECREF(moves);
        *answered = false;
        return NULL;
    }
    return moves;
}

/* moves._lay_down's compiled part: the lay-down entry of a player not yet down, appended.  1 when listed, 0 when the
 * compiled search does not read the hand, -1 with an exception set. */
static int list_lay_down(Listing *listing, PyObject *const *facts, long flags)
{
    PyObject *exists_args[2] = {listing->hand_object, facts[FACT_SPEC]};
    PyObject *able = lay_down_exists(NULL, exists_args, 2);
    if (able == NULL || able == Py_None) {
        Py_XDECREF(able);
        return able == NULL ? -1 : 0;
    }
    Py_DECREF(able);
    if (able == Py_False)
        return 1; /* (the most lenient rules refuse it, so the round's own do too) */
    bool deferrable = (flags & F_FINAL_DISCARD) && !(flags & F_MUST_GO_OUT_ON_LAYDOWN) && !listing->stolen;
    if (deferrable) { /* lay_down.deferrable: the best lay-down leaves two cards or more, whichever it is */
        PyObject *most_args[4] = {listing->hand_object, facts[FACT_MELD_RULES], facts[FACT_RUNS], facts[FACT_GROUPS]};
        PyObject *most = most_cards_laid(NULL, most_args, 4);
        long laid = 0;
        bool read = most != NULL && most != Py_None && get_long(most, &laid);
        Py_XDECREF(most);
        if (!read)
            return PyErr_Occurred() ? -1 : 0;
        deferrable = listing->size - laid >= 2;
    }
    if (!deferrable) { /* judged in full: the Python step */
        PyObject *entry = PyObject_CallOneArg(listing->kit[K_LAY_DOWN], listing->game);
        if (entry == NULL)
            return -1;
        int appended = entry == Py_None ? 0 : PyList_Append(listing->moves, entry);
        listing->deferred += (PyObject *)Py_TYPE(entry) == listing->kit[K_DEFERRED];
        Py_DECREF(entry);
        return appended < 0 ? -1 : 1;
    }
    PyObject *variant = get_attribute(listing->game, names[S_VARIANT]);
    PyObject *rules = variant == NULL ? NULL : get_attribute(listing->game, names[S_RULES]);
    PyObject *contract = rules == NULL ? NULL : get_attribute(rules, names[S_CONTRACT]);
    PyObject *hand = contract == NULL ? NULL : PySequence_Tuple(listing->hand_object);
    PyObject *made_args = hand == NULL ? NULL : PyTuple_Pack(4, listing->seat_object, variant, contract, hand);
    PyObject *entry = NULL;
    if (made_args != NULL) { /* Deferred(DOWN, best lay-down, args), its slots set as rearrangements.c's rows are */
        PyObject *const *kit = listing->kit;
        PyObject *fields[5] = {kit[K_DEFERRED], kit[K_DEFERRED_SLOTS], kit[K_DOWN], kit[K_BEST_LAY_DOWN], made_args};
        entry = new_record(NULL, fields, 5);
        if (entry == Py_None) {
            Py_DECREF(entry);
            entry = PyObject_Vectorcall(kit[K_DEFERRED], fields + 2, 3, NULL);
        }
    }
    Py_XDECREF(variant);
    Py_XDECREF(rules);
    Py_XDECREF(contract);
    Py_XDECREF(hand);
    Py_XDECREF(made_args);
    if (entry == NULL)
        return -1;
    int appended = PyList_Append(listing->moves, entry);
    Py_DECREF(entry);
    listing->deferred += 1;
    return appended < 0 ? -1 : 1;
}

/* The offers' attribute `name` (a new reference, or NULL with an exception set); a method's result when `call`. */
static PyObject *offers_part(PyObject *offers, int name, bool call)
{
    return call ? PyObject_CallMethodNoArgs(offers, names[name]) : get_attribute(offers, names[name]);
}

/* held_actions(moves, hand, seat, offers.<name>, verb, memo, make): 1, 0 when it did not answer, -1. */
static int list_held(Listing *listing, PyObject *offers, int name, PyObject *verb)
{
    PyObject *held = offers_part(offers, name, false);
    if (held == NULL)
        return -1;
    PyObject *const *kit = listing->kit;
    PyObject *args[7] = {listing->moves, listing->hand_object, listing->seat_object, held, verb, kit[K_SIMPLE],
                         kit[K_SIMPLE_ACTION]};
    int answered = call_piece(listing, held_actions, args, 7);
    Py_DECREF(held);
    return answered;
}

/* Whether the active player's first own turn after going down is still to come: down_turn[seat] >= own_turns[seat]
 * (rules.table.layoffs_wait's test).  1, 0, or -1 when it does not read. */
static int waits_for_next_turn(Listing *listing)
{
    long down_turn, own_turns;
    if (!seat_long(listing->game, S_DOWN_TURN, listing->seat, &down_turn)
        || !seat_long(listing->game, S_OWN_TURNS, listing->seat, &own_turns))
        return -1;
    return down_turn >= own_turns;
}

/* moves._play_actions' table plays, after the new melds: lay-offs, rearrangements, wild swaps and going out, appended
 * from `offers`.  1, 0 when a piece did not answer, -1 with an exception set. */
static int list_table_plays(Listing *listing, PyObject *offers, long flags, bool may_layoff, bool swaps)
{
    PyObject *game = listing->game, *const *kit = listing->kit;
    int wait = may_layoff && (flags & F_LAYOFF_NEXT_TURN) ? waits_for_next_turn(listing) : 0;
    if (wait < 0)
        return 0;
    if (may_layoff && !wait) {
        if (listing->size > 2 && !listing->stolen) { /* lay-offs legal by construction; nothing owed */
            int answered = list_held(listing, offers, S_LAYOFFS, kit[K_LAYOFF]);
            if (answered != 1)
                return answered;
            if (flags & F_REARRANGING) {
                PyObject *table = offers_part(offers, S_NATIVE_REARRANGEMENTS, true);
                PyObject *size = table == NULL ? NULL : PyLong_FromLong(listing->size);
                if (size == NULL) {
                    Py_XDECREF(table);
                    return -1;
                }
                PyObject *args[10] = {listing->moves, listing->hand_object, listing->seat_object, size,
                                      listing->down ? Py_True : Py_False, Py_None, game, table, offers,
                                      kit[K_REARRANGE_KIT]};
                answered = call_piece(listing, rearrangements, args, 10);
                Py_DECREF(table);
                Py_DECREF(size);
                if (answered != 1)
                    return answered;
            }
        } else {
            PyObject *args[4] = {game, offers, Py_None, listing->moves};
            if (call_step(listing, K_JUDGED_LAYOFFS, args, 4, true) < 0)
                return -1;
        }
    }
    if (swaps) {
        bool owes = listing->stolen && (flags & F_STOLEN_MUST_BE_PLAYED);
        int swap_wait = (flags & F_SWAP_NEXT_TURN) ? waits_for_next_turn(listing) : 0;
        if (swap_wait < 0)
            return 0;
        bool quick = (flags & F_SWAP_TO_HAND) && !owes && listing->size >= 3 && !swap_wait;
        if (quick && !(flags & F_STOLEN_MUST_BE_PLAYED)) { /* every offer a swap to hand, legal at a glance */
            int answered = list_held(listing, offers, S_SWAPS, Py_None);
            if (answered != 1)
                return answered;
        } else {
            PyObject *args[3] = {game, offers, listing->moves};
            if (call_step(listing, K_SWAPS, args, 3, false) < 0)
                return -1;
        }
    }
    if (listing->size <= 5 && may_layoff) {
        PyObject *args[3] = {game, Py_None, listing->moves};
        if (call_step(listing, K_GOING_OUT, args, 3, false) < 0)
            return -1;
    }
    return 1;
}

/* moves._list_single_melds: the single new melds the hand forms (single_melds), each judged in full by the Python
 * step called back with them; none formed, none called.  0, or -1 with an exception set. */
static int list_single_melds(Listing *listing, PyObject *const *facts)
{
    PyObject *const *kit = listing->kit;
    PyObject *melds_args[5] = {listing->hand_object, facts[FACT_MELD_RULES], facts[FACT_GROUP_MIN],
                               facts[FACT_RUN_MIN], kit[K_MELD_KIT]};
    PyObject *specs = single_melds(NULL, melds_args, 5);
    if (specs == NULL)
        return -1;
    int called = 0;
    if (specs == Py_None) { /* (a minimum it does not read: the Python step forms them too) */
        PyObject *args[3] = {listing->game, Py_None, listing->moves};
        called = call_step(listing, K_SINGLE_MELDS, args, 3, false);
    } else if (PyList_GET_SIZE(specs) > 0) {
        PyObject *args[3] = {listing->game, specs, listing->moves};
        called = call_step(listing, K_JUDGED_MELDS, args, 3, false);
    }
    Py_DECREF(specs);
    return called;
}

/* The listing's steps after reading the state: 1 listed, 0 when a piece did not answer, -1 with an exception set. */
static int list_moves(Listing *listing, PyObject *const *facts, long flags)
{
    bool answered;
    listing->moves = list_discards(listing, flags, &answered);
    if (listing->moves == NULL)
        return answered ? -1 : 0;
    if ((flags & F_HAS_CONTRACTS) && !listing->down) {
        int listed = list_lay_down(listing, facts, flags);
        if (listed != 1)
            return listed;
    } else if ((!(flags & F_HAS_CONTRACTS) || (flags & F_NEW_MELDS_AFTER_LAYDOWN))
               && list_single_melds(listing, facts) < 0) {
        return -1;
    }
    bool may_layoff = !(flags & F_LAYOFF_REQUIRES_DOWN) || listing->down;
    bool swaps = listing->down && (flags & F_SWAPS);
    if (!(may_layoff || swaps))
        return 1;
    PyObject *table = get_attribute(listing->game, names[S_TABLE]);
    if (table == NULL)
        return -1;
    if (!PyList_Check(table) || PyList_GET_SIZE(table) == 0) {
        Py_DECREF(table);
        return PyList_Check(table) ? 1 : 0;
    }
    PyObject *variant = get_attribute(listing->game, names[S_VARIANT]);
    PyObject *offers = NULL;
    if (variant != NULL) {
        PyObject *args[2] = {table, variant};
        offers = PyObject_Vectorcall(listing->kit[K_TABLE_OFFERS], args, 2, NULL);
        Py_DECREF(variant);
    }
    Py_DECREF(table);
    if (offers == NULL)
        return -1;
    int listed = list_table_plays(listing, offers, flags, may_layoff, swaps);
    Py_DECREF(offers);
    return listed;
}

PyObject *play_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != FACT_COUNT || !PyTuple_Check(args[2])
        || PyTuple_GET_SIZE(args[2]) != K_COUNT || !PyDict_Check(PyTuple_GET_ITEM(args[2], K_DISCARDS_MEMO))
        || !PyDict_Check(PyTuple_GET_ITEM(args[2], K_SIMPLE))) {
        PyErr_SetString(PyExc_TypeError, "play_actions(game, facts: tuple of 7, kit: tuple of 18)");
        return NULL;
    }
    if (intern_names() < 0)
        return NULL;
    PyObject *game = args[0], *const *facts = &PyTuple_GET_ITEM(args[1], 0);
    Listing listing = {.game = game, .kit = &PyTuple_GET_ITEM(args[2], 0)};
    long flags, down = 0;
    if (!get_long(facts[FACT_FLAGS], &flags) || long_or_none_attribute(game, names[S_ACTIVE], &listing.seat) != 1
        || long_or_none_attribute(game, names[S_STOLEN], &listing.stolen) != 1 || listing.seat < 0)
        Py_RETURN_NONE;
    if ((flags & F_HAS_CONTRACTS) && !PyBytes_Check(facts[FACT_SPEC])) {
        /* the lay-down's search is not compiled for this contract: read whether it is asked */
        if (!seat_long(game, S_DOWN, listing.seat, &down) || !down)
            Py_RETURN_NONE;
    }
    listing.hand_object = field_item(game, names[S_HANDS], listing.seat); /* (held: the steps run Python) */
    int read = listing.hand_object == NULL ? 0 : read_hand(listing.hand_object, listing.hand);
    if (read == 1)
        read = seat_long(game, S_SIZES, listing.seat, &listing.size) && seat_long(game, S_DOWN, listing.seat, &down);
    listing.down = down != 0;
    if (read == 1)
        read = (listing.seat_object = PyLong_FromLong(listing.seat)) == NULL ? -1 : 1;
    if (read == 1)
        read = list_moves(&listing, facts, flags);
    Py_XDECREF(listing.hand_object);
    Py_XDECREF(listing.seat_object);
    PyObject *result = NULL;
    if (read == 1) {
        PyObject *deferred = PyLong_FromLong(listing.deferred);
        result = deferred == NULL ? NULL : PyTuple_Pack(2, listing.moves, deferred);
        Py_XDECREF(deferred);
    }
    Py_XDECREF(listing.moves);
    if (read == 0 && !PyErr_Occurred())
        Py_RETURN_NONE;
    return result;
}
