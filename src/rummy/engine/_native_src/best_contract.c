/*
 * The best lay-down (best.h): the rules for what a lay-down may leave in hand (contract._solve, _solve_not_one):
 * with must_use_all nothing; with no final discard allowed not exactly one card (zero, or two and more).  Each
 * search here is LayDownSearch.run (best_lay_down.c's search_hand) under the same require_all and forbid_one as
 * the Python one, on the same hand, in the same order, so the lay-down kept is the Python search's.
 */
#include "best.h"

#include <string.h>

/* bests[k] (made when NULL) zeroed, with the rules read again: a search afresh; false with an exception set. */
static bool fresh(Best **bests, int k, PyObject *spec, PyObject *extra)
{
    if (bests[k] == NULL) {
        bests[k] = PyMem_Malloc(sizeof(Best));
        if (bests[k] == NULL) {
            PyErr_NoMemory();
            return false;
        }
    }
    memset(bests[k], 0, sizeof(Best));
    return read_rules(bests[k], spec, extra);
}

/* contract._solve_not_one: the best lay-down leaving 0 or at least 2 cards, when the best one overall (bests[0])
 * leaves exactly 1: a search refusing completions that leave exactly one card (bests[1]), then the pairs of cards
 * in order of their points, each left out of a must-use-all search (bests[2]) while it could still do better.
 * Returns the index of the search holding the answer, -1 for none, -2 with an exception set. */
static int solve_not_one(Best **bests, const int *hand, PyObject *spec, PyObject *extra)
{
    int dead[CARD_COUNT] = {0}, n_dead = 0; /* first.dead_cards, per card */
    for (int card = 0; card < NATURALS; card++)
        if (!bests[0]->wild[card]) {
            dead[card] = hand[card] - bests[0]->hand[card];
            n_dead += dead[card];
        }
    if (!fresh(bests, 1, spec, extra))
        return -2;
    bests[1]->forbid_one = true;
    int found = search_hand(bests[1], hand) ? 1 : -1;
    int best_pts = UNLIMITED, best_cnt = UNLIMITED; /* best_key */
    if (found == 1) {
        best_pts = bests[1]->best_pts;
        best_cnt = bests[1]->best_cnt;
    }
    if (n_dead > 2)
        return found;
    /* The pairs (x, y), x <= y, of cards the hand holds (two copies when x == y) holding every dead card, by
     * (points of both, x, y); at most 53 * 54 / 2 of them. */
    int pairs[CARD_COUNT * (CARD_COUNT + 1) / 2][2], n_pairs = 0;
    for (int x = 0; x < CARD_COUNT; x++) {
        if (!hand[x])
            continue;
        for (int y = x; y < CARD_COUNT; y++) {
            if (!hand[y] || (x == y && hand[x] < 2))
                continue;
            /* not dead - Counter((x, y)): the dead cards are among x and y */
            int rest = n_dead - (dead[x] > 0) - (y != x ? dead[y] > 0 : dead[x] > 1);
            if (rest > 0)
                continue;
            pairs[n_pairs][0] = x;
            pairs[n_pairs][1] = y;
            n_pairs++;
        }
    }
    const int *points = bests[0]->points;
    for (int k = 1; k < n_pairs; k++) /* (insertion sort, stable: made in (x, y) order) */
        for (int m = k; m > 0; m--) {
            int *a = pairs[m - 1], *b = pairs[m];
            if (points[b[0]] + points[b[1]] >= points[a[0]] + points[a[1]])
                break;
            int t0 = a[0], t1 = a[1];
            a[0] = b[0];
            a[1] = b[1];
            b[0] = t0;
            b[1] = t1;
        }
    int left[CARD_COUNT];
    memcpy(left, hand, sizeof left);
    for (int k = 0; k < n_pairs; k++) {
        int x = pairs[k][0], y = pairs[k][1], pts = points[x] + points[y];
        if (pts > best_pts || (pts == best_pts && 2 >= best_cnt))
            break;
        left[x]--;
        left[y]--;
        if (!fresh(bests, 2, spec, extra))
            return -2;
        bests[2]->require_all = true;
        bool rest = search_hand(bests[2], left);
        left[x]++;
        left[y]++;
        if (rest)
            return 2;
    }
    return found;
}

/* contract._solve (its best lay-down, first_only false): the search of bests[0] (its rules read) on `hand` under
 * the flags, and the second pass when a lay-down leaving exactly one card is not allowed.  Returns the index of
 * the search holding the answer, -1 for none, -2 with an exception set. */
int solve_contract(Best **bests, const int *hand, bool final_discard_allowed, bool must_use_all, PyObject *spec,
                   PyObject *extra)
{
    int total = 0;
    for (int card = 0; card < CARD_COUNT; card++)
        total += hand[card];
    if (total < bests[0]->need)
        return -1;
    bool require_all = must_use_all || (!final_discard_allowed && total - 2 < bests[0]->need);
    bests[0]->require_all = require_all;
    if (!search_hand(bests[0], hand))
        return -1;
    if (require_all || final_discard_allowed || bests[0]->best_cnt != 1)
        return 0;
    return solve_not_one(bests, hand, spec, extra);
}
