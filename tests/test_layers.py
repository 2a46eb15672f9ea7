"""The engine does not import the layers built on it: search tools, bots, the simulator, the server or the
command line (so a view never builds a search bot's redacted game; the bot's driver does)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rummy"
ABOVE_THE_ENGINE = ("rummy.search", "rummy.bots", "rummy.sim", "rummy.server", "rummy.cli")


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, function-level and TYPE_CHECKING imports included."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if not node.level else f"rummy.{node.module}"
            names.update({base, *(f"{base}.{alias.name}" for alias in node.names)})
    return names


def test_the_engine_imports_no_layer_above_it() -> None:
    engine = [p for p in sorted(PACKAGE.rglob("*.py"))
              if not _module(p).startswith(ABOVE_THE_ENGINE) and _module(p) != "rummy.__main__"]
    assert any(_module(p) == "rummy.view" for p in engine)
    upward = {
        _module(path): sorted(name for name in _imports(path) if name.startswith(ABOVE_THE_ENGINE))
        for path in engine
    }
    assert not {module: names for module, names in upward.items() if names}
