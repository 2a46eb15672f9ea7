/*
 * The heuristic bot's contract planner, compiled (rummy.bots.planning, rummy.bots.partial_melds): the search of a
 * hand's best plans, its partial melds, and the outs of the plans it keeps.  The Python code is the reference and
 * the fallback; each function names the Python one it follows.
 *
 * planner_search(counts, shape, rules, ceiling) -> (lowest, leaves: bytes, wilds) | None
 *
 *   ContractPlanner._search: the wild cards are counted and set aside, every contract slot is given its partial
 *   melds (PartialMelds.for_slot: _groups_of and _rank_groups for a group, _runs and _suit_runs for a run, in the
 *   same order, the all-wild candidate last), the groups after the runs are made afresh from the cards the runs
 *   left (groups_left), and the same depth-first search runs over them with the same bounds, the same leaf budget
 *   (_LEAF_LIMIT) and the same best leaves kept (_KEEP_LEAVES): the same lowest deficit and the same leaves in the
 *   same order.  The leaves come back packed (a Leaf header and `count` Cand records each) for planner_outs;
 *   empty when there is none.
 *
 *     counts   53 counts (a list or tuple);
 *     shape    bytes: the slot count, the first group slot, then per slot: 1 for a group, its size, the index of
 *              its distinct slot, 1 when it equals the slot before it (planning._Shape);
 *     rules    bytes: the variant's meld rules as meld_rules.compiled_meld_rules packs them (core.h's MeldRules), then
 *              wild trios and their largest size (min(wild_group_min or 3, 255)) (planning._native_rules);
 *     ceiling  None or an int (with_card_within's bound).
 *
 *   None, and the Python search answers, for a malformed argument, a count above 31, a slot of size 0 or above 14
 *   or more than 16 slots.
 *
 * planner_outs(leaves, count, deficit, wilds, rules) -> (outs: frozenset, leaves: tuple)
 *
 *   planning._outs_and_leaves on the packed leaves planner_search returned for `count` slots: each leaf's cards
 *   used (the candidates' naturals in slot order) with its outs, and the union of the outs.  A ValueError for leaves
 *   that are not such a packing.
 */
#include "core.h"

#include <stdint.h>
#include <string.h>

#define TOP_CANDIDATES 6 /* planning._TOP_CANDIDATES */
#define LEAF_LIMIT 400   /* planning._LEAF_LIMIT */
#define KEEP_LEAVES 48   /* planning._KEEP_LEAVES */
#define MOST_COPIES 31
#define LONGEST_SLOT 14
#define MOST_CANDS 64 /* runs: 4 suits of at most 14 windows, and the all-wild one; groups: 2 a rank, and it */

enum { GROUP_CAND, RUN_CAND, WILD_CAND };

/* A partial meld (partial_melds.Cand): what the search and the outs read of it. */
typedef struct {
    int64_t order; /* partial_melds._order */
    uint8_t missing, cap, size, kind, major, minor;
    uint8_t used[4];  /* a group: the copies it uses of its rank, by suit */
    uint16_t present; /* a run: the ranks it uses (bit r) */
    uint16_t needs;   /* a run: the ranks that fill a gap of one of its windows (its natural outs) */
} Cand;

typedef struct {
    int16_t missing, cap;
} Leaf;

typedef struct {
    Cand cands[MOST_CANDS];
    int n;
} List;

/* The rules as planning._native_rules packs them: the variant's MeldRules (core.h), then the planner's own. */
typedef struct {
    MeldRules meld;
    int ratio, one_wild, trio, trio_min; /* ratio, one_wild: the wild policy's (PartialMelds) */
    uint8_t natural[13];                 /* PartialMelds.natural_set: the ranks whose first-suit card is no wild */
} Rules;

typedef struct {
    const Rules *rules;
    int count, first_group, wilds, best, budget, stop_at_first;
    int is_group[MAX_SLOTS], sizes[MAX_SLOTS], kind_of[MAX_SLOTS], same[MAX_SLOTS], rest[MAX_SLOTS + 1];
    List built[MAX_SLOTS], fresh[MAX_SLOTS];
    const List *options[MAX_SLOTS];
    const Cand *chosen[MAX_SLOTS];
    uint8_t left[MAX_SLOTS + 1][CARD_COUNT];
    int leaf_count;
    unsigned char *leaves; /* KEEP_LEAVES records of record_size(count) */
} Search;

