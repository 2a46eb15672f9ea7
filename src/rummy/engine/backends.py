"""Which backend answers the engine's compiled queries: the Python reference or the compiled core.

The engine is written in Python, and that code is the reference.  Beside it sits an optional compiled core,
``rummy.engine._native`` (C, built by ``pip install -e .`` where a C compiler is found), which answers some
queries faster and exactly as the Python code does (the pattern of the standard library's
``_decimal``/``_pydecimal``); ``tests/test_native.py`` holds the two equal.  The environment variable
``RUMMY_ENGINE`` chooses: ``native`` (the compiled core; an error when it is not built), ``python`` (the
Python code only), unset or empty (the compiled core when it is built).  See docs/engine.md, "Backends".

>>> backend() in ("native", "python")
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from rummy.engine.errors import UsageError

__all__ = ["BUILT", "ENGINE_VARIABLE", "NATIVE", "backend", "frozen_record", "native_query", "record_slots", "select"]

ENGINE_VARIABLE = "RUMMY_ENGINE"
_HOW_TO_BUILD = ("install a C compiler and the Python headers (Debian: apt-get install gcc python3-dev) and "
                 "reinstall the package (python3 -m pip install -e .)")


def _load() -> ModuleType | None:
    """The compiled core, or None when it is not built.  (Loaded by name: it is a leaf that imports nothing of
    the engine, and an import statement would count as one of the package in tests/test_layers.py.)"""
    try:
        return importlib.import_module("rummy.engine._native")
    except ImportError:
        return None


#: The compiled core when it is built, else None.
BUILT: ModuleType | None = _load()


def select(choice: str | None) -> ModuleType | None:
    """The compiled core to run for ``choice`` (a value of ``RUMMY_ENGINE``), or None for the Python backend.

    >>> select("python") is None
    True
    >>> select("fast")
    Traceback (most recent call last):
    ...
    rummy.engine.errors.UsageError: RUMMY_ENGINE must be 'python' or 'native' (or unset), not 'fast'
    """
    if not choice:
        return BUILT
    if choice == "python":
        return None
    if choice == "native":
        if BUILT is None:
            raise UsageError(f"{ENGINE_VARIABLE}=native, but the compiled core rummy.engine._native is not built: "
                             + _HOW_TO_BUILD)
        return BUILT
    raise UsageError(f"{ENGINE_VARIABLE} must be 'python' or 'native' (or unset), not {choice!r}")


#: The compiled core the engine runs (read at every dispatch, so a test may set it), or None: the Python backend.
NATIVE: ModuleType | None = select(os.environ.get(ENGINE_VARIABLE))


def backend() -> str:
    """Which backend runs: ``"native"`` (the compiled core answers the queries it covers) or ``"python"``."""
    return "python" if NATIVE is None else "native"


def native_query(name: str) -> Callable[..., Any] | None:
    """The compiled core's function ``name`` when the compiled core runs and has it, else None: then the caller's
    Python code answers.  For the engine's consumers (the environment's observation, ``rummy.features``), which
    keep the Python code as the reference and call this at every dispatch, so a test's choice of backend holds.

    >>> native_query("no such query") is None
    True
    """
    function: Callable[..., Any] | None = getattr(NATIVE, name, None) if NATIVE is not None else None
    return function


_Record = TypeVar("_Record")


def record_slots(kind: type[Any]) -> tuple[Any, ...]:
    """The slot descriptors of the frozen dataclass ``kind``'s fields, in order: what :func:`frozen_record` needs."""
    return tuple(kind.__dict__[name] for name in kind.__dataclass_fields__)


def frozen_record(kind: type[_Record], slots: tuple[Any, ...], *values: object) -> _Record:
    """``kind(*values)`` for a frozen dataclass with slots (``slots`` from :func:`record_slots`): the compiled core's
    ``new_record`` (``_native_src/records.c``) sets the slots directly where it runs, since the dataclass's
    ``__init__``, one ``object.__setattr__`` a field, costs as much as the compiled work whose result it records."""
    native = NATIVE
    record: _Record | None = None if native is None else native.new_record(kind, slots, *values)
    return kind(*values) if record is None else record
