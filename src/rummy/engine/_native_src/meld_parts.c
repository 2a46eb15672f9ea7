/*
 * rearrangement_part(meld, rules) -> (spares, splits) | None
 *
 * rummy.engine.table_offers._rearrangement_part, compiled: a table meld's part in the compiled listing of
 * rearrangements (rearrangements.c), the same value the Python function returns:
 *
 *   spares  bytes, two per spare of the meld (deadlock.meld_spares: deadlock.spare_cards with wilds, in its order):
 *           the card, and whether the meld it leaves behind is valid (table_offers._rest);
 *   splits  a tuple of (card the hand must hold, meld id, (first half, second half)) for each of the run's split
 *           points (meld_offers.split_points, in order) whose two halves are valid (meld_offers.split_halves), each
 *           half a MeldSpec made as meld_offers._run_spec makes it.
 *
 * Validity is judged as meld_offers.valid_meld judges a spec (melds.table_meld at the variant's minimum size: the
 * C functions below follow melds.check_run, _run_placed_by_naturals, _run_placed_by_declaration, check_group,
 * _natural_here and _check_wild_policy, and keep only whether they raise).
 *
 *   rules  table_offers._part_rules(variant): (the variant's rules (meld_rules.compiled_meld_rules, core.h's MeldRules);
 *          run_min, group_min, wild_group_min (an int or None), the MeldSpec class, memo.put).
 *
 * rearrangement_parts(table, variant, rules, memo, what, work_out) -> list | None
 *
 * [meld_offers.per_meld(what, meld, variant, _rearrangement_part) for meld in table]: each part from
 * meld_offers._PER_MELD (`memo`: (what, id of a meld, id of the variant) -> (meld, variant, part)), else worked out
 * here and stored there with memo.put, else (a meld the C does not read) from work_out(meld, variant)
 * (table_offers._rearrangement_part_of, the Python reference, which memoises it).
 *
 * None (the Python code answers) from rearrangement_part for a meld it does not read: a kind other than run, set,
 * pair and book, cards that are not a tuple of 1 to 256 cards below 53, a rank, suit, lowest value or wild count out
 * of range (a run's values must lie within 1..14); from both for rules out of shape (a run or group minimum below 1
 * or above 1,000); from rearrangement_parts for a table that is not a tuple.
 */
#include "core.h"

enum { MAX_CARDS = 256 };
enum { KIND_RUN, KIND_SET, KIND_PAIR, KIND_BOOK };

typedef struct {
    MeldRules variant;
    long run_min, group_min, wild_group_min; /* wild_group_min -1: None */
    PyObject *meld_spec, *put;
} PartRules;

typedef struct {
    int kind, length;
    long rank, suit, low, wilds;
    int cards[MAX_CARDS];
    PyObject *cards_tuple, *id; /* new references */
} Meld;

static int rank_of(int card) { return card == JOKER ? 0 : card % 13 + 1; }
static int suit_of(int card) { return card == JOKER ? -1 : card / 13; }
static int make_card(int rank, int suit) { return suit * 13 + rank - 1; }

/* TableMeld.position_card: the card position `index` of a run stands for. */
static int position_card(const Meld *meld, int index)
{
    int value = (int)meld->low + index;
    return make_card(value == 14 ? 1 : value, (int)meld->suit);
}

