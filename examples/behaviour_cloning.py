"""Behaviour cloning from a ``rummy dataset``, numpy only: a linear softmax policy over the masked logits.

1. Data: the decisions of a dataset (docs/dataset.md) made by the bot to imitate.  Without ``--data`` the
   script writes a small one first, the same as
   ``rummy dataset --variant basic --players heuristic,heuristic --games 40 --seed 0 --out DIR``.
2. Model: a logit per action id, ``x · W[id] + b[id]``, where ``x`` is the observation without its
   ``candidates`` block, each column scaled by its largest value in the data; a composite id (one of the
   candidate slots) adds ``row · v``, its slot's ``candidates`` row (the move it names) times weights shared by
   every slot, so "slot k" is scored by what it does.  Only the ids legal somewhere in the data get weights (the
   action space has 22,402 ids; a table uses a few hundred).  The loss is the cross-entropy of the softmax over
   the ids the mask allows; full-batch Adam.
3. Evaluation with the Python API: the greedy policy and a uniformly random masked policy each play the same
   seeded deals from the same seat against ``--opponents`` in the single-seat environment (paired games).
   (``rummy eval`` rates the bots ``rummy sim`` knows by name; a policy of your own is evaluated this way.)

    python examples/behaviour_cloning.py                          # basic, 40 heuristic games, ~1 min of CPU
    rummy dataset --variant may-i --players heuristic,heuristic,heuristic,heuristic --games 200 --out may-i-200
    python examples/behaviour_cloning.py --data may-i-200 --epochs 300 --eval-games 100
    python examples/behaviour_cloning.py --quick                  # 6 games, a few seconds

Expected output (numbers vary with the arguments):

    dataset basic-heuristic: 200 games, 2 players, observation 3537, actions 22402
    imitating heuristic: 8942 decisions (7120 train, 1822 held out), 2 or more legal ids; 120 ids ever legal
    epoch 0: loss 1.690, accuracy train 0.392, held out 0.403
    ...
    epoch 199: loss 0.763, accuracy train 0.829, held out 0.554
    vs ['random'], 20 deals, mean return: cloned policy +2.6, uniform random ids -20.1; difference +22.8 ± 16.3
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from rummy.cli import main as rummy_main
from rummy.engine import ActionSpace
from rummy.env import gym_env, observation_layout
from rummy.env.dataset import load_shard
from rummy.features import CANDIDATE_SIZE

# The composite ids: the action space's "composite" block (57-88 in version 2), read from the space itself.
COMPOSITE = next(family for family in ActionSpace.families if family.verb == "composite")


def make_dataset(out: Path, games: int) -> Path:
    """Write a dataset of heuristic self-play in basic (the command line, called in this process)."""
    args = ["dataset", "--variant", "basic", "--players", "heuristic,heuristic", "--games", str(games),
            "--seed", "0", "--shard-games", "10", "--out", str(out)]
    print("rummy " + " ".join(args))
    if rummy_main(args) != 0:
        raise SystemExit("rummy dataset failed")
    return out


class Features:
    """Splits an observation vector into the public part ``x`` (scaled) and the candidate rows, by block name."""

    def __init__(self, players: int, size: int) -> None:
        layout = {block.name: block for block in observation_layout(players)}
        assert sum(block.size for block in layout.values()) == size, "the dataset's observation is another layout"
        self.candidates = layout["candidates"]
        self.slots = self.candidates.size // CANDIDATE_SIZE
        self.keep = np.ones(size, dtype=bool)
        self.keep[self.candidates.start:self.candidates.stop] = False
        self.scale = np.ones(int(self.keep.sum()), dtype=np.float32)
        self.row_scale = np.ones(CANDIDATE_SIZE, dtype=np.float32)

    def fit_scale(self, observations: np.ndarray) -> None:
        self.scale = np.maximum(np.abs(observations[:, self.keep]).max(axis=0), 1.0)
        self.row_scale = np.maximum(np.abs(self.rows(observations, scaled=False)).max(axis=(0, 1)), 1.0)

    def x(self, observations: np.ndarray) -> np.ndarray:
        return observations[:, self.keep] / self.scale

    def rows(self, observations: np.ndarray, scaled: bool = True) -> np.ndarray:
        block = observations[:, self.candidates.start:self.candidates.stop]
        rows = block.reshape(len(observations), self.slots, CANDIDATE_SIZE)
        return rows / self.row_scale if scaled else rows


class Policy:
    """Logits over the ``columns`` (the ids that get weights): ``x W + b``, plus ``rows · v`` for composite ids."""

    def __init__(self, features: Features, columns: np.ndarray, actions: int) -> None:
        self.features, self.columns, self.actions = features, columns, actions
        self.W = np.zeros((int(features.keep.sum()), len(columns)), dtype=np.float32)
        self.b = np.zeros(len(columns), dtype=np.float32)
        self.v = np.zeros(CANDIDATE_SIZE, dtype=np.float32)
        # which column is composite slot k (every slot's id is among the columns)
        self.slot_columns = np.searchsorted(columns, np.arange(COMPOSITE.start, COMPOSITE.start + features.slots))

    def logits(self, x: np.ndarray, rows: np.ndarray) -> np.ndarray:
        z = x @ self.W + self.b
        z[:, self.slot_columns] += rows @ self.v
        return z

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The most likely allowed id (an allowed id that never got weights scores below every one that did)."""
        z = self.logits(self.features.x(observation[None]), self.features.rows(observation[None]))[0]
        full = np.full(self.actions, -1e9, dtype=np.float32)
        full[self.columns] = z
        full[~mask] = -np.inf
        return int(full.argmax())


