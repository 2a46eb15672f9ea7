"""Dealing a round (rules.md §2.3–2.4): shuffled with the game's RNG or from a round's shuffle seed
(:mod:`rummy.engine.fair_shuffle`), or the cards a caller supplies."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummy.engine.cards import CARD_COUNT, Card, card_name, from_counts, to_counts
from rummy.engine.errors import DealError
from rummy.engine.fair_shuffle import ShuffleSecret
from rummy.engine.rules.turns import start_turn
from rummy.engine.state import GameState, Phase, round_state_fields
from rummy.engine.variants import RoundRules


def next_dealer(state: GameState) -> int:
    """The dealer of the next round by rotation (-1 before the first deal: any seat)."""
    return (state.dealer + 1) % state.n if state.dealer >= 0 else -1


def deal(
    state: GameState,
    *,
    dealer: int | None = None,
    hands: Sequence[Sequence[Card]] | None = None,
    upcard: Card | None = None,
    stock: Sequence[Card] | None = None,
    purchase_cards: Sequence[Card] | None = None,
    shuffle: ShuffleSecret | None = None,
) -> None:
    """Deal the next round; ``stock`` runs from the top down and may list only its top part (the rest of
    the pack follows in canonical order).  Raises :class:`DealError` and changes nothing on a bad deal.

    With ``shuffle`` and no cards, the pack in canonical order is shuffled by
    ``random.Random(shuffle.seed_number)`` instead of the game's RNG (which is left untouched); with
    cards too, they are dealt as given.  Either way the round's reshuffles are seeded from the shuffle
    seed and the secret is kept with the deal (``deals[-1]["shuffle"]``)."""
    if state.phase is not Phase.ROUND_OVER:
        raise DealError(f"cannot deal in phase {state.phase.value}")
    variant, n = state.variant, state.n
    number = state.round_number + 1
    if variant.round_count is not None and number > variant.round_count:
        raise DealError(f"{variant.id} has only {variant.round_count} rounds")
    expected_dealer = next_dealer(state)
    if dealer is None:
        dealer = expected_dealer
    elif not 0 <= dealer < n:
        raise DealError(f"dealer {dealer} out of range")
    elif expected_dealer >= 0 and dealer != expected_dealer:
        raise DealError(f"round {number}: dealer must be seat {expected_dealer} (rotation), not {dealer}")
    rules = variant.round_rules(number, n)
    uses_pc = variant.uses_purchase_cards
    if hands is None:
        cards = from_counts(state.pack)
        (random.Random(shuffle.seed_number) if shuffle is not None else state.rng).shuffle(cards)
        order = [(dealer + 1 + i) % n for i in range(n)]
        dealt: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(rules.deal_size):
            for seat in order:
                dealt[seat].append(cards.pop())
        pcs = [cards.pop() for _ in order] if uses_pc else None
        if pcs is not None:
            pcs = [pcs[order.index(seat)] for seat in range(n)]
        up = cards.pop() if variant.upcard else None
        rest = cards[::-1]
    else:
        dealt = [list(h) for h in hands]
        pcs = list(purchase_cards) if purchase_cards is not None else None
        up = upcard
        rest = list(stock or [])
        _check_supplied_deal(state, number, rules, dealt, up, rest, pcs)
        named = to_counts([c for h in dealt for c in h] + rest + ([up] if up is not None else []) + (pcs or []))
        rest += [c for c in range(CARD_COUNT) for _ in range(state.pack[c] - named[c])]
    state.round_number = number
    for name, value in round_state_fields(variant, n, number).items():
        setattr(state, name, value)
    state.rules = rules
    state.dealer = dealer
    state.round_seed = shuffle.seed_number if shuffle is not None else None
    state.deals.append({"dealer": dealer, "hands": [list(h) for h in dealt], "upcard": up, "stock": list(rest),
                        "purchase_cards": list(pcs) if pcs is not None else None, "shuffle": shuffle})
    state.round_starts.append(len(state.log))
    for seat, cards_in_hand in enumerate(dealt):
        state.hands[seat] = to_counts(cards_in_hand)
        state.sizes[seat] = len(cards_in_hand)
    state.stock = rest[::-1]
    if up is not None:
        state.discard = [up]
        state.discarders = [-1]
    state.purchase_cards = pcs
    start_turn(state, (dealer + 1) % n)


def _check_supplied_deal(state: GameState, number: int, rules: RoundRules, hands: list[list[Card]],
                         upcard: Card | None, stock: list[Card], pcs: list[Card] | None) -> None:
    variant = state.variant
    if len(hands) != state.n:
        raise DealError(f"round {number}: {state.n} hands needed, not {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.deal_size:
            raise DealError(f"round {number}: hand of seat {seat} has {len(hand)} cards, the deal is {rules.deal_size}")
    if variant.uses_purchase_cards:
        if pcs is None or len(pcs) != state.n:
            raise DealError(f"round {number}: purchase_cards needs one card per seat")
    elif pcs is not None:
        raise DealError(f"round {number}: purchase_cards belong to the purchase variant only")
    if variant.upcard and upcard is None:
        raise DealError(f"round {number}: an upcard is needed")
    if not variant.upcard and upcard is not None:
        raise DealError(f"round {number}: this variant turns no upcard (upcard = false)")
    named = to_counts([c for h in hands for c in h] + stock + ([upcard] if upcard is not None else []) + (pcs or []))
    for card in range(CARD_COUNT):
        if named[card] > state.pack[card]:
            raise DealError(f"round {number}: {named[card]} × {card_name(card)} named, "
                            f"the pack holds {state.pack[card]}")
