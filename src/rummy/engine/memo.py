"""The engine's memo tables: each one bounded, and all of them registered so they can be dropped together.

The engine works many answers out once and looks them up after (a meld's lay-offs, a variant's wild cards, a
table's spare cards).  Every such table is one of three things made here:

* :func:`memo_table`, a plain dict registered with a size bound, read with ``table.get(key)`` and written with
  :func:`put`, which empties a full table first (the entries are cheap to work out again; an LRU order would
  cost a reordering on every hit, and a dict subclass would make every hit slower).  Most engine tables key on
  ``id()`` of immutable objects and keep those objects in the entry, so an id cannot be reused while the entry
  stands; the caller checks ``entry[0] is obj`` on a hit.
* :func:`per_object`, a function of one object (a variant, a round's rules) memoised on its identity in such a
  table.
* :func:`memoised`, :func:`functools.lru_cache` for functions of plain values, registered like the others.

:func:`clear_all` empties every table: a long-running server can drop them, and tests can start from nothing.

>>> squares: dict[int, int] = memo_table("squares", maxsize=2)
>>> put(squares, 3, 9)
9
>>> squares.get(3), len(squares)
(9, 1)
>>> clear_all(); len(squares)
0
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")
_O = TypeVar("_O")
_F = TypeVar("_F", bound=Callable[..., Any])

#: Every registered table by its id: (name, size bound, the table).
_TABLES: dict[int, tuple[str, int, dict[Any, Any]]] = {}
#: The ``cache_clear`` of every :func:`memoised` function.
_CACHE_CLEARS: list[Callable[[], None]] = []


def memo_table(name: str, maxsize: int, *, owner: object = None) -> dict[_K, _V]:
    """A new memo table of at most ``maxsize`` entries (write it with :func:`put` only).

    A table that belongs to an ``owner`` (an object holding it in an attribute) leaves the registry with it.
    """
    table: dict[_K, _V] = {}
    _TABLES[id(table)] = (name, maxsize, table)
    if owner is not None:
        weakref.finalize(owner, _TABLES.pop, id(table), None)
    return table


def put(table: dict[_K, _V], key: _K, value: _V) -> _V:
    """Store ``value`` under ``key`` in a :func:`memo_table` (emptying it first if it is full) and return it."""
    if len(table) >= _TABLES[id(table)][1]:
        table.clear()
    table[key] = value
    return value


def per_object(name: str, maxsize: int = 256) -> Callable[[Callable[[_O], _V]], Callable[[_O], _V]]:
    """Memoise a function of one immutable object (a variant, a round's rules) on the object's identity.

    >>> @per_object("lengths")
    ... def length(word: str) -> int:
    ...     return len(word)
    >>> length("meld")
    4
    """

    def wrap(work_out: Callable[[_O], _V]) -> Callable[[_O], _V]:
        table: dict[int, tuple[_O, _V]] = memo_table(name, maxsize)

        @functools.wraps(work_out)
        def memoised_on_identity(obj: _O) -> _V:
            hit = table.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
            return put(table, id(obj), (obj, work_out(obj)))[1]

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
    for _, _, table in list(_TABLES.values()):
        table.clear()
    for cache_clear in _CACHE_CLEARS:
        cache_clear()


def sizes() -> dict[str, int]:
    """How many entries the registered tables hold now, by name (tables of one name add up)."""
    found: dict[str, int] = {}
    for name, _, table in list(_TABLES.values()):
        found[name] = found.get(name, 0) + len(table)
    return found
