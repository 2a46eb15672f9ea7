"""Information sets for search: a seat's redacted copy of the game, and random completions of it.

:func:`redact` copies a game with everything ``seat`` may not see removed: the other hands (their
sizes stay), the stock order, the deals, the RNG and the seed that orders future reshuffles.  What
everybody saw stays: the whole discard pile (every card in it was discarded face up, an event every
seat is shown; where the rules show only the top card, players "could remember anyway", rules §2.13)
and the cards each player took face up from the discard pile this round and has not visibly put down
or discarded since (:func:`known_hands`).
:func:`determinize` deals those cards back to their holders and fills the other blanks with the
unseen cards, shuffled, giving a complete game consistent with everything the seat has seen.
Search bots (ISMCTS) plan on such completions; they never see the real game: their driver shows them
:func:`search_view`, the seat's view carrying the redacted copy.  (The engine's views do not build it:
the engine knows nothing of search.)

>>> import random
>>> from rummy.engine import new_game
>>> game = new_game("may-i", 4, seed=3)
>>> public = redact(game, 0)
>>> sum(public.hands[1]), public.sizes[1], public.stock
(0, 11, [])
>>> guess = determinize(public, 0, random.Random(1))
>>> guess.hand(0) == game.hand(0), guess.sizes == game.sizes, len(guess.stock) == len(game.stock)
(True, True, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from rummy.engine import CARD_COUNT, JOKER, Action, Card, Verb, make_card, rank_of, suit_of

if TYPE_CHECKING:
    from rummy.engine import Game, GameState, PlayerView


def released_cards(action: Action) -> list[Card]:
    """Cards an action visibly moves out of its player's hand (a rearrangement: every card it names)."""
    if action.verb is Verb.BATCH:
        return [card for step in action.steps for card in released_cards(step)]
    if action.melds:
        return [card for meld in action.melds for card in meld.cards]
    if action.card is not None and action.verb in (Verb.DISCARD, Verb.LAYOFF, Verb.SWAP, Verb.PURCHASE, Verb.TRADE):
        return [action.card]
    return []


def _round_start(game: Game) -> int:
    """Index in ``game.log`` where the current round's actions begin."""
    return game.round_starts[-1] if game.round_starts else 0


def known_hands(game: Game) -> list[list[int]]:
    """Per seat, counts of the cards everyone saw it take from the discard pile this round and not
    seen leave its hand since (by a discard or a play naming that card).  Public knowledge only.

    >>> from rummy.engine import new_game
    >>> game = new_game("basic", 2, seed=1)
    >>> top = game.top_discard
    >>> _ = game.apply_text(f"p{game.active} take")
    >>> known_hands(game)[game.active][top]
    1
    """
    return _round_memory(game)[0]


def discards_by_seat(game: Game) -> list[list[int]]:
    """Per seat, counts of the cards it discarded this round (all of them seen face up).

    >>> from rummy.engine import card_name
    >>> from rummy.engine import new_game
    >>> game = new_game("basic", 2, seed=1)
    >>> _ = game.apply_text(f"p{game.active} draw")
    >>> card = game.hand(game.active)[0]
    >>> _ = game.apply_text(f"p{game.active} discard {card_name(card)}")
    >>> discards_by_seat(game)[game.discarders[-1]][card]
    1
    """
    return _round_memory(game)[1]


def declined_by_seat(game: Game) -> list[list[int]]:
    """Per seat, counts of the discards it was seen to leave: the card just discarded on top of the pile
    when it drew from the stock instead.

    >>> from rummy.engine import card_name
    >>> from rummy.engine import new_game
    >>> game = new_game("basic", 2, seed=1)
    >>> _ = game.apply_text(f"p{game.active} draw")
    >>> card = game.hand(game.active)[0]
    >>> _ = game.apply_text(f"p{game.active} discard {card_name(card)}")
    >>> _ = game.apply_text(f"p{game.active} draw")
    >>> declined_by_seat(game)[game.active][card]
    1
    """
    return _round_memory(game)[2]


