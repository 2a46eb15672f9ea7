/*
 * rummy.engine._native: the compiled core beside the Python engine (the _decimal/_pydecimal pattern).
 *
 * The Python engine is the reference; this module answers, exactly as it does, the queries it covers:
 *
 *   lay_down_exists(hand, spec) -> bool | None
 *       Whether a contract can be laid down from a hand (a final discard allowed, nothing required to be
 *       used): rummy.engine.solver.contract.can_lay_down under the rules packed in `spec` by
 *       rummy.engine.solver.native.contract_spec (the facts of VariantRules and ContractPlan).  The dispatch,
 *       rummy.engine.solver.native.lay_down_exists, sends here only the rule mixes this search covers.
 *
 *   best_lay_down(hand, spec, extra) -> tuple | False | None
 *       The best lay-down itself, in best_lay_down.c.
 *
 *   spare_builds(hand, held, spares, rules, run_min, group_min) -> list | None
 *       The spare-card rearrangements a hand can make (rummy.engine.deadlock.SpareBuilds.each), in
 *       spare_builds.c.
 *
 *   rearrangements(moves, hand, seat, size, quick, takers, game, table, offers, kit) -> int | None
 *       The rows of the listing's rearrangements (rummy.engine.moves._rearrangements), in rearrangements.c.
 *
 *   held_actions(out, hand, seat, offers, verb, memo, make) -> True | None
 *       The lay-offs or wild swaps on offer whose card a hand holds (rummy.engine.moves._held_layoffs and
 *       _held_swaps), in table_plays.c.
 *
 * The Python search (rummy.engine.solver.search.LayDownSearch) looks for the *best* lay-down; this one only
 * asks whether there is one, over the same model of melds (solver/__init__.py, "Conventions and limits"):
 *
 *   - a wild is any card of a wild rank (VariantRules.wild); the other cards below 52 are naturals;
 *   - a run: one suit, values lo..hi (value 14 is the ace again), at least its slot's minimum and at most 13
 *     cards, each value a natural of that card or a wild; the wild policy bounds its wilds
 *     (VariantRules.max_wilds); a run of wilds only only where all-wild melds are allowed; runs of one suit
 *     may not overlap or touch unless adjacent runs are allowed (LayDownSearch._touches);
 *   - a group: naturals of one rank and wilds (none in a pair slot that refuses wilds), at least the
 *     slot's size; or a group of wilds only (VariantRules.wild_only_group_size); two groups of one rank only
 *     where same-rank groups are allowed.
 *
 * Exchange arguments keep the search small while exact (each is noted where it is used).
 */
#include "core.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The layout of a spec (rummy.engine.solver.native.contract_spec): a header, the run slots, the group slots, the wild flags. */
enum {
    SPEC_LO, SPEC_HI, SPEC_POLICY, SPEC_ALL_WILD, SPEC_TRIO_MIN, SPEC_SAME_RANK, SPEC_ADJACENT, SPEC_EXACT,
    SPEC_NEED, SPEC_RUNS, SPEC_GROUPS, SPEC_HEADER
};

typedef struct {
    int min_size;
    bool accepts_wilds;
    bool is_pair;
} GroupSlot;

typedef struct {
    int suit, low, high;
} PlacedRun;

/* One existence search: the rules, the contract, and the cards not yet placed. */
typedef struct {
    int lo, hi, policy, trio_min;
    bool all_wild, same_rank, adjacent, exact; /* exact: every meld holds exactly its slot's size */
    int n_runs, n_groups, need;
    int run_min[MAX_SLOTS];
    GroupSlot group[MAX_SLOTS];
    unsigned char pool[NATURALS]; /* naturals not yet in a meld */
    int rank_cnt[14];             /* per rank 1..13, the naturals of the pool */
    int rank_groups[14];          /* per rank, the groups given it so far */
    int group_label[MAX_SLOTS];   /* per group slot, its rank (0: wilds only) */
    PlacedRun runs[MAX_SLOTS];
    bool runs_alone;              /* every slot a run slot of one size: fill_runs_from remembers failures */
    uint64_t exhausted[MAX_SLOTS][4]; /* per slot and first suit, bit w: no filling with w wilds (fill_runs_from) */
} Search;

