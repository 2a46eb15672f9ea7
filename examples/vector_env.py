"""Batched masked random actions on the vector environment (``rummy.env.vector_env``, Gymnasium's vector API).

``N`` single-seat tables step in one call; observations come as ``(N, O)`` float32 and masks as ``(N, A)``
int8 arrays, rewards and the done flags as ``(N,)``.  A table whose game ends is reset on its next step
(autoreset ``"next_step"``: that step's action is ignored, and its mask row allows every id).

    python examples/vector_env.py                         # 8 basic tables against random, 2,000 batched steps
    python examples/vector_env.py --variant may-i --opponents heuristic,heuristic,heuristic --envs 16
    python examples/vector_env.py --quick                 # 4 tables, 100 batched steps, short games

Expected output (numbers vary with the arguments):

    8 tables: observations (8, 3537) float32, masks (8, 22402) int8
    2000 batched steps = 16000 table steps in 3.1 s of CPU; 52 games finished, mean return 11.6
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rummy.env import vector_env


def batched_random_masked(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random allowed id per row, for the whole batch at once: a random score per id, the refused
    ids scored below every allowed one, then the best id of each row."""
    scores = rng.random(masks.shape, dtype=np.float32)
    scores[~masks] = -1.0
    return scores.argmax(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--opponents", default="random", help="comma-separated bots, one per other seat")
    parser.add_argument("--envs", type=int, default=8, help="tables stepped together")
    parser.add_argument("--steps", type=int, default=2000, help="batched steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-cycles", type=int, default=None, help="truncate a game after this many rounds "
                        "of the table (default: play every game to its end)")
    parser.add_argument("--quick", action="store_true", help="4 tables, 100 batched steps, --max-cycles 10")
    args = parser.parse_args()
    envs_n, steps, max_cycles = (4, 100, 10) if args.quick else (args.envs, args.steps, args.max_cycles)

    # seed=s seeds table i with s + i; every table has the same spaces (the batched ones are fixed here); other
    # settings (max_cycles, reward, ...) are those of gym_env
    envs = vector_env(envs_n, args.variant, opponents=args.opponents.split(","), seed=args.seed,
                      max_cycles=max_cycles)
    observations, infos = envs.reset(seed=args.seed)
    print(f"{envs.num_envs} tables: observations {observations['observation'].shape} "
          f"{observations['observation'].dtype}, masks {observations['action_mask'].shape} "
          f"{observations['action_mask'].dtype}")

    rng = np.random.default_rng(args.seed)
    running = np.zeros(envs.num_envs)  # each table's return in its current game
    finished: list[float] = []
    start = time.process_time()
    for _ in range(steps):
        actions = batched_random_masked(envs.action_masks(), rng)  # (N,) ids; action_masks() is (N, A) booleans
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        running += rewards
        for index in np.flatnonzero(terminations | truncations):  # these tables reset on their next step
            finished.append(float(running[index]))
            running[index] = 0.0
    seconds = time.process_time() - start
    envs.close()
    mean = f"{np.mean(finished):.1f}" if finished else "n/a"
    print(f"{steps} batched steps = {steps * envs_n} table steps in {seconds:.1f} s of CPU; "
          f"{len(finished)} games finished, mean return {mean}")


if __name__ == "__main__":
    main()
