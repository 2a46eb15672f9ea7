"""The fixed-size numeric observation of one seat, built from that seat's :class:`~rummy.view.PlayerView` only.

The vector is the concatenation of the blocks of :func:`observation_layout`, in order; card blocks have
one entry per card kind (53: the 52 cards in suit order clubs, diamonds, hearts, spades, ace to king,
then the joker), seat blocks one row per seat starting with the observing seat and going to its left.
``docs/env.md`` lists every block; a test keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rummy.cards import CARD_COUNT
from rummy.variants import GROUP, RUN, Variant
from rummy.view import PlayerView

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
    """Writes a :class:`PlayerView` into the observation vector of its table (one per variant and size)."""

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.players = players
        self.blocks = {block.name: block for block in observation_layout(players)}
        self.size = observation_size(players)
        self.rounds = variant.round_count or 0

    def encode(self, view: PlayerView) -> Observation:
        if view.seat is None:
            raise ValueError("a spectator has no observation")
        out = np.zeros(self.size, dtype=np.float32)
        blocks = self.blocks
        _add_cards(out, blocks["hand"].start, view.hand)
        if view.discard:
            out[blocks["discard_top"].start + view.discard[-1]] = 1
        _add_cards(out, blocks["discard_seen"].start, view.discard)
        table = blocks["table"].start
        for meld in view.table:
            _add_cards(out, table, meld.cards)
        if view.claim_card is not None:
            out[blocks["claim_card"].start + view.claim_card] = 1
        if view.phase in PHASES:
            out[blocks["phase"].start + PHASES.index(view.phase)] = 1
        start = blocks["round"].start
        out[start:start + 2] = (view.round, self.rounds)
        groups = sum(1 for slot in view.contract if slot.kind == GROUP)
        runs = sum(1 for slot in view.contract if slot.kind == RUN)
        need = sum(self.variant.meld_size(slot) for slot in view.contract)
        start = blocks["contract"].start
        out[start:start + 3] = (groups, runs, need)
        start = blocks["piles"].start
        out[start:start + 4] = (view.stock_count, view.discard_count, len(view.table), view.kitty)
        row = blocks["seats"].start
        width = len(SEAT_FIELDS)
        for offset in range(self.players):
            seat = (view.seat + offset) % self.players
            purchase = view.purchase_cards[seat] + 1 if view.purchase_cards is not None else 0
            played = view.played_to_table[seat] if view.played_to_table else False
            out[row:row + width] = (view.hand_sizes[seat], view.down[seat], view.claims_used[seat],
                                    view.totals[seat], seat == view.active, seat in view.to_act, played, purchase)
            row += width
        return out


def _add_cards(out: Observation, start: int, cards: tuple[int, ...] | list[int]) -> None:
    for card in cards:
        out[start + card] += 1
