"""The stock: drawing from it, refilling it from the discard pile, and ``basic``'s depletion (rules.md §2.9,
§6.10)."""

from __future__ import annotations

import random

from rummy.engine.cards import Card
from rummy.engine.modes import DepletionCheck, RoundEnd, StockRefill
from rummy.engine.rules.round_end import end_round
from rummy.engine.state import GameState

# Members read on every draw, bound once (an Enum member read off its class is slow in Python 3.11).
_KEEP_TOP, _WHOLE_PILE_ONCE = StockRefill.KEEP_TOP, StockRefill.WHOLE_PILE_ONCE


def give(state: GameState, seat: int, card: Card) -> None:
    """``card`` enters ``seat``'s hand from the stock or the pile."""
    state.hands[seat][card] += 1
    state.sizes[seat] += 1
    state.received.append((seat, card))


def pick_up(state: GameState, seat: int) -> Card:
    """``seat`` takes the discard pile's top card into its hand (noted among the pickups: it is known to all)."""
    card = state.discard.pop()
    state.discarders.pop()
    give(state, seat, card)
    state.pickups.append((len(state.log), seat, card))
    return card


def stock_drawable(state: GameState, count: int, *, removing_top: bool = False) -> bool:
    """Whether ``count`` cards can come from the stock, refilling from the discards."""
    if len(state.stock) >= count:
        return True
    if state.variant.stock_refill is not _KEEP_TOP:
        return False
    pile = len(state.discard) - (1 if removing_top else 0)
    return len(state.stock) + max(0, pile - 1) >= count


def draw_from_stock(state: GameState) -> Card:
    """The top card of the stock, refilled first from the pile under its top card when empty."""
    if not state.stock:
        cards = state.discard[:-1]
        state.discard = state.discard[-1:]
        state.discarders = state.discarders[-1:]
        shuffle_into_stock(state, cards)
    card = state.stock.pop()
    variant = state.variant
    if not state.stock and variant.stock_refill is _WHOLE_PILE_ONCE and (
        variant.depletion_check is DepletionCheck.ON_LAST_CARD_DRAWN
    ):
        state.deplete_after_draw = True
    return card


def shuffle_into_stock(state: GameState, cards: list[Card]) -> None:
    """Shuffle ``cards`` under the stock, seeded from the round's shuffle seed when it has one, else from
    the game's seed (docs/game-record.md §3), plus the round number and the count of earlier reshuffles."""
    if len(cards) > 1:  # fewer cards have one order: no generator to seed (in long games most refills are one card)
        base = state.seed if state.round_seed is None else state.round_seed
        random.Random(base + state.round_number + state.refills).shuffle(cards)
    state.refills += 1
    state.stock = cards[::-1] + state.stock


def deplete(state: GameState) -> bool:
    """``basic`` stock depletion (rules.md §6.10); False when the hand ended in a stalemate."""
    if state.depletions >= 1:
        end_round(state, RoundEnd.STALEMATE, None)
        return False
    state.depletions += 1
    keep = state.discard[-1:] if state.variant.refill_keeps_top_discard else []
    cards = state.discard[: len(state.discard) - len(keep)]
    keep_by = state.discarders[-1:] if keep else []
    state.discard, state.discarders = keep, keep_by
    shuffle_into_stock(state, cards)
    if not state.stock:
        end_round(state, RoundEnd.STALEMATE, None)
        return False
    return True
