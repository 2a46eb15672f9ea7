"""A greedy computer player: simple, fast, and a fair opponent for beginners.

:class:`GreedyBot` looks only at its own hand and the table:

* it keeps cards that help the contract — wild cards, pairs (towards a set) and suited cards
  close in value (towards a run) — and discards its most expensive useless card;
* it lays down as soon as the ``down`` action is offered (the solver's best lay-down), lays off
  whatever it can and goes out whenever a listed play empties its hand;
* it never buys or claims (``pass``; never ``buy`` in the draw phase) — except where the contract
  needs more cards than a hand can hold without buying (``progressive-15`` hands 12–13: 15 cards
  from an 11-card deal), since otherwise nobody at an all-greedy table could ever go out (option
  ``buy_when_required``, default True);
* it takes the top discard only when the card completes or extends a meld in its hand (or, once
  down, can be laid off), else it draws from the stock;
* in ``basic`` it melds everything it can; in ``purchase`` it pursues the book it is closest to.

>>> from rummy.bots import make_bot, play_game
>>> game = play_game("may-i", [make_bot("greedy", seed=s) for s in range(3)], seed=7)
>>> game.game_over
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummy.engine import (
    GROUP,
    JOKER,
    RUN,
    AceMode,
    Action,
    BotError,
    Card,
    PlayerView,
    TableMeld,
    Variant,
    Verb,
    accepted_layoffs,
    rank_of,
    suit_of,
)

__all__ = ["GreedyBot", "book_targets", "fits_table", "run_value", "table_takes"]

TABLE_PLAYS = frozenset({Verb.LAYOFF, Verb.MELD, Verb.BATCH})


def run_value(card: Card, ace_high: bool) -> int:
    """A natural card's value in a run (ace 1, or 14 when ``ace_high``)."""
    rank = rank_of(card)
    return 14 if rank == 1 and ace_high else rank


def fits_table(card: Card, table: Sequence[TableMeld], variant: Variant) -> bool:
    """Whether ``card`` can be laid off on some table meld."""
    for meld in table:
        if card in _cards_accepted(meld, variant):
            return True
    return False


def table_takes(table: Sequence[TableMeld], variant: Variant) -> frozenset[Card]:
    """Every card kind that can be laid off on some table meld (``fits_table`` for all cards at once)."""
    return frozenset().union(*(_cards_accepted(meld, variant) for meld in table))


# (id of a meld, id of its variant) -> (the meld, the variant, the card kinds it takes at some end).  Melds are
# immutable, so this is worked out once per meld; the entry keeps both alive, so their ids are not reused.
_ACCEPTS: dict[tuple[int, int], tuple[TableMeld, Variant, frozenset[Card]]] = {}


def _cards_accepted(meld: TableMeld, variant: Variant) -> frozenset[Card]:
    """The card kinds that can be laid off on ``meld`` (:func:`rummy.engine.table_offers.accepted_layoffs`)."""
    hit = _ACCEPTS.get((id(meld), id(variant)))
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return hit[2]
    cards = frozenset(card for card, _ in accepted_layoffs(meld, variant))
    if len(_ACCEPTS) > 20_000:
        _ACCEPTS.clear()
    _ACCEPTS[id(meld), id(variant)] = (meld, variant, cards)
    return cards


def book_targets(high_ace: bool = True) -> list[tuple[Card, ...]]:
    """Every ``purchase`` book: four of a rank, or four consecutive cards of a suit (ace high)."""
    books: list[tuple[Card, ...]] = [tuple(s * 13 + r for s in range(4)) for r in range(13)]
    low = 2 if high_ace else 1
    for suit in range(4):
        for start in range(low, 12):
            books.append(tuple(suit * 13 + (0 if v == 14 else v - 1) for v in range(start, start + 4)))
    return books


_BOOKS = book_targets()


