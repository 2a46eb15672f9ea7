/*
 * The best lay-down of a contract, compiled: rummy.engine.solver.contract.find_lay_down's answer, the same melds,
 * cards and order, for every rule mix the label search fills the groups of (ContractPlan.label_ok) except exact
 * contract sizes, with a final discard allowed or not and cards that must all be used or not (best_contract.c).
 * The dispatch, rummy.engine.solver.native.best_lay_down, sends only those here (and never twos_natural_in_place).
 *
 *   best_lay_down(hand, spec, extra, final_discard_allowed, must_use_all)
 *           -> tuple[(kind, cards, declared), ...] | False | None
 *       The melds in contract order; False when there is no lay-down; None when this search does not answer for
 *       this hand (a malformed hand, or more than MAX_CARDS cards: the Python search answers).
 *
 * The Python search (solver/search.py) returns the *first* best lay-down of its canonical order; this one walks
 * the same order (the same run slots, suits, low values, lengths; in the greedy mode runs taking the pool's
 * naturals greedily, in the full mode every choice of them; runs of 13 cards; the same group labelling and the
 * same building of the melds, solver/assemble.py) and keeps a lay-down only when it is strictly better, so it
 * finds the same one.  The Python search's bounds, its frontier of passed-over naturals and its seed only skip
 * what cannot be strictly better; this search keeps only its simplest bound (rest_bound), walks more lay-downs,
 * faster, and its answer is the same.
 * Each function names the Python function it follows.
 */
#include "best.h"

#include <string.h>

/* The layout of `spec` (solver.native.contract_spec): as lay_down.c reads it. */
enum {
    SPEC_LO, SPEC_HI, SPEC_POLICY, SPEC_ALL_WILD, SPEC_TRIO_MIN, SPEC_SAME_RANK, SPEC_ADJACENT, SPEC_EXACT,
    SPEC_NEED, SPEC_RUNS, SPEC_GROUPS, SPEC_HEADER
};

/* Read spec and extra (run_index, group_index, points per card) into `best` (zeroed); false with an exception set
 * when malformed. */
bool read_rules(Best *best, PyObject *spec_object, PyObject *extra_object)
{
    if (!PyBytes_Check(spec_object) || !PyBytes_Check(extra_object)) {
        PyErr_SetString(PyExc_TypeError, "best_lay_down(hand, spec: bytes, extra: bytes)");
        return false;
    }
    const unsigned char *spec = (const unsigned char *)PyBytes_AS_STRING(spec_object);
    Py_ssize_t length = PyBytes_GET_SIZE(spec_object);
    if (length < SPEC_HEADER) {
        PyErr_SetString(PyExc_ValueError, "contract spec too short");
        return false;
    }
    best->lo = spec[SPEC_LO];
    best->hi = spec[SPEC_HI];
    best->policy = spec[SPEC_POLICY];
    best->all_wild = spec[SPEC_ALL_WILD];
    best->trio_min = spec[SPEC_TRIO_MIN];
    best->same_rank = spec[SPEC_SAME_RANK];
    best->adjacent = spec[SPEC_ADJACENT];
    best->need = spec[SPEC_NEED];
    best->n_runs = spec[SPEC_RUNS];
    best->n_groups = spec[SPEC_GROUPS];
    int slots = best->n_runs + best->n_groups;
    bool refusing = false; /* (a group slot refusing wilds) */
    if (best->n_runs > MAX_SLOTS || best->n_groups > MAX_SLOTS || best->lo < 1 || best->hi > 14
        || best->policy > POLICY_ONE || spec[SPEC_EXACT]
        || length != SPEC_HEADER + best->n_runs + 3 * best->n_groups + CARD_COUNT
        || PyBytes_GET_SIZE(extra_object) != slots + CARD_COUNT) {
        PyErr_SetString(PyExc_ValueError, "malformed contract spec (or exact sizes)");
        return false;
    }
    const unsigned char *at = spec + SPEC_HEADER;
    for (int i = 0; i < best->n_runs; i++) {
        best->run_min[i] = *at++;
        best->run_same[i] = i > 0 && best->run_min[i] == best->run_min[i - 1];
    }
    for (int j = 0; j < best->n_groups; j++) {
        best->group[j] = (GroupSlot){at[0], at[1], at[2]};
        at += 3;
        best->group_same[j] = j > 0 && best->group[j].min_size == best->group[j - 1].min_size
                              && best->group[j].accepts_wilds == best->group[j - 1].accepts_wilds
                              && best->group[j].is_pair == best->group[j - 1].is_pair;
        refusing = refusing || !best->group[j].accepts_wilds;
    }
    if (best->policy == POLICY_RATIO && best->same_rank && refusing) {
        PyErr_SetString(PyExc_ValueError, "not covered: ContractPlan.label_ok is false");
        return false;
    }
    best->greedy = best->policy == POLICY_NONE && best->all_wild && !refusing && (best->n_groups || best->adjacent);
    int last = best->n_groups - 1; /* tables._last_block_start */
    while (last > 0 && best->group_same[last])
        last--;
    best->group_last_block = last > 0 ? last : 0;
    for (int card = 0; card < CARD_COUNT; card++)
        best->wild[card] = at[card];
    const unsigned char *extra = (const unsigned char *)PyBytes_AS_STRING(extra_object);
    for (int i = 0; i < best->n_runs; i++)
        best->run_index[i] = *extra++;
    for (int j = 0; j < best->n_groups; j++)
        best->group_index[j] = *extra++;
    for (int card = 0; card < CARD_COUNT; card++)
        best->points[card] = extra[card];
    for (int rank = 1; rank <= 13; rank++)
        best->rank_points[rank] = best->points[rank - 1];
    return true;
}

