/*
 * rearranged(state, action, rules, kit) -> TurnScratch | None
 *
 * rummy.engine.rules.table's judgement of a rearrangement (scratch_of, then step_rearrange), compiled for the plays it
 * accepts: the active player's scratch after the single rearrangement `action` (Verb.REARRANGE, its sources melds of
 * the table, its melds the new melds), the state untouched.  check_table_play then tests the turn can still end
 * (check_completable) and rules.perform commits the scratch, as for a play judged in Python.
 *
 * It follows step_rearrange: the variant allows rearranging; the player is down and, where lay-offs wait a turn, not
 * down this turn (_check_timing); the sources are distinct melds of the table; every table card of the sources is in
 * the new melds, the rest of their cards come from the hand (_cards_from_hand), at least one where the rearrange mode
 * is SEED000; each new meld is a set or a run valid at the variant's minimum (melds.table_meld, through meld_parts.c's
 * run_facts and set_facts), owned by the owner of the first of its cards that was on the table (else the player),
 * numbered from next_meld_id on; every new meld keeps a table card of its own where the variant asks it
 * (_each_keeps_table_card, a bipartite matching); the hand holds the cards taken.  The table is the other melds in
 * their order, then the new ones.
 *
 *   rules  rules.table._rearrangement_rules(variant): the variant's meld rules (meld_rules.compiled_meld_rules),
 *          run_min, group_min and wild_group_min.
 *   kit    (TurnScratch, its field slots, TableMeld, its field slots, RearrangeMode.NONE, RearrangeMode.SEED000,
 *          LayoffTiming.NEXT_TURN), as new_record takes the records.
 *
 * None, nothing changed, for whatever it does not accept: a play the Python judgement refuses (it says why), a set
 * with a declared rank, more than 16 new melds or 256 cards, a state, action or kit of another shape.  The Python
 * step_rearrange judges it then.
 */
#include "core.h"

enum { KIT_SCRATCH, KIT_SCRATCH_SLOTS, KIT_MELD, KIT_MELD_SLOTS, KIT_NO_REARRANGING, KIT_SEED000, KIT_NEXT_TURN,
       KIT_SIZE };
enum {
    NAME_ACTIVE, NAME_HANDS, NAME_SIZES, NAME_TABLE, NAME_NEXT_MELD_ID, NAME_DOWN, NAME_DOWN_TURN,
    NAME_MELDS_THIS_TURN, NAME_STOLEN_PENDING, NAME_OWN_TURNS, NAME_VARIANT, NAME_REARRANGE_MODE, NAME_LAYOFF_TIMING,
    NAME_REQUIRES_TABLE_CARD, NAME_SOURCES, NAME_MELDS, NAME_KIND, NAME_CARDS, NAME_DECLARED, NAME_ID, NAME_OWNER,
    NAME_COUNT
};
enum { MOST_NEW_MELDS = 16, MOST_CARDS = 256 };
static PyObject *names[NAME_COUNT];
static PyObject *run_kind, *set_kind;

static bool intern_names(void)
{
    static const char *const spelled[NAME_COUNT] = {
        "active", "hands", "sizes", "table", "next_meld_id", "down", "down_turn", "melds_this_turn", "stolen_pending",
        "own_turns", "variant", "rearrange_mode", "layoff_timing", "rearrange_requires_table_card", "sources", "melds",
        "kind", "cards", "declared", "id", "owner",
    };
    for (int i = 0; i < NAME_COUNT; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(spelled[i])) == NULL)
            return false;
    if (run_kind == NULL && (run_kind = PyUnicode_InternFromString("run")) == NULL)
        return false;
    return set_kind != NULL || (set_kind = PyUnicode_InternFromString("set")) != NULL;
}

/* A new meld of the play: its spec's kind and cards (new references), its facts, and the source meld whose owner owns
 * it (-1: the player). */
typedef struct {
    PyObject *kind, *cards;
    int first, length; /* its cards in the play's card list */
    MeldFacts facts;
    int owner_source;
} NewMeld;

