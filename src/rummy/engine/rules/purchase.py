"""The purchase variant's own plays (rules.md §7): purchase, trade and exchange of the purchase card, and the
book that wins the round."""

from __future__ import annotations

from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT, Card, card_name, rank_of
from rummy.engine.errors import IllegalActionError, MeldError
from rummy.engine.melds import MeldSpec, TableMeld, table_meld
from rummy.engine.modes import PcDiscardPosition, RoundEnd
from rummy.engine.rules.round_end import end_round
from rummy.engine.state import GameState
from rummy.engine.variants import Variant


def _illegal(rule: str, action: Action, reason: str) -> IllegalActionError:
    return IllegalActionError(rule, action, reason)


def purchase_allowed(variant: Variant, pc: Card, target: Card) -> bool:
    """rules.md §7.4: may purchase card ``pc`` buy ``target``?"""
    pc_rank, target_rank = rank_of(pc), rank_of(target)
    if target_rank == 1:
        return pc_rank in variant.ace_purchasable_by
    pc_value = 14 if pc_rank == 1 else pc_rank
    return target_rank <= pc_value


def check_purchase_step(state: GameState, action: Action) -> None:
    """Raises unless the active player may ``purchase``, ``trade`` or ``exchange`` as written."""
    variant = state.variant
    seat = state.active
    if not variant.uses_purchase_cards or state.purchase_cards is None:
        raise _illegal("verb-not-in-variant", action, f"{action.verb.value} belongs to the purchase variant")
    if state.purchase_done:
        raise _illegal("one-action-per-turn", action, "only one purchase, trade or exchange per turn")
    hand = state.hands[seat]
    old_pc = state.purchase_cards[seat]
    new_pc = action.new_pc if action.new_pc is not None else 0
    if action.verb is Verb.PURCHASE:
        card = action.card if action.card is not None else 0
        if card not in state.discard:
            raise _illegal("not-in-discard", action, f"{card_name(card)} is not in the discard pile")
        if not purchase_allowed(variant, old_pc, card):
            raise _illegal("purchase-value", action, f"{card_name(old_pc)} cannot purchase {card_name(card)}")
        gained = card
    elif action.verb is Verb.TRADE:
        target = action.target if action.target is not None else seat
        if target == seat:
            raise _illegal("trade-self", action, "trade with another player")
        gained = state.purchase_cards[target]
        if variant.trade_requires_value_rule and not purchase_allowed(variant, old_pc, gained):
            raise _illegal("purchase-value", action, f"{card_name(old_pc)} cannot purchase {card_name(gained)}")
    else:
        if new_pc == old_pc:
            raise _illegal("exchange-same-card", action, "the new purchase card must be a different card")
        gained = old_pc
    if not (hand[new_pc] or (new_pc == gained and action.verb is not Verb.EXCHANGE)):
        raise _illegal("card-not-in-hand", action, f"{card_name(new_pc)} is not in p{seat}'s hand")


def purchase_step(state: GameState, action: Action) -> None:
    """Apply a checked ``purchase``, ``trade`` or ``exchange``."""
    seat = state.active
    pcs = state.purchase_cards
    assert pcs is not None
    hand = state.hands[seat]
    old_pc = pcs[seat]
    new_pc = action.new_pc if action.new_pc is not None else 0
    if action.verb is Verb.PURCHASE:
        card = action.card if action.card is not None else 0
        index = len(state.discard) - 1 - state.discard[::-1].index(card)
        if state.variant.pc_discard_position is PcDiscardPosition.IN_PLACE:
            state.discard[index] = old_pc
            state.discarders[index] = seat
        else:
            del state.discard[index]
            del state.discarders[index]
            state.discard.append(old_pc)
            state.discarders.append(seat)
        hand[card] += 1
    elif action.verb is Verb.TRADE:
        target = action.target if action.target is not None else seat
        their_pc = pcs[target]
        pcs[target] = old_pc
        hand[their_pc] += 1
    else:
        hand[old_pc] += 1
    hand[new_pc] -= 1
    pcs[seat] = new_pc
    state.purchase_done = True


def check_book(state: GameState, action: Action) -> TableMeld:
    """The book ``action`` lays, or raises."""
    if not state.variant.uses_books:
        raise _illegal("verb-not-in-variant", action, "books belong to the purchase variant")
    spec = action.melds[0]
    try:
        meld = table_meld(MeldSpec("book", spec.cards), state.variant, state.next_meld_id, state.active)
    except MeldError as error:
        raise _illegal(error.rule, action, str(error)) from None
    hand = state.hands[state.active]
    for card in set(spec.cards):
        if spec.cards.count(card) > hand[card]:
            raise _illegal("card-not-in-hand", action,
                           f"p{state.active} holds {hand[card]} × {card_name(card)}, {spec.cards.count(card)} needed")
    return meld


def book(state: GameState, meld: TableMeld) -> None:
    """Lay a checked book: the rest of the hand goes to the pile and the round is won."""
    seat = state.active
    hand = state.hands[seat]
    for card in meld.cards:
        hand[card] -= 1
    state.next_meld_id += 1
    state.table.append(meld)
    rest = [card for card in range(CARD_COUNT) for _ in range(hand[card])]
    state.hands[seat] = [0] * CARD_COUNT
    state.sizes[seat] = 0
    state.discard.extend(rest)
    state.discarders.extend([seat] * len(rest))
    end_round(state, RoundEnd.BOOK, seat)
