"""The lay-down among the candidate moves of a player not yet down: whether there is one (cheap) and which
(the solver's best, worked out when read).

Whether a hand can lay the contract down is settled by a *witness*: a lay-down found earlier for the same
contract under the same rules whose cards the hand still holds (the hand can lay that one down), else by a
*refutation* (below), else by the solver's search for any lay-down (:func:`rummy.engine.solver.first_lay_down`),
which stops at the first it meets and becomes a witness (or, finding none, a refutation) in turn.  In random
play a hand changes by a card or two between decisions, so most answers come without a search.

A refutation is a hand the search found unable to lay the contract down.  Laying down is monotone in the
hand (a final discard allowed, nothing required to be left or used), so no part of that hand can either,
and a hand that holds a few cards more can lay down only with melds that use one of those cards: when none
of them, a natural card, has even the cards for one meld of the contract around it (its rank's copies plus
every wild for a group, a window of the run length around it in its suit for a run), the hand cannot lay
down.  Before the search, :func:`rummy.engine.contract_bound.short_of_wilds` counts whether the hand has
wild cards enough for the contract at all.  Where the compiled core answers (docs/engine.md, "Backends"), it is
asked first and alone: its exact search costs less than these shortcuts.  The best lay-down
(:func:`best_lay_down`) is the full branch-and-bound search.

:func:`deferrable` says when the listing may put the best lay-down off until it is read: only when whatever
the best one is, it is legal: it leaves at least two cards in hand (then a discard always remains, rules.md
§2.10) and the round has no rule that could refuse it for what it leaves.
"""

from __future__ import annotations

from collections.abc import Sequence

import rummy.engine.backends as backends
from rummy.engine.cards import JOKER
from rummy.engine.contract_bound import short_of_wilds
from rummy.engine.meld_rules import compiled_meld_rules, wild_cards, wild_flags
from rummy.engine.melds import MeldSpec
from rummy.engine.memo import memo_table, put
from rummy.engine.solver import find_lay_down, first_lay_down
from rummy.engine.solver.native import lay_down_exists
from rummy.engine.state import GameState
from rummy.engine.variants import RUN, Slot, Variant

# (variant id, contract, final discard allowed, must use all, hand) -> the best lay-down or None.
_BEST: dict[tuple[object, ...], tuple[Variant, tuple[MeldSpec, ...] | None]] = memo_table(
    "best lay-down of a hand", 50_000)
# (variant id, contract) -> (variant, recent witnesses, newest last).  A witness is packed into an int with a
# byte per card kind (its count, below 128): a hand packed the same way with the top bit of every byte set
# (the guards) holds every card of the witness exactly when subtracting it leaves every guard set.
_WITNESSES: dict[tuple[int, tuple[Slot, ...]], tuple[Variant, list[int]]] = memo_table("lay-down witnesses", 256)
_GUARDS = int.from_bytes(bytes([0x80] * (JOKER + 1)), "little")
_WITNESSES_KEPT = 8
# (variant id, contract, seat) -> (variant, recent hands that cannot lay down as (size, counts), newest last).
# The seat only groups a player's own hands together (they differ by a card or two); any refutation is valid
# for any hand.
_REFUTATIONS: dict[tuple[int, tuple[Slot, ...], int], tuple[Variant, list[tuple[int, tuple[int, ...]]]]] = memo_table(
    "lay-down refutations", 1024)
_REFUTATIONS_KEPT = 2
_EXTRA_CARDS_TRIED = 4  # more cards added since a refutation than this: ask the search
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
    put(_BEST, key, (variant, found))
    if found is not None and final_discard_allowed and not must_use_all:
        _remember(variant, contract, found)
    return found


def deferrable(game: GameState) -> bool:
    """Whether the active player's best lay-down, if there is one, is certainly legal (see the module
    docstring), so the listing may work it out only when it is read.  A shortcut; reference:
    :func:`rummy.engine.rules.table.step_down` and ``check_completable`` (rules.md §2.5, §2.10)."""
    rules = game.rules
    seat = game.active
    if not rules.final_discard_allowed or rules.must_go_out_on_laydown or game.stolen_pending:
        return False
    return game.sizes[seat] - most_cards_laid(game.variant, rules.contract, game.hands[seat]) >= 2


def most_cards_laid(variant: Variant, contract: Sequence[Slot], hand: Sequence[int]) -> int:
    """At most how many cards a lay-down of ``contract`` from ``hand`` uses: every wild, per run one natural of
    each value of the suit held in most kinds (13 at most), and per group slot every natural of one rank (the
    ranks held most).  Compiled (``play_listing.c``; :func:`_most_cards_laid`, the reference, answers where the
    core does not: a malformed hand)."""
    native = backends.NATIVE
    if native is not None:
        runs, groups = slot_counts(contract)
        most: int | None = native.most_cards_laid(hand, compiled_meld_rules(variant), runs, groups)
        if most is not None:
            return most
    return _most_cards_laid(variant, contract, hand)


def slot_counts(contract: Sequence[Slot]) -> tuple[int, int]:
    """The contract's run slots and group slots."""
    runs = sum(1 for slot in contract if slot.kind == RUN)
    return runs, len(contract) - runs