/* One judgement: what it read of the state and the action. */
typedef struct {
    PyObject *state, *variant, *table;
    PyObject *mode; /* the variant's rearrange mode, compared by identity only */
    PyObject *const *kit;
    long active;
    int hand[CARD_COUNT];
    Py_ssize_t sources[MOST_NEW_MELDS]; /* the places of the source melds on the table */
    int source_count;
    int table_cards[MOST_CARDS], table_count; /* the sources' cards, ascending */
    int source_of[CARD_COUNT]; /* the first source meld holding each card kind, -1 for none */
    NewMeld melds[MOST_NEW_MELDS];
    int meld_count;
    int new_cards[MOST_CARDS], new_count; /* the new melds' cards, meld after meld */
} Judgement;

/* state.name[active]: a new reference, or NULL (no exception left set). */
static PyObject *seat_item(Judgement *j, int name)
{
    return field_item(j->state, names[name], j->active);
}

/* A tuple of card ints read into `out` from `at` on (room for MOST_CARDS): how many, or -1 when it does not read. */
static int read_cards(PyObject *cards, int *out, int at)
{
    if (!PyTuple_Check(cards) || PyTuple_GET_SIZE(cards) > MOST_CARDS - at)
        return -1;
    int count = (int)PyTuple_GET_SIZE(cards);
    for (int i = 0; i < count; i++) {
        long card;
        if (!get_long(PyTuple_GET_ITEM(cards, i), &card) || card < 0 || card >= CARD_COUNT)
            return -1;
        out[at + i] = (int)card;
    }
    return count;
}

/* The place on the table of the meld numbered `number`, or -1. */
static Py_ssize_t find_meld(Judgement *j, long number)
{
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(j->table); i++) {
        PyObject *id = get_attribute(PyList_GET_ITEM(j->table, i), names[NAME_ID]);
        long value;
        bool found = id != NULL && get_long(id, &value) && value == number;
        Py_XDECREF(id);
        if (id == NULL)
            PyErr_Clear();
        if (found)
            return i;
    }
    return -1;
}

