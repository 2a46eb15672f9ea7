"""The worked examples for researchers (examples/*.py, listed in docs/env.md) run: each once with ``--quick``,
in a process of its own as a reader would run it, printing the shapes its docstring promises."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")

#: Each example and a line its ``--quick`` run prints (a regular expression).
EXAMPLES = {
    "aec_self_play.py": r"seat 0 vs uniform random seats, 2 deals, mean return: greedy policy",
    "random_agents.py": r"single-seat spaces: observation \(\d+,\), actions \d+ \(version \d+\)",
    "vector_env.py": r"4 tables: observations \(4, \d+\) float32, masks \(4, \d+\) int8",
    "behaviour_cloning.py": r"vs \['random'\], 2 deals, mean return: cloned policy",
    "llm_seat.py": r"the stand-in answered \d+ requests",
    "maskable_ppo.py": r"vs \['random'\], 2 deals, mean return: MaskablePPO",
}
#: sb3-contrib and torch are not among the project's dependencies (not even ``dev``): that example runs where
#: they are installed.
NEEDS = {"maskable_ppo.py": ("sb3_contrib", "torch")}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_runs_quick(name: str) -> None:
    missing = [module for module in NEEDS.get(name, ()) if importlib.util.find_spec(module) is None]
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)} (pip install sb3-contrib)")
    done = subprocess.run([sys.executable, str(ROOT / "examples" / name), "--quick"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert any(re.search(EXAMPLES[name], line) for line in done.stdout.splitlines()), done.stdout


def test_every_example_is_in_the_docs() -> None:
    for name in EXAMPLES:
        assert f"examples/{name}" in DOC, name