static bool fill_runs(Search *search, int slot, int wilds_left);

/* The card at run value `value` (1..14) of `suit`: tables.VariantRules.card_at. */
static int card_at(int suit, int value) { return suit * 13 + (value - 1) % 13; }

/* Most wilds a meld with `naturals` natural cards may hold: VariantRules.max_wilds. */
static int max_wilds(const Search *search, int naturals)
{
    if (search->policy == POLICY_NONE)
        return UNLIMITED;
    if (search->policy == POLICY_RATIO)
        return naturals;
    return 1;
}

/* Size of the smallest group of wilds only that fills a group slot, or 0: VariantRules.wild_only_group_size;
 * with exact sizes only one of the slot's size (groups.general_groups). */
static int wild_only_group_size(const Search *search, const GroupSlot *slot)
{
    int size = 0;
    if (search->all_wild && slot->accepts_wilds)
        size = slot->min_size;
    else if (search->trio_min && !slot->is_pair)
        size = slot->min_size > search->trio_min ? slot->min_size : search->trio_min;
    if (search->exact && size != slot->min_size)
        return 0;
    return size;
}

/* Whether a run of `naturals` and `wilds` is valid under the wild policy (LayDownSearch._runs_full's `least`). */
static bool run_policy_holds(const Search *search, int naturals, int wilds)
{
    if (naturals == 0)
        return search->all_wild;
    return wilds <= max_wilds(search, naturals);
}

/* Whether run [low, high] of `suit` overlaps or touches a run placed before slot `slot`: LayDownSearch._touches. */
static bool touches(const Search *search, int slot, int suit, int low, int high)
{
    for (int i = 0; i < slot; i++) {
        const PlacedRun *run = &search->runs[i];
        if (run->suit == suit && low <= run->high + 1 && run->low <= high + 1)
            return true;
    }
    return false;
}

/* Fill the group slots from `slot` on with the naturals of the pool and `wilds_left` wilds (groups.label_groups,
 * general_groups, asked only whether some filling exists).  Without same-rank groups a group takes every
 * natural of its rank, or with exact sizes as many as its size (more naturals never make a group invalid:
 * fewer wilds needed, as many allowed or more; and no natural must be used).  Identical
 * slots take labels in non-decreasing order (wilds only first): any filling can be reordered so. */
static bool fill_groups(Search *search, int slot, int wilds_left)
{
    if (slot == search->n_groups)
        return true;
    const GroupSlot *here = &search->group[slot];
    bool same_as_previous = slot > 0 && here->min_size == search->group[slot - 1].min_size
                            && here->accepts_wilds == search->group[slot - 1].accepts_wilds
                            && here->is_pair == search->group[slot - 1].is_pair;
    int least_label = same_as_previous ? search->group_label[slot - 1] : 0;
    int wild_only = wild_only_group_size(search, here);
    if (least_label == 0 && wild_only && wild_only <= wilds_left) {
        search->group_label[slot] = 0;
        if (fill_groups(search, slot + 1, wilds_left - wild_only))
            return true;
    }
    for (int rank = least_label > 1 ? least_label : 1; rank <= 13; rank++) {
        int held = search->rank_cnt[rank];
        if (!held || (!search->same_rank && search->rank_groups[rank]))
            continue;
        int most_naturals = search->exact && held > here->min_size ? here->min_size : held;
        int fewest = search->same_rank ? 1 : most_naturals;
        for (int naturals = most_naturals; naturals >= fewest; naturals--) {
            int deficit = here->min_size > naturals ? here->min_size - naturals : 0;
            int most = here->accepts_wilds ? max_wilds(search, naturals) : 0;
            if (deficit > most || deficit > wilds_left)
                continue;
            search->rank_cnt[rank] -= naturals;
            search->rank_groups[rank]++;
            search->group_label[slot] = rank;
            bool found = fill_groups(search, slot + 1, wilds_left - deficit);
            search->rank_cnt[rank] += naturals;
            search->rank_groups[rank]--;
            if (found)
                return true;
        }
    }
    return false;
}