/* PartialMelds.cap: how many of a partial meld's missing cards wild cards may supply. */
static int cap_of(const Rules *rules, int size, int missing)
{
    if (rules->one_wild)
        return missing < 1 ? missing : 1;
    if (rules->ratio && missing > size / 2)
        return size / 2;
    return missing;
}

/* partial_melds._order. */
static int64_t order_of(int missing, int naturals, int major, int minor)
{
    return ((int64_t)missing << 24) | ((int64_t)(255 - naturals) << 16) | ((int64_t)major << 8) | minor;
}

static int by_order(const void *a, const void *b)
{
    int64_t x = ((const Cand *)a)->order, y = ((const Cand *)b)->order;
    return (x > y) - (x < y);
}

/* PartialMelds._groups_of (and _rank_groups): the partial groups of `size` from the naturals `hand`, fewest missing
 * first, the all-wild one last.  (The keys are distinct, so any sort gives Python's order.) */
static void groups_of(const Rules *rules, int size, const uint8_t *hand, List *list)
{
    int n = 0;
    for (int rank = 0; rank < 13; rank++) {
        if (!rules->natural[rank])
            continue;
        int copies[4] = {hand[rank], hand[13 + rank], hand[26 + rank], hand[39 + rank]};
        int held = copies[0] + copies[1] + copies[2] + copies[3];
        if (!held)
            continue;
        int missing = held < size ? size - held : 0;
        list->cands[n++] = (Cand){order_of(missing, held, rank, 0), (uint8_t)missing,
                                  (uint8_t)cap_of(rules, size, missing), (uint8_t)size, GROUP_CAND, (uint8_t)rank, 0,
                                  {(uint8_t)copies[0], (uint8_t)copies[1], (uint8_t)copies[2], (uint8_t)copies[3]},
                                  0, 0};
        if (held >= 2 * size) { /* room for a second group of the same rank: the first `size` of its cards */
            Cand *second = &list->cands[n++];
            *second = (Cand){order_of(0, size, rank, 1), 0, 0, (uint8_t)size, GROUP_CAND, (uint8_t)rank, 1,
                             {0, 0, 0, 0}, 0, 0};
            int want = size;
            for (int suit = 0; suit < 4; suit++) {
                int taken = copies[suit] < want ? copies[suit] : want;
                second->used[suit] = (uint8_t)taken;
                want -= taken;
            }
        }
    }
    qsort(list->cands, (size_t)n, sizeof(Cand), by_order);
    int trio = rules->trio && size <= rules->trio_min;
    int all_wild = (rules->meld.all_wild_melds || trio) && !rules->one_wild;
    list->cands[n] = (Cand){order_of(size, 0, 99, 0), (uint8_t)size,
                            (uint8_t)(all_wild ? size : cap_of(rules, size, size)), (uint8_t)size, WILD_CAND, 99, 0,
                            {0, 0, 0, 0}, 0, 0};
    list->n = n + 1;
}

/* partial_melds._bits_to_cards, as ranks: the ranks of run values (bit v for value v, the ace 1 and 14). */
static uint16_t ranks_of_values(int values)
{
    uint16_t ranks = 0;
    for (int value = 1; value <= 14; value++)
        if (values >> value & 1)
            ranks |= (uint16_t)(1u << (value == 14 ? 0 : value - 1));
    return ranks;
}

static int bit_count(unsigned bits)
{
    int count = 0;
    for (; bits; bits &= bits - 1)
        count++;
    return count;
}

/* PartialMelds._runs (and _suit_candidates, _suit_runs): the partial runs of `size` from the suited naturals, fewest
 * missing first, the all-wild one last.  A window holding the same values as an earlier one of its suit adds its gap
 * to that one's outs. */