/* LayDownSearch.__init__ and _prepare: the wilds, the dead naturals, the totals; false when the contract cannot
 * be laid down (too few cards, or more dead cards than the slack). */
static bool prepare(Best *best, const int *hand)
{
    int nat[NATURALS];
    best->n_wilds = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        if (best->wild[card])
            for (int k = 0; k < hand[card]; k++)
                best->wilds[best->n_wilds++] = card;
        if (card < NATURALS)
            nat[card] = best->wild[card] ? 0 : hand[card];
    }
    for (int k = 1; k < best->n_wilds; k++) /* most points first, then card order */
        for (int m = k; m > 0 && best->points[best->wilds[m]] > best->points[best->wilds[m - 1]]; m--) {
            int t = best->wilds[m];
            best->wilds[m] = best->wilds[m - 1];
            best->wilds[m - 1] = t;
        }
    best->top_wild_pts[0] = 0;
    for (int k = 0; k < best->n_wilds; k++)
        best->top_wild_pts[k + 1] = best->top_wild_pts[k] + best->points[best->wilds[k]];
    best->wild_total = best->top_wild_pts[best->n_wilds];
    best->total = best->n_wilds;
    for (int card = 0; card < NATURALS; card++)
        best->total += nat[card];
    if (best->total < best->need)
        return false;
    memset(best->rank_cnt, 0, sizeof best->rank_cnt);
    for (int card = 0; card < NATURALS; card++)
        best->rank_cnt[rank_of(card)] += nat[card];
    int need = best->n_groups ? group_need(best, best->n_wilds) : UNLIMITED;
    bool groupable_rank[14];
    for (int rank = 0; rank <= 13; rank++)
        groupable_rank[rank] = best->rank_cnt[rank] >= need;
    remove_dead_naturals(best, nat, groupable_rank);
    if (best->dead_cnt) {
        memset(best->rank_cnt, 0, sizeof best->rank_cnt);
        for (int card = 0; card < NATURALS; card++)
            best->rank_cnt[rank_of(card)] += nat[card];
    }
    best->budget = best->total - best->need - best->dead_cnt;
    if (best->budget < 0 || (best->require_all && best->dead_cnt))
        return false;
    if (best->require_all)
        best->budget = 0;
    memcpy(best->hand, nat, sizeof nat);
    memcpy(best->pool, nat, sizeof nat);
    memset(best->ends, 0, sizeof best->ends);
    for (int card = 0; card < NATURALS; card++) {
        best->groupable[card] = groupable_rank[rank_of(card)];
        best->live_pts += nat[card] * best->points[card];
        best->live_cnt += nat[card];
    }
    for (int rank = 1; rank <= 13; rank++)
        if (groupable_rank[rank]) {
            best->live_groupable_pts += best->rank_points[rank] * best->rank_cnt[rank];
            best->live_groupable_cnt += best->rank_cnt[rank];
        }
    best->defer_wild_runs = best->all_wild && best->adjacent;
    return true;
}

