"""Replay every hand-written rule scenario under tests/scenarios and check its ``x-expect``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummy.engine.errors import Rule
from rummy.record import replay_file

SCENARIOS = sorted(Path(__file__).parent.joinpath("scenarios").glob("*/*.json"))


def _mismatches(expected: Any, actual: Any, path: str) -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems.extend(_mismatches(value, actual[key], f"{path}.{key}"))
        return problems
    if expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    expect = json.loads(path.read_text(encoding="utf-8"))["x-expect"]
    result = replay_file(path)
    report = result.to_json()
    assert result.exit_code == expect["exit"], f"{expect.get('note')}\n{json.dumps(report)[:2000]}"
    if expect["exit"] == 1:
        # An illegal action is pinned by where it is and by the rule it must be refused with.
        assert {"round", "index", "rule"} <= set(expect.get("error", {})), "x-expect.error needs round, index and rule"
        assert expect["error"]["rule"] in set(Rule), f"unknown rule key {expect['error']['rule']!r}"
    problems = []
    if "error" in expect:
        problems += _mismatches(expect["error"], report["error"], "error")
    if "state" in expect:
        problems += _mismatches(expect["state"], report.get("state"), "state")
    if "results" in expect:
        problems += _mismatches(expect["results"], report.get("results"), "results")
    assert not problems, f"{expect.get('note')}\n" + "\n".join(problems) + f"\n{json.dumps(report.get('error'))}"
