"""The list :func:`rummy.engine.moves.legal_actions` returns: a read-only sequence of candidate moves whose
costly entries are worked out only when they are read.

Its length and the verb at every position are known at once, so a caller that picks one entry (a uniformly
random player: ``rng.choice(moves)``) or counts entries by verb (the action mask) pays only for what it reads.
Two kinds of entry are deferred: the best lay-down of a player not yet down, whose existence is settled cheaply
(:mod:`rummy.engine.lay_down`) and whose melds come from the full solver search when read, and the rearrangements
legal by construction, whose melds are written out when read.  A deferred entry is worked out from what the list
was made of (a copy of the hand, the table's melds), so reading it after the game moved on still gives the move
that was legal then.

>>> from rummy.engine.actions import Verb
>>> moves = CandidateMoves([Action(0, Verb.DRAW), Deferred(Verb.TAKE, lambda: Action(0, Verb.TAKE))])
>>> len(moves), moves.verb(1), str(moves[1])
(2, <Verb.TAKE: 'take'>, 'p0 take')
>>> moves == [Action(0, Verb.DRAW), Action(0, Verb.TAKE)]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from rummy.engine.actions import Action, Verb


class Deferred:
    """An entry whose action is made by ``make(*args)`` the first time it is read (:meth:`work_out`); ``verb`` is
    known before."""

    __slots__ = ("verb", "make", "args")

    def __init__(self, verb: Verb, make: Callable[..., Action], args: tuple[object, ...] = ()) -> None:
        self.verb = verb
        self.make = make
        self.args = args

    def work_out(self) -> Action:
        """The action this entry stands for."""
        return self.make(*self.args)


class CandidateMoves(Sequence[Action]):
    """The candidate moves of one decision, in their documented order (see :mod:`rummy.engine.moves`)."""

    __slots__ = ("_items", "_deferred")

    def __init__(self, items: list[Action | Deferred], *, deferred: int | None = None) -> None:
        """``deferred``: how many of ``items`` are :class:`Deferred`, when the caller knows (else counted)."""
        self._items = items
        self._deferred = sum(1 for item in items if isinstance(item, Deferred)) if deferred is None else deferred

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self._read(i) for i in range(*index.indices(len(self._items)))]
        item = self._items[index]  # a list's indexing: negative from the end, IndexError out of range
        if type(item) is Action:
            return item
        return self._read(index)

    def _read(self, index: int) -> Action:
        item = self._items[index]
        if isinstance(item, Deferred):
            item = self._items[index] = item.work_out()
            self._deferred -= 1
        return item

    def __iter__(self) -> Iterator[Action]:
        if self._deferred:
            for index in range(len(self._items)):
                self._read(index)
        return iter(self._items)  # type: ignore[arg-type]  # every entry is an Action now

    def verb(self, index: int) -> Verb:
        """The verb of entry ``index``, without working the entry out."""
        return self._items[index].verb

    def entries(self) -> list[Action | Deferred]:
        """The entries as they stand (a copy): each an action, or a :class:`Deferred` not worked out yet."""
        return list(self._items)

    def verbs(self) -> list[Verb]:
        """The verb of every entry, in order, without working any entry out."""
        return [item.verb for item in self._items]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable contents (entries are filled in when read)

    def __repr__(self) -> str:
        return f"CandidateMoves({list(self)!r})"
