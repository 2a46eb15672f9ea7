"""The start of a turn (rules.md §2.5): counters reset, the turn limit, ``basic``'s depletion, and the claim
window that opens before the draw."""

from __future__ import annotations

from rummy.engine.modes import DepletionCheck, RoundEnd, StockRefill
from rummy.engine.rules.claims import WindowMode, open_window, window_mode
from rummy.engine.rules.draw import enter_draw
from rummy.engine.rules.round_end import end_round
from rummy.engine.rules.stock import deplete
from rummy.engine.state import GameState

# Members read on every turn, bound once (an Enum member read off its class is slow in Python 3.11).
_TURN_START, _WHOLE_PILE_ONCE, _NO_REFILL = DepletionCheck.TURN_START, StockRefill.WHOLE_PILE_ONCE, StockRefill.NONE
_PRE = WindowMode.PRE


def start_turn(state: GameState, seat: int) -> None:
    state.active = seat
    state.own_turns[seat] += 1
    state.dead = False
    state.after_claim = False
    state.taken_card = None
    state.melds_this_turn = 0
    state.stolen_pending = 0
    state.purchase_done = False
    state.played_before_turn = state.played_to_table[seat]
    state.window = None
    variant = state.variant
    if variant.max_turns is not None and state.turns_played >= variant.max_turns:
        end_round(state, RoundEnd.STALEMATE, None)
        return
    if washed_out(state):
        end_round(state, RoundEnd.EXHAUSTED, None)
        return
    state.turns_played += 1
    at_turn_start = variant.depletion_check is _TURN_START
    if variant.stock_refill is _WHOLE_PILE_ONCE and at_turn_start and not state.stock and not deplete(state):
        return
    if variant.stock_refill is _NO_REFILL and variant.free_melding and not state.stock:
        # basic without a refill: its first depletion is what the second is by rules.md §6.10, a
        # stalemate (the pile would otherwise pass round the table for ever).
        end_round(state, RoundEnd.STALEMATE, None)
        return
    if window_mode(state) is _PRE and open_window(state, after_decline=False):
        return
    enter_draw(state)


def washed_out(state: GameState) -> bool:
    """Count the turn being started towards the washout (rules.md §2.9): the quiet turns start afresh
    when the table has grown since the last turn; whether the hand is now dead."""
    table_cards = sum(len(meld.cards) for meld in state.table)
    if table_cards > state.table_cards:
        state.table_cards = table_cards
        state.quiet_turns = 0
    state.quiet_turns += 1
    return washout_reached(state)


def washout_reached(state: GameState) -> bool:
    """Whether ``washout_laps`` times round the table have passed with no card put on the table."""
    laps = state.variant.washout_laps
    return laps is not None and state.quiet_turns > laps * state.n