static int ascending(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* The source melds read (distinct, on the table): their cards, sorted, and each card's first owner. */
static bool read_sources(Judgement *j, PyObject *sources)
{
    if (!PyTuple_Check(sources) || PyTuple_GET_SIZE(sources) < 1 || PyTuple_GET_SIZE(sources) > MOST_NEW_MELDS)
        return false;
    j->source_count = (int)PyTuple_GET_SIZE(sources);
    j->table_count = 0;
    for (int s = 0; s < j->source_count; s++) {
        long number;
        if (!get_long(PyTuple_GET_ITEM(sources, s), &number) || (j->sources[s] = find_meld(j, number)) < 0)
            return false; /* no-such-meld */
        for (int t = 0; t < s; t++)
            if (j->sources[t] == j->sources[s])
                return false; /* rearrange-sources: a meld named twice */
        PyObject *cards = get_attribute(PyList_GET_ITEM(j->table, j->sources[s]), names[NAME_CARDS]);
        int count = cards == NULL ? -1 : read_cards(cards, j->table_cards, j->table_count);
        Py_XDECREF(cards);
        if (count < 0)
            return false;
        for (int i = 0; i < count; i++) {
            int card = j->table_cards[j->table_count + i];
            if (j->source_of[card] < 0)
                j->source_of[card] = s;
        }
        j->table_count += count;
    }
    qsort(j->table_cards, (size_t)j->table_count, sizeof(int), ascending);
    return true;
}

/* The new melds read (each a set without a declaration or a run, valid at the variant's minimum) with their facts and
 * owners. */
static bool read_new_melds(Judgement *j, PyObject *melds, PyObject *rules)
{
    MeldRules variant;
    long run_min, group_min, wild_group_min;
    if (!PyTuple_Check(melds) || PyTuple_GET_SIZE(melds) < 1 || PyTuple_GET_SIZE(melds) > MOST_NEW_MELDS
        || !PyTuple_Check(rules) || PyTuple_GET_SIZE(rules) != 4 || !read_meld_rules(PyTuple_GET_ITEM(rules, 0), &variant)
        || !get_long(PyTuple_GET_ITEM(rules, 1), &run_min) || !get_long(PyTuple_GET_ITEM(rules, 2), &group_min))
        return false;
    int wild_group = long_or_none(PyTuple_GET_ITEM(rules, 3), &wild_group_min);
    if (wild_group < 0)
        return false;
    if (wild_group == 0)
        wild_group_min = -1;
    j->new_count = 0;
    for (int m = 0; m < PyTuple_GET_SIZE(melds); m++) {
        NewMeld *meld = &j->melds[m];
        PyObject *spec = PyTuple_GET_ITEM(melds, m);
        PyObject *declared = get_attribute(spec, names[NAME_DECLARED]);
        meld->kind = declared == NULL ? NULL : get_attribute(spec, names[NAME_KIND]);
        meld->cards = meld->kind == NULL ? NULL : get_attribute(spec, names[NAME_CARDS]);
        j->meld_count = m + 1; /* (their references released by rearranged) */
        if (meld->cards == NULL) {
            Py_XDECREF(declared);
            return false;
        }
        bool run = meld->kind == run_kind || (PyUnicode_Check(meld->kind) && PyUnicode_Compare(meld->kind, run_kind) == 0);
        bool set = !run && (meld->kind == set_kind
                            || (PyUnicode_Check(meld->kind) && PyUnicode_Compare(meld->kind, set_kind) == 0));
        long declared_card = -1;
        bool declared_read = declared == Py_None || (run && get_long(declared, &declared_card) && declared_card >= 0
                                                     && declared_card < NATURALS);
        Py_DECREF(declared);
        meld->first = j->new_count;
        meld->length = read_cards(meld->cards, j->new_cards, j->new_count);
        if (!(run || set) || !declared_read || meld->length < 0)
            return false; /* meld-kind, a declared set (judged in Python), cards that do not read */
        j->new_count += meld->length;
        const int *cards = j->new_cards + meld->first;
        if (run ? !run_facts(&variant, run_min, cards, meld->length, (int)declared_card, &meld->facts)
                : !set_facts(&variant, group_min, wild_group_min, cards, meld->length, &meld->facts))
            return false; /* not a valid meld */
        meld->owner_source = -1;
        for (int i = 0; i < meld->length && meld->owner_source < 0; i++)
            meld->owner_source = j->source_of[cards[i]];
    }
    return true;
}

/* The cards the new melds take from the hand, as counts into `from_hand` (_cards_from_hand): false when a table card
 * would leave the table. */
static bool cards_from_hand(Judgement *j, int *from_hand, int *taken)
{
    int new_cards[MOST_CARDS];
    memcpy(new_cards, j->new_cards, sizeof(int) * (size_t)j->new_count);
    qsort(new_cards, (size_t)j->new_count, sizeof(int), ascending);
    int index = 0;
    *taken = 0;
    for (int t = 0; t < j->table_count; t++) { /* the two ascending lists merged */
        while (index < j->new_count && new_cards[index] < j->table_cards[t]) {
            from_hand[new_cards[index++]]++;
            ++*taken;
        }
        if (index == j->new_count || new_cards[index] != j->table_cards[t])
            return false; /* rearrange-card-lost */
        index++;
    }
    for (; index < j->new_count; index++, ++*taken)
        from_hand[new_cards[index]]++;
    return true;
}

/* Whether meld `m` can be given a table card (a place in table_cards) not given yet, moving others' as needed (an
 * augmenting path of the bipartite matching). */
static bool assign(const Judgement *j, int m, int *given_to, bool *seen)
{
    const NewMeld *meld = &j->melds[m];
    for (int place = 0; place < j->table_count; place++) {
        if (seen[place])
            continue;
        bool holds = false;
        for (int i = 0; i < meld->length && !holds; i++)
            holds = j->new_cards[meld->first + i] == j->table_cards[place];
        if (!holds)
            continue;
        seen[place] = true;
        if (given_to[place] < 0 || assign(j, given_to[place], given_to, seen)) {
            given_to[place] = m;
            return true;
        }
    }
    return false;
}

/* _each_keeps_table_card: whether every new meld can be given a distinct table card it holds. */
static bool each_keeps_table_card(const Judgement *j)
{
    int given_to[MOST_CARDS];
    for (int place = 0; place < j->table_count; place++)
        given_to[place] = -1;
    for (int m = 0; m < j->meld_count; m++) {
        bool seen[MOST_CARDS] = {false};
        if (!assign(j, m, given_to, seen))
            return false;
    }
    return true;
}

/* TableMeld(id, kind, owner, cards, rank, suit, low, wilds): a new reference, None or NULL as new_record gives it. */
static PyObject *table_meld(const Judgement *j, const NewMeld *meld, long id)
{
    PyObject *number = PyLong_FromLong(id), *rank = PyLong_FromLong(meld->facts.rank);
    PyObject *suit = PyLong_FromLong(meld->facts.suit), *low = PyLong_FromLong(meld->facts.low);
    PyObject *wilds = PyLong_FromLong(meld->facts.wilds);
    PyObject *owner = meld->owner_source < 0
                          ? PyLong_FromLong(j->active)
                          : get_attribute(PyList_GET_ITEM(j->table, j->sources[meld->owner_source]), names[NAME_OWNER]);
    PyObject *made = NULL;
    if (number != NULL && rank != NULL && suit != NULL && low != NULL && wilds != NULL && owner != NULL) {
        PyObject *fields[10] = {j->kit[KIT_MELD], j->kit[KIT_MELD_SLOTS], number, meld->kind, owner, meld->cards,
                                rank, suit, low, wilds};
        made = new_record(NULL, fields, 10);
    }
    Py_XDECREF(number);
    Py_XDECREF(rank);
    Py_XDECREF(suit);
    Py_XDECREF(low);
    Py_XDECREF(wilds);
    Py_XDECREF(owner);
    return made;
}

/* The scratch after the play: a new reference, None when new_record declines, NULL with an exception set. */
static PyObject *scratch_after(Judgement *j, int taken)
{
    PyObject *next_id = get_attribute(j->state, names[NAME_NEXT_MELD_ID]), *size_item = seat_item(j, NAME_SIZES);
    PyObject *down_turn = seat_item(j, NAME_DOWN_TURN);
    PyObject *melds_this_turn = get_attribute(j->state, names[NAME_MELDS_THIS_TURN]);
    PyObject *stolen = melds_this_turn == NULL ? NULL : get_attribute(j->state, names[NAME_STOLEN_PENDING]);
    PyObject *hand = NULL, *table = NULL, *size = NULL, *next = NULL, *scratch = NULL;
    long first_id, size_value;
    if (next_id == NULL || stolen == NULL || size_item == NULL || down_turn == NULL
        || !get_long(next_id, &first_id) || !get_long(size_item, &size_value) || first_id > LONG_MAX - MOST_NEW_MELDS)
        goto done;
    if ((size = PyLong_FromLong(size_value - taken)) == NULL || (next = PyLong_FromLong(first_id + j->meld_count)) == NULL
        || (hand = PyList_New(CARD_COUNT)) == NULL || (table = PyList_New(0)) == NULL)
        goto done;
    for (int card = 0; card < CARD_COUNT; card++) {
        PyObject *count = PyLong_FromLong(j->hand[card]);
        if (count == NULL)
            goto done;
        PyList_SET_ITEM(hand, card, count);
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(j->table); i++) {
        bool source = false;
        for (int s = 0; s < j->source_count && !source; s++)
            source = j->sources[s] == i;
        if (!source && PyList_Append(table, PyList_GET_ITEM(j->table, i)) < 0)
            goto done;
    }
    for (int m = 0; m < j->meld_count; m++) {
        PyObject *made = table_meld(j, &j->melds[m], first_id + m);
        if (made == NULL || made == Py_None) {
            Py_XDECREF(made);
            goto done;
        }
        int appended = PyList_Append(table, made);
        Py_DECREF(made);
        if (appended < 0)
            goto done;
    }
    PyObject *fields[11] = {j->kit[KIT_SCRATCH], j->kit[KIT_SCRATCH_SLOTS], hand, size, table, next,
                            Py_True /* down: may_rearrange asked it */, down_turn, melds_this_turn, stolen, Py_True};
    scratch = new_record(NULL, fields, 11);
done:
    Py_XDECREF(next_id);
    Py_XDECREF(size_item);
    Py_XDECREF(down_turn);
    Py_XDECREF(melds_this_turn);
    Py_XDECREF(stolen);
    Py_XDECREF(hand);
    Py_XDECREF(table);
    Py_XDECREF(size);
    Py_XDECREF(next);
    if (scratch == NULL)
        PyErr_Clear(); /* a state that does not read (or no memory): the Python judgement answers */
    return scratch != NULL ? scratch : Py_NewRef(Py_None);
}

/* The timing and mode tests of step_rearrange and _check_timing: whether the player may rearrange now. */
static bool may_rearrange(Judgement *j)
{
    j->mode = identity_of(j->variant, names[NAME_REARRANGE_MODE]);
    PyObject *timing = j->mode == NULL ? NULL : identity_of(j->variant, names[NAME_LAYOFF_TIMING]);
    PyObject *down = timing == NULL ? NULL : seat_item(j, NAME_DOWN);
    Py_XDECREF(down); /* compared by identity only: True outlives the call */
    if (down == NULL || j->mode == j->kit[KIT_NO_REARRANGING] || down != Py_True) {
        PyErr_Clear();
        return false; /* no-rearrange, rearrange-before-down */
    }
    if (timing != j->kit[KIT_NEXT_TURN])
        return true;
    PyObject *down_turn = seat_item(j, NAME_DOWN_TURN), *own_turns = seat_item(j, NAME_OWN_TURNS);
    long laid, turns;
    bool waited = down_turn != NULL && own_turns != NULL && get_long(down_turn, &laid) && get_long(own_turns, &turns)
                  && laid < turns; /* else rearrange-before-next-turn */
    Py_XDECREF(down_turn);
    Py_XDECREF(own_turns);
    return waited;
}

/* The judgement of `action`: the scratch after it (a new reference), or None. */
static PyObject *judge(Judgement *j, PyObject *action, PyObject *rules)
{
    PyObject *hands = get_attribute(j->state, names[NAME_HANDS]);
    int read = hands == NULL || !PyList_Check(hands) || j->active >= PyList_GET_SIZE(hands)
                   ? 0 : read_hand(PyList_GET_ITEM(hands, j->active), j->hand);
    Py_XDECREF(hands);
    if (read <= 0 || !may_rearrange(j)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *sources = get_attribute(action, names[NAME_SOURCES]);
    PyObject *melds = sources == NULL ? NULL : get_attribute(action, names[NAME_MELDS]);
    bool judged = melds != NULL && read_sources(j, sources) && read_new_melds(j, melds, rules);
    Py_XDECREF(sources); /* the action holds both */
    Py_XDECREF(melds);
    PyErr_Clear();
    int from_hand[CARD_COUNT] = {0}, taken;
    if (!judged || !cards_from_hand(j, from_hand, &taken))
        Py_RETURN_NONE;
    if (taken == 0 && j->mode == j->kit[KIT_SEED000])
        Py_RETURN_NONE; /* rearrange-needs-hand-card */
    int keeps = truth_of(j->variant, names[NAME_REQUIRES_TABLE_CARD]);
    if (keeps < 0 || (keeps && !each_keeps_table_card(j))) {
        PyErr_Clear();
        Py_RETURN_NONE; /* rearrange-new-meld */
    }
    for (int card = 0; card < CARD_COUNT; card++) {
        if (from_hand[card] > j->hand[card])
            Py_RETURN_NONE; /* card-not-in-hand */
        j->hand[card] -= from_hand[card];
    }
    return scratch_after(j, taken);
}

PyObject *rearranged(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "rearranged(state, action, rules, kit)");
        return NULL;
    }
    if (!intern_names())
        return NULL;
    PyObject *kit = args[3];
    if (!PyTuple_Check(kit) || PyTuple_GET_SIZE(kit) != KIT_SIZE)
        Py_RETURN_NONE;
    Judgement j = {.state = args[0], .kit = &PyTuple_GET_ITEM(kit, 0)};
    for (int card = 0; card < CARD_COUNT; card++)
        j.source_of[card] = -1;
    PyObject *active = get_attribute(j.state, names[NAME_ACTIVE]);
    j.variant = active == NULL ? NULL : get_attribute(j.state, names[NAME_VARIANT]);
    j.table = j.variant == NULL ? NULL : get_attribute(j.state, names[NAME_TABLE]);
    PyObject *result;
    if (j.table != NULL && PyList_Check(j.table) && get_long(active, &j.active) && j.active >= 0)
        result = judge(&j, args[1], args[2]);
    else
        result = Py_NewRef(Py_None);
    for (int m = 0; m < j.meld_count; m++) {
        Py_XDECREF(j.melds[m].kind);
        Py_XDECREF(j.melds[m].cards);
    }
    Py_XDECREF(active);
    Py_XDECREF(j.variant);
    Py_XDECREF(j.table);
    PyErr_Clear();
    return result;
}
