/*
 * meld_offers(meld, kit) -> (layoffs, swaps, splits) | None
 *
 * rummy.engine.table_offers._work_out_meld_offers, compiled: what one table meld adds to its table's lists of offers.
 *
 *   layoffs  every (card kind, meld id, end) meld_offers.accepted_layoffs names (shape_layoffs, play_listing.c);
 *   swaps    every (verb, natural card, meld id, end) meld_offers._swap_options names, when the variant swaps wilds
 *            at all and the meld holds a wild;
 *   splits   every (card the hand must hold, meld, index) meld_offers._split_points names.
 *
 * `kit` (table_offers._offers_kit): the variant's meld_rules.compiled_meld_rules, its joker_swap as 0 none, 1 to the hand,
 * 2 relocated in the run, joker_swap_in_groups, whether wild_relocation_scope is the hand, run_min, and the verbs
 * SWAP and MOVE.  None for a meld it does not read (a kind other than run, set, pair and book, a field out of range,
 * more than 64 cards) or a malformed kit: the Python work-out answers then.  gather_offers (play_listing.c) calls
 * work_out_meld_offers for each meld its memo lacks.
 */
#include "core.h"

typedef struct {
    MeldRules rules;
    long swap, in_groups, scope_hand, run_min;
    PyObject *swap_verb, *move_verb;
} OffersKit;

static bool read_kit(PyObject *kit, OffersKit *out)
{
    if (!PyTuple_Check(kit) || PyTuple_GET_SIZE(kit) != 7 || !read_meld_rules(PyTuple_GET_ITEM(kit, 0), &out->rules)
        || !get_long(PyTuple_GET_ITEM(kit, 1), &out->swap) || !get_long(PyTuple_GET_ITEM(kit, 2), &out->in_groups)
        || !get_long(PyTuple_GET_ITEM(kit, 3), &out->scope_hand) || !get_long(PyTuple_GET_ITEM(kit, 4), &out->run_min))
        return false;
    out->swap_verb = PyTuple_GET_ITEM(kit, 5);
    out->move_verb = PyTuple_GET_ITEM(kit, 6);
    return out->swap >= 0 && out->swap <= 2 && out->run_min >= 1 && out->run_min <= 1000;
}

/* The attribute names read of a meld, interned once: kind, cards, id, rank, suit, low, wilds. */
enum { NAME_KIND, NAME_CARDS, NAME_ID, NAME_RANK, NAME_SUIT, NAME_LOW, NAME_WILDS, NAME_COUNT };
static PyObject *names[NAME_COUNT];