/* Whether a natural the pool holds at a run's value may be needed by a later slot, so that a wild must be tried in
 * its place.  Not by a later run where any mix of naturals and wilds makes a run (wild policy "none", all-wild
 * melds allowed): were it in a later run, that run would stay valid with the wild and this one with the natural. */
static bool natural_needed_elsewhere(const Search *search, int slot)
{
    if (search->n_groups > 0)
        return true;
    return slot + 1 < search->n_runs && !(search->policy == POLICY_NONE && search->all_wild);
}

/* Place value `value` of the run [low, high] of `suit` in slot `slot`, then the rest of the run and the later
 * slots (LayDownSearch._runs_full, every choice of naturals).  A wild stands where the pool holds the natural
 * only when that natural may be needed by a later run or a group: otherwise a lay-down leaving it in hand
 * stays valid with the natural in the wild's place (one natural more, one wild fewer, under every policy). */
static bool fill_run_values(Search *search, int slot, int suit, int low, int high, int value, int naturals,
                            int wilds, int wilds_left)
{
    if (value > high) {
        if (!run_policy_holds(search, naturals, wilds))
            return false;
        return fill_runs(search, slot + 1, wilds_left - wilds);
    }
    if (search->policy == POLICY_ONE && wilds > 1)
        return false;
    if (search->policy == POLICY_RATIO && wilds > naturals + (high - value + 1))
        return false;
    int card = card_at(suit, value);
    int rank = card % 13 + 1;
    if (search->pool[card]) {
        search->pool[card]--;
        search->rank_cnt[rank]--;
        bool found = fill_run_values(search, slot, suit, low, high, value + 1, naturals + 1, wilds, wilds_left);
        search->pool[card]++;
        search->rank_cnt[rank]++;
        if (found)
            return true;
        if (!natural_needed_elsewhere(search, slot))
            return false;
    }
    if (wilds >= wilds_left)
        return false;
    return fill_run_values(search, slot, suit, low, high, value + 1, naturals, wilds + 1, wilds_left);
}

/* Fill run slot `slot` with the run [low, high] of `suit`, longer than the slot's minimum, then the later slots.
 * Such a run takes naturals at both ends: with a wild at an end, the run without it is as valid (as many
 * naturals, one wild fewer, touching less) and leaves the wild in hand. */
static bool fill_longer_run(Search *search, int slot, int suit, int low, int high, int wilds_left)
{
    int first = card_at(suit, low), last = card_at(suit, high); /* (two cards: a run holds at most 13) */
    if (!search->pool[first] || !search->pool[last])
        return false;
    search->pool[first]--, search->rank_cnt[first % 13 + 1]--;
    search->pool[last]--, search->rank_cnt[last % 13 + 1]--;
    bool found = fill_run_values(search, slot, suit, low + 1, high - 1, low + 1, 2, 0, wilds_left);
    search->pool[first]++, search->rank_cnt[first % 13 + 1]++;
    search->pool[last]++, search->rank_cnt[last % 13 + 1]++;
    return found;
}

/* The longest run worth trying from a slot's minimum: under "none" and "at most one" a run longer than the
 * minimum holds a valid run of exactly the minimum (a window around one of its naturals, fewer wilds, touching
 * less); under "not outnumber" it may not (natural, wild, wild, natural), so every length is tried. */
static int longest_run_tried(const Search *search, int min_size, int low)
{
    if (search->policy != POLICY_RATIO || search->exact) /* (exact sizes: LayDownSearch._runs_full) */
        return min_size;
    int longest = search->hi - low + 1;
    return longest < 13 ? longest : 13;
}

/* Place run slot `slot` in `suit` (every low value and length), then fill the later slots: LayDownSearch._runs.
 * Identical slots take runs in non-decreasing (suit, low, high) order. */
