"""The fixed-size numeric observation of one seat, from the facts of that seat's :class:`~rummy.engine.PlayerView`
only.

The vector is the concatenation of the blocks of :func:`observation_layout`, in order; card blocks have
one entry per card kind (53: the 52 cards in suit order clubs, diamonds, hearts, spades, ace to king,
then the joker), seat blocks one row per seat starting with the observing seat and going to its left, and
the last block one row per composite slot of the action space describing the move it names
(:mod:`rummy.features.candidates`).
``docs/env.md`` lists every block; a test keeps the two in step.  The environment (:mod:`rummy.env`) and the
``learned`` bot (:mod:`rummy.bots.learned`) both read it from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rummy.engine import (
    CARD_COUNT,
    COMPOSITE_SLOTS,
    COMPOSITE_VERBS,
    GROUP,
    RUN,
    Action,
    GameState,
    PlayerView,
    Slot,
    TableMeld,
    Variant,
    seats_to_act,
)
from rummy.features.candidates import CANDIDATE_FIELDS, CANDIDATE_SIZE, CandidateEncoder

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
    blocks: list[Block] = []
    start = 0
    for name, size, meaning in parts:
        blocks.append(Block(name, start, size, meaning))
        start += size
    return tuple(blocks)


def observation_size(players: int) -> int:
    return observation_layout(players)[-1].stop


class Encoder:
    """Writes one seat's observation of its table (one encoder per variant and size).

    :meth:`encode` reads a :class:`PlayerView`; :meth:`encode_game` reads the same facts straight from the game
    (the environment's path: no view is built, and the discard pile's and the table's card counts are kept
    from the previous call and brought up to date).  Both give the same vector, byte for byte (tested).
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
        self._candidate_rows = CandidateEncoder(variant)
        self._phase_bits = {phase: tuple(float(phase == other) for other in PHASES) for phase in PHASES}
        #: per observing seat, the seats of its rows: itself, then to its left
        self._rotations = tuple(tuple((seat + turn) % players for turn in range(players)) for seat in range(players))
        self._contracts: dict[tuple[Slot, ...], tuple[int, int, int]] = {}
        self._last_contract: tuple[tuple[Slot, ...], tuple[int, int, int]] | None = None
        self._pile = _PileCounts()
        self._melds = _TableCounts()

    def encode(self, view: PlayerView) -> Observation:
        """The observation of ``view``'s seat (its composite candidates are those of ``view.legal_actions``, none
        in a view without actions)."""
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
        return out

    def encode_game(self, game: GameState, seat: int, candidates: Sequence[Action] = ()) -> Observation:
        """The observation of ``seat`` in ``game``: equal to ``encode(player_view(game, seat))``, and reading
        nothing that view does not hold (the seat's own hand and public facts).  ``candidates`` are the
        seat's composite candidates in their order (the caller lists them: the environment has them from its
        mask; none gives an all-zero ``candidates`` block)."""
        if not 0 <= seat < self.players or game.n != self.players:
            raise ValueError(f"seat {seat} is not a seat of this {self.players}-player encoder")
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
        return out

    def _write_candidates(self, out: Observation, candidates: Sequence[Action], table: Sequence[TableMeld],
                          hand_size: int) -> None:
        if candidates:
            start = self._candidates
            self._candidate_rows.write(out[start:start + COMPOSITE_SLOTS * CANDIDATE_SIZE], candidates,
                                       {meld.id: meld.cards for meld in table}, hand_size)

    def _write_facts(self, out: Observation, top: int | None, claim_card: int | None, phase: str, round_number: int,
                     contract: tuple[Slot, ...], piles: tuple[int, int, int, int],
                     rows: Sequence[tuple[int | bool, ...]]) -> None:
        """Write the one-hot cards and the blocks from ``phase`` to the end (one slice assignment)."""
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
        out[self._facts:self._facts_stop] = facts

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