static void runs_of(const Rules *rules, int size, const uint8_t *hand, List *list)
{
    int n = 0;
    int full = (1 << size) - 1;
    int values[MOST_CANDS]; /* each candidate's values held (bits), as _suit_runs' `seen` keys them */
    for (int suit = 0; suit < 4; suit++) {
        int mask = 0;
        for (int rank = 0; rank < 13; rank++)
            if (hand[suit * 13 + rank])
                mask |= 2 << rank;
        if (!mask)
            continue;
        if ((mask & 2) && rules->meld.high_bound == 14)
            mask |= 1 << 14;
        if (rules->meld.low_bound == 2)
            mask &= ~2;
        int first = n;
        for (int start = rules->meld.low_bound; start < rules->meld.high_bound - size + 2; start++) {
            int window = full << start, present = mask & window;
            if (!present)
                continue;
            uint16_t needs = ranks_of_values(window & ~mask);
            int seen = -1;
            for (int i = first; i < n && seen < 0; i++)
                if (values[i] == present)
                    seen = i;
            if (seen >= 0) {
                list->cands[seen].needs |= needs;
                continue;
            }
            uint16_t used = ranks_of_values(present);
            int held = bit_count(used), missing = size - held;
            values[n] = present;
            list->cands[n++] = (Cand){order_of(missing, held, suit, start), (uint8_t)missing,
                                      (uint8_t)cap_of(rules, size, missing), (uint8_t)size, RUN_CAND, (uint8_t)suit,
                                      (uint8_t)start, {0, 0, 0, 0}, used, needs};
        }
    }
    qsort(list->cands, (size_t)n, sizeof(Cand), by_order);
    int empty_cap = rules->meld.all_wild_melds && !rules->one_wild ? size : 0;
    list->cands[n] = (Cand){order_of(size, 0, 99, 0), (uint8_t)size, (uint8_t)empty_cap, (uint8_t)size, WILD_CAND, 99,
                            0, {0, 0, 0, 0}, 0, 0};
    list->n = n + 1;
}

/* Whether the naturals `left` hold the candidate's (the search's guarded subtraction keeping every guard bit). */
static bool fits(const Cand *cand, const uint8_t *left)
{
    if (cand->kind == GROUP_CAND) {
        for (int suit = 0; suit < 4; suit++)
            if (left[suit * 13 + cand->major] < cand->used[suit])
                return false;
    } else if (cand->kind == RUN_CAND) {
        const uint8_t *suited = left + 13 * cand->major;
        for (int rank = 0; rank < 13; rank++)
            if ((cand->present >> rank & 1) && !suited[rank])
                return false;
    }
    return true;
}

/* The naturals `left` less the candidate's, into `after` (it fits). */
static void take(const Cand *cand, const uint8_t *left, uint8_t *after)
{
    memcpy(after, left, CARD_COUNT);
    if (cand->kind == GROUP_CAND) {
        for (int suit = 0; suit < 4; suit++)
            after[suit * 13 + cand->major] -= cand->used[suit];
    } else if (cand->kind == RUN_CAND) {
        for (int rank = 0; rank < 13; rank++)
            if (cand->present >> rank & 1)
                after[13 * cand->major + rank]--;
    }
}

static size_t record_size(int count) { return sizeof(Leaf) + (size_t)count * sizeof(Cand); }

/* ContractPlanner._search's inner `search`: the candidates of slot `index` given the naturals s->left[index] the
 * slots before it left, with the same bounds, budget and order. */