class GreedyBot:
    """Keep what helps, lay down and off at once, discard the most expensive useless card."""

    name = "greedy"
    needs_public_game = False

    def __init__(self, seed: int = 0, *, buy_when_required: bool = True, **options: object) -> None:
        if options:
            raise BotError(f"unknown greedy bot options: {', '.join(sorted(options))}")
        self.rng = random.Random(seed)  # the bot is deterministic; kept for the Bot convention
        self.buy_when_required = buy_when_required

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions``."""
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        variant = view.rules
        assert variant is not None, "the view carries the variant"
        by_verb: dict[Verb, list[Action]] = {}
        for action in actions:
            by_verb.setdefault(action.verb, []).append(action)
        if Verb.BUY in by_verb and self._must_buy(view, variant):
            return by_verb[Verb.BUY][0]
        if Verb.PASS in by_verb:
            return by_verb[Verb.PASS][0]
        if view.phase == "draw":
            return self._draw(view, variant, by_verb)
        if variant.uses_purchase_cards:
            return self._purchase(view, by_verb)
        for verb in (Verb.BATCH, Verb.DOWN):
            if verb in by_verb:
                return by_verb[verb][0]
        me = view.seat if view.seat is not None else view.active
        for action in actions:
            # Anything that empties the hand wins the round.
            if action.verb in TABLE_PLAYS and view.hand_sizes[me] == sum(_played(action)):
                return action
        if Verb.MELD in by_verb:
            return max(by_verb[Verb.MELD], key=lambda a: (len(a.melds[0].cards), _points(a, variant)))
        if Verb.LAYOFF in by_verb:
            return max(by_verb[Verb.LAYOFF], key=lambda a: (variant.points(a.card or 0), -(a.card or 0)))
        return self._discard(view, variant, by_verb.get(Verb.DISCARD, list(actions)))

    # -- drawing ---------------------------------------------------------------------------

    def _draw(self, view: PlayerView, variant: Variant, by_verb: dict[Verb, list[Action]]) -> Action:
        top = view.discard[-1] if view.discard else None
        if Verb.TAKE in by_verb and top is not None and (
            Verb.DRAW not in by_verb or self._wants(view, variant, top)
        ):
            return by_verb[Verb.TAKE][0]
        if Verb.DRAW in by_verb:
            return by_verb[Verb.DRAW][0]
        return next(a for a in view.legal_actions if a.verb is not Verb.BUY)

    def _must_buy(self, view: PlayerView, variant: Variant) -> bool:
        """Without a buy the contract cannot be laid down at all (more cards needed than held)."""
        me = view.seat if view.seat is not None else view.active
        if not self.buy_when_required or not variant.has_contracts or view.down[me]:
            return False
        return sum(slot.min_size for slot in view.contract) > len(view.hand) + 1

    def _wants(self, view: PlayerView, variant: Variant, card: Card) -> bool:
        """Does ``card`` complete or extend a meld in the hand (or fit the table once down)?"""
        me = view.seat if view.seat is not None else view.active
        if variant.uses_purchase_cards:  # the discard is bought, never taken
            return False
        if not variant.layoff_requires_down or view.down[me]:
            if fits_table(card, view.table, variant):
                return True
            if variant.has_contracts:
                return False
        if variant.is_wild(card):
            return True
        hand = [c for c in view.hand if not variant.is_wild(c)]
        kinds = {slot.kind for slot in view.contract} if variant.has_contracts else {GROUP, RUN}
        if GROUP in kinds and sum(1 for c in hand if rank_of(c) == rank_of(card)) >= variant.group_min - 1:
            return True
        if RUN in kinds:
            ace_high = variant.ace_mode.ace_high
            suited = {run_value(c, False) for c in hand if suit_of(c) == suit_of(card)}
            if ace_high and 1 in suited:
                suited.add(14)
            for value in {run_value(card, False), run_value(card, ace_high)}:
                low = high = value
                while low - 1 in suited:
                    low -= 1
                while high + 1 in suited:
                    high += 1
                if high - low + 1 >= variant.run_min:
                    return True
        return False

    # -- discarding ------------------------------------------------------------------------

    def _discard(self, view: PlayerView, variant: Variant, discards: list[Action]) -> Action:
        me = view.seat if view.seat is not None else view.active
        down = variant.has_contracts and view.down[me]
        kinds = {slot.kind for slot in view.contract} if variant.has_contracts else {GROUP, RUN}
        hand = list(view.hand)

        def partners(card: Card) -> int:
            if variant.is_wild(card):
                return 99
            if down:
                return 0
            others = list(hand)
            others.remove(card)
            count = 0
            for other in others:
                if variant.is_wild(other):
                    continue
                if GROUP in kinds and rank_of(other) == rank_of(card):
                    count += 1
                if RUN in kinds and suit_of(other) == suit_of(card) and 0 < _gap(card, other, variant) <= 2:
                    count += 1
            return count

        def key(action: Action) -> tuple[int, int, int]:
            card = action.card if action.card is not None else JOKER
            useless = partners(card) <= 0
            return (1 if useless else 0, variant.points(card) if useless else -partners(card), card)

        return max(discards, key=key)

    # -- purchase ----------------------------------------------------------------------------

    def _purchase(self, view: PlayerView, by_verb: dict[Verb, list[Action]]) -> Action:
        if Verb.BOOK in by_verb:
            return by_verb[Verb.BOOK][0]
        hand = list(view.hand)
        target = max(_BOOKS, key=lambda book: (sum(1 for c in book if c in hand), book))
        options = [
            action
            for verb in (Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE)
            for action in by_verb.get(verb, [])
            if (gained := _gained(view, action)) is not None and gained in target and gained not in hand
            and action.new_pc != gained and action.new_pc not in target
        ]
        if options:
            return max(options, key=lambda a: (rank_of(a.new_pc or 0) % 13 == 1, -(a.new_pc or 0)))
        discards = by_verb.get(Verb.DISCARD, [])

        def key(action: Action) -> tuple[int, int, int]:
            card = action.card if action.card is not None else 0
            best = max(sum(1 for c in book if c in hand) for book in _BOOKS if card in book)
            return (card not in target, -best, card)

        return max(discards, key=key)


def _gained(view: PlayerView, action: Action) -> Card | None:
    """The card a purchase, trade or exchange brings into the hand."""
    me = view.seat if view.seat is not None else view.active
    if action.verb is Verb.PURCHASE:
        return action.card
    pcs = view.purchase_cards or ()
    if action.verb is Verb.TRADE and action.target is not None:
        return pcs[action.target]
    if action.verb is Verb.EXCHANGE:
        return pcs[me]
    return None


def _gap(a: Card, b: Card, variant: Variant) -> int:
    gap = abs(run_value(a, False) - run_value(b, False))
    if variant.ace_mode.ace_high:
        gap = min(gap, abs(run_value(a, True) - run_value(b, True)))
    if variant.ace_mode is AceMode.HIGH_ONLY:
        gap = abs(run_value(a, True) - run_value(b, True))
    return gap


def _played(action: Action) -> list[int]:
    """Cards a table play moves from the hand (one per lay-off, all of a meld)."""
    steps = action.steps if action.verb is Verb.BATCH else (action,)
    played = []
    for step in steps:
        if step.verb is Verb.LAYOFF:
            played.append(1)
        elif step.verb is Verb.MELD:
            played.extend(1 for _ in step.melds[0].cards)
    return played


def _points(action: Action, variant: Variant) -> int:
    return sum(variant.points(c) for m in action.melds for c in m.cards)
