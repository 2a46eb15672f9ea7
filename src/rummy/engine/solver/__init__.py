"""The contract solver: can a hand lay down a contract right now, and what is the best way?

This package re-exports the public API; the modules below hold the implementation.

:func:`find_lay_down` answers both questions for the contract variants (``rules.md`` §2.4–§2.5,
§3.3–§3.5, §4.3–§4.5, §5.3–§5.5): it returns one :class:`PlannedMeld` per contract slot, in slot
order, chosen so that the cards left in hand are worth as few penalty points as possible (ties: fewer
cards left), or None when the contract cannot be laid down.  The answer is exact.
:func:`best_melds_from` does the same job for free melding (``basic``).

>>> from rummy.engine.cards import parse_card, to_counts
>>> from rummy.engine.house_rules import get_variant
>>> v = get_variant("progressive-buy-it")
>>> hand = to_counts(map(parse_card, "7H 7S 7D 9C 9D 9S JK 3D 4D 5D 6D 2C".split()))
>>> [str(m) for m in find_lay_down(hand, v.round_rules(5, 4).contract, v)]
['set:7D-7H-7S-JK', 'set:9C-9D-9S', 'run:3D-4D-5D-6D']

Conventions and limits
----------------------
* A card of a wild rank is a wild (``rules.md`` §2.3), also where it stands for itself.  Under the
  non-default option ``twos_natural_in_place`` the hand's twos are split every way into wild ones and
  natural ones (standing only in their own place); each split is searched (wild twos standing in as
  jokers), the lay-downs the engine's own checks reject are dropped, and the best one left wins.  There
  the answer is exact per split but a split's search values a stand-in as a joker, which matters only
  where jokers and twos score differently.
* A group slot whose ``min_size`` is below ``variant.group_min`` is a *pair slot*; its meld has kind
  ``"pair"`` (also when it holds three or more cards) and may hold wilds only if ``variant.pair_wilds``.
* A meld made only of wilds carries ``declared``: the rank of a set or pair (the smallest rank no
  other group of the lay-down uses), or the lowest card of a run.  A ``may-i`` trio of wilds
  (``wild_group_min`` with ``wild_group_counts_as_set``, only when ``all_wild_melds`` is off) fills a
  set slot, not a pair slot, and has ``declared = None``.
* Extra wild cards that are not needed anywhere go to the first group of the lay-down that accepts
  them (or onto the ends of runs when the contract has no group); which wild card sits where is
  cosmetic (wilds of equal rank are interchangeable), but the wilds laid down are always the ones worth
  the most points.

Algorithm
---------
1. Per variant (once) and per contract (once): tables of the variant's facts, the slots sorted
   (identical slots adjacent), minimum card counts, which run lengths and wilds a meld may have.
2. Per hand, cheap exact necessary conditions: too few cards; *dead* naturals (a natural whose rank
   cannot make any group slot and that lies in no window of the shortest run slot that the wilds can
   complete) are certainly left in hand, so more dead cards than the slack (cards beyond the contract's
   minimum) reject the hand, and with ``must_use_all`` a single dead card does.
3. A depth-first search over the run slots, in canonical order (identical slots take runs in
   non-decreasing (suit, low, high) order, so no lay-down is seen twice), with a running lower bound
   on the cards certainly lost (naturals the remaining runs can no longer reach and groups cannot
   use), pruned against the slack and against the best lay-down found (branch and bound).  In the
   common house rules (any number of wilds, all-wild melds allowed, oversize melds allowed) runs take
   naturals greedily and only reach past the slot minimum with naturals at both ends; extra wilds are
   added at the end.  That canonical form provably contains an optimal lay-down (exchange
   arguments, see :class:`~rummy.engine.solver.search.LayDownSearch`; runs that all hold 13 cards are searched
   apart).  Otherwise every choice of naturals is enumerated.  In greedy mode a large hand first gets
   a quick greedy lay-down (the *seed*), so there is something to cut against from the start (it never
   changes the answer: the search still returns the first best lay-down of its canonical order).  Each
   run chosen is cut when the points of naturals the later slots could at most take cannot make up for
   the best lay-down found: the best window of each suit that the wilds left can complete (memoised per
   rank mask), per suit the best copies of each value for several runs, per group the best rank; whole
   suits and low values are skipped the same way before any run of them is built.
4. Group slots are then filled from the remaining cards by a small labelling search (which rank goes
   in which slot; every natural of a chosen rank joins it, wilds fill the deficits, spare wilds are
   added where the wild policy allows), memoised per call on the remaining rank counts.  With exact
   contract sizes an explicit search over (rank, naturals, wilds) per slot is used instead.
5. "No final discard" (exactly one card left is forbidden): if the best lay-down leaves exactly one
   card, a second search rejects completions leaving one card (enough for lay-downs leaving three or
   more, which are maximal), and lay-downs leaving exactly two are found by trying pairs of cards in
   order of points with the must-use-all search (see :mod:`rummy.engine.solver.contract`).

Modules
-------
* :mod:`~rummy.engine.solver.contract`: :func:`find_lay_down`, :func:`can_lay_down`,
  :func:`first_lay_down` (step 5 too).
* :mod:`~rummy.engine.solver.tables`: per-variant and per-contract tables, dead naturals (steps 1–2).
* :mod:`~rummy.engine.solver.search`: the branch-and-bound search over the run slots (step 3), with
  :mod:`~rummy.engine.solver.bounds` (its cuts), :mod:`~rummy.engine.solver.seed` (the first lay-down to cut against)
  and :mod:`~rummy.engine.solver.full_runs` (runs of 13 cards).
* :mod:`~rummy.engine.solver.groups`: filling the group slots at the search's leaves (step 4).
* :mod:`~rummy.engine.solver.assemble`: the chosen lay-down as concrete melds.
* :mod:`~rummy.engine.solver.free_melding`: :func:`best_melds_from`.
* :mod:`~rummy.engine.solver.planned`: :class:`PlannedMeld`.
"""

from __future__ import annotations

from rummy.engine.solver.contract import can_lay_down, find_lay_down, first_lay_down
from rummy.engine.solver.free_melding import best_melds_from
from rummy.engine.solver.planned import PlannedMeld

# Internals under their historical names: tests/test_solver.py switches the canonical shortcuts off
# through them.
from rummy.engine.solver.search import LayDownSearch as _Search  # noqa: F401
from rummy.engine.solver.tables import rules_for as _rules_for  # noqa: F401

__all__ = ["PlannedMeld", "best_melds_from", "can_lay_down", "find_lay_down", "first_lay_down"]
