"""A uniformly random masked agent on both environments of ``rummy.env``.

Part 1 plays every seat of the PettingZoo AEC environment (``aec_env``); part 2 plays one seat of the
Gymnasium environment (``gym_env``) against the project's bots.  Both draw an id uniformly among the ids the
action mask allows, which is all a legal agent needs.  Sizes are read from the spaces, never hard-coded.

    python examples/random_agents.py                      # one whole may-i game of 4 random seats, then 3 games
    python examples/random_agents.py --variant basic --players 2 --games 10
    python examples/random_agents.py --quick              # a few seconds: short games (max_cycles)

Expected output (numbers vary with the arguments):

    AEC may-i, 4 seats: 2015 steps, returns {'player_0': -203.3, 'player_1': 143.3, ...}, ended by: terminated
    single-seat spaces: observation (2487,), actions 22402 (version 2)
    single-seat may-i vs ['random', 'random', 'random']: 3 games, 842 learner steps, mean return -329.4
"""

from __future__ import annotations

import argparse

import numpy as np

from rummy.env import aec_env, gym_env


def random_masked(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random id among those ``mask`` allows (the mask is int8 0/1: read it as booleans)."""
    return int(rng.choice(np.flatnonzero(mask.view(bool))))


def play_aec(variant: str, players: int, seed: int, max_cycles: int | None) -> None:
    """Every seat random, PettingZoo's agent loop: ``last()`` then ``step`` (``None`` once an agent is done)."""
    env = aec_env(variant, players=players, seed=seed, max_cycles=max_cycles)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps, ended = 0, "?"
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        returns[agent] += reward  # the reward the agent received since its last turn
        if terminated or truncated:
            ended = "terminated" if terminated else "truncated (max_cycles)"
            action = None  # a finished agent leaves with a None step
        else:
            action = random_masked(observation["action_mask"], rng)
            steps += 1
        env.step(action)
    env.close()
    shown = {agent: round(value, 1) for agent, value in returns.items()}
    print(f"AEC {variant}, {players} seats: {steps} steps, returns {shown}, ended by: {ended}")


def play_single_seat(variant: str, opponents: list[str], games: int, seed: int, max_cycles: int | None) -> None:
    """One learning seat against bots, Gymnasium's loop; ``env.action_masks()`` is the mask as booleans."""
    env = gym_env(variant, opponents=opponents, seed=seed, max_cycles=max_cycles)
    print(f"single-seat spaces: observation {env.observation_space['observation'].shape}, "
          f"actions {env.action_space.n} (version {env.action_space_version})")
    rng = np.random.default_rng(seed)
    total_steps, total_return = 0, 0.0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            observation, reward, terminated, truncated, info = env.step(action)
            total_steps, total_return, done = total_steps + 1, total_return + reward, terminated or truncated
    env.close()
    print(f"single-seat {variant} vs {opponents}: {games} games, {total_steps} learner steps, "
          f"mean return {total_return / games:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="may-i")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3, help="games of the single-seat part")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="short games (max_cycles=10), one single-seat game")
    args = parser.parse_args()
    max_cycles = 10 if args.quick else None  # each agent is truncated after max_cycles × players actions
    play_aec(args.variant, args.players, args.seed, max_cycles)
    opponents = ["random"] * (args.players - 1)
    play_single_seat(args.variant, opponents, 1 if args.quick else args.games, args.seed, max_cycles)


if __name__ == "__main__":
    main()
