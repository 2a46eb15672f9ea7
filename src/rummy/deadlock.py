"""Positions from which nobody can ever go out.

* ``basic`` (rules.md §6.9): :func:`is_stalemate`, the seed's stalemate check.
* Contract variants: when every player is down and no new meld may be started, the cards off the
  table may be unable ever to reach it.  The rules then have no way to end the round (the stock is
  refilled for ever), so the engine ends it by exhaustion (§2.9 scoring) when :func:`is_deadlocked`
  proves the position dead.  The check is conservative: it never ends a round that could still be
  won by lay-offs, swaps, relocations or the rearrangements of §3.8.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rummy.cards import JOKER, Card, make_card, rank_of, suit_of
from rummy.melds import MeldError, TableMeld, lay_off
from rummy.variants import Variant

if TYPE_CHECKING:
    from rummy.game import Game


def off_table_pool(game: Game) -> list[int]:
    """Counts of the cards not on the table (hands, stock, discard pile, purchase cards)."""
    pool = list(game.pack)
    for meld in game.table:
        for card in meld.cards:
            pool[card] -= 1
    return pool


def _any_layoff(game: Game, pool: list[int]) -> bool:
    held = [card for card in range(len(pool)) if pool[card] > 0]
    for meld in game.table:
        for card in held:
            try:
                lay_off(meld, card, None, game.variant)
                return True
            except MeldError as error:
                if error.rule == "layoff-end-required":
                    return True
    return False


def _pool_has_run(pool: list[int], suit: int, run_min: int, ace_high: bool, must_hold: int = 0) -> bool:
    held = {must_hold, 14} if must_hold == 1 else {must_hold}
    streak = 0
    for value in range(1, 15 if ace_high else 14):
        card = make_card(1 if value == 14 else value, suit)
        streak = streak + 1 if pool[card] > 0 or value in held else 0
        if streak >= run_min and (not must_hold or any(value - run_min < h <= value for h in held)):
            return True
    return False


def is_stalemate(game: Game) -> bool:
    """rules.md §6.9: no lay-off and no new meld can ever come from the cards off the table."""
    variant = game.variant
    pool = off_table_pool(game)
    if _any_layoff(game, pool):
        return False
    by_rank = [0] * 14
    for card in range(52):
        by_rank[rank_of(card)] += pool[card]
    if max(by_rank) >= variant.group_min:
        return False
    ace_high = variant.ace_mode != "low_only"
    return not any(_pool_has_run(pool, suit, variant.run_min, ace_high) for suit in range(4))


def spare_cards(meld: TableMeld, variant: Variant) -> Iterator[tuple[Card, tuple[Card, ...]]]:
    """Natural cards that can leave ``meld`` with the rest still valid: (card, rest of the meld)."""
    if meld.is_run:
        if len(meld.cards) > variant.run_min:
            for index in (0, len(meld.cards) - 1):
                card = meld.cards[index]
                if not variant.is_wild(card):
                    rest = meld.cards[1:] if index == 0 else meld.cards[:-1]
                    yield card, rest
    elif meld.rank and len(meld.cards) > variant.group_min and meld.naturals > 1:
        seen = set()
        for index, card in enumerate(meld.cards):
            if card in seen or variant.is_wild(card):
                continue
            seen.add(card)
            yield card, meld.cards[:index] + meld.cards[index + 1:]


def is_deadlocked(game: Game) -> bool:
    """Whether no card off the table can ever be played (see the module docstring)."""
    variant = game.variant
    if variant.new_melds_after_laydown or not all(game.down):
        return False
    pool = off_table_pool(game)
    if pool[JOKER] or any(pool[make_card(2, suit)] for suit in range(4) if 2 in variant.wild_ranks):
        return False
    if _any_layoff(game, pool):
        return False
    if variant.rearrange_mode == "none" and variant.joker_swap == "none":
        return True
    if any(meld.wilds for meld in game.table):
        return False
    if variant.rearrange_mode == "none":
        return True
    ace_high = variant.ace_mode != "low_only"
    for meld in game.table:
        if meld.is_run:
            for index in range(len(meld.cards)):
                if pool[meld.position_card(index)]:
                    return False  # a duplicate could split the run
        for card, _ in spare_cards(meld, variant):
            if pool[card] + sum(pool[make_card(rank_of(card), s)] for s in range(4) if s != suit_of(card)) >= (
                variant.group_min - 1
            ):
                return False
            if _pool_has_run(pool, suit_of(card), variant.run_min, ace_high, must_hold=rank_of(card)):
                return False
    return True