bool run_facts(const MeldRules *variant, long min_size, const int *cards, int length, int declared, MeldFacts *facts)
{
    if (length < 1 || length > MAX_CARDS)
        return false; /* (no run is longer than 14 cards) */
    int natural[MAX_CARDS], count = 0;
    for (int i = 0; i < length; i++)
        if (!variant->wild[cards[i]])
            natural[count++] = i;
    if (count == 0 && variant->twos_natural)
        for (int i = 0; i < length; i++)
            if (cards[i] != JOKER && rank_of(cards[i]) == 2)
                natural[count++] = i;
    int suit, low;
    int low_bound = variant->low_bound, high_bound = variant->high_bound;
    if (count) { /* _run_placed_by_naturals */
        suit = suit_of(cards[natural[0]]);
        for (int n = 1; n < count; n++)
            if (suit_of(cards[natural[n]]) != suit)
                return false; /* run-mixed-suits */
        unsigned candidates = ~0u; /* bits: the lowest values every natural allows (_value_candidates) */
        for (int n = 0; n < count; n++) {
            int index = natural[n], rank = rank_of(cards[index]);
            int values[2] = {rank, rank == 1 ? 14 : rank};
            unsigned allowed = 0;
            for (int v = 0; v < 2; v++) {
                int start = values[v] - index;
                if (low_bound <= values[v] && values[v] <= high_bound && start >= 0 && start < 32)
                    allowed |= 1u << start;
            }
            candidates &= allowed;
        }
        low = -1;
        for (int start = low_bound; start <= high_bound && low < 0; start++)
            if ((candidates >> start & 1u) && start + length - 1 <= high_bound && !(start == 1 && start + length - 1 == 14))
                low = start;
        if (low < 0)
            return false; /* run-not-consecutive */
        if (declared >= 0 && (suit_of(declared) != suit || rank_of(declared) != low))
            return false; /* declaration-contradicts (the Python test: rank_of(declared) in (low, low)) */
    } else { /* _run_placed_by_declaration */
        if (!variant->all_wild_melds || declared < 0 || declared == JOKER)
            return false; /* all-wild-meld, declaration-required */
        suit = suit_of(declared);
        low = rank_of(declared);
        if (low < low_bound)
            low = low == 1 ? 14 : low;
        if (low + length - 1 > high_bound || (low == 1 && low + length - 1 == 14))
            return false; /* run-out-of-bounds */
    }
    if (length < min_size)
        return false; /* meld-too-small */
    int wilds = 0;
    for (int i = 0; i < length; i++) {
        int value = low + i;
        if (!natural_here(variant->wild, variant->twos_natural, cards[i], value == 14 ? 1 : value, suit))
            wilds++;
    }
    *facts = (MeldFacts){.rank = 0, .suit = suit, .low = low, .wilds = wilds};
    return policy_allows(variant->policy, wilds, length - wilds);
}

/* Whether MeldSpec("run", cards, declared) is valid at the variant's run_min (melds.check_run); `declared` -1 for
 * None. */
static bool valid_run(const PartRules *rules, const int *cards, int length, int declared)
{
    MeldFacts facts;
    return run_facts(&rules->variant, rules->run_min, cards, length, declared, &facts);
}

bool set_facts(const MeldRules *variant, long min_size, long wild_group_min, const int *cards, int length,
               MeldFacts *facts)
{
    int rank = -1;
    bool any_two = false;
    for (int i = 0; i < length; i++) {
        int card = cards[i];
        any_two = any_two || (card != JOKER && rank_of(card) == 2);
        if (variant->wild[card])
            continue;
        if (rank >= 0 && rank_of(card) != rank)
            return false; /* set-mixed-ranks */
        rank = rank_of(card);
    }
    if (rank < 0) {
        if (variant->twos_natural && any_two)
            rank = 2;
        else if (variant->all_wild_melds || wild_group_min < 0 || length < wild_group_min)
            return false; /* declaration-required, all-wild-meld, meld-too-small */
        else { /* a trio of wilds: no wild policy */
            *facts = (MeldFacts){.rank = 0, .suit = -1, .low = 0, .wilds = length};
            return true;
        }
    }
    if (length < min_size)
        return false; /* meld-too-small */
    int wilds = 0;
    for (int i = 0; i < length; i++)
        if (!natural_here(variant->wild, variant->twos_natural, cards[i], rank, -1))
            wilds++;
    *facts = (MeldFacts){.rank = rank, .suit = -1, .low = 0, .wilds = wilds};
    return policy_allows(variant->policy, wilds, length - wilds);
}

/* Whether MeldSpec("set", cards) (no declaration) is valid at the variant's group_min (melds.check_group). */
static bool valid_set(const PartRules *rules, const int *cards, int length)
{
    MeldFacts facts;
    return set_facts(&rules->variant, rules->group_min, rules->wild_group_min, cards, length, &facts);
}

/* table_offers._rest's validity: whether what `meld` leaves behind, `rest`, is valid. */
static bool rest_valid(const PartRules *rules, const Meld *meld, const int *rest, int length)
{
    switch (meld->kind) {
    case KIND_RUN:
        return valid_run(rules, rest, length, -1);
    case KIND_SET: /* a set spares a card only while what it leaves is valid (spare_cards); unless twos count */
        return (meld->rank && !rules->variant.twos_natural) || valid_set(rules, rest, length);
    case KIND_PAIR: /* judged as a set */
        return valid_set(rules, rest, length);
    default: /* a book: meld_offers.valid_meld takes sets and runs only */
        return false;
    }
}

