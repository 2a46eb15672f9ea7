"""The state of a game as plain data: every field, a cheap explicit :meth:`GameState.copy`, no rules.

The rule modules (:mod:`rummy.engine.rules`) read and write these fields; the façade
(:class:`rummy.engine.game.Game`) adds the public methods on top.  Hands are count vectors (index = card),
the stock's top is its last element, the discard pile runs bottom first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any

import rummy.engine.backends as backends
from rummy.engine.actions import Action
from rummy.engine.cards import CARD_COUNT, Card, Counts
from rummy.engine.melds import TableMeld
from rummy.engine.scoring import RoundResult
from rummy.engine.variants import RoundRules, Variant


class Phase(StrEnum):
    CLAIM = "claim"
    DRAW = "draw"
    PLAY = "play"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


@dataclass(slots=True)
class ClaimWindow:
    """An offer of the top discard to the eligible seats, in priority order."""

    card: Card
    eligible: list[int]
    after_decline: bool
    answered: set[int] = field(default_factory=set)
    claimants: set[int] = field(default_factory=set)

    def copy(self) -> ClaimWindow:
        return ClaimWindow(self.card, list(self.eligible), self.after_decline, set(self.answered), set(self.claimants))

    def waiting(self) -> list[int]:
        return sorted(p for p in self.eligible if p not in self.answered)


@dataclass(slots=True, eq=False)
class GameState:
    """Everything a game is at one moment (omniscient: every hand and the stock order)."""

    # -- the game ------------------------------------------------------------------------
    variant: Variant
    players: list[str]
    seed: int
    #: The game's RNG (the shuffles of its deals, the first dealer), as :attr:`rng` gives it: a copy shares it
    #: with its original (``rng_shared``, set on both) until either reads :attr:`rng`, which copies it then.
    rng_source: random.Random
    pack: Counts
    start_round: int
    start_totals: list[int]
    start_kitty: int
    round_number: int
    totals: list[int]
    kitty: int
    pennies_paid: list[int]
    match_wins: list[int]
    results: list[RoundResult]
    log: list[Action]
    #: One per round dealt: the deal as supplied (dealer, hands, upcard, stock, purchase_cards).
    deals: list[dict[str, Any]]
    #: Index in ``log`` where each round's actions begin.
    round_starts: list[int]
    phase: Phase
    dealer: int
    active: int
    turns_played: int
    # -- the round ------------------------------------------------------------------------
    rules: RoundRules
    hands: list[Counts]
    sizes: list[int]
    stock: list[Card]
    discard: list[Card]
    #: The seat that discarded each card of the pile (-1: the upcard).
    discarders: list[int]
    table: list[TableMeld]
    next_meld_id: int
    down: list[bool]
    #: The seat's own-turn number in which it laid down.
    down_turn: list[int]
    own_turns: list[int]
    claims_used: list[int]
    played_to_table: list[bool]
    purchase_cards: list[Card] | None
    window: ClaimWindow | None
    refills: int
    depletions: int
    #: Cards on the table when the current turn started, and the turns started since that count last grew
    #: (the washout rule, rules.md §2.9).
    table_cards: int
    quiet_turns: int
    #: The round's shuffle seed when it was dealt from a :class:`~rummy.engine.fair_shuffle.ShuffleSecret`
    #: (its reshuffles are then seeded from it), else None (they are seeded from ``seed``).
    round_seed: int | None
    #: Cards that went face up from the discard pile into a hand this round: (log index, seat, card).
    pickups: list[tuple[int, int, Card]]
    #: Cards that entered a hand from the stock or the pile during the action being applied: (seat, card).
    received: list[tuple[int, Card]]
    # -- the turn -------------------------------------------------------------------------
    dead: bool
    after_claim: bool
    taken_card: Card | None
    melds_this_turn: int
    #: Wild cards taken from the table this turn that must still leave the hand before it ends.
    stolen_pending: int
    played_before_turn: bool
    purchase_done: bool
    deplete_after_draw: bool
    # -- only in a copy redacted for one seat (rummy.search.determinize) ----------------------
    hidden_stock: int = 0
    known_hands: list[Counts] | None = None
    discarded: list[Counts] | None = None
    declined: list[Counts] | None = None
    last_discards: list[Card | None] | None = None
    rng_shared: bool = False

    @property
    def n(self) -> int:
        """The number of seats."""
        return len(self.players)

    @property
    def rng(self) -> random.Random:
        """The game's RNG, this state's own (copied from the one a copy shares, the first time it is read)."""
        if self.rng_shared:
            rng = random.Random.__new__(random.Random)  # left unseeded (seeding from the OS is costly): setstate
            rng.setstate(self.rng_source.getstate())    # sets every part of its state
            self.rng_source, self.rng_shared = rng, False
        return self.rng_source

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self.rng_source, self.rng_shared = rng, False

    def copy(self) -> GameState:
        """An independent copy (with the RNG in the same state, shared until either reads it: copying it costs
        more than the rest of the state); cards and melds are immutable, so lists of them are copied shallowly."""
        native = backends.NATIVE
        other = native.copy_fields(self, _FIELDS, _FIELD_KINDS) if native is not None else None
        if other is None:
            other = self._copy_fields()
        self.rng_shared = other.rng_shared = True
        if self.window is not None:
            other.window = self.window.copy()
        return other

    def _copy_fields(self) -> GameState:
        """A new state of this one's type with every field this one's, each list copied (the lists of count
        vectors two levels deep): :meth:`copy` but for the RNG's sharing and the claim window (compiled as
        ``copy_fields`` in ``_native_src/state_copy.c``, after :data:`_FIELD_KINDS`)."""
        other = object.__new__(type(self))
        GameState.__init__(other, *_field_values(self))
        # every list field, in the order of the fields (the other fields hold immutable values)
        other.players, other.start_totals = self.players.copy(), self.start_totals.copy()
        other.totals, other.pennies_paid = self.totals.copy(), self.pennies_paid.copy()
        other.match_wins, other.results = self.match_wins.copy(), self.results.copy()
        other.log, other.deals, other.round_starts = self.log.copy(), self.deals.copy(), self.round_starts.copy()
        other.hands, other.sizes = [hand.copy() for hand in self.hands], self.sizes.copy()
        other.stock, other.discard, other.discarders = self.stock.copy(), self.discard.copy(), self.discarders.copy()
        other.table, other.down, other.down_turn = self.table.copy(), self.down.copy(), self.down_turn.copy()
        other.own_turns, other.claims_used = self.own_turns.copy(), self.claims_used.copy()
        other.played_to_table, other.pickups = self.played_to_table.copy(), self.pickups.copy()
        other.received = self.received.copy()
        if self.purchase_cards is not None:
            other.purchase_cards = self.purchase_cards.copy()
        if self.known_hands is not None:  # the fields of a copy redacted for one seat
            other.known_hands = [counts.copy() for counts in self.known_hands]
        if self.discarded is not None:
            other.discarded = [counts.copy() for counts in self.discarded]
        if self.declined is not None:
            other.declined = [counts.copy() for counts in self.declined]
        if self.last_discards is not None:
            other.last_discards = self.last_discards.copy()
        return other


def round_state_fields(variant: Variant, n: int, number: int) -> dict[str, Any]:
    """The round and turn fields of a fresh round ``number`` (nothing dealt yet)."""
    return {
        "rules": variant.round_rules(max(number, 1), n),
        "hands": [[0] * CARD_COUNT for _ in range(n)],
        "sizes": [0] * n, "stock": [], "discard": [], "discarders": [], "table": [], "next_meld_id": 1,
        "down": [False] * n, "down_turn": [0] * n, "own_turns": [0] * n, "claims_used": [0] * n,
        "played_to_table": [False] * n, "purchase_cards": None, "window": None, "refills": 0, "depletions": 0,
        "table_cards": 0, "quiet_turns": 0, "round_seed": None,
        "pickups": [], "received": [], "dead": False, "after_claim": False, "taken_card": None, "melds_this_turn": 0,
        "stolen_pending": 0, "played_before_turn": False, "purchase_done": False, "deplete_after_draw": False,
    }


#: Every field's value, in the order of the fields (of ``GameState.__init__``'s parameters).
_field_values = attrgetter(*GameState.__dataclass_fields__)
#: The fields :meth:`GameState._copy_fields` copies as lists, and as lists of count vectors (two levels deep); the
#: others hold immutable values (the pack, which is never changed, too) or are copied by :meth:`GameState.copy`.
_LIST_FIELDS = frozenset((
    "players", "start_totals", "totals", "pennies_paid", "match_wins", "results", "log", "deals", "round_starts",
    "sizes", "stock", "discard", "discarders", "table", "down", "down_turn", "own_turns", "claims_used",
    "played_to_table", "purchase_cards", "pickups", "received", "last_discards"))
_COUNT_LIST_FIELDS = frozenset(("hands", "known_hands", "discarded", "declined"))
#: For the compiled ``copy_fields``: each field's slot, and how it is copied (0 as is, 1 a list, 2 a list of lists).
_FIELDS = tuple(GameState.__dict__[name] for name in GameState.__dataclass_fields__)
_FIELD_KINDS = bytes(2 if name in _COUNT_LIST_FIELDS else 1 if name in _LIST_FIELDS else 0
                     for name in GameState.__dataclass_fields__)
