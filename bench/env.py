"""Environment benchmark: steps per second of :mod:`rummy.env`'s AEC environment under a random masked policy.

Run: ``python bench/env.py [--steps N]``.  One step is the observation (vector and action mask) of the agent
to act, a uniformly random id among those its mask allows, and ``env.step``; CPU time of one core.  Beside it,
the bare engine loop (``legal_actions`` and ``apply`` of a uniformly random candidate) on the same tables.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from rummy.env import aec_env
from rummy.game import Phase, new_game

TABLES = [("progressive-buy-it", 4), ("progressive-15", 4), ("may-i", 4), ("basic", 4), ("purchase", 4)]


def env_steps(variant: str, players: int, steps: int, seed: int = 0) -> tuple[int, float]:
    env = aec_env(variant, players, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    started = time.process_time()
    while done < steps:
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        done += 1
    return done, time.process_time() - started


def engine_steps(variant: str, players: int, steps: int, seed: int = 0) -> tuple[int, float]:
    rng = random.Random(seed)
    game = new_game(variant, players, seed=seed)
    done = 0
    started = time.process_time()
    while done < steps:
        if game.game_over:
            game = new_game(variant, players, seed=rng.getrandbits(32))
            continue
        if game.phase is Phase.ROUND_OVER:
            game.deal()
            continue
        game.apply(rng.choice(game.legal_actions(game.next_to_act())))
        done += 1
    return done, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5000, help="steps per table")
    args = parser.parse_args()
    print(f"{'variant':<20} {'players':>7} {'env steps/s':>12} {'engine steps/s':>15}")
    for variant, players in TABLES:
        count, seconds = env_steps(variant, players, args.steps)
        bare, bare_seconds = engine_steps(variant, players, args.steps)
        print(f"{variant:<20} {players:>7} {count / seconds:>12,.0f} {bare / bare_seconds:>15,.0f}")


if __name__ == "__main__":
    main()