/* The spare bytes (deadlock.spare_cards with wilds, each card and rest_valid) into `out`; how many bytes. */
static int spare_bytes(const PartRules *rules, const Meld *meld, unsigned char *out)
{
    int rest[MAX_CARDS], written = 0, length = meld->length;
    if (meld->kind == KIND_RUN) {
        if (length <= rules->run_min)
            return 0;
        int ends[2] = {0, length - 1};
        for (int e = 0; e < 2; e++) {
            int index = ends[e];
            for (int i = 0, r = 0; i < length; i++)
                if (i != index)
                    rest[r++] = meld->cards[i];
            out[written++] = (unsigned char)meld->cards[index];
            out[written++] = rest_valid(rules, meld, rest, length - 1);
        }
        return written;
    }
    if (!meld->rank || length <= rules->group_min)
        return 0;
    bool seen[CARD_COUNT] = {false};
    long naturals = length - meld->wilds;
    for (int index = 0; index < length; index++) {
        int card = meld->cards[index];
        bool wild = rules->variant.wild[card];
        if (seen[card] || (!wild && naturals == 1))
            continue;
        seen[card] = true;
        if (rules->variant.policy == POLICY_RATIO && !wild && meld->wilds > naturals - 1)
            continue;
        for (int i = 0, r = 0; i < length; i++)
            if (i != index)
                rest[r++] = meld->cards[i];
        out[written++] = (unsigned char)card;
        out[written++] = rest_valid(rules, meld, rest, length - 1);
    }
    return written;
}

/* meld_offers._run_spec's declaration: the card position `offset` stands for when every card is a joker or a two,
 * else -1 (None). */
static int run_declared(const Meld *meld, const int *cards, int length, int offset)
{
    for (int i = 0; i < length; i++)
        if (cards[i] != JOKER && cards[i] % 13 != 1)
            return -1;
    return position_card(meld, offset);
}

/* MeldSpec("run", cards, declared): a new reference, or NULL with an exception set. */
static PyObject *run_spec(const PartRules *rules, PyObject *cards, int declared)
{
    static PyObject *run_kind = NULL;
    if (run_kind == NULL && (run_kind = PyUnicode_InternFromString("run")) == NULL)
        return NULL;
    PyObject *declaration = declared < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(declared);
    if (declaration == NULL)
        return NULL;
    PyObject *spec_args[3] = {run_kind, cards, declaration};
    PyObject *spec = PyObject_Vectorcall(rules->meld_spec, spec_args, 3, NULL);
    Py_DECREF(declaration);
    return spec;
}

/* The split of run `meld` at `index` (the hand's `target` starting the second half): (target, meld id, (first half,
 * second half)) as split_halves makes them.  A new reference, or NULL with an exception set. */
static PyObject *split_at(const PartRules *rules, const Meld *meld, int index, int target, int first_declared,
                          int second_declared)
{
    int second_length = meld->length - index;
    PyObject *card = PyLong_FromLong(target);
    PyObject *first_cards = card == NULL ? NULL : PyTuple_GetSlice(meld->cards_tuple, 0, index + 1);
    PyObject *second_cards = first_cards == NULL ? NULL : PyTuple_New(second_length);
    if (second_cards != NULL) {
        PyTuple_SET_ITEM(second_cards, 0, Py_NewRef(card));
        for (int i = 1; i < second_length; i++)
            PyTuple_SET_ITEM(second_cards, i, Py_NewRef(PyTuple_GET_ITEM(meld->cards_tuple, index + i)));
    }
    PyObject *first = second_cards == NULL ? NULL : run_spec(rules, first_cards, first_declared);
    PyObject *second = first == NULL ? NULL : run_spec(rules, second_cards, second_declared);
    PyObject *halves = second == NULL ? NULL : PyTuple_Pack(2, first, second);
    PyObject *split = halves == NULL ? NULL : PyTuple_Pack(3, card, meld->id, halves);
    Py_XDECREF(card);
    Py_XDECREF(first_cards);
    Py_XDECREF(second_cards);
    Py_XDECREF(first);
    Py_XDECREF(second);
    Py_XDECREF(halves);
    return split;
}

/* The tuple of (card, meld id, (first half, second half)) of the run's split points (meld_offers._split_points:
 * from index run_min - 1 to length - run_min, where the card the hand must hold is not wild) whose two halves are
 * valid (meld_offers.split_halves).  A new reference, or NULL with an exception set. */
