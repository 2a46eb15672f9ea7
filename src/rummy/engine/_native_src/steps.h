/*
 * What the compiled apply of the simple actions shares between its files (simple_steps.c: the entry point
 * simple_apply, the state's fields, the stock, the draw, the turn and the discard; claim_steps.c: the claim window and
 * its answers): the kit's members (rules/__init__.py's APPLY_KIT), the attribute names read (interned once), one
 * application's context, and the steps each file gives the other.  Every function returns -1 (or NULL) with an
 * exception set on an error.
 */
#ifndef RUMMY_NATIVE_STEPS_H
#define RUMMY_NATIVE_STEPS_H

#include "core.h"

enum {
    K_CLAIM, K_DRAW_PHASE, K_PLAY, K_BUY, K_PASS, K_DRAW, K_TAKE, K_DISCARD,
    K_KEEP_TOP, K_WHOLE_PILE_ONCE, K_NO_REFILL, K_TURN_START, K_ON_LAST_CARD_DRAWN,
    K_PRE_DRAW, K_AFTER_DECLINE, K_ACTIVE_FIRST_THEN_OTHERS, K_TABLE_SCOPE, K_FIRST_CALL, K_CASCADE_CLAIMS,
    K_STOCK_ONLY, K_OUT, K_STALEMATE, K_EXHAUSTED, K_PURCHASE, K_TRADE, K_EXCHANGE, K_IN_PLACE,
    K_END_ROUND, K_IS_STALEMATE, K_IS_DEADLOCKED, K_DEPLETE, K_DRAW_FROM_STOCK, K_CLAIM_WINDOW, K_CHECK_KIT,
    KIT_SIZE
};

/* rules/claims.py's WindowMode. */
enum window_mode { MODE_NONE, MODE_PRE, MODE_DECLINE, MODE_CASCADE };

enum {
    N_SEAT, N_VERB, N_CARD, N_PHASE, N_ACTIVE, N_WINDOW, N_ELIGIBLE, N_ANSWERED, N_CLAIMANTS, N_AFTER_DECLINE,
    N_STOCK, N_DISCARD, N_DISCARDERS, N_HANDS, N_SIZES, N_RECEIVED, N_PICKUPS, N_LOG, N_VARIANT, N_RULES,
    N_PLAYERS, N_DOWN, N_CLAIMS_USED, N_KITTY, N_PENNIES_PAID, N_DEAD, N_AFTER_CLAIM, N_TAKEN_CARD,
    N_MELDS_THIS_TURN, N_STOLEN_PENDING, N_PURCHASE_DONE, N_PLAYED_BEFORE_TURN, N_PLAYED_TO_TABLE, N_OWN_TURNS,
    N_TURNS_PLAYED, N_TABLE, N_TABLE_CARDS, N_QUIET_TURNS, N_CARDS, N_DEPLETE_AFTER_DRAW,
    /* the variant's and the round's rules */
    N_CLAIM_MODE, N_ACTIVE_FIRST_REFUSAL, N_CLAIMS_OPEN, N_PENALTY_CARDS, N_CLAIM_LIMIT, N_STOCK_REFILL,
    N_COUNT
};
extern PyObject *step_names[N_COUNT];
enum {
    M_DEPLETION_CHECK, M_CLAIM_LIMIT_SCOPE, M_CLAIM_ALLOWED_WHEN_DOWN, M_DISCARDER_MAY_CLAIM, M_CLAIM_PRIORITY,
    M_CLAIMS_PER_WINDOW, M_CLAIM_COST, M_BLIND_CARD_COST, M_USES_PURCHASE_CARDS, M_AFTER_CLAIM_ACTIVE_DRAW,
    M_STALEMATE_DETECTION, M_HAS_CONTRACTS, M_MAX_TURNS, M_WASHOUT_LAPS, M_FREE_MELDING, M_PURCHASE_CARDS,
    M_PC_DISCARD_POSITION, M_NEW_PC, M_TARGET, M_COUNT
};
extern PyObject *step_more_names[M_COUNT];

/* One application: the state, its variant and round rules (held), the seat count, and the kit. */
typedef struct {
    PyObject *state, *variant, *rules;
    PyObject *const *kit;
    long n;
} Apply;

/* Reading and writing the state's fields (simple_steps.c). */
int long_of(PyObject *object, PyObject *name, long *value);
int set_long(PyObject *object, PyObject *name, long value);
int set_bool(PyObject *object, PyObject *name, bool value);
PyObject *list_of(PyObject *object, PyObject *name);
Py_ssize_t length_of(PyObject *object, PyObject *name);
int add_to_item(PyObject *list, Py_ssize_t index, long delta);
int add_to_field(PyObject *state, PyObject *name, Py_ssize_t index, long delta);
long pop_int(PyObject *list);
int append_long(PyObject *list, long value);

/* The steps of rules/stock.py, rules/draw.py and rules/round_end.py (simple_steps.c). */
int give(Apply *a, long seat, long card);
long pick_up(Apply *a, long seat);
int stock_drawable(Apply *a, long count, bool removing_top);
long draw_from_stock(Apply *a);
int enter_draw(Apply *a);
int active_draws_stock(Apply *a);
int last_of(PyObject *state, PyObject *name, long *value);
int end_round(Apply *a, int end, PyObject *went_out);
int call_back(Apply *a, int which, PyObject *first, PyObject *second);

/* rules/purchase.py's purchase_step: the active player `seat`'s purchase, trade or exchange (purchase_steps.c). */
int purchase_step(Apply *a, long seat, PyObject *verb, PyObject *action);

/* The steps of rules/claims.py and rules/window.py (claim_steps.c). */
int window_mode(Apply *a);
int claim_allowance_left(Apply *a, long seat);
int open_window(Apply *a, bool after_decline);
int answer(Apply *a, long seat, bool buy);

#endif
