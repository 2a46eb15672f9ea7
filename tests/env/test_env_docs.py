"""docs/env.md stays true: its observation table is the encoder's layout, its example options load, and its
training loop runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
from rummy.engine import ACTION_SPACE_SIZE, ACTION_SPACE_VERSION, CARD_COUNT, get_variant  # noqa: E402
from rummy.engine.action_space import FAMILIES  # noqa: E402
from rummy.env import OBSERVATION_VERSION, aec_env, gym_env, observation_layout  # noqa: E402
from rummy.features import CANDIDATE_FIELDS, CANDIDATE_SIZE, Scales  # noqa: E402

DOC = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text(encoding="utf-8")


def _at(text: str, n: int) -> int:
    """A position or size of the observation table at ``n`` seats: ``279``, ``(279 + 8n)``, ``53 × players``,
    ``8 × (players + 65)``."""
    expression = text.strip().replace("×", "*").replace("players", "n").replace("8n", "8*n")
    expression = re.sub(r"(\d+)n", r"\1*n", expression)
    assert re.fullmatch(r"[\d\s()+*n]+", expression), text
    return int(eval(expression, {"n": n}))  # noqa: S307 (digits, n, + and × only)


def test_the_observation_table_is_the_layout() -> None:
    # docs/env.md's observation table is the encoder's layout at every player count, scales and meanings too.
    rows = re.findall(r"^\| `(\w+)` \| ([^|–]+)–([^|]+) \| ([^|]+) \| ([^|]+) \| (.+) \|$", DOC, re.MULTILINE)
    for players in range(2, 9):
        layout = observation_layout(players)
        assert [row[0] for row in rows] == [block.name for block in layout]
        for (name, start, stop, size, scale, meaning), block in zip(rows, layout, strict=True):
            assert (_at(start, players), _at(stop, players), _at(size, players)) == (
                block.start, block.stop - 1, block.size), (name, players)
            assert (scale.strip(), meaning) == (block.scale, block.meaning), name
        last = layout[-1].stop
        assert f"size `{last - 281 * players} + 281n`" in DOC and last - 281 * players == 2975
    assert f"observation version {OBSERVATION_VERSION}, `rummy.env.OBSERVATION_VERSION`" in DOC
    for env in (aec_env("basic", 2), gym_env("basic", ["random"])):
        assert env.metadata["observation_version"] == env.observation_version == OBSERVATION_VERSION


def test_the_scale_table_is_the_scales() -> None:
    header = re.search(r"^\| scale \| what \| (.+) \|$", DOC, re.MULTILINE)
    assert header is not None
    tables = [cell.replace("`", "").split() for cell in header.group(1).split("|")]
    scales = [Scales.of(get_variant(variant, {}), int(players[:-1])) for variant, players in tables]
    for letter, field in (("C", "copies"), ("P", "pack"), ("D", "deal"), ("V", "value"), ("T", "total")):
        row = re.search(rf"^\| {letter} \| [^|]+ \| (.+) \|$", DOC, re.MULTILINE)
        assert row is not None, letter
        assert [int(cell) for cell in row.group(1).split("|")] == [getattr(s, field) for s in scales], letter


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