static PyObject *splits_of(const PartRules *rules, const Meld *meld)
{
    PyObject *splits = PyList_New(0);
    if (splits == NULL)
        return NULL;
    int length = meld->length, second[MAX_CARDS];
    for (long at = rules->run_min - 1; meld->kind == KIND_RUN && at < length - rules->run_min + 1; at++) {
        int index = (int)at, target = position_card(meld, index);
        if (rules->variant.wild[target])
            continue;
        int first_length = index + 1, second_length = length - index;
        second[0] = target;
        for (int i = 1; i < second_length; i++)
            second[i] = meld->cards[index + i];
        int first_declared = run_declared(meld, meld->cards, first_length, 0);
        int second_declared = run_declared(meld, second, second_length, index);
        if (!valid_run(rules, meld->cards, first_length, first_declared)
            || !valid_run(rules, second, second_length, second_declared))
            continue;
        PyObject *split = split_at(rules, meld, index, target, first_declared, second_declared);
        if (split == NULL || PyList_Append(splits, split)) {
            Py_XDECREF(split);
            Py_DECREF(splits);
            return NULL;
        }
        Py_DECREF(split);
    }
    PyObject *tuple = PyList_AsTuple(splits);
    Py_DECREF(splits);
    return tuple;
}

/* The rules tuple read into `rules`: false when it is out of shape (no exception set). */
static bool read_rules(PyObject *object, PartRules *rules)
{
    if (!PyTuple_Check(object) || PyTuple_GET_SIZE(object) != 6)
        return false;
    if (!read_meld_rules(PyTuple_GET_ITEM(object, 0), &rules->variant))
        return false;
    int wild_group_min = long_or_none(PyTuple_GET_ITEM(object, 3), &rules->wild_group_min);
    if (wild_group_min == 0)
        rules->wild_group_min = -1; /* None */
    else if (wild_group_min < 0 || rules->wild_group_min < 0)
        return false;
    rules->meld_spec = PyTuple_GET_ITEM(object, 4);
    rules->put = PyTuple_GET_ITEM(object, 5);
    return get_long(PyTuple_GET_ITEM(object, 1), &rules->run_min) && get_long(PyTuple_GET_ITEM(object, 2),
                                                                              &rules->group_min)
           && rules->run_min >= 1 && rules->run_min <= 1000 && rules->group_min >= 1 && rules->group_min <= 1000;
}

/* One int attribute of `meld` within [low, high]; false, no exception set, when it is missing or out of range. */
static bool read_field(PyObject *meld, PyObject *name, long low, long high, long *value)
{
    PyObject *item = get_attribute(meld, name);
    if (item == NULL) {
        PyErr_Clear();
        return false;
    }
    bool read = get_long(item, value);
    Py_DECREF(item);
    return read && *value >= low && *value <= high;
}

/* `meld` read into `out`: 1, 0 when it is not a meld read here (nothing held), -1 with an exception set. */
static int read_meld(PyObject *meld, Meld *out)
{
    static PyObject *names[7] = {NULL};
    static const char *const spelled[7] = {"kind", "cards", "id", "rank", "suit", "low", "wilds"};
    static const char *const kinds[4] = {"run", "set", "pair", "book"};
    for (int i = 0; i < 7; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return -1;
    PyObject *kind = get_attribute(meld, names[0]);
    if (kind == NULL) {
        PyErr_Clear();
        return 0;
    }
    out->kind = -1;
    for (int code = 0; code < 4 && PyUnicode_Check(kind); code++)
        if (PyUnicode_CompareWithASCIIString(kind, kinds[code]) == 0)
            out->kind = code;
    Py_DECREF(kind);
    if (out->kind < 0 || !read_field(meld, names[3], 0, 13, &out->rank) || !read_field(meld, names[4], -1, 3, &out->suit)
        || !read_field(meld, names[5], 0, 14, &out->low) || !read_field(meld, names[6], 0, MAX_CARDS, &out->wilds))
        return 0;
    PyObject *cards = get_attribute(meld, names[1]);
    if (cards == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t length = PyTuple_Check(cards) ? PyTuple_GET_SIZE(cards) : 0;
    bool fits = length >= 1 && length <= MAX_CARDS && out->wilds <= length
                && (out->kind != KIND_RUN || (out->suit >= 0 && out->low >= 1 && out->low + length - 1 <= 14));
    for (Py_ssize_t i = 0; fits && i < length; i++) {
        long card;
        fits = get_long(PyTuple_GET_ITEM(cards, i), &card) && card >= 0 && card < CARD_COUNT;
        out->cards[i] = (int)card;
    }
    if (!fits) {
        Py_DECREF(cards);
        return 0;
    }
    out->length = (int)length;
    out->id = get_attribute(meld, names[2]);
    if (out->id == NULL) {
        PyErr_Clear();
        Py_DECREF(cards);
        return 0;
    }
    out->cards_tuple = cards;
    return 1;
}

/* `meld`'s part: a new reference; Py_None (a new reference) when the meld is not read here; NULL with an exception
 * set. */
static PyObject *part_of(const PartRules *rules, PyObject *meld_object)
{
    Meld meld;
    int read = read_meld(meld_object, &meld);
    if (read <= 0)
        return read < 0 ? NULL : Py_NewRef(Py_None);
    unsigned char bytes[2 * MAX_CARDS];
    PyObject *spares = PyBytes_FromStringAndSize((const char *)bytes, spare_bytes(rules, &meld, bytes));
    PyObject *splits = spares == NULL ? NULL : splits_of(rules, &meld);
    PyObject *part = splits == NULL ? NULL : PyTuple_Pack(2, spares, splits);
    Py_XDECREF(spares);
    Py_XDECREF(splits);
    Py_DECREF(meld.cards_tuple);
    Py_DECREF(meld.id);
    return part;
}

PyObject *rearrangement_part(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "rearrangement_part(meld, rules)");
        return NULL;
    }
    PartRules rules;
    if (!read_rules(args[1], &rules))
        Py_RETURN_NONE;
    return part_of(&rules, args[0]);
}