static void search(Search *s, int index, int missing, int cap, int first)
{
    const List *cands = s->options[index];
    int last = cands->n - 1; /* the all-wild (or empty) candidate, always tried */
    int low = s->same[index] ? first : 0;
    int stop = low + TOP_CANDIDATES;
    if (stop > last)
        stop = last;
    int slack = s->wilds - s->rest[index + 1] - missing;
    int position = low < stop ? low : last;
    const uint8_t *left = s->left[index];
    int child = index + 1;
    if (child == s->count) {
        for (;;) {
            const Cand *cand = &cands->cands[position];
            if (cand->missing > s->best + slack || s->budget <= 0)
                break;
            if (fits(cand, left)) {
                s->budget--;
                int total = cap + cand->cap;
                int deficit = missing + cand->missing - (s->wilds < total ? s->wilds : total);
                if (deficit < s->best) {
                    s->best = deficit;
                    s->leaf_count = 0;
                }
                if (deficit == s->best && s->leaf_count < KEEP_LEAVES) {
                    unsigned char *record = s->leaves + (size_t)s->leaf_count++ * record_size(s->count);
                    Leaf leaf = {(int16_t)(missing + cand->missing), (int16_t)total};
                    memcpy(record, &leaf, sizeof leaf);
                    record += sizeof leaf;
                    for (int i = 0; i < index; i++)
                        memcpy(record + (size_t)i * sizeof(Cand), s->chosen[i], sizeof(Cand));
                    memcpy(record + (size_t)index * sizeof(Cand), cand, sizeof(Cand));
                    if (s->stop_at_first)
                        s->budget = 0; /* every loop stops */
                }
            }
            if (position == last)
                break;
            position++;
            if (position == stop)
                position = last;
        }
        return;
    }
    bool fresh_groups = child == s->first_group;
    bool child_same = s->same[child];
    int child_slack = s->wilds - s->rest[child + 1] - missing;
    for (;;) {
        const Cand *cand = &cands->cands[position];
        if (cand->missing > s->best + slack || s->budget <= 0)
            break;
        if (fits(cand, left)) {
            take(cand, left, s->left[child]);
            if (fresh_groups) {
                /* Groups take what the runs left: fresh candidates from the cards left now. */
                bool done[MAX_SLOTS] = {false};
                for (int j = child; j < s->count; j++) {
                    int kind = s->kind_of[j];
                    if (!done[kind]) {
                        groups_of(s->rules, s->sizes[j], s->left[child], &s->fresh[kind]);
                        done[kind] = true;
                    }
                    s->options[j] = &s->fresh[kind];
                }
            }
            if (s->options[child]->cands[child_same ? position : 0].missing > s->best + child_slack - cand->missing) {
                if (!fresh_groups)
                    break;
            } else {
                s->chosen[index] = cand;
                search(s, child, missing + cand->missing, cap + cand->cap, position);
            }
        }
        if (position == last)
            break;
        position++;
        if (position == stop)
            position = last;
    }
}

static bool read_rules(PyObject *object, Rules *rules)
{
    if (!PyBytes_Check(object) || PyBytes_GET_SIZE(object) != RULE_BYTES + 2)
        return false;
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(object);
    if (!unpack_meld_rules(bytes, &rules->meld))
        return false;
    rules->ratio = rules->meld.policy == POLICY_RATIO;
    rules->one_wild = rules->meld.policy == POLICY_ONE;
    rules->trio = bytes[RULE_BYTES];
    rules->trio_min = bytes[RULE_BYTES + 1];
    for (int rank = 0; rank < 13; rank++)
        rules->natural[rank] = !rules->meld.wild[rank];
    return (rules->meld.low_bound == 1 || rules->meld.low_bound == 2)
           && (rules->meld.high_bound == 13 || rules->meld.high_bound == 14);
}

