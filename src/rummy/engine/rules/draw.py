"""The active player's first step: draw from the stock, take the discard, or buy it (rules.md §2.6–2.9).

``draw_error`` is the check (pure); ``draw``, ``take`` and ``own_buy`` apply an action it allowed.
"""

from __future__ import annotations

from rummy.engine.actions import Verb
from rummy.engine.modes import AfterClaimActiveDraw, ClaimsPerWindow, RoundEnd
from rummy.engine.rules.claims import WindowMode, claim_allowance_left, open_window, take_claim, window_mode
from rummy.engine.rules.round_end import end_round
from rummy.engine.rules.stock import deplete, draw_from_stock, give, pick_up, stock_drawable
from rummy.engine.state import GameState, Phase

DRAW_VERBS = (Verb.DRAW, Verb.TAKE, Verb.BUY)

# Members read on every turn, bound once (an Enum member read off its class is slow in Python 3.11).
_DRAW, _TAKE = Verb.DRAW, Verb.TAKE
_CASCADE = WindowMode.CASCADE
_AFTER_DECLINE_MODES = frozenset((WindowMode.DECLINE, WindowMode.CASCADE))  # a declined discard is offered
_DRAW_PHASE, _PLAY_PHASE = Phase.DRAW, Phase.PLAY
_STOCK_ONLY = AfterClaimActiveDraw.STOCK_ONLY
_CASCADE_CLAIMS = ClaimsPerWindow.CASCADE


def draw_error(state: GameState, verb: Verb) -> tuple[str, str] | None:
    """Why the active player may not ``draw``, ``take`` or ``buy`` now (rule, reason), or None."""
    if verb is _DRAW:
        if not stock_drawable(state, 1):
            return "stock-empty", "the stock is empty and cannot be refilled: take the discard"
        return None
    top = state.discard[-1] if state.discard else None
    if verb is _TAKE:
        if state.variant.uses_purchase_cards:
            return "take-not-allowed", "in purchase every turn starts with a stock draw"
        if top is None:
            return "discard-empty", "the discard pile is empty"
        if (state.after_claim and state.variant.after_claim_active_draw is _STOCK_ONLY
                and stock_drawable(state, 1)):
            return "stock-only-after-buy", "after a buy the active player must draw from the stock"
        return None
    if window_mode(state) is not _CASCADE:
        return "no-own-buy", "the active player cannot buy in this variant"
    if not state.rules.claims_open:
        return "no-buying-this-round", f"there is no buying in round {state.round_number}"
    if top is None:
        return "discard-empty", "the discard pile is empty"
    if state.dead:
        return "discard-dead", "the discard pile is dead this turn"
    if not claim_allowance_left(state, state.active):
        return "claim-limit", f"p{state.active} has no buys left this round"
    if not stock_drawable(state, state.rules.penalty_cards, removing_top=True):
        return "no-penalty-card", "the stock cannot supply the blind card"
    return None


def enter_draw(state: GameState) -> None:
    state.phase = _DRAW_PHASE
    for verb in DRAW_VERBS:
        if draw_error(state, verb) is None:
            return
    # rules.md §2.9: no card can be drawn (the stock is out and cannot be refilled, and the pile is empty
    # or, in purchase, may not be taken): the round ends by exhaustion.
    end_round(state, RoundEnd.EXHAUSTED, None)


def draw(state: GameState) -> None:
    """``draw``: in a variant that offers a declined discard, the window opens first."""
    if (window_mode(state) in _AFTER_DECLINE_MODES and state.discard and not state.dead
            and state.rules.claims_open and open_window(state, after_decline=True)):
        return
    active_draws_stock(state)


def active_draws_stock(state: GameState) -> None:
    state.deplete_after_draw = False
    give(state, state.active, draw_from_stock(state))
    state.phase = _PLAY_PHASE
    if state.deplete_after_draw:
        deplete(state)


def take(state: GameState) -> None:
    state.taken_card = pick_up(state, state.active)
    state.phase = _PLAY_PHASE


def own_buy(state: GameState) -> None:
    take_claim(state, state.active)
    state.after_claim = True
    if state.variant.claims_per_window is not _CASCADE_CLAIMS:
        state.dead = True
    enter_draw(state)
