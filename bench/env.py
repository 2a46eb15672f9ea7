"""Environment benchmark: steps per second of :mod:`rummy.env`'s AEC environment under a random masked policy.

Run: ``python bench/env.py [--steps N | --games G] [--repeat R] [--variant NAME ...] [--vector N ...]``.

``--games G`` times ``G`` whole games per table (every round, not just the first; the figure to quote), while
``--steps N`` stops after ``N`` steps, which may be inside the first round of a long game.

One step is the observation (vector and action mask) of the agent to act, a uniformly random id among those
its mask allows, and ``env.step``; CPU time of one core, the fastest of ``R`` runs.  The step's time is then
split in two: the engine's part is the same games replayed on the bare engine (listing the legal moves of
the seat to act, which the mask needs, working out its first ``COMPOSITE_SLOTS`` composite moves, which the
observation describes (a deferred lay-down or rearrangement is worked out only when read), and applying the move
the environment applied); the environment's part is the rest (encoding, mask, ids, bookkeeping, the policy's
draw).  Every run has a fresh process of
its own, so that no run finds the engine's caches (lay-downs per hand, lay-offs per meld) warmed by another.
Beside it, the bare engine loop (``legal_actions`` and ``apply`` of a uniformly random candidate: other
games than the environment's) on the same tables.  Prints figures; asserts nothing.

``--vector N`` (repeatable) times the vector environment (:class:`rummy.env.SingleSeatVectorEnv`) instead: ``N``
single-seat tables of each variant, the learner at seat 0 against three ``random`` bots, one ``step`` call for all
of them with a uniformly random masked id per table (from ``action_masks()``), autoreset ``next_step``; beside
it the same tables under Gymnasium's ``SyncVectorEnv`` and a plain loop over one ``SingleSeatEnv``.  A learner
step includes the bots' moves up to the learner's next decision; the table shows learner steps per second and
all decisions (learner and bots) per second, CPU time of one core, until ``G`` games (``--games``, default 10)
have ended over the tables.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import numpy as np

from rummy.engine import COMPOSITE_SLOTS, COMPOSITE_VERBS, Action, Phase, Variant, new_game
from rummy.env import aec_env, gym_env, vector_env

TABLES = [("progressive-buy-it", 4), ("progressive-15", 4), ("may-i", 4), ("basic", 4), ("purchase", 4)]

#: The games an environment run played: each one's seed and the moves applied to it, in order.
Played = list[tuple[int, list[Action]]]
Result = TypeVar("Result")


def fresh(function: Callable[..., Result], *arguments: Any) -> Result:
    """``function(*arguments)`` in a new process (cold caches, nothing shared with the other runs)."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *arguments).result()


