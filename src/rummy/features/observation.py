"""The fixed-size numeric observation of one seat, from the facts of that seat's :class:`~rummy.engine.PlayerView`
only.

The vector is the concatenation of the blocks of :func:`observation_layout`, in order; card blocks have
one entry per card kind (53: the 52 cards in suit order clubs, diamonds, hearts, spades, ace to king,
then the joker), seat blocks one row per seat starting with the observing seat and going to its left, then
one row per composite slot of the action space describing the move it names
(:mod:`rummy.features.candidates`), then the round's public history (:mod:`rummy.features.history`).
Every number is scaled into [0, 1] (a total into [-1, 1]) by constants of the table (:class:`Scales`),
and capped there, so the observation space is ``Box(-1, 1)``; :data:`OBSERVATION_VERSION` names the layout.
``docs/env.md`` lists every block; a test keeps the two in step.  The environment (:mod:`rummy.env`) and the
``learned`` bot (:mod:`rummy.bots.learned`) both read it from here.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rummy.engine import (
    CARD_COUNT,
    COMPOSITE_SLOTS,
    COMPOSITE_VERBS,
    GROUP,
    MELD_SLOTS,
    RUN,
    Action,
    GameState,
    PlayerView,
    Slot,
    TableMeld,
    Variant,
    Verb,
    native_query,
    new_game,
    seats_to_act,
)
from rummy.features.candidates import CANDIDATE_FIELDS, CANDIDATE_SIZE, CandidateEncoder
from rummy.features.history import EVENT_KINDS, EVENT_ROWS, HISTORY_COUNTS, History, event_row_size

#: The version of the observation's layout and scaling; any change of either changes it.  Version 1 had no
#: history blocks and raw counts; version 2 scales every number (:class:`Scales`) and adds the history.
OBSERVATION_VERSION = 2
#: The scale of round numbers (the longest game has 15 rounds) and of the kitty; of slot and meld counts.
ROUND_SCALE = 16
KITTY_SCALE = 100
SLOT_SCALE = 4
MELD_SCALE = 8

PHASES = ("draw", "play", "claim", "round_over", "game_over")
#: Per seat row, in this order.
SEAT_FIELDS = ("hand_size", "down", "claims_used", "total", "active", "to_act", "played_to_table",
               "purchase_card")

Observation = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Block:
    """One named part of the observation vector."""

    name: str
    start: int
    size: int
    meaning: str
    #: What the block's raw numbers are divided by (see :class:`Scales`); capped at 1 (a total at -1 and 1).
    scale: str

    @property
    def stop(self) -> int:
        return self.start + self.size


def observation_layout(players: int) -> tuple[Block, ...]:
    """The blocks of the observation for a table of ``players`` seats."""
    parts = [
        ("hand", CARD_COUNT, "copies of each card kind in the seat's own hand"),
        ("discard_top", CARD_COUNT, "one-hot: the top card of the discard pile (all zero when empty)"),
        ("discard_seen", CARD_COUNT, "copies of each card kind in the visible discard pile (the whole pile "
                                     "where the variant shows it, else the top card)"),
        ("table", CARD_COUNT, "copies of each card kind in the melds on the table"),
        ("claim_card", CARD_COUNT, "one-hot: the card a claim window offers (all zero outside a window)"),
        ("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
        ("round", 2, "round number (from 1); rounds in the game (0 when the game runs to a target)"),
        ("contract", 3, "the round's contract: group slots, run slots, fewest cards that fill it (0 without one)"),
        ("piles", 4, "cards in the stock; cards in the discard pile; melds on the table; the kitty"),
        ("seats", players * len(SEAT_FIELDS), "per seat, the observer first then to its left: "
                                               + ", ".join(SEAT_FIELDS)),
        ("candidates", COMPOSITE_SLOTS * CANDIDATE_SIZE,
         f"per composite slot (action ids 57–88), the move it names: {', '.join(CANDIDATE_FIELDS)}, then the copies "
         "of each card kind it plays from the hand (all zero for an empty slot)"),
    ]
    history = {
        "taken": "took from the discard pile",
        "bought": "bought (a buy, a May-I, a purchase from the pile)",
        "discarded": "discarded",
        "melded": "put into new melds (a lay-down, new melds, a book)",
        "laid_off": "laid off onto table melds (a swap's natural included)",
    }
    parts += [(name, players * CARD_COUNT, f"per seat, the observer first: copies of each card kind it {history[name]} "
               "this round") for name in HISTORY_COUNTS]
    parts.append(("events", EVENT_ROWS * event_row_size(players),
                  f"the round's last {EVENT_ROWS} public events, the newest first: seat (one-hot, the observer first), "
                  f"kind (one-hot: {', '.join(EVENT_KINDS)}), copies of each card kind it showed"))
    blocks: list[Block] = []
    start = 0
    for name, size, meaning in parts:
        blocks.append(Block(name, start, size, meaning, _SCALE_TEXT.get(name, "C")))
        start += size
    return tuple(blocks)


_SCALE_TEXT = {
    "discard_top": "1", "claim_card": "1", "phase": "1",
    "round": f"{ROUND_SCALE}, {ROUND_SCALE}",
    "contract": f"{SLOT_SCALE}, {SLOT_SCALE}, D",
    "piles": f"P, P, {MELD_SLOTS}, {KITTY_SCALE}",
    "seats": "hand_size P, claims_used D, total T, purchase_card 53, others 1",
    "candidates": f"cards_played, wilds_played and cards_left P, points_shed D × V, melds_made … melds_extended "
                  f"{MELD_SCALE}, cards C, others 1",
    "events": "seat and kind 1, cards C",
}


@dataclass(frozen=True, slots=True)
class Scales:
    """The constants that scale the observation of one table (variant, house rules, player count).

    ``copies`` (C): copies of the commonest card kind in the pack; ``pack`` (P): cards in the pack;
    ``deal`` (D): the largest hand dealt in any round; ``value`` (V): the highest card value (at least 1);
    ``total`` (T): the target score where the game runs to one, else rounds × D × V (at least 1)."""

    copies: int
    pack: int
    deal: int
    value: int
    total: int

    @classmethod
    def of(cls, variant: Variant, players: int) -> Scales:
        game = new_game(variant, players, seed=0)
        deal = max([spec.deal_size for spec in variant.rounds if spec.deal_size] + list(game.sizes) + [1])
        value = max([variant.points(card) for card in range(CARD_COUNT)] + [1])
        target = variant.target(players)
        total = target if target else (variant.round_count or 1) * deal * value
        return cls(max(game.pack), sum(game.pack), deal, value, max(total, 1))

    def vector(self, players: int) -> npt.NDArray[np.float32]:
        """The divisor of every position of the observation (1 where a number is 0 or 1 already)."""
        layout = {block.name: block for block in observation_layout(players)}
        out = np.ones(layout["events"].stop, dtype=np.float32)
        copies, pack, deal = self.copies, self.pack, self.deal
        for name in ("hand", "discard_seen", "table", *HISTORY_COUNTS):
            out[layout[name].start:layout[name].stop] = copies
        start = layout["round"].start
        out[start:start + 2] = ROUND_SCALE
        out[layout["contract"].start:layout["contract"].stop] = (SLOT_SCALE, SLOT_SCALE, deal)
        out[layout["piles"].start:layout["piles"].stop] = (pack, pack, MELD_SLOTS, KITTY_SCALE)
        seat_scales = {"hand_size": pack, "claims_used": deal, "total": self.total, "purchase_card": CARD_COUNT}
        row = [float(seat_scales.get(field, 1)) for field in SEAT_FIELDS]
        out[layout["seats"].start:layout["seats"].stop] = row * players
        candidate = [1.0] * CANDIDATE_SIZE
        for field in ("cards_played", "wilds_played", "cards_left"):
            candidate[CANDIDATE_FIELDS.index(field)] = pack
        candidate[CANDIDATE_FIELDS.index("points_shed")] = deal * self.value
        for field in ("melds_made", "groups_made", "runs_made", "melds_extended"):
            candidate[CANDIDATE_FIELDS.index(field)] = MELD_SCALE
        candidate[len(CANDIDATE_FIELDS):] = [copies] * CARD_COUNT
        out[layout["candidates"].start:layout["candidates"].stop] = candidate * COMPOSITE_SLOTS
        event = [1.0] * (players + len(EVENT_KINDS)) + [float(copies)] * CARD_COUNT
        out[layout["events"].start:layout["events"].stop] = event * EVENT_ROWS
        return out


def observation_size(players: int) -> int:
    return observation_layout(players)[-1].stop


class Encoder:
    """Writes one seat's observation of its table (one encoder per variant and size).

    :meth:`encode` reads a :class:`PlayerView` (and the history from a game's public record, when given one);
    :meth:`encode_game` reads the same facts straight from the game (the environment's path: no view is built,
    and the discard pile's and the table's card counts and the history are kept from the previous call and
    brought up to date).  Both give the same vector, byte for byte (tested).  ``scale`` holds the divisor of
    every position (:class:`Scales`): multiplying a vector by it gives the raw counts back.
    """

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.players = players
        self.blocks = {block.name: block for block in observation_layout(players)}
        self.size = observation_size(players)
        self.rounds = variant.round_count or 0
        self._hand = self.blocks["hand"].start
        self._discard_top = self.blocks["discard_top"].start
        self._discard_seen = self.blocks["discard_seen"].start
        self._table = self.blocks["table"].start
        self._claim_card = self.blocks["claim_card"].start
        self._facts = self.blocks["phase"].start  # phase … seats: written as one run of numbers
        self._facts_stop = self.blocks["seats"].stop
        self._candidates = self.blocks["candidates"].start
        self._history = self.blocks[HISTORY_COUNTS[0]].start
        self._events = self.blocks["events"].start
        self.scales = Scales.of(variant, players)
        self.scale = self.scales.vector(players)
        inverse = (1.0 / self.scale).astype(np.float32)
        #: the inverse scales of the card blocks (None when every card count is already its own scale), of the
        #: facts (phase … seats) and of the candidate rows: each part is scaled where it is written
        self._inverse = inverse
        self._cards_inverse = inverse[:self._facts] if self.scales.copies != 1 else None
        self._facts_inverse = inverse[self._facts:self._facts_stop]
        self._candidates_inverse = inverse[self._candidates:self.blocks["candidates"].stop]
        self._record = History(players, float(inverse[self._history]))
        self._candidate_rows = CandidateEncoder(variant)
        self._phase_bits = {phase: tuple(float(phase == other) for other in PHASES) for phase in PHASES}
        #: per observing seat, the seats of its rows: itself, then to its left
        self._rotations = tuple(tuple((seat + turn) % players for turn in range(players)) for seat in range(players))
        self._contracts: dict[tuple[Slot, ...], tuple[int, int, int]] = {}
        self._last_contract: tuple[tuple[Slot, ...], tuple[int, int, int]] | None = None
        self._pile = _PileCounts()
        self._melds = _TableCounts()
        #: what the compiled encoder needs of the layout (observation.c)
        self._layout = (players, self._hand, self._discard_top, self._discard_seen, self._table, self._claim_card,
                        self._facts, self._facts_stop, self._candidates, CANDIDATE_SIZE,
                        CANDIDATE_FIELDS.index("cards_left"), self._history, self._events, self.size)
        self._phase_index = {phase: index for index, phase in enumerate(PHASES)}
        rows = self._candidate_rows
        self._kit = ((Verb.DOWN, Verb.MELD, Verb.REARRANGE, Verb.BATCH, Verb.BOOK, Verb.LAYOFF, Verb.SWAP, Verb.MOVE),
                     struct.pack(f"{CARD_COUNT}d", *rows.points), bytes(map(int, rows.wild)), rows.move_to_hand)

    def encode(self, view: PlayerView, record: GameState | None = None) -> Observation:
        """The observation of ``view``'s seat (its composite candidates are those of ``view.legal_actions``, none
        in a view without actions).  The history blocks come from ``record``, the game of the view, of which
        they read only the public record (:mod:`rummy.features.history`); without it they are zero."""
        if view.seat is None:
            raise ValueError("a spectator has no observation")
        out = np.zeros(self.size, dtype=np.float32)
        _add_cards(out, self._hand, view.hand)
        _add_cards(out, self._discard_seen, view.discard)
        for meld in view.table:
            _add_cards(out, self._table, meld.cards)
        rows = [
            (view.hand_sizes[seat], view.down[seat], view.claims_used[seat], view.totals[seat], seat == view.active,
             seat in view.to_act, view.played_to_table[seat] if view.played_to_table else False,
             view.purchase_cards[seat] + 1 if view.purchase_cards is not None else 0)
            for seat in self._rotations[view.seat]
        ]
        self._write_facts(out, view.discard[-1] if view.discard else None, view.claim_card, view.phase, view.round,
                          view.contract, (view.stock_count, view.discard_count, len(view.table), view.kitty), rows)
        composites = [action for action in view.legal_actions if action.verb in COMPOSITE_VERBS]
        self._write_candidates(out, composites, view.table, len(view.hand))
        if record is not None:
            self._write_history(out, record, view.seat)
        return out

    def encode_game(self, game: GameState, seat: int, candidates: Sequence[Action] = ()) -> Observation:
        """The observation of ``seat`` in ``game``: equal to ``encode(player_view(game, seat))``, and reading
        nothing that view does not hold (the seat's own hand and public facts).  ``candidates`` are the
        seat's composite candidates in their order (the caller lists them: the environment has them from its
        mask; none gives an all-zero ``candidates`` block)."""
        if not 0 <= seat < self.players or game.n != self.players:
            raise ValueError(f"seat {seat} is not a seat of this {self.players}-player encoder")
        write = native_query("observation")
        if write is not None:
            out = self._encode_native(write, game, seat, candidates)
            if out is not None:
                return out
        return self._encode_game(game, seat, candidates)

    def _encode_native(self, write: Callable[..., object], game: GameState, seat: int, candidates: Sequence[Action]
                       ) -> Observation | None:
        """:meth:`encode_game` by the compiled core (``observation.c``), what stays Python worked out here (the
        history brought up to date, the candidate rows kept per move, the contract's facts); None when the core
        refuses the arguments (the Python encoder answers then)."""
        record = self._record
        record.update(game)
        discard, window, table = game.discard, game.window, game.table
        head = (self._phase_index.get(game.phase, -1), max(game.round_number, 1), self.rounds,
                *self._contract_facts(game.rules.contract), len(game.stock), len(discard), len(table), game.kitty)
        seats = (game.sizes, game.down, game.claims_used, game.totals, game.active, seats_to_act(game),
                 game.played_to_table, game.purchase_cards)
        out = np.empty(self.size, dtype=np.float32)
        if write(out, self._inverse, self._layout, game.hands[seat], discard, self.variant.show_discard_history, table,
                 window.card if window is not None else None, head, seats, seat, record.counts, record.ring, candidates,
                 self._kit, game.sizes[seat]) is None:
            return None
        return out

    def _encode_game(self, game: GameState, seat: int, candidates: Sequence[Action]) -> Observation:
        """:meth:`encode_game` in Python (the reference of the compiled encoder)."""
        out = np.zeros(self.size, dtype=np.float32)
        out[self._hand:self._hand + CARD_COUNT] = game.hands[seat]
        discard = game.discard
        if self.variant.show_discard_history:
            out[self._discard_seen:self._discard_seen + CARD_COUNT] = self._pile.counts(discard)
        elif discard:
            out[self._discard_seen + discard[-1]] = 1
        if game.table:
            out[self._table:self._table + CARD_COUNT] = self._melds.counts(game.table)
        waiting = seats_to_act(game)
        active = game.active
        purchase = game.purchase_cards
        rows = [
            (game.sizes[other], game.down[other], game.claims_used[other], game.totals[other], other == active,
             other in waiting, game.played_to_table[other], purchase[other] + 1 if purchase is not None else 0)
            for other in self._rotations[seat]
        ]
        self._write_facts(out, discard[-1] if discard else None, game.window.card if game.window is not None else None,
                          game.phase, max(game.round_number, 1), game.rules.contract,
                          (len(game.stock), len(discard), len(game.table), game.kitty), rows)
        self._write_candidates(out, candidates, game.table, game.sizes[seat])
        self._write_history(out, game, seat)
        return out

    def _write_history(self, out: Observation, game: GameState, seat: int) -> None:
        """The history blocks, the seats turned so that ``seat`` comes first (two slice copies a block)."""
        record = self._record
        record.update(game)
        counts = record.counts
        blocks = out[self._history:self._events].reshape(counts.shape)
        players = self.players
        left = players - seat
        blocks[:, :left] = counts[:, seat:]
        if seat:
            blocks[:, left:] = counts[:, :seat]
        ring = record.ring
        events = out[self._events:self._events + ring.size].reshape(ring.shape)
        events[:, :left] = ring[:, seat:players]
        if seat:
            events[:, left:players] = ring[:, :seat]
        events[:, players:] = ring[:, players:]

    def _write_candidates(self, out: Observation, candidates: Sequence[Action], table: Sequence[TableMeld],
                          hand_size: int) -> None:
        if candidates:
            start = self._candidates
            block = out[start:start + COMPOSITE_SLOTS * CANDIDATE_SIZE]
            self._candidate_rows.write(block, candidates, {meld.id: meld.cards for meld in table}, hand_size)
            block *= self._candidates_inverse
            np.minimum(block, 1.0, out=block)

    def _write_facts(self, out: Observation, top: int | None, claim_card: int | None, phase: str, round_number: int,
                     contract: tuple[Slot, ...], piles: tuple[int, int, int, int],
                     rows: Sequence[tuple[int | bool, ...]]) -> None:
        """Write the one-hot cards and the blocks from ``phase`` to the end of ``seats`` (one slice assignment),
        and scale the card blocks and these (the card blocks are written before)."""
        if top is not None:
            out[self._discard_top + top] = 1
        if claim_card is not None:
            out[self._claim_card + claim_card] = 1
        facts: list[float | int | bool] = list(self._phase_bits.get(phase, _NO_PHASE))
        facts += (round_number, self.rounds)
        facts += self._contract_facts(contract)
        facts += piles
        for row in rows:
            facts += row
        block = out[self._facts:self._facts_stop]
        block[:] = facts
        block *= self._facts_inverse
        np.maximum(block, -1.0, out=block)  # np.clip's wrapper costs more than the two ufuncs on so few numbers
        np.minimum(block, 1.0, out=block)
        if self._cards_inverse is not None:
            out[:self._facts] *= self._cards_inverse

    def _contract_facts(self, contract: tuple[Slot, ...]) -> tuple[int, int, int]:
        """Group slots, run slots and the fewest cards that fill ``contract`` (the same contract object serves a
        whole round, so the last one is checked first)."""
        last = self._last_contract
        if last is not None and last[0] is contract:
            return last[1]
        facts = self._contracts.get(contract)
        if facts is None:
            groups = sum(1 for slot in contract if slot.kind == GROUP)
            runs = sum(1 for slot in contract if slot.kind == RUN)
            need = sum(self.variant.meld_size(slot) for slot in contract)
            facts = self._contracts[contract] = (groups, runs, need)
        self._last_contract = (contract, facts)
        return facts


_NO_PHASE = (0.0,) * len(PHASES)


def _add_cards(out: Observation, start: int, cards: Iterable[int]) -> None:
    for card in cards:
        out[start + card] += 1


class _PileCounts:
    """Copies of each card kind in a pile that mostly grows and shrinks at its end (the discard pile): the
    counts of the pile last seen are brought up to date when the new pile extends it or is a prefix of it,
    and counted anew otherwise (the pile is compared card by card, so any pile gives its true counts)."""

    def __init__(self) -> None:
        self._seen: list[int] = []
        self._counts = [0] * CARD_COUNT
        self._vector = np.zeros(CARD_COUNT, dtype=np.float32)

    def counts(self, pile: list[int]) -> npt.NDArray[np.float32]:
        seen = self._seen
        if pile == seen:
            return self._vector
        counts = self._counts
        known = len(seen)
        if len(pile) > known and pile[:known] == seen:
            for card in pile[known:]:
                counts[card] += 1
        elif len(pile) < known and seen[:len(pile)] == pile:
            for card in seen[len(pile):]:
                counts[card] -= 1
        else:
            counts[:] = [0] * CARD_COUNT
            for card in pile:
                counts[card] += 1
        self._seen = list(pile)
        self._vector = np.array(counts, dtype=np.float32)
        return self._vector


class _TableCounts:
    """Copies of each card kind in the table's melds, brought up to date meld by meld: melds are immutable,
    so a meld that is the same object as before holds the same cards."""

    def __init__(self) -> None:
        self._seen: list[TableMeld] = []
        self._counts = [0] * CARD_COUNT
        self._vector = np.zeros(CARD_COUNT, dtype=np.float32)

    def counts(self, table: list[TableMeld]) -> npt.NDArray[np.float32]:
        seen = self._seen
        counts = self._counts
        changed = len(table) != len(seen)
        for old, new in zip(seen, table, strict=False):  # the longer one's tail is handled below
            if old is not new:
                changed = True
                for card in old.cards:
                    counts[card] -= 1
                for card in new.cards:
                    counts[card] += 1
        if not changed:
            return self._vector
        for old in seen[len(table):]:
            for card in old.cards:
                counts[card] -= 1
        for new in table[len(seen):]:
            for card in new.cards:
                counts[card] += 1
        self._seen = list(table)
        self._vector = np.array(counts, dtype=np.float32)
        return self._vector
