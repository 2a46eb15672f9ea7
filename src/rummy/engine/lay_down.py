"""The lay-down among the candidate moves of a player not yet down: whether there is one (cheap) and which
(the solver's best, worked out when read).

Whether a hand can lay the contract down is settled by a *witness*: a lay-down found earlier for the same
contract under the same rules whose cards the hand still holds (the hand can lay that one down), else by the
solver's search for any lay-down (:func:`rummy.solver.first_lay_down`), which stops at the first it meets
and becomes a witness in turn.  In random play a hand changes by a card or two between decisions, so most
answers come from a witness.  The best lay-down (:func:`best_lay_down`) is the full branch-and-bound search.

:func:`deferrable` says when the listing may put the best lay-down off until it is read: only when whatever
the best one is, it is legal: it leaves at least two cards in hand (then a discard always remains, rules.md
§2.10) and the round has no rule that could refuse it for what it leaves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.engine.deadlock import wild_flags
from rummy.engine.state import GameState
from rummy.melds import MeldSpec
from rummy.solver import find_lay_down, first_lay_down
from rummy.variants import RUN, Slot, Variant

# (variant id, contract, final discard allowed, must use all, hand) -> the best lay-down or None.
_BEST: dict[tuple[object, ...], tuple[Variant, tuple[MeldSpec, ...] | None]] = {}
# (variant id, contract) -> (variant, recent witnesses as (card, count) pairs, newest last).
_WITNESSES: dict[tuple[int, tuple[Slot, ...]], tuple[Variant, list[tuple[tuple[int, int], ...]]]] = {}
_WITNESSES_KEPT = 8
_LONGEST_RUN = 13  # the solver's runs hold at most 13 cards


def best_lay_down(variant: Variant, contract: tuple[Slot, ...], hand: Sequence[int], *,
                  final_discard_allowed: bool, must_use_all: bool) -> tuple[MeldSpec, ...] | None:
    """The solver's best lay-down of ``contract`` from ``hand`` (memoised on the hand)."""
    key = (id(variant), contract, final_discard_allowed, must_use_all, tuple(hand))
    hit = _BEST.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    found = find_lay_down(hand, contract, variant, final_discard_allowed=final_discard_allowed,
                          must_use_all=must_use_all)
    if len(_BEST) > 50_000:
        _BEST.clear()
    _BEST[key] = (variant, found)
    if found is not None and final_discard_allowed and not must_use_all:
        _remember(variant, contract, found)
    return found


def deferrable(game: GameState) -> bool:
    """Whether the active player's best lay-down, if there is one, is certainly legal (see the module
    docstring), so the listing may work it out only when it is read."""
    rules = game.rules
    seat = game.active
    if not rules.final_discard_allowed or rules.must_go_out_on_laydown or game.stolen_pending:
        return False
    return game.sizes[seat] - most_cards_laid(game.variant, rules.contract, game.hands[seat]) >= 2


def most_cards_laid(variant: Variant, contract: Sequence[Slot], hand: Sequence[int]) -> int:
    """At most how many cards a lay-down of ``contract`` from ``hand`` uses: every wild, per run one natural of
    each value of the suit held in most kinds (13 at most), and per group slot every natural of one rank (the
    ranks held most)."""
    wild = wild_flags(variant)
    wilds = 0
    by_rank = [0] * 14
    for card, count in enumerate(hand):
        if count:
            if wild[card]:
                wilds += count
            else:
                by_rank[card % 13 + 1] += count
    runs = sum(1 for slot in contract if slot.kind == RUN)
    groups = len(contract) - runs
    # A run holds each value of its suit once: its naturals are at most the kinds of that suit held.
    kinds = max(sum(1 for card in range(suit * 13, suit * 13 + 13) if hand[card] and not wild[card])
                for suit in range(4))
    return wilds + min(_LONGEST_RUN, kinds) * runs + sum(sorted(by_rank, reverse=True)[:groups])


def can_lay_down_now(variant: Variant, contract: tuple[Slot, ...], hand: Sequence[int]) -> bool:
    """Whether ``hand`` can lay ``contract`` down (a final discard allowed, not everything needed)."""
    key = (id(variant), contract)
    entry = _WITNESSES.get(key)
    if entry is not None and entry[0] is variant:
        for witness in reversed(entry[1]):
            if all(hand[card] >= count for card, count in witness):
                return True
    found = first_lay_down(hand, contract, variant)
    if found is None:
        return False
    _remember(variant, contract, found)
    return True


def _remember(variant: Variant, contract: tuple[Slot, ...], lay_down: tuple[MeldSpec, ...]) -> None:
    key = (id(variant), contract)
    entry = _WITNESSES.get(key)
    if entry is None or entry[0] is not variant:
        if len(_WITNESSES) > 256:
            _WITNESSES.clear()
        entry = _WITNESSES[key] = (variant, [])
    counts: dict[int, int] = {}
    for meld in lay_down:
        for card in meld.cards:
            counts[card] = counts.get(card, 0) + 1
    witnesses = entry[1]
    witnesses.append(tuple(sorted(counts.items())))
    if len(witnesses) > _WITNESSES_KEPT:
        del witnesses[0]
