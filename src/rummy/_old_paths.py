"""The import paths of the modules that moved into :mod:`rummy.engine` and :mod:`rummy.text` in 0.9 (and of
:mod:`rummy.env.encoding`, now :mod:`rummy.features.observation`) keep working for one release:
``import rummy.cards`` gives the module :mod:`rummy.engine.cards` itself (the same classes, the same state)
with a :class:`DeprecationWarning` naming the new path.  Removed in 1.0."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

MOVED = {
    **{f"rummy.{name}": f"rummy.engine.{name}"
       for name in ("actions", "cards", "errors", "game", "house_rules", "melds", "modes", "scoring", "solver",
                    "table_facts", "variants", "view")},
    "rummy.house_rule_docs": "rummy.text.house_rule_docs",
    "rummy.how_to_play": "rummy.text.how_to_play",
    "rummy.env.encoding": "rummy.features.observation",  # below both the bots and the environment now
}


class MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path (or a submodule under one, e.g. ``rummy.solver.contract``) and loads the new module."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> importlib.machinery.ModuleSpec | None:
        return importlib.machinery.ModuleSpec(fullname, self) if _new_name(fullname) else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new_name = _new_name(spec.name)
        assert new_name is not None
        warnings.warn(f"{spec.name} moved to {new_name}; the old path goes in rummy 1.0", DeprecationWarning,
                      stacklevel=2)
        module = importlib.import_module(new_name)
        self._specs[new_name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._specs.pop(module.__name__)  # the import system gave it the old path's spec


def _new_name(fullname: str) -> str | None:
    for old, new in MOVED.items():
        if fullname == old or fullname.startswith(old + "."):
            return new + fullname[len(old):]
    return None


def install() -> None:
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())  # before the path finder, which would load a copy
