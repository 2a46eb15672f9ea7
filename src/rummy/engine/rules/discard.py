"""The discard that ends a turn (rules.md §2.10–2.11), and the dead ends checked after it."""

from __future__ import annotations

from rummy.engine.actions import Action
from rummy.engine.cards import Card, card_name
from rummy.engine.deadlock import is_deadlocked, is_stalemate
from rummy.engine.errors import IllegalActionError
from rummy.engine.modes import RoundEnd
from rummy.engine.rules.round_end import end_round
from rummy.engine.rules.table import discardable
from rummy.engine.rules.turns import start_turn
from rummy.engine.state import GameState


def discard_error(state: GameState, card: Card) -> tuple[str, str] | None:
    """Why the active player may not discard ``card`` now (rule, reason), or None."""
    seat = state.active
    hand = state.hands[seat]
    if not hand[card]:
        return "card-not-in-hand", f"p{seat} does not hold {card_name(card)}"
    if state.sizes[seat] == 1 and not state.rules.final_discard_allowed:
        return "no-final-discard", f"round {state.round_number} has no final discard: go out by playing"
    if not discardable(state, hand, state.sizes[seat], card):
        return "discard-taken-card", f"{card_name(card)} was taken from the discard pile this turn"
    if state.stolen_pending and state.variant.stolen_joker_must_be_played:
        return "stolen-joker-must-be-played", "the wild taken from the table must be played this turn"
    return None


def check_discard(state: GameState, action: Action) -> None:
    error = discard_error(state, action.card if action.card is not None else 0)
    if error is not None:
        raise IllegalActionError(error[0], action, error[1])


def discard(state: GameState, action: Action) -> None:
    seat = state.active
    card = action.card if action.card is not None else 0
    state.hands[seat][card] -= 1
    state.sizes[seat] -= 1
    state.discard.append(card)
    state.discarders.append(seat)
    state.dead = False
    if state.sizes[seat] == 0:
        end_round(state, RoundEnd.OUT, seat)
    elif state.variant.stalemate_detection and is_stalemate(state):
        end_round(state, RoundEnd.STALEMATE, None)
    elif state.variant.has_contracts and is_deadlocked(state):
        end_round(state, RoundEnd.EXHAUSTED, None)
    else:
        start_turn(state, (seat + 1) % state.n)