static bool intern_names(void)
{
    static const char *const spelled[NAME_COUNT] = {"kind", "cards", "id", "rank", "suit", "low", "wilds"};
    for (int i = 0; i < NAME_COUNT; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return false;
    return true;
}

/* An int attribute of `meld` within [low, high]: false, no exception left set, when it is not one. */
static bool int_field(PyObject *meld, int name, long low, long high, int *value)
{
    PyObject *item = get_attribute(meld, names[name]);
    if (item == NULL) {
        PyErr_Clear();
        return false;
    }
    long read;
    bool fits = get_long(item, &read) && read >= low && read <= high;
    Py_DECREF(item);
    *value = (int)read;
    return fits;
}

bool read_offer_meld(PyObject *meld, OfferMeld *out)
{
    static const char *const kinds[4] = {"run", "set", "pair", "book"};
    if (!intern_names()) {
        PyErr_Clear();
        return false;
    }
    PyObject *kind = get_attribute(meld, names[NAME_KIND]);
    if (kind == NULL) {
        PyErr_Clear();
        return false;
    }
    out->kind = -1;
    for (int code = 0; code < 4 && PyUnicode_Check(kind); code++)
        if (PyUnicode_CompareWithASCIIString(kind, kinds[code]) == 0)
            out->kind = code;
    Py_DECREF(kind);
    if (out->kind < 0 || !int_field(meld, NAME_RANK, 0, 13, &out->rank) || !int_field(meld, NAME_SUIT, -1, 3, &out->suit)
        || !int_field(meld, NAME_LOW, 0, 14, &out->low)
        || !int_field(meld, NAME_WILDS, 0, MOST_MELD_CARDS, &out->wilds))
        return false;
    PyObject *cards = get_attribute(meld, names[NAME_CARDS]);
    if (cards == NULL) {
        PyErr_Clear();
        return false;
    }
    Py_ssize_t length = PyTuple_Check(cards) ? PyTuple_GET_SIZE(cards) : 0;
    bool fits = length >= 1 && length <= MOST_MELD_CARDS
                && (out->kind != 0 || (out->suit >= 0 && out->low >= 1 && out->low + length - 1 <= 14));
    for (Py_ssize_t i = 0; fits && i < length; i++) {
        long card;
        fits = get_long(PyTuple_GET_ITEM(cards, i), &card) && card >= 0 && card < CARD_COUNT;
        out->cards[i] = (int)card;
    }
    Py_DECREF(cards);
    out->length = (int)length;
    return fits;
}

/* TableMeld.position_card: the card position `index` of a run stands for. */
static int position_card(const OfferMeld *meld, int index)
{
    int value = meld->low + index;
    return meld->suit * 13 + (value == 14 ? 1 : value) - 1;
}

/* Append `item` (a new reference, or NULL with an exception set) to `list`: false with an exception set when it
 * fails. */
static bool append_built(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return false;
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return !failed;
}

/* meld_offers._swap_options' naturals: the cards a natural must be to take a wild of the meld, into `wanted`. */
static int wanted_naturals(const OffersKit *kit, const OfferMeld *meld, int *wanted)
{
    const MeldRules *rules = &kit->rules;
    int count = 0;
    if (meld->kind == 0) { /* melds.wild_positions of a run */
        for (int i = 0; i < meld->length; i++) {
            int value = meld->low + i;
            if (!natural_here(rules->wild, rules->twos_natural, meld->cards[i], value == 14 ? 1 : value, meld->suit))
                wanted[count++] = position_card(meld, i);
        }
        return count;
    }
    if (kit->swap != 1 || !kit->in_groups || !meld->rank)
        return 0;
    for (int i = 0; i < meld->length; i++) {
        if (!natural_here(rules->wild, rules->twos_natural, meld->cards[i], meld->rank, -1)) {
            for (int suit = 0; suit < 4; suit++)
                wanted[count++] = suit * 13 + meld->rank - 1;
            break;
        }
    }
    return count;
}

static PyObject *build_offers(const OffersKit *kit, const OfferMeld *meld, PyObject *meld_object, PyObject *meld_id)
{
    const MeldRules *rules = &kit->rules;
    PyObject *lists[3] = {PyList_New(0), PyList_New(0), PyList_New(0)};
    PyObject *result = NULL;
    if (lists[0] == NULL || lists[1] == NULL || lists[2] == NULL)
        goto done;
    int cards[2 * CARD_COUNT], ends[2 * CARD_COUNT];
    int count = shape_layoffs(rules, meld->kind, meld->rank, meld->suit, meld->low, meld->length, meld->wilds, cards,
                              ends);
    for (int i = 0; i < count; i++) {
        PyObject *end = end_object(ends[i]);
        if (end == NULL || !append_built(lists[0], Py_BuildValue("(iOO)", cards[i], meld_id, end)))
            goto done;
    }
    if (kit->swap != 0 && meld->wilds) {
        int wanted[4 * MOST_MELD_CARDS];
        int found = wanted_naturals(kit, meld, wanted);
        for (int i = 0; i < found; i++) {
            int card = wanted[i];
            if (rules->wild[card])
                continue;
            if (kit->swap == 1) {
                if (!append_built(lists[1], Py_BuildValue("(OiOO)", kit->swap_verb, card, meld_id, Py_None)))
                    goto done;
            } else if (meld->kind == 0) {
                for (int end = kit->scope_hand ? 0 : 1; end <= (kit->scope_hand ? 0 : 2); end++) {
                    if (end != 0 && !run_end_open(rules, meld->low, meld->length, end))
                        continue; /* the run cannot grow there: no relocation to that end */
                    PyObject *name = end_object(end);
                    if (name == NULL
                        || !append_built(lists[1], Py_BuildValue("(OiOO)", kit->move_verb, card, meld_id, name)))
                        goto done;
                }
            }
        }
    }
    if (meld->kind == 0) {
        for (long index = kit->run_min - 1; index < meld->length - kit->run_min + 1; index++) {
            int target = position_card(meld, (int)index);
            if (!rules->wild[target]
                && !append_built(lists[2], Py_BuildValue("(iOl)", target, meld_object, index)))
                goto done;
        }
    }
    result = PyTuple_New(3);
    for (int part = 0; result != NULL && part < 3; part++) {
        PyObject *items = PyList_AsTuple(lists[part]);
        if (items == NULL)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, part, items);
    }
done:
    for (int part = 0; part < 3; part++)
        Py_XDECREF(lists[part]);
    return result;
}

PyObject *work_out_meld_offers(PyObject *meld_object, PyObject *kit_object)
{
    OffersKit kit;
    OfferMeld meld;
    if (!intern_names())
        return NULL;
    if (!read_kit(kit_object, &kit) || !read_offer_meld(meld_object, &meld))
        Py_RETURN_NONE;
    PyObject *meld_id = get_attribute(meld_object, names[NAME_ID]);
    if (meld_id == NULL) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *offers = build_offers(&kit, &meld, meld_object, meld_id);
    Py_DECREF(meld_id);
    return offers;
}

PyObject *meld_offers(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "meld_offers(meld, kit)");
        return NULL;
    }
    return work_out_meld_offers(args[0], args[1]);
}
