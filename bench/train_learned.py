"""Train linear policies by imitation of ``heuristic`` (the ``learned`` bot's first shipped policies, now a
baseline played with ``learned:path=FILE``; the shipped policies come from ``bench/train_expert.py``).

Imitation of the ``heuristic`` bot: four ``heuristic`` bots play whole games (seeded); at every decision
of every seat the legal moves are described as :class:`rummy.bots.learned.Choice` rows of features
(exactly what the ``learned`` bot computes from its view) and the move the heuristic played is the
label.  The linear softmax policy (``weights · features``) is then fitted by maximum likelihood
(a conditional logit; full-batch Adam with a little L2), numpy only.  Decisions with one legal move teach
nothing and are dropped.  Everything derives from ``--seed``: the same seed gives the same weights.

    python bench/train_learned.py                       # every variant, writes runs/imitation/
    python bench/train_learned.py --variants basic --games 50 --out /tmp/policies
    python bench/train_learned.py --quick --out /tmp/p  # a few seconds: a smoke test

It prints, per variant, the decisions collected, the learning curve (held-out agreement with the
heuristic after each block of Adam steps) and the CPU time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummy.bots import Bot, make_bot, play_game
from rummy.bots.learned import FEATURES, FeatureMaker, PolicyFile, choices_of_view, save_policy, softmax
from rummy.engine import DEFAULT_COMPOSITE_SLOTS, VARIANTS, Action, PlayerView, get_variant
from rummy.features import Encoder

OUT = Path("runs") / "imitation"
#: Games of demonstrations per variant by default: more where games are short (few decisions each).
GAMES = {"basic": 400, "purchase": 400}
Matrix = npt.NDArray[np.float64]


class Recorder:
    """Plays as ``heuristic`` and records, for each decision with a choice, its feature rows and the label."""

    name = "recorder"
    needs_public_game = False

    def __init__(self, seed: int, variant: str, players: int, sink: list[tuple[Matrix, int]]) -> None:
        self.bot = make_bot("heuristic", seed=seed)
        rules = get_variant(variant)
        self.encoder = Encoder(rules, players)
        self.features = FeatureMaker(rules, players)
        self.sink = sink

    def choose(self, view: PlayerView) -> Action:
        move = self.bot.choose(view)
        actions, choices = choices_of_view(view, DEFAULT_COMPOSITE_SLOTS)
        if len(actions) > 1 and move in actions:
            rows = self.features(self.encoder.encode(view), choices)
            self.sink.append((rows, actions.index(move)))
        return move


def collect(job: tuple[str, int, int]) -> list[tuple[Matrix, int]]:
    """The decisions of one game of four recording heuristic bots (game seed ``seed``)."""
    variant, players, seed = job
    sink: list[tuple[Matrix, int]] = []
    bots = [Recorder(seed * 16 + seat, variant, players, sink) for seat in range(players)]
    play_game(variant, bots, seed=seed)
    return sink


class Sampler:
    """Plays ``weights`` by sampling from the softmax (the training policy), recording each decision's rows
    and the index played."""

    name = "sampler"
    needs_public_game = False

    def __init__(self, weights: Matrix, seed: int, variant: str, players: int) -> None:
        rules = get_variant(variant)
        self.weights = weights
        self.rng = np.random.default_rng(seed)
        self.encoder = Encoder(rules, players)
        self.features = FeatureMaker(rules, players)
        self.trace: list[tuple[Matrix, int]] = []

    def choose(self, view: PlayerView) -> Action:
        actions, choices = choices_of_view(view, DEFAULT_COMPOSITE_SLOTS)
        if len(actions) == 1:
            return actions[0]
        rows = self.features(self.encoder.encode(view), choices)
        index = int(self.rng.choice(len(actions), p=softmax(rows @ self.weights)))
        self.trace.append((rows, index))
        return actions[index]


def episode(job: tuple[str, int, Matrix, int]) -> tuple[float, list[tuple[Matrix, int]]]:
    """One game of the sampling policy in seat ``seed % players`` against ``heuristic`` bots: its result
    (the share of the other seats it finished ahead of) and its decisions."""
    variant, players, weights, seed = job
    seat = seed % players
    learner = Sampler(weights, seed, variant, players)
    bots: list[Bot] = [make_bot("heuristic", seed=seed * 16 + s) for s in range(players)]
    bots[seat] = learner
    game = play_game(variant, bots, seed=seed)
    position = game.ranking().index(seat)
    return (players - 1 - position) / (players - 1), learner.trace


def improve(variant: str, players: int, w: Matrix, games: int, batch: int, rate: float, seed: int,
            pool: Any) -> tuple[Matrix, list[tuple[int, float]]]:
    """REINFORCE against ``heuristic`` from ``w``: batches of ``batch`` games, the reward of every decision
    the game's result minus the batch's mean, Adam.  The curve is the mean result per batch."""
    rng = random.Random(f"{seed}:{variant}:improve")
    w = w.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    curve: list[tuple[int, float]] = []
    for step in range(1, games // batch + 1):
        jobs = [(variant, players, w, rng.randrange(2 ** 31)) for _ in range(batch)]
        results = pool.map(episode, jobs) if pool is not None else [episode(job) for job in jobs]
        mean = sum(r for r, _ in results) / len(results)
        gradient = np.zeros_like(w)
        count = 0
        for result, trace in results:
            for rows, index in trace:
                p = softmax(rows @ w)
                gradient += (result - mean) * (rows[index] - p @ rows)
                count += 1
        gradient = -gradient / max(1, count)
        m = 0.9 * m + 0.1 * gradient
        v = 0.999 * v + 0.001 * gradient ** 2
        w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        curve.append((step * batch, mean))
    return w, curve


def stack(decisions: Sequence[tuple[Matrix, int]]) -> tuple[Matrix, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """All rows, the start of each decision's rows, and the row index of each label."""
    rows = np.concatenate([r for r, _ in decisions]) if decisions else np.zeros((0, len(FEATURES)))
    sizes = np.array([len(r) for r, _ in decisions], dtype=np.intp)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    labels = starts + np.array([y for _, y in decisions], dtype=np.intp)
    return rows, starts, labels


