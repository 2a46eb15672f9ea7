"""A fixed numbering of a variant's actions, for search and reinforcement learning.

An :class:`ActionSpace` numbers every finite verb for one rule set and player count: draw, take, buy,
pass; discard × card kind; lay off × meld slot × card kind × run end; swap × meld slot × card kind;
relocate × meld slot × card kind × run end; purchase × card kind × new purchase card; trade × other seat ×
new purchase card; exchange × new purchase card.  Families a rule set cannot use are left out, so the
numbering depends only on the variant's data and the player count.  A meld slot is a position in the
table's order of melds (not a meld id), bounded by the melds the pack could ever form.

Composite moves (lay-downs, new melds, rearrangements, batches that go out, books) have no finite
numbering; they are reached through ``composite_slots`` numbered slots at the end of the space: slot *k*
is the *k*-th composite move among :func:`~rummy.engine.moves.legal_actions`' candidates, in their order
(the solver's lay-down first).  That list is deterministic for a state, so ids are too.

The numbering is versioned (:data:`ACTION_SPACE_VERSION`); any change to it changes the version.

>>> from rummy.engine.actions import parse_action
>>> from rummy.engine.game import new_game
>>> game = new_game("basic", 2, seed=3)
>>> space = ActionSpace(game.variant, game.n)
>>> space.size, space.id_of(game, parse_action(f"p{game.active} draw", 2))
(1891, 0)
>>> [str(space.action_of(game, game.active, i)) for i, legal in enumerate(space.mask(game, game.active)) if legal]
['p1 draw', 'p1 take']
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy.engine.actions import Action, Verb
from rummy.engine.cards import CARD_COUNT, Card
from rummy.engine.errors import MeldError, RummyError
from rummy.engine.melds import TableMeld, lay_off
from rummy.engine.memo import memo_table, put
from rummy.engine.modes import JokerSwap, WildRelocationScope
from rummy.engine.moves import legal_actions
from rummy.engine.state import GameState
from rummy.engine.variants import Variant

#: The version of the numbering; it changes whenever an id could mean something else.
ACTION_SPACE_VERSION = 1
#: Composite moves reachable through numbered slots (the first ones among the candidates).
DEFAULT_COMPOSITE_SLOTS = 32

COMPOSITE_VERBS = frozenset({Verb.DOWN, Verb.MELD, Verb.REARRANGE, Verb.BATCH, Verb.BOOK})
_SIMPLE = (Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS)
_TABLE_STEPS = frozenset({Verb.LAYOFF, Verb.SWAP, Verb.MOVE})
_ENDS = ("low", "high")

__all__ = ["ACTION_SPACE_VERSION", "ActionSpace", "ActionSpaceError", "Family", "max_table_melds"]


class ActionSpaceError(RummyError, ValueError):
    """An id outside the space, an id that names no action in this state, or an action with no id."""


@dataclass(frozen=True, slots=True)
class Family:
    """One block of ids: ``verb`` × the sizes of its dimensions, from ``start``."""

    verb: Verb | str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        size = 1
        for dimension in self.shape:
            size *= dimension
        return size

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionSpace:
    """The numbering of ``variant``'s actions for ``players`` seats (see the module docstring)."""

    def __init__(self, variant: Variant, players: int, *, composite_slots: int = DEFAULT_COMPOSITE_SLOTS) -> None:
        self.variant = variant
        self.players = players
        self.composite_slots = composite_slots
        self.meld_slots = max_table_melds(variant, players)
        self.layoff_ends = 2  # index 0: the low end of a run, or a group; 1: the high end of a run
        self.move_ends = 1 if variant.wild_relocation_scope is WildRelocationScope.HAND else 2
        families: list[tuple[Verb | str, tuple[int, ...]]] = [(verb, ()) for verb in _SIMPLE]
        families.append((Verb.DISCARD, (CARD_COUNT,)))
        if not variant.uses_books:
            families.append((Verb.LAYOFF, (self.meld_slots, CARD_COUNT, self.layoff_ends)))
        if variant.joker_swap is JokerSwap.TO_HAND:
            families.append((Verb.SWAP, (self.meld_slots, CARD_COUNT)))
        if variant.joker_swap is JokerSwap.RELOCATE_IN_RUN:
            families.append((Verb.MOVE, (self.meld_slots, CARD_COUNT, self.move_ends)))
        if variant.uses_purchase_cards:
            families += [(Verb.PURCHASE, (CARD_COUNT, CARD_COUNT)), (Verb.TRADE, (players - 1, CARD_COUNT)),
                         (Verb.EXCHANGE, (CARD_COUNT,))]
        families.append(("composite", (composite_slots,)))
        self.families: tuple[Family, ...] = ()
        start = 0
        for verb, shape in families:
            family = Family(verb, start, shape)
            self.families += (family,)
            start = family.stop
        self.size = start
        self._by_verb = {family.verb: family for family in self.families}
        self._discard_start = self._by_verb[Verb.DISCARD].start
        self._implicit_ends: dict[tuple[int, Card], tuple[TableMeld, int]] = memo_table("implicit lay-off ends", 50_000,
                                                                                       owner=self)

    def __repr__(self) -> str:
        return f"ActionSpace({self.variant.id!r}, players={self.players}, size={self.size}, v{ACTION_SPACE_VERSION})"

    # -- ids of actions ------------------------------------------------------------------------

    def id_of(self, state: GameState, action: Action) -> int:
        """The id of ``action`` in ``state`` (its meld slot is looked up on the table); raises
        :class:`ActionSpaceError` for an action the space does not number (a composite move that is not
        among the current candidates, a meld that is not on the table)."""
        verb = action.verb
        if verb in COMPOSITE_VERBS:
            composites = self._composites(state, action.seat)
            if action in composites:
                return self._by_verb["composite"].start + composites.index(action)
            raise ActionSpaceError(f"{action} is not among the {len(composites)} numbered composite moves")
        family = self._by_verb.get(verb)
        if family is None:
            raise ActionSpaceError(f"{verb.value} has no ids in {self.variant.id}")
        if verb in _SIMPLE:
            return family.start
        if verb is Verb.DISCARD:
            return family.start + _card(action.card)
        if verb in _TABLE_STEPS:
            return self._table_id(state, action, family, _slot_of(state, action.meld, action))
        if verb is Verb.PURCHASE:
            return family.start + _card(action.card) * CARD_COUNT + _card(action.new_pc)
        if verb is Verb.TRADE:
            target = action.target if action.target is not None else action.seat
            offset = (target - action.seat) % self.players - 1
            if offset < 0:
                raise ActionSpaceError(f"{action}: a trade needs another seat")
            return family.start + offset * CARD_COUNT + _card(action.new_pc)
        return family.start + _card(action.new_pc)  # exchange

    def _table_id(self, state: GameState, action: Action, family: Family, slot: int) -> int:
        """The id of a lay-off, swap or move onto the meld in ``slot``."""
        index = slot * CARD_COUNT + _card(action.card)
        if action.verb is Verb.SWAP:
            return family.start + index
        ends = family.shape[2]
        return family.start + index * ends + self._end_index(state, action, slot, ends)

    def _end_index(self, state: GameState, action: Action, slot: int, ends: int) -> int:
        if ends == 1 or action.end == "low":
            return 0
        if action.end == "high":
            return 1
        meld = state.table[slot]
        if not meld.is_run:
            return 0
        # A run end left implicit is the one end the card fits (the engine refuses it where both fit);
        # memoised per meld (immutable; the entry keeps it alive, so its id is not reused meanwhile).
        card = _card(action.card)
        hit = self._implicit_ends.get((id(meld), card))
        if hit is not None and hit[0] is meld:
            return hit[1]
        try:
            grown = lay_off(meld, card, None, self.variant)
            end = 0 if grown.low < meld.low else 1
        except MeldError:
            end = 1
        return put(self._implicit_ends, (id(meld), card), (meld, end))[1]

    def action_of(self, state: GameState, seat: int, action_id: int) -> Action:
        """The action ``action_id`` names for ``seat`` in ``state``; raises :class:`ActionSpaceError` when it
        names none (outside the space, an empty meld slot, an unfilled composite slot)."""
        if not 0 <= action_id < self.size:
            raise ActionSpaceError(f"action id {action_id} outside 0…{self.size - 1}")
        family = next(f for f in self.families if f.start <= action_id < f.stop)
        offset = action_id - family.start
        verb = family.verb
        if verb == "composite":
            composites = self._composites(state, seat)
            if offset >= len(composites):
                raise ActionSpaceError(f"composite slot {offset} is empty ({len(composites)} composite moves now)")
            return composites[offset]
        assert isinstance(verb, Verb)
        if verb in _SIMPLE:
            return Action(seat, verb)
        if verb is Verb.DISCARD:
            return Action(seat, verb, card=offset)
        if verb is Verb.PURCHASE:
            return Action(seat, verb, card=offset // CARD_COUNT, new_pc=offset % CARD_COUNT)
        if verb is Verb.TRADE:
            target = (seat + 1 + offset // CARD_COUNT) % self.players
            return Action(seat, verb, target=target, new_pc=offset % CARD_COUNT)
        if verb is Verb.EXCHANGE:
            return Action(seat, verb, new_pc=offset)
        ends = family.shape[2] if len(family.shape) == 3 else 1
        index, end_index = divmod(offset, ends)
        slot, card = divmod(index, CARD_COUNT)
        if slot >= len(state.table):
            raise ActionSpaceError(f"meld slot {slot} is empty ({len(state.table)} melds on the table)")
        meld = state.table[slot]
        end: str | None = None
        if verb is not Verb.SWAP and ends == 2:
            end = _ENDS[end_index] if meld.is_run else (None if end_index == 0 else "high")
        return Action(seat, verb, meld=meld.id, card=card, end=end)

    # -- masks ------------------------------------------------------------------------------------

    def mask(self, state: GameState, seat: int) -> bytearray:
        """One byte per id: 1 where the action is legal for ``seat`` now (agrees with
        :meth:`rummy.engine.game.Game.check` for every id that names an action)."""
        mask = bytearray(self.size)
        for action_id in self.legal_ids(state, seat):
            mask[action_id] = 1
        return mask

    def legal_ids(self, state: GameState, seat: int) -> list[int]:
        """The ids that are legal for ``seat`` now, ascending."""
        ids = set()
        composite = self._by_verb["composite"].start
        count = 0
        slots: dict[int | None, int] | None = None
        for entry in legal_actions(state, seat).entries():  # composite moves are counted, not worked out
            verb = entry.verb
            if verb in COMPOSITE_VERBS:
                if count < self.composite_slots:
                    ids.add(composite + count)
                count += 1
                continue
            assert isinstance(entry, Action)
            if verb is Verb.DISCARD:
                ids.add(self._discard_start + _card(entry.card))
            elif verb in _TABLE_STEPS:
                if slots is None:
                    slots = {meld.id: slot for slot, meld in enumerate(state.table)}
                slot = slots.get(entry.meld)
                if slot is None:
                    slot = _slot_of(state, entry.meld, entry)  # raises: no such meld
                ids.add(self._table_id(state, entry, self._by_verb[verb], slot))
            else:
                ids.add(self.id_of(state, entry))
        return sorted(ids)

    def _composites(self, state: GameState, seat: int) -> list[Action]:
        moves = legal_actions(state, seat)
        indexes = [i for i, verb in enumerate(moves.verbs()) if verb in COMPOSITE_VERBS]
        return [moves[i] for i in indexes[: self.composite_slots]]


def max_table_melds(variant: Variant, players: int) -> int:
    """The most melds the table can ever hold: the pack divided by the shortest meld."""
    sizes = [variant.group_min, variant.run_min, 4 if variant.uses_books else 3]
    sizes += [slot.min_size for spec in variant.rounds for slot in spec.contract]
    return variant.pack_size(players) // max(2, min(sizes))


def _card(card: int | None) -> int:
    if card is None:
        raise ActionSpaceError("the action names no card")
    return card


def _slot_of(state: GameState, meld_id: int | None, action: Action) -> int:
    for slot, meld in enumerate(state.table):
        if meld.id == meld_id:
            return slot
    raise ActionSpaceError(f"{action}: there is no meld {meld_id} on the table")

