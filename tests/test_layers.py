"""The engine's import graph: it imports nothing outside itself and the standard library, nothing in it
imports the façade (:mod:`rummy.engine.game`), no two of its modules import each other round a loop, and
nothing below the layers built on it (search tools, bots, the simulator, the server, the command line)
imports them (so a view never builds a search bot's redacted game; the bot's driver does)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
#: The engine: one package, the rules and everything they stand on (cards, melds, variants, solver, …).
ENGINE = ("rummy.engine",)
ABOVE_THE_ENGINE = ("rummy.search", "rummy.features", "rummy.bots", "rummy.sim", "rummy.server", "rummy.cli",
                    "rummy.env", "rummy.llm", "rummy.tui")
#: What sits above the bots (../shared/design/layers.md): nothing in the bots or the features imports these.
ABOVE_THE_BOTS = ("rummy.sim", "rummy.server", "rummy.cli", "rummy.env", "rummy.llm", "rummy.tui")
#: Bots the registry (``rummy.bots.BOTS``) seats by name although they live above it: the language-model player
#: (``rummy sim --players llm:…``), which builds on the heuristic bot.  Any other upward entry fails the test.
REGISTERED_FROM_ABOVE = {"llm": "rummy.llm.bot:LlmBot"}


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
            if base != "rummy":  # ``from rummy import sim`` names a subpackage; any other package's __init__ runs
                found.add(base)  # (so inside the engine ``from rummy.engine import rules`` would loop through it)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def imports_and_registered_bots(path: Path) -> set[str]:
    """:func:`imports_of`, and for the bots' package the modules its registry loads by name (``BOTS``), so a
    bot loaded from a string counts as an import of the registry."""
    found = imports_of(path)
    if module_name(path) == "rummy.bots":
        import rummy.bots

        found.update(target.split(":")[0] for target in rummy.bots.BOTS.values())
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
    users = [module_name(path) for path in engine_files()
             if "rummy.engine.game" in imports_of(path) and module_name(path) != "rummy.engine"]
    assert not users, f"engine modules importing the façade rummy.engine.game: {users}"


def test_outside_the_engine_only_its_public_api_is_imported() -> None:
    """Everything above the engine imports ``rummy.engine`` (its ``__all__``), never a submodule."""
    import rummy.engine

    reaching_in: dict[str, set[str]] = {}
    for path in sorted((SOURCE / "rummy").rglob("*.py")):
        if in_engine(module_name(path)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rummy.engine"):
                names = {alias.name for alias in node.names}
                if node.module != "rummy.engine" or not names <= set(rummy.engine.__all__):
                    reaching_in.setdefault(module_name(path), set()).add(f"{node.module}: {sorted(names)}")
            elif isinstance(node, ast.Import):
                reaching_in.setdefault(module_name(path), set()).update(
                    alias.name for alias in node.names if alias.name.startswith("rummy.engine."))
    assert not {module: names for module, names in reaching_in.items() if names}


def test_the_engine_api_names_only_what_it_has() -> None:
    import rummy.engine

    assert len(set(rummy.engine.__all__)) == len(rummy.engine.__all__)
    assert all(hasattr(rummy.engine, name) for name in rummy.engine.__all__)


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


def test_the_old_import_paths_give_the_moved_modules_with_a_warning() -> None:
    import importlib
    import sys

    import pytest

    import rummy.engine.cards
    import rummy.engine.solver.contract

    for old in ("rummy.cards", "rummy.solver.contract"):
        sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match="rummy.cards moved to rummy.engine.cards"):
        old_cards = importlib.import_module("rummy.cards")
    with pytest.warns(DeprecationWarning):
        old_contract = importlib.import_module("rummy.solver.contract")
    assert old_cards is rummy.engine.cards and old_contract is rummy.engine.solver.contract
    assert rummy.engine.cards.__spec__ is not None and rummy.engine.cards.__spec__.name == "rummy.engine.cards"


def files_of(package: str) -> list[Path]:
    return [path for path in sorted((SOURCE / "rummy").rglob("*.py"))
            if module_name(path) == package or module_name(path).startswith(package + ".")]


def test_the_features_import_neither_the_bots_nor_the_layers_above() -> None:
    """``rummy.features`` (what both the bots and the environment encode from a view) sits below both."""
    assert files_of("rummy.features")
    upward = {module_name(path): sorted(name for name in imports_of(path)
                                        if name.startswith(("rummy.bots", *ABOVE_THE_BOTS)))
              for path in files_of("rummy.features")}
    assert not {module: names for module, names in upward.items() if names}


def test_the_bots_import_no_environment_or_language_model_module() -> None:
    """Nothing in ``rummy.bots`` imports the layers above it, counting the bots its registry loads by name."""
    allowed = {target.split(":")[0] for target in REGISTERED_FROM_ABOVE.values()}
    upward = {module_name(path): sorted(name for name in imports_and_registered_bots(path)
                                        if name.startswith(ABOVE_THE_BOTS) and name not in allowed)
              for path in files_of("rummy.bots")}
    assert not {module: names for module, names in upward.items() if names}


def test_every_registered_bot_resolves_to_its_class() -> None:
    """Each ``name: "module:Class"`` of the bot registry imports and names a bot class called ``name``; the
    ones that live above the bots are exactly :data:`REGISTERED_FROM_ABOVE`."""
    import importlib

    import rummy.bots

    for name, target in rummy.bots.BOTS.items():
        module_path, _, attribute = target.partition(":")
        cls = getattr(importlib.import_module(module_path), attribute)
        assert isinstance(cls, type) and cls.name == name and callable(cls.choose), target
    above = {name: target for name, target in rummy.bots.BOTS.items() if not target.startswith("rummy.bots")}
    assert above == REGISTERED_FROM_ABOVE
