"""Multi-agent self-play on the AEC environment, CleanRL-style: one file, numpy only.

Every seat plays the same linear softmax policy, trained by REINFORCE on every seat's decisions.

The loop is PettingZoo's: ``agent_iter`` and ``last()`` give the agent to act, its observation and the reward
it received since its last decision (credited to that decision).  At the end of each batch of games, each
decision's return to go (the rest of its seat's rewards) minus the batch's mean return scales the gradient of
log pi of the id it chose.  The logit of an id is ``W[id] · x``, ``x`` the observation without its
``candidates`` block (scaled); a composite slot adds ``row · v``, its ``candidates`` row times weights shared by
every slot.  Afterwards the greedy policy holds seat 0 against uniformly random masked seats, and so do uniform
random ids, on the same deals (paired).

    python examples/aec_self_play.py                          # basic, 2 seats, 200 games of self-play
    python examples/aec_self_play.py --variant may-i --players 4 --games 2000 --eval-games 100
    python examples/aec_self_play.py --quick                  # 4 short games

Expected output (numbers vary with the arguments):

    basic, 2 seats, all playing one policy: observation 3537 (295 used as x, 32 candidate rows), actions 22402
    games 1-20: 4000 decisions, mean |return| 1.6
    ...
    games 181-200: 4000 decisions, mean |return| 1.9
    seat 0 vs uniform random seats, 20 deals, mean return: greedy policy +8.6, uniform random ids +2.1
"""

from __future__ import annotations

import argparse

import numpy as np

from rummy.engine import ActionSpace
from rummy.env import aec_env, observation_layout
from rummy.features import CANDIDATE_SIZE

COMPOSITE = next(family for family in ActionSpace.families if family.verb == "composite")  # the slots' ids


class LinearPolicy:
    """Logits ``W[id] · x`` (+ ``rows[k] · v`` for composite slot ``k``), for the legal ids only."""

    def __init__(self, players: int, size: int, actions: int) -> None:
        layout = {block.name: block for block in observation_layout(players)}
        assert sum(block.size for block in layout.values()) == size, "the observation is another layout"
        self.candidates = layout["candidates"]
        self.slots = self.candidates.size // CANDIDATE_SIZE
        self.keep = np.zeros(size, dtype=bool)
        self.keep[:self.candidates.start] = True  # the blocks before the candidate rows (not the history after)
        self.W = np.zeros((actions, int(self.keep.sum())), dtype=np.float32)  # one row per id (22,402 x ~300)
        self.v = np.zeros(CANDIDATE_SIZE, dtype=np.float32)

    def features(self, observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = observation[self.keep]  # every block is scaled into [-1, 1] (observation version 2)
        rows = observation[self.candidates.start:self.candidates.stop].reshape(self.slots, CANDIDATE_SIZE)
        return x, rows

    def probabilities(self, x: np.ndarray, rows: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.W[legal] @ x
        slot = legal - COMPOSITE.start
        composite = (slot >= 0) & (slot < self.slots)
        z[composite] += rows[slot[composite]] @ self.v
        p = np.exp(z - z.max())
        return p / p.sum()


def play(env, policy: LinearPolicy, seed: int, rng: np.random.Generator, learners: set[str] | None,
         greedy: bool = False) -> dict[str, list[list]]:
    """One game; the agents in ``learners`` (None: every agent) play ``policy``, the others uniformly random ids.
    Returns, per learning agent, its decisions ``[x, rows, legal, p, pick, reward]``."""
    env.reset(seed=seed)
    trace: dict[str, list[list]] = {agent: [] for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if trace[agent]:
            trace[agent][-1][5] += reward  # the reward since its last decision belongs to that decision
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"].view(bool))
        if learners is None or agent in learners:
            x, rows = policy.features(observation["observation"])
            p = policy.probabilities(x, rows, legal)
            pick = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
            trace[agent].append([x, rows, legal, p, pick, 0.0])
        else:
            pick = int(rng.integers(len(legal)))
            trace[agent].append([None, None, legal, None, pick, 0.0])
        env.step(int(legal[pick]))
    return trace


def update(policy: LinearPolicy, traces: list[dict[str, list[list]]], rate: float) -> tuple[int, float]:
    """REINFORCE over a batch of games: grad log pi(pick) times (return to go - the batch's mean return)."""
    decisions = [(step, float(sum(s[5] for s in seq[index:]))) for trace in traces for seq in trace.values()
                 for index, step in enumerate(seq)]
    returns = np.array([value for _, value in decisions])
    baseline, spread = returns.mean(), returns.std() + 1e-6
    for (x, rows, legal, p, pick, _), value in decisions:
        advantage = (value - baseline) / spread
        grad = -p  # d log p[pick] / d logits = onehot(pick) - p
        grad[pick] += 1.0
        policy.W[legal] += rate * advantage * np.outer(grad, x)
        slot = legal - COMPOSITE.start
        composite = (slot >= 0) & (slot < policy.slots)
        policy.v += rate * advantage * grad[composite] @ rows[slot[composite]]
    return len(decisions), float(np.abs(returns).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200, help="games of self-play")
    parser.add_argument("--batch", type=int, default=20, help="games per update")
    parser.add_argument("--learning-rate", type=float, default=0.01)
    parser.add_argument("--max-cycles", type=int, default=100, help="cut a game after this many rounds of the "
                        "table (random play in basic can run for thousands of steps)")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="4 short games, 2 evaluation deals")
    args = parser.parse_args()
    games, batch, deals, max_cycles = (4, 2, 2, 15) if args.quick else \
        (args.games, args.batch, args.eval_games, args.max_cycles)

    # reward="score": each round's score against the others' mean (in points), so every seat's rewards add to 0
    env = aec_env(args.variant, players=args.players, reward="score", max_cycles=max_cycles, seed=args.seed)
    agent = env.possible_agents[0]
    size, actions = env.observation_space(agent)["observation"].shape[0], int(env.action_space(agent).n)
    policy = LinearPolicy(args.players, size, actions)
    print(f"{args.variant}, {args.players} seats, all playing one policy: observation {size} "
          f"({policy.W.shape[1]} used as x, {policy.slots} candidate rows), actions {actions}")

    rng = np.random.default_rng(args.seed)
    for first in range(0, games, batch):
        traces = [play(env, policy, args.seed + game, rng, learners=None) for game in range(first, first + batch)]
        count, mean_return = update(policy, traces, args.learning_rate)
        print(f"games {first + 1}-{first + batch}: {count} decisions, mean |return| {mean_return:.1f}")

    # paired evaluation on deals the training did not see: seat 0 greedy vs random seats, then seat 0 random too
    results = {"greedy policy": [], "uniform random ids": []}
    for deal in range(deals):
        seed = 1_000_000 + deal
        trace = play(env, policy, seed, rng, learners={agent}, greedy=True)
        results["greedy policy"].append(sum(step[5] for step in trace[agent]))
        trace = play(env, policy, seed, rng, learners=set())
        results["uniform random ids"].append(sum(step[5] for step in trace[agent]))
    text = ", ".join(f"{name} {np.mean(values):+.1f}" for name, values in results.items())
    print(f"seat 0 vs uniform random seats, {deals} deals, mean return: {text}")


if __name__ == "__main__":
    main()
