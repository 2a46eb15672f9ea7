"""The engine's import graph: it imports nothing outside itself and the standard library, nothing in it
imports the façade (:mod:`rummy.game`), no two of its modules import each other round a loop, and
nothing below the layers built on it (search tools, bots, the simulator, the server, the command line)
imports them (so a view never builds a search bot's redacted game; the bot's driver does)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
#: The engine: the rules package and the leaf modules it stands on (cards, melds, variants, solver, …).
ENGINE = ("rummy.engine", "rummy.actions", "rummy.cards", "rummy.errors", "rummy.house_rules", "rummy.melds",
          "rummy.modes", "rummy.scoring", "rummy.solver", "rummy.variants", "rummy.view", "rummy.table_facts",
          "rummy.house_rule_docs", "rummy.how_to_play")
ABOVE_THE_ENGINE = ("rummy.search", "rummy.bots", "rummy.sim", "rummy.server", "rummy.cli", "rummy.env", "rummy.llm",
                    "rummy.tui")


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SOURCE).with_suffix("").parts).removesuffix(".__init__")


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any level (function-level and TYPE_CHECKING imports count)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            if base != "rummy":  # ``from rummy import modes`` imports rummy.modes, not the package's names
                found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def in_engine(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in ENGINE)


def engine_files() -> list[Path]:
    return [path for path in sorted((SOURCE / "rummy").rglob("*.py")) if in_engine(module_name(path))]


def test_the_engine_imports_only_itself_and_the_standard_library() -> None:
    outside = {}
    for path in engine_files():
        for name in imports_of(path):
            top = name.split(".")[0]
            if top == "rummy":
                if not in_engine(name) and name != "rummy":
                    outside.setdefault(module_name(path), set()).add(name)
            elif top not in sys.stdlib_module_names and top != "__future__":
                outside.setdefault(module_name(path), set()).add(name)
    assert not outside, f"engine modules importing outside the engine: {outside}"


def test_nothing_in_the_engine_imports_the_facade() -> None:
    users = [module_name(path) for path in engine_files() if "rummy.game" in imports_of(path)]
    assert not users, f"engine modules importing the façade rummy.game: {users}"


def test_the_engine_has_no_import_cycle() -> None:
    modules = {module_name(path): path for path in engine_files()}
    graph = {name: {target for target in _resolved(imports_of(path), modules) if target != name}
             for name, path in modules.items()}
    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, trail: list[str]) -> None:
        seen[name] = 1
        for target in sorted(graph[name]):
            assert seen.get(target) != 1, f"import cycle: {' -> '.join(trail[trail.index(target):] + [target])}"
            if target not in seen:
                visit(target, trail + [target])
        seen[name] = 2

    for name in sorted(modules):
        if name not in seen:
            visit(name, [name])


def _resolved(names: set[str], modules: dict[str, Path]) -> set[str]:
    resolved = set()
    for name in names:
        while name and name not in modules:
            name = name.rsplit(".", 1)[0] if "." in name else ""
        if name:
            resolved.add(name)
    return resolved


def test_nothing_below_imports_the_layers_above_the_engine() -> None:
    below = [path for path in sorted((SOURCE / "rummy").rglob("*.py"))
             if not module_name(path).startswith(ABOVE_THE_ENGINE) and module_name(path) != "rummy.__main__"]
    assert any(module_name(path) == "rummy.record" for path in below)
    upward = {module_name(path): sorted(name for name in imports_of(path) if name.startswith(ABOVE_THE_ENGINE))
              for path in below}
    assert not {module: names for module, names in upward.items() if names}