static bool place_run(Search *search, int slot, int suit, int wilds_left)
{
    int min_size = search->run_min[slot];
    bool same_as_previous = slot > 0 && search->run_min[slot - 1] == min_size;
    const PlacedRun *previous =
        same_as_previous && search->runs[slot - 1].suit == suit ? &search->runs[slot - 1] : NULL;
    for (int low = previous ? previous->low : search->lo; low + min_size - 1 <= search->hi; low++) {
        int longest = longest_run_tried(search, min_size, low);
        for (int size = min_size; size <= longest; size++) {
            int high = low + size - 1;
            if (previous && low == previous->low && high < previous->high)
                continue;
            if (!search->adjacent && touches(search, slot, suit, low, high))
                continue;
            search->runs[slot] = (PlacedRun){suit, low, high};
            bool found = size == min_size ? fill_run_values(search, slot, suit, low, high, low, 0, 0, wilds_left)
                                          : fill_longer_run(search, slot, suit, low, high, wilds_left);
            if (found)
                return true;
        }
    }
    return false;
}

/* Whether run slot `slot` and the later ones can be filled in suits from `suit` on, where no run is placed yet.
 * When the contract is runs of one size only (`runs_alone`), the answer depends only on (slot, suit, wilds left):
 * the runs come in suit order, nothing else takes naturals, and the pool of those suits is the hand's.
 * So a failure is remembered, and the suits already passed are not searched again for every way of filling them. */
static bool fill_runs_from(Search *search, int slot, int suit, int wilds_left)
{
    if (suit == 4)
        return false;
    uint64_t known = wilds_left < 64 ? (uint64_t)1 << wilds_left : 0;
    if (search->exhausted[slot][suit] & known)
        return false;
    if (place_run(search, slot, suit, wilds_left) || fill_runs_from(search, slot, suit + 1, wilds_left))
        return true;
    search->exhausted[slot][suit] |= known;
    return false;
}

/* Fill run slot `slot` and the later ones (LayDownSearch._runs): every suit, low value and length, then the
 * groups.  Identical slots take runs in non-decreasing (suit, low, high) order. */
static bool fill_runs(Search *search, int slot, int wilds_left)
{
    if (slot == search->n_runs)
        return fill_groups(search, 0, wilds_left);
    if (slot > 0 && search->runs_alone) {
        int suit = search->runs[slot - 1].suit;
        return place_run(search, slot, suit, wilds_left) || fill_runs_from(search, slot, suit + 1, wilds_left);
    }
    bool same_as_previous = slot > 0 && search->run_min[slot - 1] == search->run_min[slot];
    for (int suit = same_as_previous ? search->runs[slot - 1].suit : 0; suit < 4; suit++)
        if (place_run(search, slot, suit, wilds_left))
            return true;
    return false;
}

/* Whether every slot is a run slot of one size, so that all runs come in suit order and nothing but runs takes
 * naturals (fill_runs_from). */
static bool runs_alone(const Search *search)
{
    if (search->n_groups > 0)
        return false;
    for (int slot = 1; slot < search->n_runs; slot++)
        if (search->run_min[slot] != search->run_min[0])
            return false;
    return true;
}

