"""Who may claim the top discard, and what a claim moves (rules.md §2.7–2.8): the card, the penalty (blind)
cards from the stock, and the price."""

from __future__ import annotations

from enum import StrEnum

from rummy.engine.modes import ClaimLimitScope, ClaimMode
from rummy.engine.rules.stock import draw_from_stock, give, pick_up, stock_drawable
from rummy.engine.state import ClaimWindow, GameState, Phase


class WindowMode(StrEnum):
    """When the top discard is offered: before the active player's draw (``pre``), after the active player
    declines it by drawing from the stock (``decline``), or after a decline with the active player's own buy
    first (``cascade``)."""

    NONE = "none"
    PRE = "pre"
    DECLINE = "decline"
    CASCADE = "cascade"


# Members read on every turn, bound once (an Enum member read off its class is slow in Python 3.11).
_NONE, _PRE, _DECLINE, _CASCADE = WindowMode.NONE, WindowMode.PRE, WindowMode.DECLINE, WindowMode.CASCADE
_PRE_DRAW, _AFTER_DECLINE = ClaimMode.PRE_DRAW, ClaimMode.AFTER_DECLINE
_ACTIVE_FIRST_THEN_OTHERS = ClaimMode.ACTIVE_FIRST_THEN_OTHERS
_CLAIM = Phase.CLAIM


def window_mode(state: GameState) -> WindowMode:
    variant = state.variant
    mode = variant.claim_mode
    if mode is _PRE_DRAW:
        return _DECLINE if variant.active_first_refusal else _PRE
    if mode is _AFTER_DECLINE:
        return _DECLINE
    if mode is _ACTIVE_FIRST_THEN_OTHERS:
        return _CASCADE
    return _NONE


def claim_allowance_left(state: GameState, seat: int) -> bool:
    limit = state.rules.claim_limit
    if limit is None:
        return True
    if state.variant.claim_limit_scope is ClaimLimitScope.TABLE:
        return sum(state.claims_used) < limit
    return state.claims_used[seat] < limit


def eligible(state: GameState, discarder: int) -> list[int]:
    """Seats that may claim the top discard now, nearest to the active player's left first."""
    variant, rules = state.variant, state.rules
    if not rules.claims_open or not stock_drawable(state, rules.penalty_cards, removing_top=True):
        return []
    seats = []
    n, active, unlimited = state.n, state.active, rules.claim_limit is None
    for distance in range(1, n):
        seat = (active + distance) % n
        if (unlimited or claim_allowance_left(state, seat)) and (
            variant.claim_allowed_when_down or not state.down[seat]
        ) and (variant.discarder_may_claim or seat != discarder):
            seats.append(seat)
    return seats


def open_window(state: GameState, *, after_decline: bool) -> bool:
    """Offer the top discard to the eligible seats; False (and nothing changes) when nobody may claim."""
    if not state.discard:
        return False
    seats = eligible(state, state.discarders[-1])
    if not seats:
        return False
    state.window = ClaimWindow(state.discard[-1], seats, after_decline)
    state.phase = _CLAIM
    return True


def take_claim(state: GameState, seat: int) -> None:
    """``seat`` takes the top discard, then its penalty (blind) cards, and pays."""
    pick_up(state, seat)
    for _ in range(state.rules.penalty_cards):
        give(state, seat, draw_from_stock(state))
    state.claims_used[seat] += 1
    cost = state.variant.claim_cost + state.variant.blind_card_cost * state.rules.penalty_cards
    state.kitty += cost
    state.pennies_paid[seat] += cost
