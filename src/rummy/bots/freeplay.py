"""Heuristic play of the two variants without contracts: ``basic`` and ``purchase``.

Used by :class:`~rummy.bots.heuristic.HeuristicBot`.

``basic`` (:class:`BasicPlanner`): the hand is split by :func:`rummy.engine.solver.best_melds_from`
into melds and *deadwood*.  The bot takes the top discard when it lowers the deadwood or can be
laid off, melds and lays off everything unless it is close to going out in one turn ("going
rummy" doubles the score) and nobody threatens to go out first, and discards the deadwood card
with the worst mix of points and prospects (unseen cards that would pair or connect it).

``purchase`` (:class:`PurchasePlanner`): every book (four of a rank or four in sequence) is
scored by the cards held plus how reachable each missing card is — the own purchase card
(exchange), a discard the purchase card may buy, another player's purchase card it may trade for,
or an unseen card.  Purchases, trades and exchanges are taken when they win at once or raise the
best book; the new purchase card is the least useful card, preferring high ranks (a high purchase
card can buy more and is harder to trade away).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummy.bots.greedy import book_targets, fits_table
from rummy.engine import (
    CARD_COUNT,
    Action,
    Card,
    PlayerView,
    TableMeld,
    Variant,
    Verb,
    best_melds_from,
    purchase_allowed,
    rank_of,
    suit_of,
    to_counts,
)

__all__ = ["BasicPlanner", "PurchasePlanner", "unmelded"]

_BOOKS = book_targets()
#: Per card, the indices in :data:`_BOOKS` of the books that hold it (a hand's books are found through
#: its cards rather than by scanning every book).
_BOOKS_OF: list[tuple[int, ...]] = [
    tuple(index for index, book in enumerate(_BOOKS) if card in book) for card in range(CARD_COUNT)
]
#: 0.8 ** i: the weight of the i-th most reachable missing card of a book.
_MISSING_WEIGHTS = tuple(0.8 ** i for i in range(4))
_MELDS: dict[tuple[object, ...], tuple[int, tuple[tuple[Card, ...], ...]]] = {}


def _me(view: PlayerView) -> int:
    return view.seat if view.seat is not None else view.active


def _melds(cards: Sequence[Card], variant: Variant) -> tuple[int, tuple[tuple[Card, ...], ...]]:
    """Deadwood points and the best melds of ``cards`` (memoised for every bot)."""
    counts = to_counts(cards)
    key = (variant.ace_mode, variant.run_min, variant.group_min, variant.card_points, tuple(counts))
    hit = _MELDS.get(key)
    if hit is None:
        if len(_MELDS) > 50_000:
            _MELDS.clear()
        plan = best_melds_from(counts, variant)
        melded = [c for m in plan for c in m.cards]
        dead = sum(variant.points(c) for c in cards) - sum(variant.points(c) for c in melded)
        hit = _MELDS[key] = (dead, tuple(tuple(sorted(m.cards)) for m in plan))
    return hit


def unmelded(cards: Sequence[Card], variant: Variant) -> list[Card]:
    """The cards outside the best melds of ``cards``."""
    return _outside(cards, _melds(cards, variant)[1])


def _outside(cards: Sequence[Card], plan: tuple[tuple[Card, ...], ...]) -> list[Card]:
    left = list(cards)
    for meld in plan:
        for card in meld:
            left.remove(card)
    return left


# -- basic -----------------------------------------------------------------------------------


class BasicPlanner:
    """``basic`` decisions (see the module docstring); remembers discards seen this hand."""

    def __init__(self, *, rummy: str = "hold", rummy_threat: int = 2) -> None:
        self.rummy = rummy
        self.rummy_threat = rummy_threat
        self._hand_key: tuple[int, int] | None = None
        self._seen: set[Card] = set()
        self._stock = 0
        self._played = False
        #: Close alternatives to the last choice, best first (see HeuristicBot.candidates).
        self.alternatives: list[Action] = []

    def _observe(self, view: PlayerView) -> None:
        key = (view.round, view.dealer)
        if key != self._hand_key:
            self._hand_key, self._seen, self._played = key, set(), False
        if view.stock_count > self._stock:
            self._seen = set()  # the discard pile went back into the stock
        self._stock = view.stock_count
        self._seen.update(view.discard)
        if any(m.owner == _me(view) for m in view.table):
            self._played = True

    def choose(self, view: PlayerView, variant: Variant) -> Action:
        self._observe(view)
        actions = view.legal_actions
        if view.phase == "draw":
            return self._draw(view, variant)
        out = next((a for a in actions if a.verb is Verb.BATCH), None)
        if out is not None:
            return out
        hand = list(view.hand)
        _, plan = _melds(hand, variant)
        leftover = _outside(hand, plan)
        table = list(view.table)
        layable = [c for c in leftover if fits_table(c, table, variant)]
        threat = min((view.hand_sizes[s] for s in range(len(view.players)) if s != _me(view)), default=9)
        stuck = len(leftover) - len(layable)
        can_go_out = stuck <= 1
        meld = next((a for a in actions if a.verb is Verb.MELD and tuple(sorted(a.melds[0].cards)) in plan), None)
        if not can_go_out and self._delay(view, variant, leftover, layable, threat):
            hold = self._discard(view, variant, leftover)
            if meld is not None:  # holding back for rummy is a judgement call: melding is the alternative
                self.alternatives = [hold, meld] + self.alternatives[1:]
            return hold
        if meld is not None:
            if not can_go_out and not self._played:  # the first meld of the hand: holding is the alternative
                self.alternatives = [meld, self._discard(view, variant, leftover)]
            self._played = True
            return meld
        layoffs = [a for a in actions if a.verb is Verb.LAYOFF and a.card in leftover]
        if layoffs:
            self._played = True
            return max(layoffs, key=lambda a: (variant.points(a.card or 0), -(a.card or 0)))
        return self._discard(view, variant, leftover)

    def _delay(self, view: PlayerView, variant: Variant, leftover: list[Card], layable: list[Card],
               threat: int) -> bool:
        """Hold the melds back to go rummy next turn?"""
        if self.rummy == "off" or self._played or threat <= self.rummy_threat:
            return False
        stuck = [c for c in leftover if c not in layable]
        if self.rummy == "hold":
            return True
        if len(stuck) != 2:
            return False
        unseen = self._unseen(view)
        hand = list(view.hand)
        outs = 0
        for card in range(52):
            if not unseen[card] or not any(_related(card, s) for s in stuck):
                continue
            remaining = [c for c in unmelded(hand + [card], variant) if not fits_table(c, view.table, variant)]
            if len(remaining) <= 1:
                outs += 1
        return outs >= 3

    def _unseen(self, view: PlayerView) -> list[int]:
        unseen = [1] * 52
        for card in list(view.hand) + [c for m in view.table for c in m.cards] + list(self._seen):
            unseen[card] = 0
        return unseen

    def _draw(self, view: PlayerView, variant: Variant) -> Action:
        take = next((a for a in view.legal_actions if a.verb is Verb.TAKE), None)
        draw = next((a for a in view.legal_actions if a.verb is Verb.DRAW), None)
        if take is None or not view.discard:
            return draw or view.legal_actions[0]
        if draw is None:
            return take
        self.alternatives = [take, draw]
        card = view.discard[-1]
        hand = list(view.hand)
        if fits_table(card, view.table, variant):
            return take
        before, _ = _melds(hand, variant)
        after, _ = _melds(hand + [card], variant)
        if after < before or _forms_meld(card, hand, variant):
            return take
        return draw

    def _discard(self, view: PlayerView, variant: Variant, leftover: list[Card]) -> Action:
        discards = [a for a in view.legal_actions if a.verb is Verb.DISCARD]
        if not discards:
            return view.legal_actions[0]
        unseen = self._unseen(view)
        threat = min((view.hand_sizes[s] for s in range(len(view.players)) if s != _me(view)), default=9)
        weight = 0.6 if threat <= 2 else 0.15

        def key(action: Action) -> tuple[float, int]:
            card = action.card if action.card is not None else 0
            if card not in leftover:
                return (-100.0 - variant.points(card), -card)
            prospects = _prospects(card, [c for c in leftover if c != card], unseen, view.table, variant)
            return (weight * variant.points(card) - 2.5 * prospects, -card)

        self.alternatives = sorted(discards, key=key, reverse=True)
        return self.alternatives[0]


def _forms_meld(card: Card, hand: list[Card], variant: Variant) -> bool:
    """Does ``card`` make a set or run with cards of the hand?"""
    rank, suit = rank_of(card), suit_of(card)
    if sum(1 for c in hand if rank_of(c) == rank) >= variant.group_min - 1:
        return True
    values = {rank_of(c) for c in hand if suit_of(c) == suit} | {rank}
    low = high = rank
    while low - 1 in values:
        low -= 1
    while high + 1 in values:
        high += 1
    return high - low + 1 >= variant.run_min


def _related(a: Card, b: Card) -> bool:
    return rank_of(a) == rank_of(b) or (suit_of(a) == suit_of(b) and abs(rank_of(a) - rank_of(b)) <= 2)


def _prospects(card: Card, others: list[Card], unseen: list[int], table: Sequence[TableMeld],
               variant: Variant) -> float:
    """Unseen cards that would put ``card`` in a meld with the other deadwood (or on the table)."""
    rank, suit = rank_of(card), suit_of(card)
    score = 0.0
    if any(rank_of(o) == rank for o in others):
        score += sum(unseen[s * 13 + rank - 1] for s in range(4) if s != suit)
    for other in others:
        if suit_of(other) == suit and 0 < abs(rank_of(other) - rank) <= 2:
            low, high = sorted((rank, rank_of(other)))
            if high - low == 2:
                score += unseen[suit * 13 + low]
            else:
                score += 0.5 * sum(unseen[suit * 13 + v - 1] for v in (low - 1, high + 1) if 1 <= v <= 13)
    for meld in table:
        if meld.is_run and meld.suit == suit and rank in (meld.low - 2, meld.high + 2):
            between = rank + 1 if rank == meld.low - 2 else rank - 1
            score += 0.5 * unseen[suit * 13 + between - 1]
    return score


# -- purchase --------------------------------------------------------------------------------


class PurchasePlanner:
    """``purchase`` decisions (see the module docstring)."""

    def __init__(self) -> None:
        #: Close alternatives to the last choice, best first (see HeuristicBot.candidates).
        self.alternatives: list[Action] = []

    def choose(self, view: PlayerView, variant: Variant) -> Action:
        actions = view.legal_actions
        book = next((a for a in actions if a.verb is Verb.BOOK), None)
        if book is not None:
            return book
        me = _me(view)
        pcs = view.purchase_cards or ()
        hand = list(view.hand)
        reach = self._reach(view, variant, pcs[me] if pcs else None)
        current = self._value(hand, reach)
        best: tuple[float, Action] | None = None
        for action in actions:
            if action.verb not in (Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE):
                continue
            gained = self._gained(view, action)
            if gained is None or action.new_pc is None:
                continue
            seven = hand + [gained]
            seven.remove(action.new_pc)
            if _book_in(seven):
                return action  # declare it next
            after = self._reach(view, variant, action.new_pc, moved=(gained, pcs[me] if pcs else None))
            value = self._value(seven, after) + 0.02 * _power(action.new_pc)
            if best is None or value > best[0]:
                best = (value, action)
        if best is not None and best[0] > current + 0.25:
            return best[1]
        return self._discard(view, hand, reach)

    def _gained(self, view: PlayerView, action: Action) -> Card | None:
        pcs = view.purchase_cards or ()
        if action.verb is Verb.PURCHASE:
            return action.card
        if action.verb is Verb.TRADE and action.target is not None:
            return pcs[action.target]
        if action.verb is Verb.EXCHANGE:
            return pcs[_me(view)]
        return None

    def _reach(self, view: PlayerView, variant: Variant, pc: Card | None,
               moved: tuple[Card, Card | None] | None = None) -> list[float]:
        """How reachable each card is for the next turns (1 = in hand)."""
        me = _me(view)
        reach = [0.12] * 52  # unseen: the stock or an opponent's hand
        pile = list(view.discard)
        pcs = list(view.purchase_cards or ())
        if moved is not None:
            gained, old = moved
            if gained in pile:
                pile[pile.index(gained)] = old if old is not None else gained
            elif gained in pcs:
                pcs[pcs.index(gained)] = old if old is not None else gained
        for card in pile:
            reach[card] = 0.55 if pc is not None and purchase_allowed(variant, pc, card) else 0.2
        for seat, card in enumerate(pcs):
            if seat == me:
                continue
            reach[card] = 0.45 if pc is not None and purchase_allowed(variant, pc, card) else 0.15
        if pc is not None:
            reach[pc] = 0.7
        for card in view.hand:
            reach[card] = 1.0
        return reach

    def _value(self, cards: list[Card], reach: list[float]) -> float:
        """Value of a hand: the best book's expected progress (plus a little of the second best)."""
        hand = set(cards)
        best = second = 0.0
        for index in {index for card in hand for index in _BOOKS_OF[card]}:  # the books holding a card
            missing = [reach[c] for c in _BOOKS[index] if c not in hand]
            missing.sort(reverse=True)
            progress = 0.0
            for weight, chance in zip(_MISSING_WEIGHTS, missing, strict=False):  # up to 3 missing
                progress += chance * weight
            score = 4 - len(missing) + progress
            if score > best:
                best, second = score, best
            elif score > second:
                second = score
        return best + 0.15 * second

    def _discard(self, view: PlayerView, hand: list[Card], reach: list[float]) -> Action:
        discards = [a for a in view.legal_actions if a.verb is Verb.DISCARD]
        if not discards:
            return view.legal_actions[0]

        def key(action: Action) -> tuple[float, int]:
            rest = list(hand)
            rest.remove(action.card or 0)
            return (self._value(rest, reach), -(action.card or 0))

        self.alternatives = sorted(discards, key=key, reverse=True)
        return self.alternatives[0]


def _power(card: Card) -> int:
    """Purchasing power of a purchase card (2 < … < K < A)."""
    rank = rank_of(card)
    return 14 if rank == 1 else rank


def _book_in(cards: list[Card]) -> bool:
    held: dict[int, int] = {}  # per book touched, how many of its cards are in hand
    for card in set(cards):
        for index in _BOOKS_OF[card]:
            held[index] = held.get(index, 0) + 1
    return 4 in held.values()