def load(data: Path, bot: str) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The manifest; the imitated decisions' observations, compact masks, compact targets and games; the columns."""
    manifest = json.loads((data / "manifest.json").read_text())
    actions = manifest["shapes"]["action_mask"][0]
    imitated = [index for index, spec in enumerate(manifest["bots"]) if spec == bot]  # every seat it held
    shards = [load_shard(data / shard["file"], actions) for shard in manifest["shards"]]
    chosen = []
    for shard in shards:
        keep = (shard["action"] >= 0) & (shard["action_mask"].sum(axis=1) > 1)  # an id, and a real choice
        keep &= np.isin(shard["player"], imitated)
        chosen.append({name: shard[name][keep] for name in ("observation", "action_mask", "action", "game")})
    legal_anywhere = np.zeros(actions, dtype=bool)
    for part in chosen:
        legal_anywhere |= part["action_mask"].any(axis=0)
    legal_anywhere[COMPOSITE.start:COMPOSITE.stop] = True  # every candidate slot gets its column
    columns = np.flatnonzero(legal_anywhere)
    observations = np.concatenate([part["observation"] for part in chosen])
    masks = np.concatenate([part["action_mask"][:, columns] for part in chosen])
    targets = np.searchsorted(columns, np.concatenate([part["action"] for part in chosen]))
    games = np.concatenate([part["game"] for part in chosen])
    return manifest, observations, masks, targets, games, columns


