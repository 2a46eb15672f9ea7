"""The engine's memo tables: each one bounded, and all of them registered so they can be dropped together.

The engine works many answers out once and looks them up after (a meld's lay-offs, a variant's wild cards, a
table's spare cards).  Every such table is one of three things made here:

* :class:`Memo`, a dict with a size bound: a table that would grow past it is emptied first (the entries are
  cheap to work out again, and a hit stays one dict lookup; an LRU order would cost a reordering on every hit).
  Most engine tables key on ``id()`` of immutable objects and keep those objects in the entry, so an id cannot
  be reused while the entry stands; the caller checks ``entry[0] is obj`` on a hit.
* :func:`per_object`, a function of one object (a variant, a round's rules) memoised on its identity in such a
  table.
* :func:`memoised`, :func:`functools.lru_cache` for functions of plain values, registered like the others.

:func:`clear_all` empties every table: a long-running server can drop them, and tests can start from nothing.

>>> squares = Memo[int, int]("squares", maxsize=2)
>>> squares.put(3, 9)
9
>>> squares.get(3), len(squares)
(9, 1)
>>> clear_all(); len(squares)
0
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")
_O = TypeVar("_O")
_F = TypeVar("_F", bound=Callable[..., Any])

#: Every live memo table, by id (a table of a dropped object leaves with it; a dict cannot go in a WeakSet).
_TABLES: weakref.WeakValueDictionary[int, Memo[Any, Any]] = weakref.WeakValueDictionary()
#: The ``cache_clear`` of every :func:`memoised` function.
_CACHE_CLEARS: list[Callable[[], None]] = []


class Memo(dict[_K, _V], Generic[_K, _V]):
    """A memo table of at most ``maxsize`` entries: :meth:`put` empties it when it is full.

    Read it as a dict (``get`` is the dict's own); write it with :meth:`put` only.
    """

    __slots__ = ("name", "maxsize", "__weakref__")

    def __init__(self, name: str, maxsize: int) -> None:
        super().__init__()
        self.name = name
        self.maxsize = maxsize
        _TABLES[id(self)] = self

    def put(self, key: _K, value: _V) -> _V:
        """Store ``value`` under ``key`` (emptying the table first if it is full) and return it."""
        if len(self) >= self.maxsize:
            self.clear()
        self[key] = value
        return value

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, {len(self)}/{self.maxsize})"


def per_object(name: str, maxsize: int = 256) -> Callable[[Callable[[_O], _V]], Callable[[_O], _V]]:
    """Memoise a function of one immutable object (a variant, a round's rules) on the object's identity.

    >>> @per_object("lengths")
    ... def length(word: str) -> int:
    ...     return len(word)
    >>> length("meld")
    4
    """

    def wrap(work_out: Callable[[_O], _V]) -> Callable[[_O], _V]:
        table: Memo[int, tuple[_O, _V]] = Memo(name, maxsize)

        @functools.wraps(work_out)
        def memoised_on_identity(obj: _O) -> _V:
            hit = table.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
            return table.put(id(obj), (obj, work_out(obj)))[1]

        return memoised_on_identity

    return wrap


def memoised(maxsize: int) -> Callable[[_F], _F]:
    """:func:`functools.lru_cache` with ``maxsize``, registered so :func:`clear_all` empties it too."""

    def wrap(function: _F) -> _F:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        _CACHE_CLEARS.append(cached.cache_clear)
        return cached  # type: ignore[return-value]

    return wrap


def clear_all() -> None:
    """Empty every memo table of the engine."""
    for table in list(_TABLES.values()):
        table.clear()
    for cache_clear in _CACHE_CLEARS:
        cache_clear()


def sizes() -> dict[str, int]:
    """How many entries each memo table holds now, by name (tables of one name add up)."""
    found: dict[str, int] = {}
    for table in list(_TABLES.values()):
        found[table.name] = found.get(table.name, 0) + len(table)
    return found
