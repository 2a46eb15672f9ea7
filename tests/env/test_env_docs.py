"""docs/env.md stays true: its observation table is the encoder's layout, its example options load, and its
training loop runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
from rummy.engine import ACTION_SPACE_SIZE, ACTION_SPACE_VERSION, CARD_COUNT, COMPOSITE_SLOTS  # noqa: E402
from rummy.engine.action_space import FAMILIES  # noqa: E402
from rummy.env import SEAT_FIELDS, aec_env, gym_env, observation_layout  # noqa: E402
from rummy.features import CANDIDATE_FIELDS, CANDIDATE_SIZE  # noqa: E402

DOC = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text(encoding="utf-8")


def test_the_observation_table_is_the_layout() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\d+|\(\d+ \+ 8n\))–([^|]+?) \| ([^|]+) \| (.+) \|$", DOC, re.MULTILINE)
    layout = observation_layout(4)
    assert [row[0] for row in rows] == [block.name for block in layout]
    for (name, start, stop, size, meaning), block in zip(rows, layout, strict=True):
        if name == "candidates":  # after the seats: its positions are checked below
            assert meaning == block.meaning
            continue
        assert int(start) == block.start, name
        if name == "seats":
            assert size.strip() == f"{len(SEAT_FIELDS)} × players" and stop == "(278 + 8n)"
            assert block.start + len(SEAT_FIELDS) * 4 == block.stop
        else:
            assert (int(stop), int(size)) == (block.stop - 1, block.size), name
        assert meaning == block.meaning, name
    seats = len(SEAT_FIELDS) * 4
    candidates = re.search(r"^\| `candidates` \| \((\d+) \+ 8n\)–\((\d+) \+ 8n\) \| (\d+) × (\d+) \|", DOC,
                           re.MULTILINE)
    assert candidates is not None
    first, last, slots, size = map(int, candidates.groups())
    block = layout[-1]
    assert (first + seats, last + seats, slots, size) == (block.start, block.stop - 1, COMPOSITE_SLOTS, CANDIDATE_SIZE)
    assert f"size `{block.stop - seats} + {len(SEAT_FIELDS)}n`" in DOC


def test_the_action_table_is_the_universe() -> None:
    # docs/env.md's table of id ranges is the code's numbering, the same size at every table.
    rows = re.findall(r"^\| (\d+)–(\d+) \| (\d+) \| `(\w+)` \| .+ \|$", DOC, re.MULTILINE)
    assert [(int(a), int(b), int(n), verb) for a, b, n, verb in rows] == [
        (family.start, family.stop - 1, family.size, str(family.verb)) for family in FAMILIES]
    assert rows[-1][1] == str(ACTION_SPACE_SIZE - 1)
    assert f"`Discrete({ACTION_SPACE_SIZE})` at every table" in DOC
    assert f"version {ACTION_SPACE_VERSION}\n" in DOC
    env = aec_env("basic", 2)
    assert env.metadata["action_space_version"] == env.action_space_version == ACTION_SPACE_VERSION
    single = gym_env("basic", ["random"])
    assert single.metadata["action_space_version"] == single.action_space_version == ACTION_SPACE_VERSION


def test_the_candidate_table_is_the_row() -> None:
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? \| `?(\w+)`? \| .+ \|$", DOC, re.MULTILINE)
    fields = [(int(start), name) for start, stop, name in rows if not stop]
    assert fields == list(enumerate(CANDIDATE_FIELDS))
    cards = [(int(start), int(stop)) for start, stop, name in rows if stop and name == "cards"]
    assert cards == [(len(CANDIDATE_FIELDS), len(CANDIDATE_FIELDS) + CARD_COUNT - 1)]
    assert f"one row of {CANDIDATE_SIZE} numbers per composite slot" in DOC


def test_the_code_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "docs/env.md", "exec"), {})  # noqa: S102
