/*
 * What the compiled core's source files share (rummy.engine._native):
 *   lay_down.c          the module (its method table) and whether a contract can be laid down;
 *   best_*.c, best.h    the best lay-down;
 *   spare_search.c      the spare-card rearrangements on offer, with its entry points spare_builds.c and
 *                       rearrangements.c (spare.h), and spare_action.c, which writes a spare-card row out;
 *   rearranged.c        the judgement of a rearrangement (the scratch after it);
 *   table_plays.c       the lay-offs and wild swaps a hand may make;
 *   play_actions.c      the play phase's listing, asking the pieces below and calling back its judged steps;
 *   play_listing.c      pieces of the play phase's listing (most cards laid, discards, a table's offers gathered);
 *   meld_parts.c        a table meld's part in the compiled rearrangements (its spares and valid splits);
 *   purchase_moves.c    the purchase variant's books, purchases, trades and exchanges;
 *   basic_melds.c       the new melds of free melding;
 *   simple_check.c      the judgement of the simple actions (claims, draw, take, discard);
 *   simple_steps.c, claim_steps.c, steps.h   applying them (simple_apply), and the draw phase's listing;
 *   game_apply.c        Game.apply around simple_apply: the action applied and its record;
 *   state_copy.c        the copy of a game state's fields;
 *   records.c           a slotted record (Game.apply's Applied) made from its field values;
 *   view_fields.c       a seat's view (view.player_view), its fields read from the game state;
 *   observation.c, history.c, mask_ids.c   the environment's observation, its history and its action ids;
 *   planner.c           the heuristic bot's contract planner (the search of a hand's best plans, their outs);
 *   buffers.c           reading the Python values the queries are handed.
 */
#ifndef RUMMY_NATIVE_CORE_H
#define RUMMY_NATIVE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#define CARD_COUNT 53
#define NATURALS 52
#define JOKER 52
#define MAX_SLOTS 16
#define UNLIMITED (1 << 20) /* tables.INF */

/* Wild policies, by code (modes.POLICY_CODES): none, wilds may not outnumber the naturals, at most one wild. */
enum { POLICY_NONE = 0, POLICY_RATIO = 1, POLICY_ONE = 2 };

/* melds._natural_here: whether `card` counts as a natural where it stands for `rank` (and `suit`, for runs; -1 for
 * a set), under the wild flags `wild` and twos_natural_in_place. */
static inline bool natural_here(const unsigned char *wild, bool twos_natural, int card, int rank, int suit)
{
    if (!wild[card])
        return true;
    return twos_natural && card != JOKER && card % 13 + 1 == 2 && rank == 2 && (suit < 0 || card / 13 == suit);
}

/* melds._check_wild_policy, as a test: whether a meld of `wilds` wilds and `naturals` naturals keeps `policy`. */
static inline bool policy_allows(int policy, int wilds, int naturals)
{
    return !(policy == POLICY_RATIO && wilds > naturals) && !(policy == POLICY_ONE && wilds > 1);
}

/* A variant's meld rules as meld_rules.compiled_meld_rules packs them, the one layout every compiled reader of them
 * takes: a wild flag per card kind (CARD_COUNT bytes, the joker last), then the lowest and highest run value
 * (AceMode.run_bounds), the wild policy's code, twos_natural_in_place, pair_extendable and all_wild_melds. */
enum { RULE_LOW = CARD_COUNT, RULE_HIGH, RULE_POLICY, RULE_TWOS_NATURAL, RULE_PAIR_EXTENDABLE, RULE_ALL_WILD,
       RULE_BYTES };

typedef struct {
    const unsigned char *wild; /* a flag per card kind: borrowed from the bytes read */
    int low_bound, high_bound, policy;
    bool twos_natural, pair_extendable, all_wild_melds;
} MeldRules;

/* The RULE_BYTES at `packed` (those bytes, or the start of a longer packing such as the heuristic planner's) read
 * into `rules`: false when a value is out of range (a run bound outside 1..14, bounds crossed, an unknown policy). */
static inline bool unpack_meld_rules(const unsigned char *packed, MeldRules *rules)
{
    MeldRules read = {packed, packed[RULE_LOW], packed[RULE_HIGH], packed[RULE_POLICY], packed[RULE_TWOS_NATURAL],
                      packed[RULE_PAIR_EXTENDABLE], packed[RULE_ALL_WILD]};
    *rules = read;
    return read.low_bound >= 1 && read.high_bound <= 14 && read.low_bound <= read.high_bound
           && read.policy <= POLICY_ONE;
}