/* Read the spec (bytes) into `search`; false (with an exception set) when it is malformed. */
static bool read_spec(Search *search, const unsigned char *spec, Py_ssize_t length, unsigned char *wild)
{
    if (length < SPEC_HEADER) {
        PyErr_SetString(PyExc_ValueError, "contract spec too short");
        return false;
    }
    search->lo = spec[SPEC_LO];
    search->hi = spec[SPEC_HI];
    search->policy = spec[SPEC_POLICY];
    search->all_wild = spec[SPEC_ALL_WILD];
    search->trio_min = spec[SPEC_TRIO_MIN];
    search->same_rank = spec[SPEC_SAME_RANK];
    search->adjacent = spec[SPEC_ADJACENT];
    search->exact = spec[SPEC_EXACT];
    search->need = spec[SPEC_NEED];
    search->n_runs = spec[SPEC_RUNS];
    search->n_groups = spec[SPEC_GROUPS];
    if (search->n_runs > MAX_SLOTS || search->n_groups > MAX_SLOTS || search->policy > POLICY_ONE
        || search->lo < 1 || search->hi > 14
        || length != SPEC_HEADER + search->n_runs + 3 * search->n_groups + CARD_COUNT) {
        PyErr_SetString(PyExc_ValueError, "malformed contract spec");
        return false;
    }
    const unsigned char *at = spec + SPEC_HEADER;
    for (int i = 0; i < search->n_runs; i++)
        search->run_min[i] = *at++;
    for (int i = 0; i < search->n_groups; i++) {
        search->group[i].min_size = at[0];
        search->group[i].accepts_wilds = at[1];
        search->group[i].is_pair = at[2];
        at += 3;
    }
    memcpy(wild, at, CARD_COUNT);
    search->runs_alone = runs_alone(search);
    return true;
}

/* Read a count vector into `hand` (core.h).  Most counts are 0 or 1, and CPython shares the int objects of small
 * values: an item that is one of those two objects is read by its identity, any other converted. */
int read_hand(PyObject *hand_object, int *hand)
{
    static PyObject *small[2];
    if (small[1] == NULL && ((small[0] = PyLong_FromLong(0)) == NULL || (small[1] = PyLong_FromLong(1)) == NULL))
        return -1;
    if (!PyList_Check(hand_object) && !PyTuple_Check(hand_object))
        return 0;
    PyObject *fast = PySequence_Fast(hand_object, "a hand is a sequence of counts");
    if (fast == NULL)
        return -1;
    int result = PySequence_Fast_GET_SIZE(fast) == CARD_COUNT;
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int card = 0; result == 1 && card < CARD_COUNT; card++) {
        PyObject *item = items[card];
        if (item == small[0] || item == small[1]) {
            hand[card] = item == small[1];
            continue;
        }
        long count = PyLong_AsLong(item);
        if (count == -1 && PyErr_Occurred())
            result = -1;
        else if (count < 0 || count > 255)
            result = 0;
        else
            hand[card] = (int)count;
    }
    Py_DECREF(fast);
    return result;
}

/* lay_down_exists(hand, spec): contract.can_lay_down with a final discard allowed and must_use_all off; None
 * when `hand` is not a list or tuple of 53 counts from 0 to 255 (the Python search answers then). */
PyObject *lay_down_exists(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2 || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "lay_down_exists(hand, spec: bytes)");
        return NULL;
    }
    Search search;
    memset(&search, 0, sizeof search);
    unsigned char wild[CARD_COUNT];
    int hand[CARD_COUNT];
    if (!read_spec(&search, (const unsigned char *)PyBytes_AS_STRING(args[1]), PyBytes_GET_SIZE(args[1]), wild))
        return NULL;
    int read = read_hand(args[0], hand);
    if (read < 0)
        return NULL;
    if (read == 0)
        Py_RETURN_NONE;
    int total = 0, wilds = 0;
    for (int card = 0; card < CARD_COUNT; card++) {
        if (wild[card]) {
            wilds += hand[card];
        } else if (card < NATURALS) {
            search.pool[card] = (unsigned char)hand[card];
            search.rank_cnt[card % 13 + 1] += hand[card];
        }
        if (wild[card] || card < NATURALS)
            total += hand[card];
    }
    if (total < search.need)
        Py_RETURN_FALSE;
    return PyBool_FromLong(fill_runs(&search, 0, wilds));
}

