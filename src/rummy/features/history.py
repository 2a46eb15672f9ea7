"""The observation's information-state history: what every seat at the table has seen happen this round.

Built from the game's public record only: its log of actions (the verbs, and the cards that actions show
face up: discards, melds, lay-offs, swaps, relocations, purchases) and the cards that went face up from the
discard pile into a hand (``GameState.pickups``: what a take or a buy picked up).  A draw from the stock is
recorded as a draw, never with its card; a pass in a claim window is not recorded.  The blocks:

* per seat (the observer first, then to its left), the copies of each card kind it has
  :data:`HISTORY_COUNTS` this round: taken from the discard pile, bought (a buy, a May-I, a purchase from the
  pile), discarded, put into new melds (a lay-down, new melds, a book), laid off onto table melds (a swap's
  natural included);
* the last :data:`EVENT_ROWS` public events of the round, the newest first, one row each: the seat (one-hot,
  relative to the observer), the kind (one-hot, :data:`EVENT_KINDS`), then the copies of each card kind it
  showed (all zero for a draw or a rearrangement, whose cards from the hand are not told apart from the
  table's).  Rows past the round's events are all zero.

Everything resets when a round is dealt.  The encoder's :class:`History` adds 1 / C per card (its scale).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rummy.engine import CARD_COUNT, Action, GameState, Verb, native_query

#: The per-seat count blocks, in this order (block names of the observation).
HISTORY_COUNTS = ("taken", "bought", "discarded", "melded", "laid_off")
#: The kinds of public event, in the order of their one-hot columns.
EVENT_KINDS = ("draw", "take", "buy", "discard", "meld", "layoff", "swap", "move", "rearrange", "purchase", "trade",
               "exchange")
#: Events kept, the newest first.
EVENT_ROWS = 8

_TAKEN, _BOUGHT, _DISCARDED, _MELDED, _LAID_OFF = range(len(HISTORY_COUNTS))
_KIND = {kind: index for index, kind in enumerate(EVENT_KINDS)}
_MELD_VERBS = frozenset({Verb.DOWN, Verb.MELD, Verb.BOOK})
#: the verbs the compiled history reads (history.c), in its order
_VERBS = (Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.DISCARD, Verb.DOWN, Verb.MELD, Verb.BOOK, Verb.LAYOFF, Verb.SWAP,
          Verb.MOVE, Verb.REARRANGE, Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE, Verb.BATCH)


def _picked_up(pickups: list[tuple[int, int, int]], index: int, seat: int) -> list[int]:
    """The cards ``seat`` picked up from the discard pile by the action at log ``index`` (the pickups are in log
    order: read from the end)."""
    cards = []
    for at, who, card in reversed(pickups):
        if at < index:
            break
        if at == index and who == seat:
            cards.append(card)
    cards.reverse()
    return cards


def event_row_size(players: int) -> int:
    """Numbers in one event row: the seat one-hot, the kind one-hot, the card counts."""
    return players + len(EVENT_KINDS) + CARD_COUNT


class History:
    """The public record of the current round of one game, brought up to date action by action.

    :meth:`update` reads the actions logged since the last call when the game is the one seen last (the same
    log, the same round, the last action seen still in place) and reads the round anew otherwise, so any game
    gives its true history.  ``counts[block, seat, card]`` and ``ring`` (the event rows, seat columns absolute)
    are what the encoder rotates to the observer; a card adds ``unit`` to a count (the encoder's scale)."""

    def __init__(self, players: int, unit: float = 1.0) -> None:
        self.players = players
        #: what one card adds to a count (the encoder's 1 / C, so that the counts come scaled)
        self.unit = np.float32(unit)
        self.counts = np.zeros((len(HISTORY_COUNTS), players, CARD_COUNT), dtype=np.float32)
        self.ring = np.zeros((EVENT_ROWS, event_row_size(players)), dtype=np.float32)
        #: the same numbers one by one (a memoryview's item costs less than a numpy scalar; its arithmetic, a double
        #: rounded to float32 when stored, gives the float32 sum numpy gives)
        self._counts: memoryview[float] = self.counts.data.cast("B").cast("f")
        self._newest: memoryview[float] = self.ring[0].data
        self._log: list[Action] | None = None
        self._start = -1
        self._done = 0
        self._last: Action | None = None

    def update(self, game: GameState) -> None:
        log = game.log
        start = game.round_starts[-1] if game.round_starts else 0
        done = self._done
        if (log is not self._log or start != self._start or len(log) < done
                or (done > start and log[done - 1] is not self._last)):
            self.counts[:] = 0
            self.ring[:] = 0
            self._log, self._start, self._last = log, start, None
            done = start
        if done == len(log):
            self._done = done
            return
        pickups = game.pickups
        add = native_query("history_add")  # the compiled core (history.c) where it runs; this loop is the reference
        if add is None or add(self.counts, self.ring, self.players, float(self.unit), log, done, len(log), pickups,
                              _VERBS) is None:
            if add is not None:  # the core refused partway: the round is read anew here
                self.counts[:] = 0
                self.ring[:] = 0
                done = start
            for index in range(done, len(log)):
                self._add(log[index], index, pickups)
        self._done = len(log)
        self._last = log[-1]

    def _add(self, action: Action, index: int, pickups: list[tuple[int, int, int]]) -> None:
        verb = action.verb
        seat = action.seat
        if verb is Verb.BATCH:
            for step in action.steps:
                self._add(step, index, pickups)
            return
        cards: Sequence[int]
        if verb is Verb.DRAW:
            self._event(seat, "draw", ())
        elif verb is Verb.TAKE or verb is Verb.BUY:
            cards = _picked_up(pickups, index, seat)
            self._count(_TAKEN if verb is Verb.TAKE else _BOUGHT, seat, cards)
            self._event(seat, verb.value, cards)
        elif verb is Verb.DISCARD and action.card is not None:
            self._count(_DISCARDED, seat, (action.card,))
            self._event(seat, "discard", (action.card,))
        elif verb in _MELD_VERBS:
            cards = [card for meld in action.melds for card in meld.cards]
            self._count(_MELDED, seat, cards)
            self._event(seat, "meld", cards)
        elif verb is Verb.LAYOFF or verb is Verb.SWAP:
            cards = (action.card,) if action.card is not None else ()
            self._count(_LAID_OFF, seat, cards)
            self._event(seat, verb.value, cards)
        elif verb is Verb.MOVE:
            self._event(seat, "move", (action.card,) if action.card is not None else ())
        elif verb is Verb.REARRANGE:
            self._event(seat, "rearrange", ())
        elif verb is Verb.PURCHASE:  # a card of the (public) discard pile for the seat's face-up purchase card
            cards = (action.card,) if action.card is not None else ()
            self._count(_BOUGHT, seat, cards)
            self._event(seat, "purchase", cards)
        elif verb is Verb.TRADE or verb is Verb.EXCHANGE:  # the new purchase card goes face up
            self._event(seat, verb.value, (action.new_pc,) if action.new_pc is not None else ())

    def _count(self, block: int, seat: int, cards: Sequence[int]) -> None:
        counts, unit = self._counts, float(self.unit)
        start = (block * self.players + seat) * CARD_COUNT
        for card in cards:  # capped at 1: a card kind can come round again after the stock is refilled
            counts[start + card] = min(counts[start + card] + unit, 1.0)

    def _event(self, seat: int, kind: str, cards: Sequence[int]) -> None:
        ring = self.ring
        ring[1:] = ring[:-1]
        ring[0] = 0
        row = self._newest
        row[seat] = 1.0
        cards_start = self.players + len(EVENT_KINDS)
        row[self.players + _KIND[kind]] = 1.0
        unit = float(self.unit)
        for card in cards:
            row[cards_start + card] += unit