/* melds.run_ends_open: whether a run of `length` cards from value `low` can grow at its low end (`end` 1) or its high
 * end (2) within the run bounds (an ace cannot be both the low and the high end). */
static inline bool run_end_open(const MeldRules *rules, int low, int length, int end)
{
    int high = low + length - 1;
    if (end == 1)
        return low - 1 >= rules->low_bound && !(low - 1 == 1 && high == 14);
    return high + 1 <= rules->high_bound && !(high + 1 == 14 && low == 1);
}

/* rules/purchase.py's purchase_allowed: may purchase card `pc` buy `target`?  `ace_buyers`: bit r set for each rank r
 * (the joker's 0) of the variant's ace_purchasable_by, the ranks whose purchase card may buy an ace (purchase_moves.c,
 * simple_check.c). */
static inline bool purchase_allowed(long ace_buyers, int pc, int target)
{
    int pc_rank = pc == JOKER ? 0 : pc % 13 + 1, target_rank = target == JOKER ? 0 : target % 13 + 1;
    if (target_rank == 1)
        return (ace_buyers >> pc_rank) & 1;
    return target_rank <= (pc_rank == 1 ? 14 : pc_rank);
}

/* `object` read into `rules`: false, no exception set, when it is not such bytes or a value is out of range; the
 * Python code answers then. */
static inline bool read_meld_rules(PyObject *object, MeldRules *rules)
{
    if (!PyBytes_Check(object) || PyBytes_GET_SIZE(object) != RULE_BYTES)
        return false;
    return unpack_meld_rules((const unsigned char *)PyBytes_AS_STRING(object), rules);
}

/* Read a count vector into `hand`: 1 when it is a list or tuple of 53 counts from 0 to 255, 0 when it is not (the
 * Python search then answers: it raises the engine's own errors), -1 with an exception set when a count is not an
 * int (lay_down.c). */
int read_hand(PyObject *hand_object, int *hand);

/* A float32 buffer of `count` numbers, C-contiguous (writable if asked): true with `view` held (release it), false
 * with nothing held and no exception set when it is not one (buffers.c). */
bool get_floats(PyObject *object, Py_buffer *view, bool writable, Py_ssize_t count);
/* A Python int (a bool included) as a long; false, no exception set, when it is not one or does not fit. */
bool get_long(PyObject *object, long *value);
/* An int or None: 1 with `value` set, 0 for None, -1 for anything else (no exception set). */
int long_or_none(PyObject *item, long *value);
/* The attribute `name` of `object` read as by long_or_none (-1 also when it is missing; no exception set). */
int long_or_none_attribute(PyObject *object, PyObject *name, long *value);
/* object.name and object.name = value, through the object's slot where the attribute is one (buffers.c). */
PyObject *get_attribute(PyObject *object, PyObject *name);
int set_attribute(PyObject *object, PyObject *name, PyObject *value);
/* Item `index` of the list object.name (a new reference; a seat's entry of a per-seat field), or NULL, no exception
 * set, when there is none: the attribute missing or not a list, the index out of its range. */
PyObject *field_item(PyObject *object, PyObject *name, Py_ssize_t index);
/* object.name as a pointer compared by identity only (the reference is dropped at once: for Enum members, None and
 * bools, which outlive the call); NULL with an exception set. */
PyObject *identity_of(PyObject *object, PyObject *name);
/* The truth of object.name: 1, 0, or -1 with an exception set. */
int truth_of(PyObject *object, PyObject *name);

