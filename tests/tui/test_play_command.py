"""The real ``rummy play`` command in a pseudo-terminal (pexpect): it draws the table, takes typed keys,
and leaves on Ctrl+Q with the record of the game so far, which ``rummy replay`` accepts; bad command
lines get one clear line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")
pexpect = pytest.importorskip("pexpect")

SOURCE = Path(__file__).resolve().parents[2] / "src"


def rummy_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{SOURCE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
            "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}


def test_the_command_plays_in_a_terminal_and_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, ["-m", "rummy", "play", "--variant", "may-i", "--players",
                                           "me,heuristic,heuristic,heuristic", "--seed", "5", "--bot-delay", "0",
                                           "--claim-seconds", "0", "--record", str(record)],
                          env=rummy_env(), cwd=str(tmp_path), dimensions=(40, 120), timeout=60, encoding="utf-8")
    try:
        child.expect("Your turn")
        child.send("dr")
        child.expect("aw")  # the completion is shown (it is worked out after the keystroke, later under load)
        child.send("\t\r")  # Tab takes it: "draw"
        child.expect("play, then discard")
        child.send("\x11")  # Ctrl+Q
        child.expect("record saved in")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert record.exists()
    replayed = subprocess.run([sys.executable, "-m", "rummy", "replay", str(record), "--json"], env=rummy_env(),
                              capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert '"phase": "play"' in replayed.stdout


@pytest.mark.parametrize("arguments, message", [
    (["--players", "heuristic,heuristic,heuristic"], "needs exactly one 'me'"),
    (["--players", "me,me,heuristic"], "needs exactly one 'me'"),
    (["--players", "me,nobody,heuristic"], "unknown bot 'nobody'"),
    (["--variant", "may-i", "--players", "me,heuristic"], "is for 3–8 players"),
    (["--option", "run_min=banana"], "run_min"),
    (["--join", "http://127.0.0.1:9/lobby"], "is not an invite link"),
])
def test_bad_command_lines_say_why(arguments: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "rummy", "play", *arguments], env=rummy_env(),
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert message in done.stderr, done.stderr
