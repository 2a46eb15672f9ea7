"""Collection of the package's doctests (``--doctest-modules`` in pyproject.toml).

With ``--import-mode=importlib``, pytest collects a module's doctests by executing its file under its module name
unless that name is already in ``sys.modules``.  When the doctests of a module are the first thing to import the
package (``pytest src/rummy/engine/candidates.py tests/...``), the package imports the module itself meanwhile, and
pytest's execution then replaces it in ``sys.modules`` with a second copy: what imports it afterwards gets other
classes than the engine uses (``isinstance`` against the wrong ``Deferred``).  So each module is imported the usual
way first, and pytest finds it.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

SOURCE = Path(__file__).parent / "src"


@pytest.hookimpl(tryfirst=True)
def pytest_collect_file(file_path: Path) -> None:
    """Import a module of the package by its name before its doctests are collected."""
    if file_path.suffix != ".py" or SOURCE not in file_path.parents or file_path.name == "__main__.py":
        return
    parts = file_path.relative_to(SOURCE).with_suffix("").parts
    try:
        importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    except ImportError:
        pass  # (an optional dependency missing: the doctest collection reports it as it would have)
