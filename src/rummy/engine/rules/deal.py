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
    dealer = _rotation_dealer(state, number, dealer)
    rules = variant.round_rules(number, n)
    if hands is None:
        dealt, pcs, up, rest = _shuffle_and_deal(state, rules, dealer, shuffle)
    else:
        dealt, pcs, up, rest = _supplied_deal(state, number, rules, hands, upcard, stock, purchase_cards)
    _start_round(state, number, rules, dealer, shuffle, dealt, pcs, up, rest)


def _rotation_dealer(state: GameState, number: int, dealer: int | None) -> int:
    """The dealer of round ``number``: the one asked for, which must be the next by rotation once a
    round was dealt; raises :class:`DealError` otherwise."""
    expected_dealer = next_dealer(state)
    if dealer is None:
        return expected_dealer
    if not 0 <= dealer < state.n:
        raise DealError(f"dealer {dealer} out of range")
    if expected_dealer >= 0 and dealer != expected_dealer:
        raise DealError(f"round {number}: dealer must be seat {expected_dealer} (rotation), not {dealer}")
    return dealer


# A deal: the hands by seat, the purchase cards by seat (or None), the upcard (or None), the stock from
# the top down.
Dealt = tuple[list[list[Card]], list[Card] | None, Card | None, list[Card]]


def _shuffle_and_deal(state: GameState, rules: RoundRules, dealer: int, shuffle: ShuffleSecret | None) -> Dealt:
    """Shuffle the pack (with the shuffle seed, else the game's RNG) and deal one card at a time from the
    dealer's left, then the purchase cards and the upcard."""
    n = state.n
    cards = from_counts(state.pack)
    (random.Random(shuffle.seed_number) if shuffle is not None else state.rng).shuffle(cards)
    order = [(dealer + 1 + i) % n for i in range(n)]
    dealt: list[list[Card]] = [[] for _ in range(n)]
    for _ in range(rules.deal_size):
        for seat in order:
            dealt[seat].append(cards.pop())
    pcs = [cards.pop() for _ in order] if state.variant.uses_purchase_cards else None
    if pcs is not None:
        pcs = [pcs[order.index(seat)] for seat in range(n)]
    up = cards.pop() if state.variant.upcard else None
    return dealt, pcs, up, cards[::-1]


def _supplied_deal(state: GameState, number: int, rules: RoundRules, hands: Sequence[Sequence[Card]],
                   upcard: Card | None, stock: Sequence[Card] | None,
                   purchase_cards: Sequence[Card] | None) -> Dealt:
    """The cards a caller supplies, checked; the stock is completed with the rest of the pack in
    canonical order."""
    dealt = [list(h) for h in hands]
    pcs = list(purchase_cards) if purchase_cards is not None else None
    rest = list(stock or [])
    _check_supplied_deal(state, number, rules, dealt, upcard, rest, pcs)
    named = to_counts([c for h in dealt for c in h] + rest + ([upcard] if upcard is not None else []) + (pcs or []))
    rest += [c for c in range(CARD_COUNT) for _ in range(state.pack[c] - named[c])]
    return dealt, pcs, upcard, rest


def _start_round(state: GameState, number: int, rules: RoundRules, dealer: int, shuffle: ShuffleSecret | None,
                 dealt: list[list[Card]], pcs: list[Card] | None, up: Card | None, rest: list[Card]) -> None:
    """Reset the round's state, record the deal and give the first turn to the dealer's left."""
    variant, n = state.variant, state.n
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
