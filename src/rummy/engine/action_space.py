"""One fixed numbering of the actions of every variant, house rule and table of up to eight, for search and
reinforcement learning (the action universe, version :data:`ACTION_SPACE_VERSION`).

Every table numbers its actions in the same :data:`ACTION_SPACE_SIZE` ids, in the blocks of
:data:`FAMILIES` (fixed-size blocks first, then the blocks of moves onto a meld slot):

* 0 draw, 1 take, 2 buy (May-I, claim), 3 pass;
* discard × card kind (53: clubs, diamonds, hearts, spades each ace…king, then the joker);
* composite × :data:`COMPOSITE_SLOTS` slots;
* purchase × card kind × new purchase card; trade × other seat (1…7 to the left) × new purchase card;
  exchange × new purchase card;
* lay off × meld slot × card kind × end; swap × meld slot × card kind; relocate × meld slot × card kind ×
  end (end 0: a group, a run's low end, or a wild relocated to the hand; 1: a run's high end).

An id means the same at every table; ids a table cannot use (a family its rules lack, a seat it does not
have, a meld slot beyond its table) are never legal, so its mask leaves them out.  A meld slot is a position in
the table's order of melds (not a meld id); :data:`MELD_SLOTS` covers every table of the five variants with
their packs and meld sizes up to eight players (``may-i`` with eight: 216 cards in melds of three).  House
rules that allow more melds on the table (more decks, melds of two) leave moves onto slots past the last
unnumbered, as composite moves past the last slot are (:attr:`ActionSpace.complete` says so).

Composite moves (lay-downs, new melds, rearrangements, batches that go out, books) have no finite
numbering; slot *k* is the *k*-th composite move among :func:`~rummy.engine.moves.legal_actions`' candidates, in
their order (the solver's lay-down first).  That list is deterministic for a state, so ids are too; the
environment's observation describes each slot's move (:mod:`rummy.features`).

Version 1 numbered each table on its own (1,891 ids in ``basic``, 15,353 in ``may-i`` with eight players), only
ids 0–56 being common; any change to the numbering changes the version.

>>> from rummy.engine.actions import parse_action
>>> from rummy.engine.game import new_game
>>> game = new_game("basic", 2, seed=3)
>>> space = ActionSpace(game.variant, game.n)
>>> space.size, space.id_of(game, parse_action(f"p{game.active} draw", 2))
(22402, 0)
>>> [str(space.action_of(game, game.active, i)) for i, legal in enumerate(space.mask(game, game.active)) if legal]
['p1 draw', 'p1 take']
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import rummy.engine.backends as backends
from rummy.engine.actions import Action, Verb
from rummy.engine.candidates import CandidateMoves
from rummy.engine.cards import CARD_COUNT, Card
from rummy.engine.errors import MeldError, RummyError
from rummy.engine.melds import TableMeld, lay_off
from rummy.engine.memo import memo_table, put
from rummy.engine.modes import JokerSwap, WildRelocationScope
from rummy.engine.moves import legal_actions, simple_action
from rummy.engine.state import GameState
from rummy.engine.variants import Variant

#: The version of the numbering; it changes whenever an id could mean something else.
ACTION_SPACE_VERSION = 2
#: The most seats a table of the universe has.
MAX_PLAYERS = 8
#: Composite moves reachable through numbered slots (the first ones among the candidates).
COMPOSITE_SLOTS = 32
DEFAULT_COMPOSITE_SLOTS = COMPOSITE_SLOTS  # the name of version 1
#: Meld slots numbered for lay-offs, swaps and relocations: the most melds of the five variants' tables.
MELD_SLOTS = 72
#: Ends of a lay-off or relocation (0: a group, a run's low end, or to the hand; 1: a run's high end).
ENDS = 2

COMPOSITE = "composite"
COMPOSITE_VERBS = frozenset({Verb.DOWN, Verb.MELD, Verb.REARRANGE, Verb.BATCH, Verb.BOOK})
_SIMPLE = (Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS)
_TABLE_STEPS = frozenset({Verb.LAYOFF, Verb.SWAP, Verb.MOVE})
_ENDS = ("low", "high")

__all__ = ["ACTION_SPACE_SIZE", "ACTION_SPACE_VERSION", "COMPOSITE_SLOTS", "FAMILIES", "MAX_PLAYERS", "MELD_SLOTS",
           "ActionSpace", "ActionSpaceError", "Family", "max_table_melds"]


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


def _universe() -> tuple[Family, ...]:
    shapes: list[tuple[Verb | str, tuple[int, ...]]] = [(verb, ()) for verb in _SIMPLE]
    shapes += [(Verb.DISCARD, (CARD_COUNT,)), (COMPOSITE, (COMPOSITE_SLOTS,)),
               (Verb.PURCHASE, (CARD_COUNT, CARD_COUNT)), (Verb.TRADE, (MAX_PLAYERS - 1, CARD_COUNT)),
               (Verb.EXCHANGE, (CARD_COUNT,)), (Verb.LAYOFF, (MELD_SLOTS, CARD_COUNT, ENDS)),
               (Verb.SWAP, (MELD_SLOTS, CARD_COUNT)), (Verb.MOVE, (MELD_SLOTS, CARD_COUNT, ENDS))]
    families: list[Family] = []
    start = 0
    for verb, shape in shapes:
        families.append(Family(verb, start, shape))
        start = families[-1].stop
    return tuple(families)


#: The blocks of the universe, in id order.
FAMILIES = _universe()
#: Ids in the universe, the same for every table.
ACTION_SPACE_SIZE = FAMILIES[-1].stop
_STARTS = tuple(family.start for family in FAMILIES)
#: The id of each simple move (its family's one id).
_SIMPLE_IDS = {family.verb: family.start for family in FAMILIES if family.verb in _SIMPLE}


def _used_verbs(variant: Variant) -> frozenset[Verb | str]:
    """The families ``variant``'s rules can use."""
    used: set[Verb | str] = {*_SIMPLE, Verb.DISCARD, COMPOSITE}
    if not variant.uses_books:
        used.add(Verb.LAYOFF)
    if variant.joker_swap is JokerSwap.TO_HAND:
        used.add(Verb.SWAP)
    if variant.joker_swap is JokerSwap.RELOCATE_IN_RUN:
        used.add(Verb.MOVE)
    if variant.uses_purchase_cards:
        used |= {Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE}
    return frozenset(used)