def _round_memory(game: Game) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[Card | None]]:
    """:func:`known_hands`, :func:`discards_by_seat`, :func:`declined_by_seat` and each seat's latest
    discard this round (None before its first, or once it has taken a card from the pile since: the
    hand it discarded from is then not its hand now plus that card) in one pass over the round's actions."""
    known = [[0] * CARD_COUNT for _ in range(game.n)]
    discarded = [[0] * CARD_COUNT for _ in range(game.n)]
    declined = [[0] * CARD_COUNT for _ in range(game.n)]
    latest: list[Card | None] = [None] * game.n
    pickups = game.pickups
    next_pickup = 0
    top: Card | None = None  # the card on top of the pile, while it is the round's last discard
    for index in range(_round_start(game), len(game.log)):
        action = game.log[index]
        counts = known[action.seat]
        for card in released_cards(action):
            if counts[card]:
                counts[card] -= 1
        for step in action.steps if action.verb is Verb.BATCH else (action,):
            if step.verb is Verb.DISCARD and step.card is not None:
                discarded[step.seat][step.card] += 1
                latest[step.seat] = top = step.card
            elif step.verb is Verb.DRAW and top is not None:
                declined[step.seat][top] += 1
                top = None
        while next_pickup < len(pickups) and pickups[next_pickup][0] <= index:
            _, holder, card = pickups[next_pickup]
            known[holder][card] += 1
            latest[holder] = None  # its hand has grown since that discard (a claim out of turn)
            next_pickup += 1
            top = None
    return known, discarded, declined, latest


def redact(game: GameState, seat: int) -> Game:
    """A copy of ``game`` holding only what ``seat`` may see (sizes and counts stay)."""
    public = cast("Game", game.copy())  # a copy of a Game is a Game
    public.known_hands, public.discarded, public.declined, public.last_discards = _round_memory(public)
    for other in range(game.n):
        if other != seat:
            public.hands[other] = [0] * CARD_COUNT
    public.hidden_stock = len(public.stock)
    public.stock = []
    public.deals = []
    public.round_starts = []
    public.log = []
    public.seed = 0
    public.round_seed = None  # a provably fair round's seed would deal every hand again
    public.rng = random.Random(0)
    return public


def search_view(game: Game, seat: int) -> PlayerView:
    """``seat``'s view with :func:`redact`'s copy of the game as its ``public_game``: what a search bot
    (one with ``needs_public_game``) is shown instead of the plain :meth:`Game.view`."""
    return dataclasses.replace(game.view(seat), public_game=redact(game, seat))


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


def _relations(cards: list[int]) -> list[float]:
    """Per card, how related it is to ``cards`` (counts): 2 per card of its rank, 2 per suit neighbour
    one rank away, 1 per neighbour two ranks away."""
    related = [0.0] * CARD_COUNT
    for card, count in enumerate(cards[:52]):
        if not count:
            continue
        rank, suit = rank_of(card), suit_of(card)
        for other in range(4):
            if other != suit:
                related[make_card(rank, other)] += 2.0 * count
        for step, weight in ((1, 2.0), (2, 1.0)):
            for near in (rank - step, rank + step):
                if 1 <= near <= 13:
                    related[make_card(near, suit)] += weight * count
    return related


def _evidence(public: Game, other: int, discard_weight: float, declined_weight: float) -> list[float] | None:
    """Per card, how much the play of ``other`` this round speaks against its holding it: the
    :func:`_relations` of its discards and of the discards it left for the stock, weighted."""
    against = None
    for weight, cards in ((discard_weight, public.discarded), (declined_weight, public.declined)):
        if weight and cards is not None:
            against = against or [0.0] * CARD_COUNT
            for card, related in enumerate(_relations(cards[other])):
                against[card] += weight * related
    return against


def _keep_value(hand: list[int], card: Card, public: Game, against: list[float] | None = None) -> float:
    """How much ``card`` helps ``hand`` toward melds: wild cards most, then cards sharing its rank and
    its suit neighbours (one rank away counts double); cheaper cards break ties.  ``against``
    (:func:`_evidence`) lowers cards that the holder's discards would have suited: a player who held
    them would have kept those discards (or taken the one it left)."""
    variant = public.variant
    if card == JOKER or variant.is_wild(card):
        return 100.0
    rank, suit = rank_of(card), suit_of(card)
    value = 2.0 * (sum(hand[make_card(rank, other)] for other in range(4)) - 1)
    for step, closeness in ((1, 2.0), (2, 1.0)):
        for near in (rank - step, rank + step):
            if 1 <= near <= 13:
                value += closeness * min(1, hand[make_card(near, suit)])
    if against is not None:
        value -= against[card]
    return value - variant.points(card) / 100.0


