/*
 * The spare-card search (rummy.engine.deadlock.SpareBuilds.each) shared by its two entry points: spare_builds.c
 * (spare_builds: each build as what SpareBuilds' `make` is given) and rearrangements.c (rearrangements: the rows
 * moves._rearrangements lists).  The search itself is in spare_search.c.
 */
#ifndef RUMMY_NATIVE_SPARE_H
#define RUMMY_NATIVE_SPARE_H

#include "core.h"

#include <stdbool.h>

/* One build found, as SpareBuilds hands it to `make` (and the key it memoises it by). */
typedef struct {
    bool run;                    /* a run, else a set */
    int rank;                    /* a set: its rank (key: rank, own) */
    const int *own;              /* a set: the hand's naturals in it */
    int n_own;
    int suit, low, window;       /* a run: its key */
    const int *used;             /* the spares taken (indices into the search's spares, table order) */
    int n_used;
    const int *cards;            /* the new meld's cards */
    int n_cards;
    int from_hand, wild_count;   /* cards from the hand; cards wild where they stand */
} Build;

/* What receives each build, in the search's order: 0, or -1 with an exception set (the search stops). */
typedef int (*BuildSink)(void *context, const Build *build);

/* One search: the variant's rules and the table's spares. */
typedef struct {
    MeldRules rules;           /* the variant's (core.h) */
    int run_min, group_min;
    Py_ssize_t n;              /* spares */
    int *card, *meld;          /* per spare, table order: its card and the index of its meld */
    int *used;                 /* the spares a build takes (at most n) */
    bool *taken;               /* per meld index: a spare of it is in `used` */
    int n_melds;
    BuildSink sink;
    void *context;
} Search;

#define MAX_MINIMUM 1000 /* larger run or group minimums go to the Python search */

/* Fill the rules of `search` from the variant's rules (meld_rules.compiled_meld_rules, core.h's MeldRules) and the
 * minimums: 1, or 0 when they are out of range (the Python search answers then). */
int spare_rules(Search *search, PyObject *rules, long run_min, long group_min);

/* Allocate search->card, meld, used (n entries) and taken (n_melds entries, cleared); 0, or -1 with MemoryError
 * set.  spare_free releases them (also after a failed allocation). */
int spare_alloc(Search *search, Py_ssize_t n, int n_melds);
void spare_free(Search *search);

/* SpareBuilds.each: every build for `hand` (53 counts; its card kinds in reading order `held`) to the sink.  0, or
 * -1 with an exception set. */
int spare_each(Search *search, const int *hand, const int *held, Py_ssize_t n_held);

#endif