class ActionSpace:
    """The universe's ids as ``variant``'s table of ``players`` seats uses them (see the module docstring)."""

    families = FAMILIES
    size = ACTION_SPACE_SIZE
    composite_slots = COMPOSITE_SLOTS
    meld_slots = MELD_SLOTS

    def __init__(self, variant: Variant, players: int) -> None:
        if not 2 <= players <= MAX_PLAYERS:
            raise ActionSpaceError(f"the action space numbers tables of 2…{MAX_PLAYERS} players, not {players}")
        self.variant = variant
        self.players = players
        #: The families this table can use; every id of the others is always masked.
        self.used: frozenset[Verb | str] = _used_verbs(variant)
        #: Whether every move onto the table has an id (false when the rules allow more than ``MELD_SLOTS`` melds).
        self.complete = max_table_melds(variant, players) <= MELD_SLOTS
        self.move_to_hand = variant.wild_relocation_scope is WildRelocationScope.HAND
        self._by_verb = {family.verb: family for family in FAMILIES}
        self._discard_start = self._by_verb[Verb.DISCARD].start
        #: per id below the composite slots (the simple moves, then the discards): its verb when this table uses
        #: it, else None (read by :meth:`action_of`'s shortcut; a None goes the general way, which raises)
        self._fixed: tuple[Verb | None, ...] = tuple(
            family.verb if family.verb in self.used and isinstance(family.verb, Verb) else None
            for family in FAMILIES[:len(_SIMPLE) + 1] for _ in range(family.size))
        #: what the compiled numbering reads of the space (mask_ids.c)
        verbs = (Verb.DRAW, Verb.TAKE, Verb.BUY, Verb.PASS, Verb.DISCARD, Verb.DOWN, Verb.MELD, Verb.REARRANGE,
                 Verb.BATCH, Verb.BOOK, Verb.LAYOFF, Verb.SWAP, Verb.MOVE, Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE)
        starts = tuple(self._by_verb[COMPOSITE if verb in COMPOSITE_VERBS else verb].start for verb in verbs)
        self._kit = (verbs, starts, bytes(verb in self.used or verb in COMPOSITE_VERBS for verb in verbs), Action,
                     players, self.move_to_hand, COMPOSITE_SLOTS, MELD_SLOTS, CARD_COUNT)
        self._implicit_ends: dict[tuple[int, Card], tuple[TableMeld, int]] = memo_table("implicit lay-off ends", 50_000,
                                                                                       owner=self)

    def __repr__(self) -> str:
        return f"ActionSpace({self.variant.id!r}, players={self.players}, size={self.size}, v{ACTION_SPACE_VERSION})"

    def family_of(self, action_id: int) -> Family:
        """The block of ``action_id``; raises :class:`ActionSpaceError` outside the space."""
        if not 0 <= action_id < ACTION_SPACE_SIZE:
            raise ActionSpaceError(f"action id {action_id} outside 0…{ACTION_SPACE_SIZE - 1}")
        return FAMILIES[bisect_right(_STARTS, action_id) - 1]

    # -- ids of actions ------------------------------------------------------------------------

    def id_of(self, state: GameState, action: Action) -> int:
        """The id of ``action`` in ``state`` (its meld slot is looked up on the table); raises
        :class:`ActionSpaceError` for an action the space does not number (a composite move that is not
        among the current candidates, a meld that is not on the table or past the last meld slot)."""
        verb = action.verb
        if verb in COMPOSITE_VERBS:
            composites = self._composites(state, action.seat)
            if action in composites:
                return self._by_verb[COMPOSITE].start + composites.index(action)
            raise ActionSpaceError(f"{action} is not among the {len(composites)} numbered composite moves")
        if verb not in self.used:
            raise ActionSpaceError(f"{verb.value} has no ids in {self.variant.id}")
        family = self._by_verb[verb]
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
        if slot >= MELD_SLOTS:
            raise ActionSpaceError(f"{action}: meld slot {slot} is past the last numbered one ({MELD_SLOTS - 1})")
        index = slot * CARD_COUNT + _card(action.card)
        if action.verb is Verb.SWAP:
            return family.start + index
        return family.start + index * ENDS + self._end_index(state, action, slot)

    def _end_index(self, state: GameState, action: Action, slot: int) -> int:
        if action.end == "low" or (action.verb is Verb.MOVE and self.move_to_hand):
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
        names none (outside the space, a family the table cannot use, an empty meld slot, an unfilled composite
        slot)."""
        fixed = self._fixed
        if 0 <= action_id < len(fixed):  # a simple move or a discard: nothing to read from the state
            fixed_verb = fixed[action_id]  # (the action the listing shares, not a new one)
            if fixed_verb is Verb.DISCARD:
                return simple_action(seat, fixed_verb, action_id - self._discard_start)
            if fixed_verb is not None:
                return simple_action(seat, fixed_verb)
        family = self.family_of(action_id)
        offset = action_id - family.start
        verb = family.verb
        if verb not in self.used:
            raise ActionSpaceError(f"action id {action_id} is a {verb} id, which {self.variant.id} never uses")
        if verb == COMPOSITE:
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
            if offset // CARD_COUNT >= self.players - 1:
                raise ActionSpaceError(f"action id {action_id} trades with a seat this table of {self.players} lacks")
            target = (seat + 1 + offset // CARD_COUNT) % self.players
            return Action(seat, verb, target=target, new_pc=offset % CARD_COUNT)
        if verb is Verb.EXCHANGE:
            return Action(seat, verb, new_pc=offset)
        return self._table_action(state, seat, verb, family, offset)

    def _table_action(self, state: GameState, seat: int, verb: Verb, family: Family, offset: int) -> Action:
        """The lay-off, swap or move at ``offset`` of ``family``."""
        ends = family.shape[2] if len(family.shape) == 3 else 1
        index, end_index = divmod(offset, ends)
        slot, card = divmod(index, CARD_COUNT)
        if slot >= len(state.table):
            raise ActionSpaceError(f"meld slot {slot} is empty ({len(state.table)} melds on the table)")
        meld = state.table[slot]
        end: str | None = None
        if verb is Verb.MOVE and self.move_to_hand:
            if end_index:
                raise ActionSpaceError(f"a wild relocated to the hand has no end ({self.variant.id})")
        elif verb is not Verb.SWAP:
            end = _ENDS[end_index] if meld.is_run else (None if end_index == 0 else "high")
        return Action(seat, verb, meld=meld.id, card=card, end=end)

    # -- masks ------------------------------------------------------------------------------------

    def mask(self, state: GameState, seat: int) -> bytearray:
        """One byte per id: 1 where the action is legal for ``seat`` now (agrees with
        :meth:`rummy.engine.game.Game.check` for every id that names an action)."""
        mask = bytearray(self.size)
        for action_id in self._ids(state, seat):
            mask[action_id] = 1
        return mask

    def legal_ids(self, state: GameState, seat: int) -> list[int]:
        """The ids that are legal for ``seat`` now, ascending (a move onto a meld past the last meld slot
        has none)."""
        return sorted(set(self._ids(state, seat)))

    def _ids(self, state: GameState, seat: int) -> list[int]:
        """The id of each of ``seat``'s candidate moves that has one, in listing order."""
        ids: list[int] = []
        composite = self._by_verb[COMPOSITE].start
        count = 0
        slots: dict[int | None, int] = {}  # the table's slots by meld id, read on first use
        for entry in legal_actions(state, seat).entries():  # composite moves are counted, not worked out
            verb = entry.verb
            if verb in _SIMPLE_IDS:
                ids.append(_SIMPLE_IDS[verb])
                continue
            if verb in COMPOSITE_VERBS:
                if count < COMPOSITE_SLOTS:
                    ids.append(composite + count)
                count += 1
                continue
            assert isinstance(entry, Action)
            if verb is Verb.DISCARD:
                ids.append(self._discard_start + _card(entry.card))
            elif verb in _TABLE_STEPS:
                slot = _slot_on_table(state, slots, entry)
                if slot < MELD_SLOTS:
                    ids.append(self._table_id(state, entry, self._by_verb[verb], slot))
            else:
                ids.append(self.id_of(state, entry))
        return ids

    def numbered(self, state: GameState, moves: CandidateMoves) -> tuple[list[int], list[Action], int]:
        """The ids of a listing of ``state`` (``moves``, from :func:`legal_actions`) and the composite moves its
        slots name: (the id of each move in listing order, a composite move past the last slot and a move onto a
        meld past the last meld slot having none; the first :data:`COMPOSITE_SLOTS` composite moves, worked out;
        how many moves onto the table had no slot).  The same ids :meth:`id_of` gives each move, worked out
        from the entries at once (the environment's mask is made of them); by the compiled core where it is built
        (``mask_ids.c``), this code being the reference."""
        native = backends.NATIVE
        if native is not None:
            numbered: tuple[list[int], list[Action], int] | None = native.numbered(
                self, state, moves, moves.entries(), state.table, self._kit)
            if numbered is not None:
                return numbered
        return self._numbered(state, moves)

    def _numbered(self, state: GameState, moves: CandidateMoves) -> tuple[list[int], list[Action], int]:
        """:meth:`numbered` in Python."""
        ids: list[int] = []
        composites: list[Action] = []
        unslotted = 0
        slots: dict[int | None, int] = {}  # the table's slots by meld id, read on first use
        composite = self._by_verb[COMPOSITE].start
        discard = self._discard_start
        for index, entry in enumerate(moves.entries()):
            verb = entry.verb
            if verb in COMPOSITE_VERBS:
                if len(composites) < COMPOSITE_SLOTS:
                    ids.append(composite + len(composites))
                    composites.append(moves[index])  # works a deferred entry out
                continue
            action = entry if type(entry) is Action else moves[index]
            if verb is Verb.DISCARD and verb in self.used:
                ids.append(discard + _card(action.card))
            elif verb in _TABLE_STEPS and verb in self.used:
                slot = _slot_on_table(state, slots, action)
                if slot < MELD_SLOTS:
                    ids.append(self._table_id(state, action, self._by_verb[verb], slot))
                else:
                    unslotted += 1
            else:
                ids.append(self.id_of(state, action))
        return ids, composites, unslotted

    def _composites(self, state: GameState, seat: int) -> list[Action]:
        moves = legal_actions(state, seat)
        indexes = [i for i, verb in enumerate(moves.verbs()) if verb in COMPOSITE_VERBS]
        return [moves[i] for i in indexes[:COMPOSITE_SLOTS]]


def max_table_melds(variant: Variant, players: int) -> int:
    """The most melds the table can ever hold: the pack divided by the shortest meld."""
    sizes = [variant.group_min, variant.run_min, 4 if variant.uses_books else 3]
    sizes += [slot.min_size for spec in variant.rounds for slot in spec.contract]
    return variant.pack_size(players) // max(2, min(sizes))


def _card(card: int | None) -> int:
    if card is None:
        raise ActionSpaceError("the action names no card")
    return card


def _slot_on_table(state: GameState, slots: dict[int | None, int], action: Action) -> int:
    """The slot of the meld ``action`` plays onto; ``slots`` holds the table's slots by meld id (filled here on
    first use, so a listing reads the table once)."""
    if not slots:
        slots.update((meld.id, slot) for slot, meld in enumerate(state.table))
    slot = slots.get(action.meld)
    return slot if slot is not None else _slot_of(state, action.meld, action)  # raises: no such meld


def _slot_of(state: GameState, meld_id: int | None, action: Action) -> int:
    for slot, meld in enumerate(state.table):
        if meld.id == meld_id:
            return slot
    raise ActionSpaceError(f"{action}: there is no meld {meld_id} on the table")