#: Deals of one opponent's hand tried before a guess that ``missed_play`` rules out is kept anyway.
REDEALS = 8


def _deal_hand(public: Game, hand: list[int], cards: list[Card], missing: int, extra: int,
               against: list[float] | None, rng: random.Random) -> list[Card]:
    """Fill ``hand`` (counts) with ``missing`` cards from the end of ``cards``; with ``extra`` > 0 it is
    dealt that many more and gives back (to random places in ``cards``) the least useful.  Returns the
    cards it dealt and kept."""
    drawn = [cards.pop() for _ in range(missing + extra)]
    for card in drawn:
        hand[card] += 1
    for _ in range(extra):  # the opponent kept its best cards: return the least useful
        dropped = min(drawn, key=lambda card: _keep_value(hand, card, public, against))
        drawn.remove(dropped)
        hand[dropped] -= 1
        cards.insert(rng.randrange(len(cards) + 1), dropped)
    return drawn


def determinize(public: Game, seat: int, rng: random.Random, *, kept_draws: float = 0.0,
                discard_weight: float = 0.0, declined_weight: float = 0.0,
                missed_play: Callable[[Game, int, list[int]], bool] | None = None) -> Game:
    """A complete game consistent with ``public`` (from :func:`redact`), hidden cards dealt at random.

    With ``kept_draws`` > 0 the opponents' hands are not uniform: an opponent that has had ``t`` turns
    this round is dealt ``kept_draws × t`` extra cards and gives back the ones least useful to its hand
    (a player keeps what helps it), so the guessed hands are as far on as the opponents' play suggests.
    ``discard_weight`` > 0 makes it give back first the cards that its discards this round would have
    suited (it would have kept those discards had it held such cards); ``declined_weight`` > 0 does the
    same for the discards it left on the pile when it drew from the stock (it would have taken them).
    ``missed_play(public, other, cards)`` rules out guesses that contradict an opponent's last turn: a
    hand that, with the card the opponent discarded then, would have let it lay down or go out (so the
    test says, :mod:`rummy.bots.inference`) is dealt again, up to :data:`REDEALS` times.
    """
    guess = public.clone()
    cards = unseen_cards(public, seat)
    rng.shuffle(cards)
    hands = [[0] * CARD_COUNT for _ in range(public.n)]
    if public.known_hands is not None:
        left = [0] * CARD_COUNT
        for card in cards:
            left[card] += 1
        dealt = [0] * CARD_COUNT
        for other, known in enumerate(public.known_hands):
            if other == seat:
                continue
            room = public.sizes[other]
            for card in range(CARD_COUNT):
                count = min(known[card], left[card] - dealt[card], room)
                if count:
                    hands[other][card] = count
                    dealt[card] += count
                    room -= count
        remaining = []
        for card in cards:  # drop the first copies of the dealt cards, keep the shuffled order
            if dealt[card]:
                dealt[card] -= 1
            else:
                remaining.append(card)
        cards = remaining
    last_discards = public.last_discards if missed_play is not None else None
    for other in range(public.n):
        if other == seat:
            continue
        known = hands[other]
        missing = public.sizes[other] - sum(known)
        extra = min(int(kept_draws * public.own_turns[other]), len(cards) - missing) if kept_draws else 0
        against = _evidence(public, other, discard_weight, declined_weight) if extra > 0 else None
        last = last_discards[other] if last_discards is not None else None
        for attempt in range(REDEALS):
            hand = list(known)
            drawn = _deal_hand(public, hand, cards, missing, max(extra, 0), against, rng)
            if last is None or missed_play is None or attempt == REDEALS - 1:
                break
            before = list(hand)
            before[last] += 1
            if not missed_play(public, other, before):
                break
            for card in drawn:  # back into the pool, and deal again
                cards.insert(rng.randrange(len(cards) + 1), card)
        guess.hands[other] = hand
    guess.stock = cards[: public.hidden_stock]
    guess.hidden_stock = 0
    guess.seed = rng.randrange(2**31)
    guess.rng = random.Random(rng.randrange(2**31))
    return guess
