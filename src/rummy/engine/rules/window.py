"""Answers to a claim window and its resolution (rules.md §2.8): the winner takes the card, then the active
player's draw comes."""

from __future__ import annotations

from rummy.engine.actions import Action, Verb
from rummy.engine.cards import card_name
from rummy.engine.errors import IllegalActionError
from rummy.engine.modes import ClaimPriority, ClaimsPerWindow
from rummy.engine.rules.claims import WindowMode, open_window, take_claim, window_mode
from rummy.engine.rules.draw import active_draws_stock, enter_draw
from rummy.engine.rules.stock import stock_drawable
from rummy.engine.state import ClaimWindow, GameState

# Members read on every claim, bound once (an Enum member read off its class is slow in Python 3.11).
_BUY, _FIRST_CALL, _CASCADE_CLAIMS = Verb.BUY, ClaimPriority.FIRST_CALL, ClaimsPerWindow.CASCADE
_CASCADE = WindowMode.CASCADE


def check_answer(state: GameState, window: ClaimWindow, action: Action) -> None:
    seat = action.seat
    if seat not in window.eligible:
        raise IllegalActionError("not-eligible", action, f"p{seat} may not claim {card_name(window.card)} now")
    if seat in window.answered:
        raise IllegalActionError("already-answered", action, f"p{seat} has already answered this window")


def answer(state: GameState, window: ClaimWindow, action: Action) -> None:
    """Apply a checked ``buy`` or ``pass``."""
    seat = action.seat
    window.answered.add(seat)
    if action.verb is _BUY:
        if state.variant.claim_priority is _FIRST_CALL:
            resolve(state, seat)
            return
        window.claimants.add(seat)
    for candidate in window.eligible:
        if candidate in window.claimants:
            resolve(state, candidate)
            return
        if candidate not in window.answered:
            return
    resolve(state, None)


def close_implied(state: GameState) -> None:
    """The active player acted: every silent eligible seat passes."""
    window = state.window
    assert window is not None
    resolve(state, next((s for s in window.eligible if s in window.claimants), None))


def resolve(state: GameState, winner: int | None) -> None:
    window = state.window
    assert window is not None
    state.window = None
    if winner is not None:
        take_claim(state, winner)
        cascade = state.variant.claims_per_window is _CASCADE_CLAIMS
        if not cascade:
            state.dead = True
        if not window.after_decline:
            state.after_claim = True
            if cascade and open_window(state, after_decline=False):
                return
            enter_draw(state)
            return
        if window_mode(state) is _CASCADE:
            state.after_claim = True
            enter_draw(state)
            return
    elif not window.after_decline:
        enter_draw(state)
        return
    # After a declined discard the active player's stock card comes now.
    if stock_drawable(state, 1):
        active_draws_stock(state)
    else:
        state.dead = False
        enter_draw(state)
