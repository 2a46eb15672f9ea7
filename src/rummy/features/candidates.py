"""What the observation says of each composite candidate, so that the action id "composite slot *k*" means
something to an agent.

Composite moves (a lay-down, a new meld, a rearrangement, a batch that goes out, a book) have no finite
numbering: the action space reaches the first :data:`~rummy.engine.COMPOSITE_SLOTS` of them among the seat's
candidates through numbered slots.  The observation's ``candidates`` block gives every slot a row of
:data:`CANDIDATE_SIZE` numbers, the fields of :data:`CANDIDATE_FIELDS` then the copies of each card kind
(53) the move plays from the hand; an empty slot is all zero.  Every number comes from the move itself, the
seat's hand size and the melds on the table, so the row shows nothing the seat cannot see.

>>> from rummy.engine import get_variant, parse_action
>>> row = CandidateEncoder(get_variant("basic", {})).row(parse_action("p0 meld set:5C-5D-5H", 2), {}, 7)
>>> dict(zip(CANDIDATE_FIELDS, row[:len(CANDIDATE_FIELDS)].tolist()))["cards_left"]
4.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from rummy.engine import CARD_COUNT, COMPOSITE_SLOTS, Action, Variant, Verb

#: Per candidate slot, in this order (then the copies of each card kind the move plays from the hand).
CANDIDATE_FIELDS = (
    "filled",          # 1 when the slot holds a move
    "down",            # the verb, one-hot: a lay-down (the contract) …
    "meld",            # … new melds
    "rearrange",       # … a rearrangement of table melds
    "batch",           # … several steps judged together (a batch that goes out)
    "book",            # … a book
    "cards_played",    # cards that leave the hand
    "wilds_played",    # wild cards among them
    "points_shed",     # their points (the variant's card values)
    "melds_made",      # melds the move puts on the table (a rearrangement's result melds included)
    "groups_made",     # … of them sets, pairs or books
    "runs_made",       # … of them runs
    "melds_extended",  # table melds the move changes (lay-off, swap and relocation targets, rearranged melds)
    "cards_left",      # cards in the hand afterwards (a wild a swap or relocation brings back counted)
    "goes_out",        # 1 when the hand is empty afterwards
)
CANDIDATE_SIZE = len(CANDIDATE_FIELDS) + CARD_COUNT
_CARDS = len(CANDIDATE_FIELDS)
_LEFT = CANDIDATE_FIELDS.index("cards_left")
_VERB_FIELD = {Verb.DOWN: 1, Verb.MELD: 2, Verb.REARRANGE: 3, Verb.BATCH: 4, Verb.BOOK: 5}
_GROUP_KINDS = frozenset({"set", "pair", "book"})
_TABLE_STEPS = frozenset({Verb.LAYOFF, Verb.SWAP, Verb.MOVE})

__all__ = ["CANDIDATE_FIELDS", "CANDIDATE_SIZE", "COMPOSITE_SLOTS", "CandidateEncoder"]


class CandidateEncoder:
    """Writes the rows of the composite candidates of one variant's tables.

    A move's row but for ``cards_left`` and ``goes_out`` depends on the move alone (and, for a rearrangement,
    on the cards of the melds it rearranges), so it is kept for the next time the move is a candidate."""

    def __init__(self, variant: Variant) -> None:
        self.points = tuple(float(variant.points(card)) for card in range(CARD_COUNT))
        self.wild = tuple(variant.is_wild(card) for card in range(CARD_COUNT))
        self.move_to_hand = variant.wild_relocation_scope == "hand"  # WildRelocationScope.HAND
        self._rows: dict[object, tuple[npt.NDArray[np.float32], int]] = {}

    def write(self, out: npt.NDArray[np.float32], candidates: Sequence[Action],
              table: Mapping[int, Sequence[int]], hand_size: int) -> None:
        """Write the rows of the first :data:`COMPOSITE_SLOTS` ``candidates`` into ``out`` (the block,
        ``COMPOSITE_SLOTS × CANDIDATE_SIZE`` numbers, zero on entry); ``table`` maps each table meld's id to its
        cards, ``hand_size`` is the seat's hand size now."""
        known = self.known(candidates, table)
        if not known:
            return
        rows = out.reshape(COMPOSITE_SLOTS, CANDIDATE_SIZE)
        left = [hand_size + change for _, change in known]
        rows[:len(known)] = [row for row, _ in known]
        rows[:len(known), _LEFT] = left
        rows[:len(known), _LEFT + 1] = [cards == 0 for cards in left]

    def known(self, candidates: Sequence[Action], table: Mapping[int, Sequence[int]]
              ) -> list[tuple[npt.NDArray[np.float32], int]]:
        """Per candidate of the first :data:`COMPOSITE_SLOTS`, its row but for ``cards_left`` and ``goes_out`` (zero;
        kept, not to be changed) and the change of the hand's size the move makes (what :meth:`write` writes)."""
        return [self._known(action, table) for action in candidates[:COMPOSITE_SLOTS]]

    def row(self, action: Action, table: Mapping[int, Sequence[int]], hand_size: int) -> npt.NDArray[np.float32]:
        """The row of one composite move (see :data:`CANDIDATE_FIELDS`)."""
        known, change = self._known(action, table)
        row = known.copy()
        row[_LEFT] = hand_size + change
        row[_LEFT + 1] = hand_size + change == 0
        return row

    def _known(self, action: Action, table: Mapping[int, Sequence[int]]) -> tuple[npt.NDArray[np.float32], int]:
        """The row of ``action`` but for ``cards_left`` and ``goes_out`` (zero), and the change of the hand's size;
        kept per move (and the cards of the melds it rearranges)."""
        steps = action.steps if action.verb is Verb.BATCH else (action,)
        sources = [table.get(source, ()) for step in steps if step.verb is Verb.REARRANGE for source in step.sources]
        key: object = (action, *map(tuple, sources)) if sources else action
        known = self._rows.get(key)
        if known is None:
            if len(self._rows) >= 4096:  # the oldest goes: a few thousand rows cover a game, more slow the collector
                del self._rows[next(iter(self._rows))]
            known = self._rows[key] = self._describe(action, steps, table)
        return known

    def _describe(self, action: Action, steps: Sequence[Action], table: Mapping[int, Sequence[int]]
                  ) -> tuple[npt.NDArray[np.float32], int]:
        """The row of ``action`` with ``cards_left`` and ``goes_out`` zero; the change of the hand's size."""
        played: dict[int, int] = {}  # copies per card kind played from the hand (only the kinds the move plays)
        made = groups = back = 0
        extended: set[int] = set()
        for step in steps:
            verb = step.verb
            if verb in _TABLE_STEPS:
                if step.meld is not None:
                    extended.add(step.meld)
                if verb is not Verb.MOVE and step.card is not None:
                    played[step.card] = played.get(step.card, 0) + 1
                back += verb is Verb.SWAP or (verb is Verb.MOVE and self.move_to_hand)
                continue
            laid: dict[int, int] = {}
            for meld in step.melds:
                made += 1
                groups += meld.kind in _GROUP_KINDS
                for card in meld.cards:
                    laid[card] = laid.get(card, 0) + 1
            if verb is Verb.REARRANGE:  # the cards of the melds it rearranges were on the table already
                extended.update(step.sources)
                for source in step.sources:
                    for card in table.get(source, ()):
                        laid[card] = laid.get(card, 0) - 1
            for card, count in laid.items():
                if count > 0:
                    played[card] = played.get(card, 0) + count
        row = np.zeros(CANDIDATE_SIZE, dtype=np.float32)
        count = wilds = 0
        points = 0.0
        for card in sorted(played):  # in card order, as the points were always summed
            n = played[card]
            row[_CARDS + card] = n
            count += n
            wilds += n if self.wild[card] else 0
            points += self.points[card] * n
        row[0] = 1.0
        row[_VERB_FIELD[action.verb]] = 1.0
        row[6:13] = (count, wilds, points, made, groups, made - groups, len(extended))
        return row, back - count