def env_steps(variant: str, players: int, steps: int, seed: int = 0, whole: int = 0) -> tuple[int, float, Played]:
    """Steps of a random masked policy: (steps, CPU seconds, the games played); with ``whole``, exactly that
    many whole games (``steps`` is then ignored)."""
    env = aec_env(variant, players, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    games = [env.game]
    done = 0
    started = time.process_time()
    finished = 0
    while (finished < whole) if whole else (done < steps):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finished += 1
            if whole and finished == whole:
                break
            env.reset()
            games.append(env.game)
            continue
        legal = observation["action_mask"].view(np.bool_).nonzero()[0]
        env.step(int(legal[rng.integers(len(legal))]))  # the draw of rng.choice(legal), without its overhead
        done += 1
    seconds = time.process_time() - started
    return done, seconds, [(game.seed, list(game.log)) for game in games]


def engine_replay(rules: Variant, players: int, played: Played) -> tuple[int, float]:
    """The engine's work in the environment's games: per move, the legal moves of the seat to act, its composite
    moves the observation describes (worked out), and the move."""
    done = 0
    started = time.process_time()
    for seed, moves in played:
        game = new_game(rules, players, seed=seed)
        for move in moves:
            while game.phase is Phase.ROUND_OVER:
                game.deal()
            moves = game.legal_actions(game.next_to_act())
            composites = [index for index, verb in enumerate(moves.verbs()) if verb in COMPOSITE_VERBS]
            for index in composites[:COMPOSITE_SLOTS]:
                moves[index]
            game.apply(move)
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


def vector_steps(variant: str, players: int, tables: int, games: int, kind: str,
                 seed: int = 0) -> tuple[int, int, float]:
    """(learner steps, all decisions, CPU seconds) of ``tables`` single-seat tables stepped together until ``games``
    games ended: ``kind`` is ``"vector"`` (ours), ``"sync"`` (Gymnasium's ``SyncVectorEnv``) or ``"single"`` (a
    plain loop over one table; ``tables`` must be 1)."""
    from gymnasium.vector import SyncVectorEnv

    opponents = ["random"] * (players - 1)
    rng = np.random.default_rng(seed)
    steps = finished = decisions = 0
    if kind == "single":
        env = gym_env(variant, opponents, seed=seed)
        env.reset(seed=seed)
        started = time.process_time()
        while finished < games:
            legal = env.action_masks().nonzero()[0]
            _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                finished += 1
                decisions += env.aec.actions_taken
                env.reset()
        return steps, decisions + env.aec.actions_taken, time.process_time() - started
    if kind == "vector":
        envs: Any = vector_env(tables, variant, opponents, seed=seed)
        masks_of: Callable[[], Any] = envs.action_masks
    else:
        envs = SyncVectorEnv([lambda: gym_env(variant, opponents) for _ in range(tables)])
        masks_of = lambda: np.stack(envs.call("action_masks"))  # noqa: E731
    envs.reset(seed=seed)
    done = np.zeros(tables, dtype=np.bool_)
    started = time.process_time()
    while finished < games:
        masks = masks_of()
        actions = np.zeros(tables, dtype=np.int64)
        for index, row in enumerate(masks):
            if not done[index]:  # (a finished table is reset by this step: its action is ignored)
                legal = row.nonzero()[0]
                actions[index] = legal[rng.integers(len(legal))]
        _, _, terminations, truncations, _ = envs.step(actions)
        steps += int((~done).sum())
        done = terminations | truncations
        finished += int(done.sum())
        decisions += sum(envs.envs[index].aec.actions_taken for index in done.nonzero()[0])
    seconds = time.process_time() - started
    unfinished = sum(envs.envs[index].aec.actions_taken for index in (~done).nonzero()[0])
    return steps, decisions + unfinished, seconds


def vector_main(args: argparse.Namespace) -> None:
    games = args.games or 10
    print(f"{'variant':<20} {'players':>7} {'tables':>6} {'stepper':>8} {'learner steps/s':>16} {'decisions/s':>12}")
    for variant, players in TABLES:
        if args.variant and variant not in args.variant:
            continue
        rows = [(1, "single")] + [(n, kind) for n in args.vector for kind in ("vector", "sync")]
        for tables, kind in rows:
            best: tuple[float, float] = (0.0, 0.0)
            for _ in range(args.repeat):
                steps, decisions, seconds = fresh(vector_steps, variant, players, tables, games, kind)
                best = max(best, (steps / seconds, decisions / seconds))
            print(f"{variant:<20} {players:>7} {tables:>6} {kind:>8} {best[0]:>16,.0f} {best[1]:>12,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5000, help="steps per table")
    parser.add_argument("--games", type=int, default=0, help="whole games per table instead of --steps")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the fastest is shown")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable; default: all five)")
    parser.add_argument("--vector", action="append", type=int, metavar="N",
                        help="time the vector environment of N single-seat tables instead (repeatable)")
    args = parser.parse_args()
    if args.vector:
        vector_main(args)
        return
    print(f"{'variant':<20} {'players':>7} {'env steps/s':>12} {'µs/step':>8} {'engine µs':>10} {'env µs':>7}"
          f" {'bare engine steps/s':>20}")
    for variant, players in TABLES:
        if args.variant and variant not in args.variant:
            continue
        rules = aec_env(variant, players).rules
        step_seconds = engine_seconds = bare_seconds = float("inf")
        for _ in range(args.repeat):
            count, seconds, played = fresh(env_steps, variant, players, args.steps, 0, args.games)
            step_seconds = min(step_seconds, seconds / count)
            replayed, seconds = fresh(engine_replay, rules, players, played)
            engine_seconds = min(engine_seconds, seconds / replayed)
            bare, seconds = fresh(engine_steps, variant, players, args.steps if not args.games else count)
            bare_seconds = min(bare_seconds, seconds / bare)
        env_part = step_seconds - engine_seconds
        print(f"{variant:<20} {players:>7} {1 / step_seconds:>12,.0f} {step_seconds * 1e6:>8.0f}"
              f" {engine_seconds * 1e6:>10.0f} {env_part * 1e6:>7.0f} {1 / bare_seconds:>20,.0f}")


if __name__ == "__main__":
    main()
