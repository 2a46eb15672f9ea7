"""Engine functions that no longer read at a glance: longer than 80 lines or of cyclomatic complexity above 25.

Run: ``python bench/complexity.py [--lines N] [--complexity N] [paths …]`` (default ``src/rummy/engine``).
A report, not a check: it prints the functions over either limit, longest first, and always exits 0.
Needs radon (the ``dev`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from radon.complexity import cc_visit  # type: ignore[import-untyped]
from radon.visitors import Function  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent


def over_limits(paths: list[Path], max_lines: int, max_complexity: int) -> list[tuple[int, int, str]]:
    """(lines, complexity, where) of every function over either limit, longest first."""
    found = []
    for path in paths:
        for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            for block in cc_visit(source.read_text(encoding="utf-8")):
                if not isinstance(block, Function):
                    continue
                lines = block.endline - block.lineno + 1
                if lines > max_lines or block.complexity > max_complexity:
                    where = f"{source.relative_to(ROOT) if source.is_relative_to(ROOT) else source}:{block.lineno}"
                    found.append((lines, block.complexity, f"{where} {block.fullname}"))
    return sorted(found, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=80, help="most lines a function should have")
    parser.add_argument("--complexity", type=int, default=25, help="highest cyclomatic complexity wanted")
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "src" / "rummy" / "engine"])
    args = parser.parse_args()
    found = over_limits(args.paths, args.lines, args.complexity)
    print(f"Engine functions over {args.lines} lines or complexity {args.complexity}: {len(found)}")
    for lines, complexity, where in found:
        print(f"  {lines:4} lines  complexity {complexity:3}  {where}")


if __name__ == "__main__":
    main()