/* A meld as (kind, cards, declared) for rummy.engine.melds.MeldSpec. */
static PyObject *meld_tuple(const Meld *meld)
{
    PyObject *cards = PyTuple_New(meld->n_cards);
    if (cards == NULL)
        return NULL;
    for (int k = 0; k < meld->n_cards; k++) {
        PyObject *card = PyLong_FromLong(meld->cards[k]);
        if (card == NULL) {
            Py_DECREF(cards);
            return NULL;
        }
        PyTuple_SET_ITEM(cards, k, card);
    }
    if (meld->declared < 0)
        return Py_BuildValue("(sNO)", meld->kind, cards, Py_None);
    return Py_BuildValue("(sNi)", meld->kind, cards, meld->declared);
}

/* The melds of the best lay-down (`best`, searched) as a tuple of (kind, cards, declared); NULL with an exception
 * set when memory runs out. */
static PyObject *lay_down_tuple(const Best *best)
{
    int n_melds = best->n_runs + best->n_groups;
    Meld *melds = PyMem_Calloc((size_t)n_melds, sizeof *melds);
    if (melds == NULL)
        return PyErr_NoMemory();
    build_lay_down(best, melds);
    PyObject *result = PyTuple_New(n_melds);
    for (int k = 0; result != NULL && k < n_melds; k++) {
        PyObject *meld = meld_tuple(&melds[k]);
        if (meld == NULL)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, k, meld);
    }
    PyMem_Free(melds);
    return result;
}

/* LayDownSearch.run for `best` (its rules read, the rest zero, require_all and forbid_one set) on `hand`: whether
 * some lay-down was found (then best_* describe the best one). */
bool search_hand(Best *best, const int *hand)
{
    if (!prepare(best, hand))
        return false;
    best->best_pts = best->best_cnt = UNLIMITED;
    fill_runs(best, 0, 0, 0, 0, 0, best->n_wilds, 0, 0, 0, 0);
    if (best->greedy && !best->n_groups && best->total >= 13 * best->n_runs && !best->done)
        offer_full_runs(best); /* (LayDownSearch._search) */
    return best->best_pts < UNLIMITED;
}

/* best_lay_down(hand, spec, extra, final_discard_allowed, must_use_all): see the top of this file.  (Its state is
 * its own, on the heap: a finaliser run by an allocation may call it again.) */
PyObject *best_lay_down(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "best_lay_down(hand, spec: bytes, extra: bytes, final_discard_allowed, must_use_all)");
        return NULL;
    }
    int final_discard_allowed = PyObject_IsTrue(args[3]), must_use_all = PyObject_IsTrue(args[4]);
    if (final_discard_allowed < 0 || must_use_all < 0)
        return NULL;
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    /* The searches: the first, and those of the "no final discard" passes (best_contract.c), made when needed. */
    Best *bests[3] = {PyMem_Calloc(1, sizeof(Best)), NULL, NULL};
    if (bests[0] == NULL)
        return PyErr_NoMemory();
    PyObject *result = NULL;
    int total = 0;
    for (int card = 0; read == 1 && card < CARD_COUNT; card++)
        total += hand[card];
    if (!read_rules(bests[0], args[1], args[2])) {
        result = NULL;
    } else if (read == 0 || total > MAX_CARDS) {
        result = Py_NewRef(Py_None);
    } else {
        int found = solve_contract(bests, hand, final_discard_allowed, must_use_all, args[1], args[2]);
        if (found == -2)
            result = NULL; /* (an exception set) */
        else
            result = found < 0 ? Py_NewRef(Py_False) : lay_down_tuple(bests[found]);
    }
    for (int k = 0; k < 3; k++)
        PyMem_Free(bests[k]);
    return result;
}
