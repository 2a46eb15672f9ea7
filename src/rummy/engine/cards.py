"""Cards as small ints, hands as count vectors.

A card is an int: ``suit * 13 + (rank - 1)`` for the 52 naturals (suits in the order
C, D, H, S; ranks A=1 … K=13) and ``JOKER = 52``.  Int order is the canonical order of the
record format: clubs, diamonds, hearts, spades, each A…K, then jokers.

Identical cards of different decks are indistinguishable, so a hand is a multiset, kept as a
count vector of length 53 (``counts[card]``).

>>> parse_card("10h"), card_name(parse_card("Th")), card_name(JOKER)
(35, 'TH', 'JK')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rummy.engine.errors import RecordSyntaxError

JOKER = 52
CARD_COUNT = 53
SUITS = "CDHS"
RANKS = "A23456789TJQK"

Card = int
Counts = list[int]


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1 = ace … 13 = king) and ``suit`` (0 = C … 3 = S)."""
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """Rank 1 (ace) … 13 (king); 0 for the joker."""
    return 0 if card == JOKER else card % 13 + 1


def suit_of(card: Card) -> int:
    """Suit 0 (C) … 3 (S); -1 for the joker."""
    return -1 if card == JOKER else card // 13


def card_name(card: Card) -> str:
    """Record notation: ``7H``, ``TS``, ``JK``; a number that is no card is written ``?`` and the number (an
    illegal action's message names it so)."""
    if isinstance(card, int) and 0 <= card < JOKER:
        return RANKS[card % 13] + SUITS[card // 13]
    return "JK" if card == JOKER else f"?{card!r}"


def rank_name(rank: int) -> str:
    """``A``, ``2`` … ``T``, ``J``, ``Q``, ``K``; a number that is no rank is written ``?`` and the number."""
    return RANKS[rank - 1] if isinstance(rank, int) and 1 <= rank <= 13 else f"?{rank!r}"


def parse_rank(text: str) -> int:
    """Parse a rank token (``7``, ``10``, ``T``, ``q``) into 1 … 13."""
    token = text.strip().upper()
    if token == "10":
        token = "T"
    if len(token) != 1 or token not in RANKS:
        raise RecordSyntaxError(f"bad rank {text!r}")
    return RANKS.index(token) + 1


def parse_card(text: str) -> Card:
    """Parse ``7H``, ``10s``, ``Th``, ``JK`` (any case)."""
    token = text.strip().upper()
    if token == "JK":
        return JOKER
    if len(token) < 2 or token[-1] not in SUITS:
        raise RecordSyntaxError(f"bad card {text!r}")
    try:
        rank = parse_rank(token[:-1])
    except RecordSyntaxError:
        raise RecordSyntaxError(f"bad card {text!r}") from None
    return make_card(rank, SUITS.index(token[-1]))


def card_names(cards: Iterable[Card]) -> list[str]:
    """Names of ``cards`` in the order given."""
    return [card_name(card) for card in cards]


def empty_counts() -> Counts:
    """A count vector holding no card."""
    return [0] * CARD_COUNT


def to_counts(cards: Iterable[Card]) -> Counts:
    """The count vector of a sequence of cards."""
    counts = [0] * CARD_COUNT
    for card in cards:
        counts[card] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[Card]:
    """The cards of a count vector in canonical order."""
    cards: list[Card] = []
    for card, count in enumerate(counts):
        if count:
            cards.extend([card] * count)
    return cards


def pack(decks: int, jokers_per_deck: int) -> Counts:
    """How many copies of each card the pack holds."""
    counts = [decks] * CARD_COUNT
    counts[JOKER] = decks * jokers_per_deck
    return counts
