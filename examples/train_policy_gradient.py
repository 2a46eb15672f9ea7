"""Train a linear softmax policy with REINFORCE against three ``random`` bots, with numpy only.

The policy (:mod:`rummy.bots.learned`) scores each legal action id of the Gymnasium environment
(``rummy.env.gym_env``) by a weight vector times a few hand-built features of the seat's observation and
the action; training samples from the softmax over the legal ids, and follows the policy gradient with
the discounted return (the ``score`` reward: each round's score against the mean of the others, scaled)
minus a running baseline, over batches of games played by ``--workers`` processes.  Afterwards the greedy
policy and a uniformly random masked policy each play ``--eval-games`` games in the same seat against
the same bots; the script prints both win rates with 95% Wilson intervals next to the 25% chance level,
saves the policy (load it with ``rummy sim --players learned:path=FILE,random,random,random``) and a PNG of
the learning curve.

    python examples/train_policy_gradient.py --variant may-i --minutes 7 --out runs/may-i
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummy.bots.learned import FEATURES, FeatureMaker, PolicyFile, choice_of_id, save_policy, softmax
from rummy.env import SingleSeatEnv, gym_env

Vector = npt.NDArray[np.float64]
_ENVS: dict[tuple[str, int], tuple[SingleSeatEnv, FeatureMaker]] = {}


@dataclass
class Episode:
    """One game of the learning seat: per decision, the gradient of log π of the move it took and its return."""

    gradients: Vector
    returns: Vector
    won: bool
    score: float


def _env(variant: str, players: int) -> tuple[SingleSeatEnv, FeatureMaker]:
    key = (variant, players)
    if key not in _ENVS:
        env = gym_env(variant, opponents=["random"] * (players - 1), reward="score")
        _ENVS[key] = (env, FeatureMaker(env.aec.rules, players))
    return _ENVS[key]


def play_episode(variant: str, players: int, weights: Vector | None, seed: int, *, mode: str,
                 gamma: float = 0.98, score_scale: float = 50.0, win_bonus: float = 2.0) -> Episode:
    """One game with ``mode`` "sample" (training), "greedy" (the learned bot's play) or "uniform"
    (a uniformly random legal id; ``weights`` unused).

    The reward of a decision is the environment's ``score`` reward divided by ``score_scale``, plus
    ``win_bonus`` on the last decision of a won game (variants played as one hand to a single winner,
    such as purchase, score no rounds and learn from the bonus alone)."""
    env, features = _env(variant, players)
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    gradients: list[Vector] = []
    rewards: list[float] = []
    total = 0.0
    # The bots may end the game before the learning seat ever decides (purchase: a book on the first turn).
    done = env.aec.terminations[env.agent] or env.aec.truncations[env.agent]
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        if mode == "uniform" or weights is None:
            pick = int(rng.integers(legal.size))
        else:
            rows = features(observation["observation"], [choice_of_id(env.aec.space, int(i)) for i in legal])
            probabilities = softmax(rows @ weights)
            pick = int(np.argmax(probabilities)) if mode == "greedy" else int(rng.choice(legal.size, p=probabilities))
            if mode == "sample":
                gradients.append(rows[pick] - probabilities @ rows)
        observation, reward, terminated, truncated, _ = env.step(int(legal[pick]))
        total += reward
        rewards.append(reward / score_scale)
        done = terminated or truncated
    won = env.seat in env.aec.game.winners()
    if won and rewards:
        rewards[-1] += win_bonus
    returns = np.zeros(len(rewards))
    running = 0.0
    for step in range(len(rewards) - 1, -1, -1):
        running = rewards[step] + gamma * running
        returns[step] = running
    stacked = np.array(gradients) if gradients else np.zeros((0, len(FEATURES)))
    return Episode(stacked, returns[:len(gradients)] if gradients else returns[:0], won, total)


def _play(task: tuple[str, int, Vector | None, int, str, float]) -> Episode:
    variant, players, weights, seed, mode, win_bonus = task
    return play_episode(variant, players, weights, seed, mode=mode, win_bonus=win_bonus)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class Adam:
    def __init__(self, size: int, rate: float) -> None:
        self.rate, self.m, self.v, self.t = rate, np.zeros(size), np.zeros(size), 0

    def step(self, gradient: Vector) -> Vector:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * gradient
        self.v = 0.999 * self.v + 0.001 * gradient * gradient
        m_hat = self.m / (1 - 0.9 ** self.t)
        v_hat = self.v / (1 - 0.999 ** self.t)
        update: Vector = self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        return update


def train(args: argparse.Namespace, pool: Any) -> tuple[Vector, list[tuple[int, float, float]]]:
    """REINFORCE until ``args.minutes`` (or ``args.episodes``) run out; the weights and the learning curve
    (games so far, win rate and mean score of the last block)."""
    weights = np.zeros(len(FEATURES))
    optimiser = Adam(len(FEATURES), args.learning_rate)
    baseline, spread = 0.0, 1.0
    curve: list[tuple[int, float, float]] = []
    block_wins, block_scores = [], []
    games, seed = 0, args.seed * 1_000_003
    deadline = time.monotonic() + 60 * args.minutes
    while time.monotonic() < deadline and (args.episodes is None or games < args.episodes):
        tasks = [(args.variant, args.players, weights, seed + k, "sample", args.win_bonus) for k in range(args.batch)]
        seed += args.batch
        episodes: list[Episode] = pool.map(_play, tasks) if pool is not None else [_play(t) for t in tasks]
        returns = np.concatenate([e.returns for e in episodes])
        gradients = np.concatenate([e.gradients for e in episodes])
        if returns.size:
            baseline = 0.9 * baseline + 0.1 * float(returns.mean())
            spread = 0.9 * spread + 0.1 * float(returns.std() + 1e-6)
            advantage = (returns - baseline) / spread
            weights = weights + optimiser.step(advantage @ gradients / len(episodes))
        for episode in episodes:
            games += 1
            block_wins.append(episode.won)
            block_scores.append(episode.score)
            if len(block_wins) == args.block:
                curve.append((games, float(np.mean(block_wins)), float(np.mean(block_scores))))
                score = f"  mean score vs others per game {curve[-1][2]:+.1f}" if curve[-1][2] else ""
                print(f"games {games:5d}  win rate {curve[-1][1]:.3f}{score}", flush=True)
                block_wins, block_scores = [], []
    return weights, curve


def evaluate(args: argparse.Namespace, pool: Any, weights: Vector | None, mode: str) -> tuple[int, int]:
    first = 10**9 + args.seed * 10_007  # deals the training never saw, the same for both policies
    tasks = [(args.variant, args.players, weights, first + g, mode, 0.0) for g in range(args.eval_games)]
    episodes = pool.map(_play, tasks) if pool is not None else [_play(t) for t in tasks]
    return sum(e.won for e in episodes), len(episodes)


def save_plot(path: Path, curve: list[tuple[int, float, float]], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.4), dpi=90)
    axis.plot([c[0] for c in curve], [c[1] for c in curve], marker=".", label="learning seat (sampling)")
    axis.axhline(0.25, color="grey", linestyle="--", label="chance (1 in 4)")
    axis.set_xlabel("training games")
    axis.set_ylabel("win rate per block")
    axis.set_ylim(0, 1)
    axis.set_title(title, fontsize=10)
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="may-i")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=7.0, help="training time (evaluation comes after)")
    parser.add_argument("--episodes", type=int, default=None, help="stop after this many training games")
    parser.add_argument("--out", type=Path, default=Path("policy"), help="directory for policy.npz and curve.png")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=8, help="games per update")
    parser.add_argument("--block", type=int, default=96, help="games per point of the learning curve")
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--win-bonus", type=float, default=2.0, help="extra reward for a won game")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("fork")
    pool = context.Pool(args.workers) if args.workers > 1 else None
    try:
        started = time.monotonic()
        weights, curve = train(args, pool)
        minutes = (time.monotonic() - started) / 60
        games = curve[-1][0] if curve else 0
        print(f"trained {args.variant} ({args.players} players) for {minutes:.1f} min, {games}+ games")
        policy_path = args.out / "policy.npz"
        save_policy(policy_path, PolicyFile(args.variant, args.players, weights))
        print(f"policy: {policy_path}  (rummy sim --variant {args.variant} --players learned:path={policy_path},"
              + ",".join(["random"] * (args.players - 1)) + ")")
        for name, value in sorted(zip(FEATURES, weights, strict=True), key=lambda p: -abs(p[1]))[:8]:
            print(f"  weight {name:28s} {value:+.2f}")
        for label, mode in (("learned (greedy)", "greedy"), ("uniform random ids", "uniform")):
            wins, played = evaluate(args, pool, weights, mode)
            low, high = wilson(wins, played)
            print(f"{label:20s} wins {wins}/{played} = {wins / played:.3f}  95% CI [{low:.3f}, {high:.3f}]  "
                  f"(chance 0.250)")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if curve:
        save_plot(args.out / "curve.png", curve, f"REINFORCE, linear policy: {args.variant}, "
                                                 f"{args.players} players vs random bots")
        print(f"learning curve: {args.out / 'curve.png'}")


if __name__ == "__main__":
    main()