def train(policy: Policy, x: np.ndarray, rows: np.ndarray, masks: np.ndarray, targets: np.ndarray,
          held: np.ndarray, epochs: int, rate: float, decay: float) -> None:
    """Full-batch Adam on the masked softmax cross-entropy of the ``~held`` rows (plus ``decay`` times the squared
    weights: a few thousand decisions overfit a weight per feature and id quickly); prints the accuracies."""
    params = [policy.W, policy.b, policy.v]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    train_rows = ~held
    n = int(train_rows.sum())
    for epoch in range(epochs):
        z = policy.logits(x, rows)
        z[~masks] = -np.inf  # refused ids get probability 0
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        if epoch % max(1, epochs // 4) == 0 or epoch == epochs - 1:
            right = z.argmax(axis=1) == targets
            loss = -np.log(p[train_rows, targets[train_rows]] + 1e-12).mean()
            held_text = f"{right[held].mean():.3f}" if held.any() else "n/a"
            print(f"epoch {epoch}: loss {loss:.3f}, accuracy train {right[train_rows].mean():.3f}, "
                  f"held out {held_text}")
        g = p  # d loss / d logits = p - onehot(target), over the training rows
        g[np.arange(len(g)), targets] -= 1.0
        g[held] = 0.0
        g /= n
        grads = [x.T @ g + 2 * decay * policy.W, g.sum(axis=0),
                 np.einsum("nkf,nk->f", rows, g[:, policy.slot_columns]) + 2 * decay * policy.v]
        for param, grad, (m, s) in zip(params, grads, moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            s *= 0.999
            s += 0.001 * grad * grad
            param -= rate * (m / (1 - 0.9 ** (epoch + 1))) / (np.sqrt(s / (1 - 0.999 ** (epoch + 1))) + 1e-8)


def evaluate(policy: Policy, variant: str, rules: dict, opponents: list[str], deals: int) -> None:
    """The cloned policy and uniform random ids on the same deals, the same seat (seat 0), the same bots: the mean
    return per game (reward "score": points ahead of the others' mean, more is better) with its 95% interval,
    paired by deal.  A game is cut after 100 rounds of the table (random play in basic can run for thousands)."""
    env = gym_env(variant, opponents=opponents, options=rules, reward="score", max_cycles=100)
    rng = np.random.default_rng(0)
    returns = {"cloned policy": np.zeros(deals), "uniform random ids": np.zeros(deals)}
    for name, results in returns.items():
        for deal in range(deals):
            observation, info = env.reset(seed=100_000 + deal)  # deals neither the data nor training saw
            done = False
            while not done:
                mask = env.action_masks()
                if name == "cloned policy":
                    action = policy.act(observation["observation"], mask)
                else:
                    action = int(rng.choice(np.flatnonzero(mask)))
                observation, reward, terminated, truncated, info = env.step(action)
                results[deal] += reward
                done = terminated or truncated
    gap = returns["cloned policy"] - returns["uniform random ids"]
    half = 1.96 * gap.std(ddof=1) / np.sqrt(deals) if deals > 1 else float("nan")
    text = ", ".join(f"{name} {results.mean():+.1f}" for name, results in returns.items())
    print(f"vs {opponents}, {deals} deals, mean return: {text}; difference {gap.mean():+.1f} ± {half:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="a rummy dataset directory (default: write one)")
    parser.add_argument("--games", type=int, default=200, help="games of the dataset written without --data")
    parser.add_argument("--imitate", default=None, help="the bot to imitate (default: the dataset's first bot)")
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--learning-rate", type=float, default=0.05)
    parser.add_argument("--weight-decay", type=float, default=1e-3)
    parser.add_argument("--opponents", default="random", help="comma-separated bots for the evaluation")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="10 games, 30 epochs, 2 evaluation deals")
    args = parser.parse_args()
    games, epochs, deals = (10, 30, 2) if args.quick else (args.games, args.epochs, args.eval_games)

    with tempfile.TemporaryDirectory() as scratch:
        data = args.data or make_dataset(Path(scratch) / "basic-heuristic", games)
        manifest = json.loads((data / "manifest.json").read_text())
        bot = args.imitate or manifest["bots"][0]
        manifest, observations, masks, targets, game_of, columns = load(data, bot)
    players, (size,), (actions,) = manifest["players"], manifest["shapes"]["observation"], \
        manifest["shapes"]["action_mask"]
    print(f"dataset {data.name}: {manifest['counts']['games']} games, {players} players, observation {size}, "
          f"actions {actions}")
    held = game_of >= np.quantile(game_of, 0.8) if game_of.max() > 0 else np.zeros(len(game_of), bool)
    print(f"imitating {bot}: {len(targets)} decisions ({int((~held).sum())} train, {int(held.sum())} held out), "
          f"2 or more legal ids; {len(columns)} ids ever legal")

    features = Features(players, size)
    features.fit_scale(observations[~held])
    policy = Policy(features, columns, actions)
    train(policy, features.x(observations), features.rows(observations), masks, targets, held, epochs,
          args.learning_rate, args.weight_decay)

    opponents = args.opponents.split(",")
    if len(opponents) == 1:
        opponents = opponents * (players - 1)
    evaluate(policy, manifest["variant"], manifest["rules"], opponents, deals)


if __name__ == "__main__":
    main()