PyObject *planner_search(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "planner_search(counts, shape: bytes, rules: bytes, ceiling: int | None)");
        return NULL;
    }
    int hand[CARD_COUNT];
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    Rules rules;
    long ceiling = 0;
    int bounded = long_or_none(args[3], &ceiling);
    if (read == 0 || !read_rules(args[2], &rules) || !PyBytes_Check(args[1]) || bounded < 0
        || ceiling < -UNLIMITED || ceiling > UNLIMITED)
        Py_RETURN_NONE;
    Py_ssize_t length = PyBytes_GET_SIZE(args[1]);
    const unsigned char *shape = (const unsigned char *)PyBytes_AS_STRING(args[1]);
    if (length < 2 || shape[0] > MAX_SLOTS || length != 2 + 4 * (Py_ssize_t)shape[0] || shape[1] > shape[0])
        Py_RETURN_NONE;
    for (int card = 0; card < CARD_COUNT; card++)
        if (hand[card] > MOST_COPIES)
            Py_RETURN_NONE;
    int count = shape[0], first_group = shape[1];
    for (int i = 0; i < count; i++) {
        const unsigned char *slot = shape + 2 + 4 * i;
        if (slot[1] < 1 || slot[1] > LONGEST_SLOT || slot[2] > i || (i == 0 && slot[3])
            || (slot[0] != 0) != (i >= first_group)
            || (slot[3] && (shape[2 + 4 * (i - 1) + 1] != slot[1] || shape[2 + 4 * (i - 1) + 2] != slot[2])))
            Py_RETURN_NONE;
        for (int j = 0; j < i; j++) /* a distinct slot is one size and kind */
            if (shape[2 + 4 * j + 2] == slot[2] && (shape[2 + 4 * j] != slot[0] || shape[2 + 4 * j + 1] != slot[1]))
                Py_RETURN_NONE;
    }
    /* Not zeroed (about 50 kB: a quarter to a third of a search's time when it was): every field is set before it is
     * read, the candidate lists by their builders, the slots' fields here, left[0] card by card, left[i + 1] by take. */
    Search *s = PyMem_Malloc(sizeof(Search));
    if (s == NULL)
        return PyErr_NoMemory();
    s->leaves = PyMem_Malloc(KEEP_LEAVES * record_size(count));
    if (s->leaves == NULL) {
        PyMem_Free(s);
        return PyErr_NoMemory();
    }
    s->rules = &rules;
    s->count = count;
    s->first_group = first_group;
    s->leaf_count = 0;
    s->rest[count] = 0;
    for (int i = 0; i < count; i++) {
        const unsigned char *slot = shape + 2 + 4 * i;
        s->is_group[i] = slot[0] != 0;
        s->sizes[i] = slot[1];
        s->kind_of[i] = slot[2];
        s->same[i] = slot[3] != 0;
    }
    int wilds = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        bool wild = rules.meld.wild[card];
        wilds += wild ? hand[card] : 0;
        s->left[0][card] = wild ? 0 : (uint8_t)hand[card];
    }
    s->wilds = wilds;
    bool built[MAX_SLOTS] = {false};
    for (int i = 0; i < count; i++) {
        int kind = s->kind_of[i];
        if (!built[kind]) {
            if (s->is_group[i])
                groups_of(&rules, s->sizes[i], s->left[0], &s->built[kind]);
            else
                runs_of(&rules, s->sizes[i], s->left[0], &s->built[kind]);
            built[kind] = true;
        }
        s->options[i] = &s->built[kind];
    }
    for (int i = count - 1; i >= 0; i--) {
        const List *list = s->options[i];
        int head = list->cands[0].missing, tail = list->cands[list->n - 1].missing;
        s->rest[i] = s->rest[i + 1] + (head < tail ? head : tail);
    }
    s->best = bounded ? (int)ceiling : UNLIMITED;
    s->budget = LEAF_LIMIT;
    s->stop_at_first = bounded;
    if (count) {
        search(s, 0, 0, 0, 0);
    } else {
        s->best = 0;
        s->leaf_count = 1;
        Leaf leaf = {0, 0};
        memcpy(s->leaves, &leaf, sizeof leaf);
    }
    PyObject *result = Py_BuildValue("(iy#i)", s->best, (const char *)s->leaves,
                                     (Py_ssize_t)((size_t)s->leaf_count * record_size(count)), wilds);
    PyMem_Free(s->leaves);
    PyMem_Free(s);
    return result;
}

/* A frozenset of the cards in `cards` (bit c for card c); NULL with an exception set. */
static PyObject *card_set(uint64_t cards)
{
    PyObject *set = PyFrozenSet_New(NULL);
    for (int card = 0; set != NULL && card < CARD_COUNT; card++) {
        if (!(cards >> card & 1))
            continue;
        PyObject *item = PyLong_FromLong(card);
        if (item == NULL || PySet_Add(set, item) < 0)
            Py_CLEAR(set);
        Py_XDECREF(item);
    }
    return set;
}

/* A candidate's natural outs (cand[6]): every card of a group's rank, the gap cards of a run's windows. */
static uint64_t natural_outs(const Cand *cand)
{
    uint64_t outs = 0;
    if (cand->kind == GROUP_CAND) {
        for (int suit = 0; suit < 4; suit++)
            outs |= (uint64_t)1 << (suit * 13 + cand->major);
    } else if (cand->kind == RUN_CAND) {
        for (int rank = 0; rank < 13; rank++)
            if (cand->needs >> rank & 1)
                outs |= (uint64_t)1 << (13 * cand->major + rank);
    }
    return outs;
}

/* The naturals a candidate uses (cand[4], in its order), appended to `cards`; their number. */
static int used_cards(const Cand *cand, int *cards)
{
    int n = 0;
    if (cand->kind == GROUP_CAND) {
        for (int suit = 0; suit < 4; suit++)
            for (int copy = 0; copy < cand->used[suit]; copy++)
                cards[n++] = suit * 13 + cand->major;
    } else if (cand->kind == RUN_CAND) {
        for (int rank = 0; rank < 13; rank++)
            if (cand->present >> rank & 1)
                cards[n++] = 13 * cand->major + rank;
    }
    return n;
}

