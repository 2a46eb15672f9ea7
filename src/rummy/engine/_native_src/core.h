/*
 * What the compiled core's source files share (rummy.engine._native):
 *   lay_down.c          the module (its method table) and whether a contract can be laid down;
 *   best_*.c, best.h    the best lay-down;
 *   spare_search.c      the spare-card rearrangements on offer, with its entry points spare_builds.c and
 *                       rearrangements.c (spare.h);
 *   table_plays.c       the lay-offs and wild swaps a hand may make;
 *   purchase_moves.c    the purchase variant's books, purchases, trades and exchanges;
 *   basic_melds.c       the new melds of free melding;
 *   simple_check.c      the judgement of the simple actions (claims, draw, take, discard);
 *   state_copy.c        the copy of a game state's fields;
 *   observation.c, history.c, mask_ids.c   the environment's observation, its history and its action ids;
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

/* best_lay_down(hand, spec, extra) (best_lay_down.c). */
PyObject *best_lay_down(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* spare_builds(hand, held, spares, rules, run_min, group_min) (spare_builds.c). */
PyObject *spare_builds(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* rearrangements(moves, hand, seat, size, quick, takers, game, table, offers, kit) (rearrangements.c). */
PyObject *rearrangements(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

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

/* simple_check(state, action, kit) (simple_check.c). */
PyObject *simple_check(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