static PyMethodDef native_methods[] = {
    {"lay_down_exists", (PyCFunction)(void (*)(void))lay_down_exists, METH_FASTCALL,
     "lay_down_exists(hand, spec) -> bool | None: whether the contract packed in spec can be laid down from hand."},
    {"best_lay_down", (PyCFunction)(void (*)(void))best_lay_down, METH_FASTCALL,
     "best_lay_down(hand, spec, extra) -> tuple | False | None: the best lay-down (best_lay_down.c)."},
    {"spare_builds", (PyCFunction)(void (*)(void))spare_builds, METH_FASTCALL,
     "spare_builds(hand, held, spares, rules, run_min, group_min) -> list | None: the spare-card rearrangements "
     "(spare_builds.c)."},
    {"rearrangements", (PyCFunction)(void (*)(void))rearrangements, METH_FASTCALL,
     "rearrangements(moves, hand, seat, size, quick, takers, game, table, offers, kit) -> int | None: the "
     "rearrangements the listing offers, appended to moves (rearrangements.c)."},
    {"play_actions", (PyCFunction)(void (*)(void))play_actions, METH_FASTCALL,
     "play_actions(game, facts, kit) -> (moves, deferred) | None: the play phase's candidate moves (play_actions.c)."},
    {"held_actions", (PyCFunction)(void (*)(void))held_actions, METH_FASTCALL,
     "held_actions(out, hand, seat, offers, verb, memo, make) -> True | None: the lay-offs or wild swaps on offer "
     "whose card the hand holds, appended to out (table_plays.c)."},
    {"purchase_moves", (PyCFunction)(void (*)(void))purchase_moves, METH_FASTCALL,
     "purchase_moves(out, hand, seat, purchase_cards, discard, done, rules, kit, game, held) -> True | None: the "
     "purchase variant's books, purchases, trades and exchanges, appended to out (purchase_moves.c)."},
    {"observation", (PyCFunction)(void (*)(void))observation, METH_FASTCALL,
     "observation(out, inverse, layout, hand, discard, show_all, melds, claim, head, seats, seat, counts, ring, "
     "candidates, kit, hand_size) -> True | None: one seat's observation vector written into out (observation.c)."},
    {"single_melds", (PyCFunction)(void (*)(void))single_melds, METH_FASTCALL,
     "single_melds(hand, rules, group_min, run_min, kit) -> list | None: the sets and runs of naturals "
     "a hand can form on its own (basic_melds.c)."},
    {"unmeldable_pool", (PyCFunction)(void (*)(void))unmeldable_pool, METH_FASTCALL,
     "unmeldable_pool(pack, table, group_min, run_min, ace_high) -> False | list | None: the cards off the table "
     "when they can form no new meld (basic_melds.c)."},
    {"numbered", (PyCFunction)(void (*)(void))numbered, METH_FASTCALL,
     "numbered(space, state, moves, entries, table, kit) -> (ids, composites, unslotted) | None: the ids of a "
     "listing and the composite moves its slots name (mask_ids.c)."},
    {"history_add", (PyCFunction)(void (*)(void))history_add, METH_FASTCALL,
     "history_add(counts, ring, players, unit, log, start, stop, pickups, kit) -> True | None: the actions "
     "log[start:stop] added to the observation's history (history.c)."},
    {"copy_fields", (PyCFunction)(void (*)(void))copy_fields, METH_FASTCALL,
     "copy_fields(state, fields, kinds) -> object | None: a copy of a game state's fields, its lists copied "
     "(state_copy.c)."},
    {"new_record", (PyCFunction)(void (*)(void))new_record, METH_FASTCALL,
     "new_record(type, fields, *values) -> object | None: a slotted dataclass record made from its field values "
     "(records.c)."},
    {"view_record", (PyCFunction)(void (*)(void))view_record, METH_FASTCALL,
     "view_record(type, fields, state, seat, actions, kit) -> PlayerView | None: a seat's view with the legal "
     "actions listed, its fields read from the game state as view.player_view reads them (view_fields.c)."},
    {"simple_check", (PyCFunction)(void (*)(void))simple_check, METH_FASTCALL,
     "simple_check(state, action, kit) -> bool | None: whether the rules accept a claim answer, draw, take or "
     "discard (simple_check.c)."},
    {"draw_actions", (PyCFunction)(void (*)(void))draw_actions, METH_FASTCALL,
     "draw_actions(state, actions, kit) -> list | None: the draw phase's legal draw, take and own buy, of the "
     "active player's `actions` (simple_steps.c)."},
    {"simple_apply", (PyCFunction)(void (*)(void))simple_apply, METH_FASTCALL,
     "simple_apply(state, action, kit) -> True | None: apply a claim answer, draw, take, discard or purchase step the "
     "compiled judgement accepts, as rules.apply does (simple_steps.c, purchase_steps.c)."},
    {"game_apply", (PyCFunction)(void (*)(void))game_apply, METH_FASTCALL,
     "game_apply(game, action, kit, kind, fields) -> Applied | None: Game.apply of an action simple_apply applies, "
     "with its record (game_apply.c)."},
    {"most_cards_laid", (PyCFunction)(void (*)(void))most_cards_laid, METH_FASTCALL,
     "most_cards_laid(hand, wilds, runs, groups) -> int | None: at most how many cards a lay-down uses "
     "(play_listing.c)."},
    {"discards", (PyCFunction)(void (*)(void))discards, METH_FASTCALL,
     "discards(hand, actions, taken) -> list | None: the discard of each card kind held but taken (play_listing.c)."},
    {"gather_offers", (PyCFunction)(void (*)(void))gather_offers, METH_FASTCALL,
     "gather_offers(table, variant, memo, work_out, kit, put) -> (layoffs, swaps, splits) | None: a table's offers, "
     "meld by meld (play_listing.c)."},
    {"meld_offers", (PyCFunction)(void (*)(void))meld_offers, METH_FASTCALL,
     "meld_offers(meld, kit) -> (layoffs, swaps, splits) | None: what one table meld offers (meld_offers.c)."},
    {"layoffs", (PyCFunction)(void (*)(void))layoffs, METH_FASTCALL,
     "layoffs(kind, rank, suit, low, length, wilds, rules) -> tuple | None: every (card, end) a meld of this shape "
     "takes on a lay-off (play_listing.c)."},
    {"going_out", (PyCFunction)(void (*)(void))going_out, METH_FASTCALL,
     "going_out(cards, table, rules) -> tuple | False | None: lay-offs playing every card, as (meld index, end) "
     "per card (play_listing.c)."},
    {"rearrangement_part", (PyCFunction)(void (*)(void))rearrangement_part, METH_FASTCALL,
     "rearrangement_part(meld, rules) -> (spares, splits) | None: a table meld's spares and valid splits, as "
     "table_offers._rearrangement_part (meld_parts.c)."},
    {"rearrangement_parts", (PyCFunction)(void (*)(void))rearrangement_parts, METH_FASTCALL,
     "rearrangement_parts(table, variant, rules, memo, what, work_out) -> list | None: each meld's memoised part, "
     "worked out in C where it can be (meld_parts.c)."},
    {"spare_action", (PyCFunction)(void (*)(void))spare_action, METH_FASTCALL,
     "spare_action(offers, seat, used, kind, cards, kit) -> Action | None: a spare-card rearrangement written out, as "
     "TableOffers.spare_rearrangement (spare_action.c)."},
    {"rearranged", (PyCFunction)(void (*)(void))rearranged, METH_FASTCALL,
     "rearranged(state, action, rules, kit) -> TurnScratch | None: the active player's scratch after a rearrangement "
     "the rules accept, as rules.table.step_rearrange judges it (rearranged.c)."},
    {"planner_search", (PyCFunction)(void (*)(void))planner_search, METH_FASTCALL,
     "planner_search(counts, shape, rules, ceiling) -> (lowest, leaves, wilds) | None: the contract planner's search "
     "of a hand's best plans (planner.c)."},
    {"planner_outs", (PyCFunction)(void (*)(void))planner_outs, METH_FASTCALL,
     "planner_outs(leaves, count, deficit, wilds, rules) -> (outs, leaves): the outs of planner_search's leaves "
     "(planner.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "rummy.engine._native",
    "The compiled core of the rules engine (see rummy.engine.backends and docs/engine.md, Backends).", -1,
    native_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&native_module); }
