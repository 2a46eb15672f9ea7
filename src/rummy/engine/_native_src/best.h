/*
 * What the best lay-down's source files share (rummy.engine._native's best_lay_down; each file follows a module of
 * the Python solver): best_lay_down.c the entry point (reading the rules, preparing the hand, the answer),
 * best_rules.c the rules' small facts (VariantRules), best_dead_naturals.c the dead naturals
 * (tables.remove_dead_naturals), best_groups.c the group slots (groups.label_groups), best_runs.c the run slots
 * (LayDownSearch._runs), best_full_runs.c runs of 13 cards (full_runs.offer_full_runs), best_assemble.c the melds
 * (assemble.build_lay_down), best_contract.c the "no final discard" passes (contract._solve, _solve_not_one).
 */
#ifndef RUMMY_NATIVE_BEST_H
#define RUMMY_NATIVE_BEST_H

#include "core.h"

#include <stdbool.h>

#define MAX_CARDS 255
#define WILD_RUN_SUIT 4 /* tables.WILD_RUN_SUIT: a run of wilds only, placed when the meld is built */

typedef struct {
    int min_size;
    bool accepts_wilds, is_pair;
} GroupSlot;

/* A run chosen for a run slot (LayDownSearch.stack): suit (or WILD_RUN_SUIT), low value (or length), high value,
 * the naturals it takes. */
typedef struct {
    int suit, low, high, n_taken;
    int taken[13];
} Run;

typedef struct {
    /* the rules (VariantRules) */
    int lo, hi, policy, trio_min;
    bool all_wild, same_rank, adjacent, greedy; /* greedy: LayDownSearch.greedy */
    /* LayDownSearch.require_all (nothing may be left) and forbid_one (leaving exactly one card is refused) */
    bool require_all, forbid_one;
    int points[CARD_COUNT];
    bool wild[CARD_COUNT];
    int rank_points[14];
    /* the contract (ContractPlan): slots sorted, with their places in the contract */
    int need, n_runs, n_groups;
    int run_min[MAX_SLOTS], run_index[MAX_SLOTS];
    bool run_same[MAX_SLOTS];
    GroupSlot group[MAX_SLOTS];
    int group_index[MAX_SLOTS];
    bool group_same[MAX_SLOTS];
    int group_last_block;
    /* the hand (LayDownSearch._prepare) */
    int wilds[MAX_CARDS]; /* the wild cards, most points first (then card order) */
    int n_wilds, wild_total, total;
    int top_wild_pts[MAX_CARDS + 1];
    int hand[NATURALS], pool[NATURALS], ends[NATURALS], rank_cnt[14];
    bool groupable[NATURALS];
    int dead_pts, dead_cnt, live_pts, live_cnt, live_groupable_pts, live_groupable_cnt, budget;
    bool defer_wild_runs;
    /* the search */
    Run stack[MAX_SLOTS];
    int best_pts, best_cnt, best_wr, best_extra;
    Run best_runs[MAX_SLOTS];
    int best_labels[MAX_SLOTS];
    bool best_has_groups, done;
} Best;

/* What the labelling of the group slots found: points and cards it adds (wilds included), its labels. */
typedef struct {
    int value, count;
    int labels[MAX_SLOTS];
} Groups;

/* A meld being built: kind, cards, declared (-1: None). */
typedef struct {
    const char *kind;
    int cards[MAX_CARDS];
    int n_cards, declared;
} Meld;

static inline int card_at(int suit, int value) { return suit * 13 + (value - 1) % 13; }

static inline int rank_of(int card) { return card % 13 + 1; }

static inline int most_of(int a, int b) { return a > b ? a : b; }

/* best_lay_down.c */
bool read_rules(Best *best, PyObject *spec_object, PyObject *extra_object);
bool search_hand(Best *best, const int *hand);

/* best_contract.c */
int solve_contract(Best **bests, const int *hand, bool final_discard_allowed, bool must_use_all, PyObject *spec,
                   PyObject *extra);

/* best_rules.c */
int max_wilds(const Best *best, int naturals);
int wild_only_group_size(const Best *best, const GroupSlot *slot);
int group_need(const Best *best, int wilds);
bool slot_wild_range(const Best *best, const GroupSlot *slot, int naturals, int *fewest, int *most);
bool wild_range(const Best *best, int naturals, const GroupSlot *const *slots, int n_slots, int *fewest, int *most);

/* best_dead_naturals.c */
void remove_dead_naturals(Best *best, int *nat, const bool *groupable_rank);

/* best_groups.c */
bool label_groups(const Best *best, int wr, Groups *out);

/* best_runs.c */
void offer(Best *best, int left_pts, int left_cnt, const Groups *groups, int wr, int extra);
void fill_runs(Best *best, int slot, int ks, int ka, int kb, int km, int wr, int rpts, int rcnt, int rgp, int rgc);

/* best_full_runs.c */
void offer_full_runs(Best *best);

/* best_assemble.c */
void build_lay_down(const Best *best, Meld *melds);

#endif