/* best_lay_down(hand, spec, extra) (best_lay_down.c). */
PyObject *best_lay_down(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* spare_builds(hand, held, spares, rules, run_min, group_min) (spare_builds.c). */
PyObject *spare_builds(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* rearrangements(moves, hand, seat, size, quick, takers, game, table, offers, kit) (rearrangements.c). */
PyObject *rearrangements(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* lay_down_exists(hand, spec) (lay_down.c). */
PyObject *lay_down_exists(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* play_actions(game, facts, kit) (play_actions.c). */
PyObject *play_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* held_actions(out, hand, seat, offers, verb, memo, make) (table_plays.c). */
PyObject *held_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* purchase_moves(out, hand, seat, purchase_cards, discard, done, rules, kit, game, held) (purchase_moves.c). */
PyObject *purchase_moves(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* observation(out, inverse, layout, hand, discard, show_all, melds, claim, head, seats, seat, counts, ring,
 * candidates, kit, hand_size) (observation.c). */
PyObject *observation(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* single_melds(hand, wilds, group_min, run_min, low, high, kit) and unmeldable_pool(pack, table, group_min, run_min,
 * ace_high) (basic_melds.c). */
PyObject *single_melds(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *unmeldable_pool(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* numbered(space, state, moves, entries, table, kit) (mask_ids.c). */
PyObject *numbered(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* history_add(counts, ring, players, unit, log, start, stop, pickups, kit) (history.c). */
PyObject *history_add(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* copy_fields(state, fields, kinds) (state_copy.c). */
PyObject *copy_fields(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* new_record(type, fields, *values) (records.c). */
PyObject *new_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* Whether `descriptor` is an object slot (a __slots__ member holding any object) of `type` or of a base: a state
 * field read or written at its offset (state_copy.c). */
bool object_slot(PyObject *descriptor, PyTypeObject *type);

/* view_record(type, fields, state, seat, actions, kit) (view_fields.c). */
PyObject *view_record(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* simple_check(state, action, kit) (simple_check.c). */
PyObject *simple_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* draw_actions(state, actions, kit) (simple_steps.c). */
PyObject *draw_actions(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* simple_apply(state, action, kit) (simple_steps.c). */
PyObject *simple_apply(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* game_apply(game, action, kit, kind, fields) (game_apply.c). */
PyObject *game_apply(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* most_cards_laid(hand, wilds, runs, groups), discards(hand, actions, taken), gather_offers(table, variant, memo,
 * work_out, kit, put), layoffs(kind, rank, suit, low, length, wilds, rules) and going_out(cards, table, rules)
 * (play_listing.c). */
PyObject *most_cards_laid(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *discards(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *gather_offers(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *layoffs(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *going_out(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* The lay-offs a meld of this shape takes (meld_offers._try_layoffs), as card kinds and ends (0 None, 1 low, 2 high)
 * into `cards` and `ends` (room for 2 * CARD_COUNT each); how many.  A run's suit is 0..3 (play_listing.c). */
int shape_layoffs(const MeldRules *rules, int kind, int rank, int suit, int low, int length, int wilds, int *cards,
                  int *ends);
/* The end `end` as the listing names it (None, "low", "high"): borrowed; NULL with an exception set (play_listing.c). */
PyObject *end_object(int end);

/* meld_offers(meld, kit), and its work for gather_offers: a meld's offers, a new reference, Py_None (a new reference)
 * for a meld or kit it does not read, NULL with an exception set (meld_offers.c). */
PyObject *meld_offers(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *work_out_meld_offers(PyObject *meld, PyObject *kit);
/* A table meld as the compiled listing reads it: its kind (0 run, 1 set, 2 pair, 3 book, meld_offers._KIND_CODES),
 * rank, suit, low, length, wild count and cards. */
enum { MOST_MELD_CARDS = 64 };
typedef struct {
    int kind, rank, suit, low, length, wilds;
    int cards[MOST_MELD_CARDS];
} OfferMeld;
/* `meld` (a TableMeld) read into `out`: false, no exception left set, when it is not a meld read here (another kind,
 * a field out of range, more than MOST_MELD_CARDS cards) (meld_offers.c). */
bool read_offer_meld(PyObject *meld, OfferMeld *out);

/* What a valid meld stands for, as melds.meld_facts gives it: a group's rank (0 for a trio of wilds), a run's suit and
 * lowest value (1..14), and the wild count. */
typedef struct {
    int rank, suit, low, wilds;
} MeldFacts;
/* melds.check_run and melds.check_group (a set, no declaration) at `min_size`, as tests: true with the facts when
 * MeldSpec("run", cards, declared) (`declared` -1 for None) or MeldSpec("set", cards) is valid, false when the Python
 * check would raise.  `wild_group_min` -1 for None.  Cards are kinds below CARD_COUNT (meld_parts.c). */
bool run_facts(const MeldRules *variant, long min_size, const int *cards, int length, int declared, MeldFacts *facts);
bool set_facts(const MeldRules *variant, long min_size, long wild_group_min, const int *cards, int length,
               MeldFacts *facts);

/* rearrangement_part(meld, rules) and rearrangement_parts(table, variant, rules, memo, what, work_out)
 * (meld_parts.c). */
PyObject *rearrangement_part(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *rearrangement_parts(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* spare_action(offers, seat, used, kind, cards, kit) (spare_action.c). */
PyObject *spare_action(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* rearranged(state, action, rules, kit) (rearranged.c). */
PyObject *rearranged(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* planner_search(counts, shape, rules, ceiling) and planner_outs(leaves, count, deficit, wilds, rules) (planner.c). */
PyObject *planner_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *planner_outs(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