static bool valid_cand(const Cand *cand)
{
    if (cand->size < 1 || cand->size > LONGEST_SLOT || cand->missing > cand->size || cand->kind > WILD_CAND)
        return false;
    if (cand->kind == GROUP_CAND)
        return cand->major < 13 && cand->used[0] <= MOST_COPIES && cand->used[1] <= MOST_COPIES
               && cand->used[2] <= MOST_COPIES && cand->used[3] <= MOST_COPIES;
    if (cand->kind == RUN_CAND)
        return cand->major < 4 && cand->present < (1 << 13) && cand->needs < (1 << 13);
    return true;
}

PyObject *planner_outs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    Rules rules;
    long count = 0, deficit = 0, wilds = 0;
    if (nargs != 5 || !PyBytes_Check(args[0]) || !get_long(args[1], &count) || !get_long(args[2], &deficit)
        || !get_long(args[3], &wilds) || !read_rules(args[4], &rules) || count < 0 || count > MAX_SLOTS) {
        PyErr_SetString(PyExc_TypeError,
                        "planner_outs(leaves: bytes, count: int, deficit: int, wilds: int, rules: bytes)");
        return NULL;
    }
    size_t size = record_size((int)count), length = (size_t)PyBytes_GET_SIZE(args[0]);
    const unsigned char *bytes = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    Cand cands[MAX_SLOTS];
    bool valid = length % size == 0 && length / size <= KEEP_LEAVES;
    for (size_t i = 0; valid && i < length / size; i++) {
        memcpy(cands, bytes + i * size + sizeof(Leaf), (size_t)count * sizeof(Cand));
        for (int j = 0; j < count; j++)
            valid = valid && valid_cand(&cands[j]);
    }
    if (!valid) {
        PyErr_SetString(PyExc_ValueError, "planner_outs: the leaves are not planner_search's");
        return NULL;
    }
    Py_ssize_t leaves = (Py_ssize_t)(length / size);
    PyObject *result = PyTuple_New(leaves);
    if (result == NULL)
        return NULL;
    uint64_t all_outs = 0;
    int cards[MAX_SLOTS * 4 * MOST_COPIES];
    for (Py_ssize_t i = 0; i < leaves; i++) {
        Leaf leaf;
        memcpy(&leaf, bytes + (size_t)i * size, sizeof leaf);
        memcpy(cands, bytes + (size_t)i * size + sizeof(Leaf), (size_t)count * sizeof(Cand));
        int used = 0;
        for (int j = 0; j < count; j++)
            used += used_cards(&cands[j], cards + used);
        uint64_t outs = 0;
        if (deficit) {
            if (wilds < leaf.cap)
                outs |= (uint64_t)1 << JOKER;
            for (int j = 0; j < count; j++) {
                uint64_t natural = natural_outs(&cands[j]);
                if (!cands[j].missing || !natural)
                    continue;
                /* One more natural: one card less missing, maybe less room for wilds. */
                long new_cap = leaf.cap - cands[j].cap + cap_of(&rules, cands[j].size, cands[j].missing - 1);
                if (leaf.missing - 1 - (wilds < new_cap ? wilds : new_cap) < deficit)
                    outs |= natural;
            }
        }
        all_outs |= outs;
        PyObject *tuple = PyTuple_New(used);
        for (int k = 0; tuple != NULL && k < used; k++) {
            PyObject *card = PyLong_FromLong(cards[k]);
            if (card == NULL)
                Py_CLEAR(tuple);
            else
                PyTuple_SET_ITEM(tuple, k, card);
        }
        PyObject *set = tuple != NULL ? card_set(outs) : NULL;
        PyObject *pair = set != NULL ? PyTuple_Pack(2, tuple, set) : NULL;
        Py_XDECREF(tuple);
        Py_XDECREF(set);
        if (pair == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, pair);
    }
    PyObject *outs = card_set(all_outs);
    if (outs == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    PyObject *answer = PyTuple_Pack(2, outs, result);
    Py_DECREF(outs);
    Py_DECREF(result);
    return answer;
}