/* The part of `meld` (`key` in `memo`): memoised, else worked out here and stored by memo.put, else work_out's.  A
 * new reference, or NULL with an exception set. */
static PyObject *memoised_part(const PartRules *rules, PyObject *memo, PyObject *key, PyObject *meld, PyObject *variant,
                               PyObject *work_out)
{
    PyObject *hit = PyDict_GetItemWithError(memo, key);
    if (hit != NULL && PyTuple_Check(hit) && PyTuple_GET_SIZE(hit) == 3 && PyTuple_GET_ITEM(hit, 0) == meld
        && PyTuple_GET_ITEM(hit, 1) == variant)
        return Py_NewRef(PyTuple_GET_ITEM(hit, 2));
    if (hit == NULL && PyErr_Occurred())
        return NULL;
    PyObject *part = part_of(rules, meld);
    if (part == Py_None) {
        Py_DECREF(part);
        PyObject *call_args[2] = {meld, variant};
        return PyObject_Vectorcall(work_out, call_args, 2, NULL);
    }
    PyObject *entry = part == NULL ? NULL : PyTuple_Pack(3, meld, variant, part);
    if (entry == NULL) {
        Py_XDECREF(part);
        return NULL;
    }
    PyObject *put_args[3] = {memo, key, entry};
    PyObject *stored = PyObject_Vectorcall(rules->put, put_args, 3, NULL);
    Py_DECREF(entry);
    if (stored == NULL) {
        Py_DECREF(part);
        return NULL;
    }
    Py_DECREF(stored);
    return part;
}

PyObject *rearrangement_parts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyDict_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "rearrangement_parts(table, variant, rules, memo: dict, what, work_out)");
        return NULL;
    }
    PyObject *table = args[0], *variant = args[1], *memo = args[3], *what = args[4], *work_out = args[5];
    PartRules rules;
    if (!PyTuple_Check(table) || !read_rules(args[2], &rules))
        Py_RETURN_NONE;
    PyObject *variant_id = PyLong_FromVoidPtr(variant);
    if (variant_id == NULL)
        return NULL;
    PyObject *parts = PyList_New(PyTuple_GET_SIZE(table));
    if (parts == NULL) {
        Py_DECREF(variant_id);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(table); i++) {
        PyObject *meld = PyTuple_GET_ITEM(table, i);
        PyObject *meld_id = PyLong_FromVoidPtr(meld);
        PyObject *key = meld_id == NULL ? NULL : PyTuple_Pack(3, what, meld_id, variant_id);
        Py_XDECREF(meld_id);
        PyObject *part = key == NULL ? NULL : memoised_part(&rules, memo, key, meld, variant, work_out);
        Py_XDECREF(key);
        if (part == NULL) {
            Py_DECREF(variant_id);
            Py_DECREF(parts);
            return NULL;
        }
        PyList_SET_ITEM(parts, i, part);
    }
    Py_DECREF(variant_id);
    return parts;
}
