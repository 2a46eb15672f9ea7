"""docs/env.md stays true: its observation table is the encoder's layout, its example options load, and its
training loop runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
from rummy.env import SEAT_FIELDS, observation_layout  # noqa: E402

DOC = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text(encoding="utf-8")


def test_the_observation_table_is_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+)–([^|]+?) \| ([^|]+) \| (.+) \|$", DOC, re.MULTILINE)
    layout = observation_layout(4)
    assert [row[0] for row in rows] == [block.name for block in layout]
    for (name, start, stop, size, meaning), block in zip(rows, layout, strict=True):
        assert int(start) == block.start, name
        if name == "seats":
            assert size.strip() == f"{len(SEAT_FIELDS)} × players" and stop == "(278 + 8n)"
            assert block.start + len(SEAT_FIELDS) * 4 == block.stop
        else:
            assert (int(stop), int(size)) == (block.stop - 1, block.size), name
        assert meaning == block.meaning, name
    assert f"size `{layout[-1].start} + {len(SEAT_FIELDS)}n`" in DOC


def test_the_code_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), {})  # noqa: S102