def _most_cards_laid(variant: Variant, contract: Sequence[Slot], hand: Sequence[int]) -> int:
    """:func:`most_cards_laid` in Python (the reference)."""
    wild = wild_flags(variant)
    wilds = 0
    by_rank = [0] * 14
    kinds = [0, 0, 0, 0]  # per suit, the natural kinds held
    for card, count in enumerate(hand):
        if count:
            if wild[card]:
                wilds += count
            else:
                by_rank[card % 13 + 1] += count
                if card < JOKER:
                    kinds[card // 13] += 1
    runs, groups = slot_counts(contract)
    # A run holds each value of its suit once: its naturals are at most the kinds of that suit held.
    return wilds + min(_LONGEST_RUN, max(kinds)) * runs + sum(sorted(by_rank, reverse=True)[:groups])


def can_lay_down_now(variant: Variant, contract: tuple[Slot, ...], hand: Sequence[int], seat: int = 0) -> bool:
    """Whether ``hand`` can lay ``contract`` down (a final discard allowed, not everything needed).

    ``seat`` (whose hand it is) only helps find the refutations that matter; the answer does not depend on it.
    A shortcut; reference: :func:`rummy.engine.solver.first_lay_down` (rules.md §2.5).
    """
    compiled = lay_down_exists(hand, contract, variant, True, False)  # the compiled core (None: the Python path)
    if compiled is not None:  # (it answers in a few µs: the shortcuts below cost it more than they save)
        return compiled
    key = (id(variant), contract)
    entry = _WITNESSES.get(key)
    if entry is not None and entry[0] is variant:
        held = int.from_bytes(bytes(hand), "little") | _GUARDS
        for witness in reversed(entry[1]):
            if (held - witness) & _GUARDS == _GUARDS:  # the hand holds every card of the witness
                return True
    if short_of_wilds(variant, contract, hand):
        return False
    size = sum(hand)
    refuted_key = (id(variant), contract, seat)
    refuted = _REFUTATIONS.get(refuted_key)
    if refuted is not None and refuted[0] is variant:
        for refutation in reversed(refuted[1]):
            if _refuted_by(variant, contract, hand, size, refutation):
                return False
    found = first_lay_down(hand, contract, variant)
    if found is None:
        if refuted is None or refuted[0] is not variant:
            refuted = put(_REFUTATIONS, refuted_key, (variant, []))
        refuted[1].append((size, tuple(hand)))
        if len(refuted[1]) > _REFUTATIONS_KEPT:
            del refuted[1][0]
        return False
    _remember(variant, contract, found)
    return True


def _refuted_by(variant: Variant, contract: tuple[Slot, ...], hand: Sequence[int], size: int,
                refutation: tuple[int, tuple[int, ...]]) -> bool:
    """Whether ``hand`` (of ``size`` cards) certainly cannot lay down, knowing that the hand of ``refutation``
    (its size and counts) cannot (see the module docstring): every lay-down of ``hand`` uses a card it holds
    beyond that hand, and none of those has the cards for a meld of the contract around it."""
    known_size, known = refutation
    if size - known_size > _EXTRA_CARDS_TRIED:
        return False
    extra = [card for card in range(JOKER + 1) if hand[card] > known[card]]
    if len(extra) > _EXTRA_CARDS_TRIED:
        return False
    if not extra:
        return True
    wild = wild_flags(variant)
    if any(wild[card] or card == JOKER for card in extra):
        return False
    wilds = sum(hand[card] for card in wild_cards(variant))
    slots = {(slot.kind == RUN, variant.meld_size(slot)) for slot in contract}
    return not any(_meld_possible_around(variant, slots, hand, card, wilds) for card in extra)


def _meld_possible_around(variant: Variant, slots: set[tuple[bool, int]], hand: Sequence[int], card: int,
                          wilds: int) -> bool:
    """Whether ``hand`` (with ``wilds`` wild cards) holds, counting every wild and every natural, enough cards for
    a meld of one of ``slots`` ((is a run, fewest cards) pairs) holding the natural ``card`` (a necessary
    condition only)."""
    wild = wild_flags(variant)
    rank, suit = card % 13 + 1, card // 13
    low_bound, high_bound = variant.ace_mode.run_bounds
    for is_run, size in slots:
        if not is_run:
            copies = sum(hand[same] for same in range(rank - 1, 52, 13) if not wild[same])
            if copies + wilds >= size:
                return True
            continue
        for value in ((1, 14) if rank == 1 else (rank,)):
            if not low_bound <= value <= high_bound:
                continue
            start, stop = max(low_bound, value - size + 1), min(value + size - 1, high_bound)
            # the run's values start … stop around ``value``: is some window of ``size`` of them covered?
            covered = [hand[other] > 0 and not wild[other]
                       for other in (suit * 13 + (0 if v == 14 else v - 1) for v in range(start, stop + 1))]
            for low in range(len(covered) - size + 1):
                if sum(covered[low:low + size]) + wilds >= size:
                    return True
    return False


def _remember(variant: Variant, contract: tuple[Slot, ...], lay_down: tuple[MeldSpec, ...]) -> None:
    key = (id(variant), contract)
    entry = _WITNESSES.get(key)
    if entry is None or entry[0] is not variant:
        entry = put(_WITNESSES, key, (variant, []))
    packed = 0
    for meld in lay_down:
        for card in meld.cards:
            packed += 1 << (8 * card)
    witnesses = entry[1]
    witnesses.append(packed)
    if len(witnesses) > _WITNESSES_KEPT:
        del witnesses[0]