def loss_and_gradient(w: Matrix, rows: Matrix, starts: npt.NDArray[np.intp], labels: npt.NDArray[np.intp],
                      l2: float) -> tuple[float, Matrix]:
    scores = rows @ w
    top = np.maximum.reduceat(scores, starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(rows))))
    shifted = np.exp(scores - top[group])
    totals = np.add.reduceat(shifted, starts)
    probabilities = shifted / totals[group]
    n = len(starts)
    loss = float(np.sum(np.log(totals) + top - scores[labels])) / n + l2 * float(w @ w)
    weights = probabilities.copy()
    weights[labels] -= 1.0
    gradient: Matrix = rows.T @ weights / n + 2 * l2 * w
    return loss, gradient


def agreement(w: Matrix, rows: Matrix, starts: npt.NDArray[np.intp], labels: npt.NDArray[np.intp]) -> float:
    """How often the policy's greedy choice is the heuristic's (ties broken by the first, as the bot does)."""
    if not len(starts):
        return float("nan")
    scores = rows @ w
    ends = np.append(starts[1:], len(rows))
    hits = sum(int(s + np.argmax(scores[s:e]) == y) for s, e, y in zip(starts, ends, labels, strict=True))
    return hits / len(starts)


def fit(train: Sequence[tuple[Matrix, int]], test: Sequence[tuple[Matrix, int]], steps: int, l2: float,
        curve_every: int) -> tuple[Matrix, list[tuple[int, float, float]]]:
    rows, starts, labels = stack(train)
    test_rows, test_starts, test_labels = stack(test)
    w = np.zeros(len(FEATURES))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    curve: list[tuple[int, float, float]] = []
    for step in range(1, steps + 1):
        loss, gradient = loss_and_gradient(w, rows, starts, labels, l2)
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient ** 2
        w -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
        if step % curve_every == 0 or step == steps:
            curve.append((step, loss, agreement(w, test_rows, test_starts, test_labels)))
    return w, curve


def train_variant(variant: str, players: int, games: int, seed: int, steps: int, workers: int,
                  out: Path, improve_games: int = 0, batch: int = 16, rate: float = 0.02) -> None:
    started = time.process_time()
    wall = time.perf_counter()
    rng = random.Random(f"{seed}:{variant}")
    seeds = [rng.randrange(2 ** 31) for _ in range(games)]
    jobs = [(variant, players, s) for s in seeds]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            per_game = pool.map(collect, jobs)
    else:
        per_game = [collect(job) for job in jobs]
    held_out = max(1, games // 5)
    train = [d for game in per_game[held_out:] for d in game]
    test = [d for game in per_game[:held_out] for d in game]
    collected = time.perf_counter() - wall
    w, curve = fit(train, test, steps, l2=1e-4, curve_every=max(1, steps // 5))
    fitted = time.perf_counter() - wall - collected
    improved: list[tuple[int, float]] = []
    if improve_games:
        if workers > 1:
            with multiprocessing.get_context("spawn").Pool(workers) as pool:
                w, improved = improve(variant, players, w, improve_games, batch, rate, seed, pool)
        else:
            w, improved = improve(variant, players, w, improve_games, batch, rate, seed, None)
    out.mkdir(parents=True, exist_ok=True)
    save_policy(out / f"{variant}.npz", PolicyFile(variant, players, w))
    print(f"{variant}: {games} games ({held_out} held out), {len(train)} training and {len(test)} held-out "
          f"decisions, collected in {collected:.1f} s wall; fitted in "
          f"{fitted:.1f} s wall; improved in {time.perf_counter() - wall - collected - fitted:.1f} s wall; "
          f"CPU of this process "
          f"{time.process_time() - started:.1f} s")
    print("  Adam steps   loss    held-out agreement with heuristic")
    for step, loss, agree in curve:
        print(f"  {step:10d}  {loss:.4f}  {agree:.3f}")
    if improved:
        print("  self-play games against heuristic   mean share of seats beaten (batch)")
        every = max(1, len(improved) // 8)
        for played, result in improved[every - 1::every]:
            print(f"  {played:10d}  {result:.3f}")
    order = np.argsort(-np.abs(w))[:6]
    print("  largest weights: " + ", ".join(f"{FEATURES[i]} {w[i]:+.2f}" for i in order))
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--variants", default=",".join(sorted(VARIANTS)))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=None,
                        help="heuristic self-play games per variant (default: GAMES, 120 for the others)")
    parser.add_argument("--steps", type=int, default=150, help="full-batch Adam steps")
    parser.add_argument("--improve", type=int, default=0,
                        help="policy-gradient games against heuristic after the imitation (0: none)")
    parser.add_argument("--batch", type=int, default=16, help="games per policy-gradient update")
    parser.add_argument("--rate", type=float, default=0.02, help="Adam step size of the policy gradient")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--quick", action="store_true", help="2 games, 20 steps, basic only: a smoke test")
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    if args.quick:
        args.games, args.steps, args.improve, args.batch = 2, 20, min(args.improve, 4), 2
        if args.variants == parser.get_default("variants"):
            variants = ["basic"]
    for variant in variants:
        games = args.games if args.games is not None else GAMES.get(variant, 120)
        train_variant(variant, args.players, games, args.seed, args.steps, args.workers, args.out,
                      args.improve, args.batch, args.rate)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
