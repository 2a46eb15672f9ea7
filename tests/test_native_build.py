"""The compiled core is optional: a build without a C compiler succeeds, and the engine then runs its Python
backend (docs/engine.md, "Backends"; issue #29: "where no compiler is found the install still succeeds")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

WITHOUT_THE_CORE = """
import sys
sys.modules["rummy.engine._native"] = None  # as on a machine where it was never built: importing it fails
import random
from rummy.engine import backend, new_game
from rummy.cli import main
game = new_game("progressive-buy-it", 4, seed=3)
rng = random.Random(3)
for _ in range(200):
    if game.phase == "round_over":
        game.deal()
    game.apply(rng.choice(game.legal_actions(game.next_to_act())))
print(backend(), len(game.log))
main(["--version"])
"""


def test_a_build_without_a_compiler_succeeds_and_builds_nothing(tmp_path: Path) -> None:
    """``setup.py build_ext`` with the compiler hidden (``CC=false``) exits 0 with a warning that names the fix."""
    shutil.copy(ROOT / "setup.py", tmp_path)
    shutil.copytree(ROOT / "src" / "rummy" / "engine" / "_native_src", tmp_path / "src/rummy/engine/_native_src")
    result = subprocess.run([sys.executable, "setup.py", "build_ext", "--build-lib", "lib", "--build-temp", "tmp"],
                            cwd=tmp_path, capture_output=True, text=True, check=False,
                            env={**os.environ, "CC": "false"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "the compiled core rummy.engine._native was not built" in result.stderr
    assert "gcc python3-dev" in result.stderr
    assert not list(tmp_path.rglob("*.so"))


def test_without_the_core_the_engine_runs_its_python_backend() -> None:
    """With the compiled module missing, the engine plays on the Python backend and ``rummy --version`` says so."""
    environment = {key: value for key, value in os.environ.items() if key != "RUMMY_ENGINE"}
    result = subprocess.run([sys.executable, "-c", WITHOUT_THE_CORE], capture_output=True, text=True, check=False,
                            env=environment)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.split("\n")
    assert lines[0] == "python 200"
    assert "(engine backend: python)" in lines[1]
