"""Move-count regression files (perft style): how many candidate moves and legal action ids each state of
a fixed game has, per variant and seed, so any change in move generation shows up as a diff.

The games are played by a uniformly random player from fixed seeds.  After an intended change to move
generation, rewrite the files with ``RUMMY_WRITE_MOVE_COUNTS=1 python -m pytest tests/test_move_counts.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from rummy.engine.action_space import ACTION_SPACE_VERSION, ActionSpace
from rummy.engine.game import new_game
from tests.random_games import random_play

FILES = Path(__file__).parent / "move_counts"
TABLES = [("progressive-buy-it", 4, {}), ("progressive-15", 4, {}), ("may-i", 4, {}), ("basic", 3, {}),
          ("purchase", 3, {}), ("may-i", 4, {"may_i_limit": 5, "run_min": 3}),
          ("progressive-buy-it", 3, {"stolen_joker_must_be_played": True, "joker_swap_timing": "same_turn"})]
SEEDS = (1, 2)
DECISIONS = 150


def counts(variant: str, players: int, options: dict[str, Any], seed: int) -> list[list[int]]:
    """Per decision: [seat, candidate moves, legal action ids]."""
    game = new_game(variant, players, seed=seed, options=options)
    space = ActionSpace(game.variant, game.n)
    return [[turn.seat, len(turn.moves), len(space.legal_ids(game, turn.seat))]
            for turn in random_play(game, random.Random(seed), decisions=DECISIONS)]


def file_name(variant: str, players: int, options: dict[str, Any]) -> Path:
    suffix = "-".join(f"{key}={value}" for key, value in sorted(options.items()))
    return FILES / f"{variant}-{players}p{'-' + suffix if suffix else ''}.json"


@pytest.mark.parametrize("variant,players,options", TABLES, ids=lambda v: str(v))
def test_move_counts_are_unchanged(variant: str, players: int, options: dict[str, Any]) -> None:
    actual = {"action_space_version": ACTION_SPACE_VERSION,
              "seeds": {str(seed): counts(variant, players, options, seed) for seed in SEEDS}}
    path = file_name(variant, players, options)
    if os.environ.get("RUMMY_WRITE_MOVE_COUNTS"):
        path.write_text(json.dumps(actual, separators=(",", ":")) + "\n", encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert expected == actual, f"move generation changed for {path.name}; see the module docstring"
