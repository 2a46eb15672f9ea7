"""Information sets for search: a seat's redacted copy of the game, and random completions of it.

:func:`redact` copies a game with everything ``seat`` may not see removed: the other hands (their
sizes stay), the stock order, the hidden part of the discard pile, the deals, the RNG and the seed
that orders future reshuffles.  :func:`determinize` fills those blanks with the unseen cards,
shuffled, giving a complete game consistent with everything the seat has seen.  Search bots
(ISMCTS) plan on such completions; they never see the real game.

>>> import random
>>> from rummy.game import new_game
>>> game = new_game("may-i", 4, seed=3)
>>> public = redact(game, 0)
>>> sum(public.hands[1]), public.sizes[1], public.stock
(0, 11, [])
>>> guess = determinize(public, 0, random.Random(1))
>>> guess.hand(0) == game.hand(0), guess.sizes == game.sizes, len(guess.stock) == len(game.stock)
(True, True, True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rummy.cards import CARD_COUNT, Card

if TYPE_CHECKING:
    from rummy.game import Game


def redact(game: Game, seat: int) -> Game:
    """A copy of ``game`` holding only what ``seat`` may see (sizes and counts stay)."""
    public = game.clone()
    for other in range(game.n):
        if other != seat:
            public.hands[other] = [0] * CARD_COUNT
    public.hidden_stock = len(public.stock)
    public.stock = []
    shown = len(public.discard) if game.variant.show_discard_history else min(1, len(public.discard))
    public.hidden_discard = len(public.discard) - shown
    public.discard = public.discard[len(public.discard) - shown:]
    public.deals = []
    public.round_starts = []
    public.log = []
    public.seed = 0
    public.rng = random.Random(0)
    return public


def unseen_cards(public: Game, seat: int) -> list[Card]:
    """The cards ``seat`` cannot place: the pack minus own hand, table, visible pile and purchase cards."""
    counts = list(public.pack)
    for card, count in enumerate(public.hands[seat]):
        counts[card] -= count
    for meld in public.table:
        for card in meld.cards:
            counts[card] -= 1
    for card in public.discard:
        counts[card] -= 1
    for card in public.purchase_cards or ():
        counts[card] -= 1
    return [card for card in range(CARD_COUNT) for _ in range(counts[card])]


def determinize(public: Game, seat: int, rng: random.Random) -> Game:
    """A complete game consistent with ``public`` (from :func:`redact`), hidden cards dealt at random."""
    guess = public.clone()
    cards = unseen_cards(public, seat)
    rng.shuffle(cards)
    for other in range(public.n):
        if other == seat:
            continue
        hand = [0] * CARD_COUNT
        for _ in range(public.sizes[other]):
            hand[cards.pop()] += 1
        guess.hands[other] = hand
    hidden_pile = [cards.pop() for _ in range(public.hidden_discard)]
    guess.discard = hidden_pile + list(public.discard)
    guess.discarders = list(public.discarders)
    guess.stock = cards[: public.hidden_stock]
    guess.hidden_stock = 0
    guess.hidden_discard = 0
    guess.seed = rng.randrange(2**31)
    guess.rng = random.Random(rng.randrange(2**31))
    return guess
