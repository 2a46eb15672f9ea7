"""MaskablePPO (sb3-contrib) on the single-seat environment, with no ActionMasker wrapper.

``SingleSeatEnv.action_masks()`` is the protocol MaskablePPO looks for, so the environment goes to it as it
is.  The policy is sb3's ``MultiInputPolicy`` over the observation dict (the vector and the mask).  The default
budget only shows the loop working; train longer for a policy worth evaluating.  Needs sb3-contrib and torch,
which the project does not install (a CPU build of torch is enough):

    pip install sb3-contrib                              # pulls stable-baselines3 and torch
    python examples/maskable_ppo.py --quick              # 128 steps: seconds
    python examples/maskable_ppo.py --variant basic --timesteps 200000 --eval-games 100 --save runs/ppo-basic
    python examples/maskable_ppo.py --variant may-i --opponents heuristic,heuristic,heuristic --timesteps 1000000

Expected output (numbers vary with the arguments):

    basic vs ['random']: observation (3537,), actions 22402; training 128 steps
    trained 128 steps in 0.9 s of CPU
    vs ['random'], 2 deals, mean return: MaskablePPO +0.0, uniform random ids -8.5
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from rummy.env import gym_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--opponents", default="random", help="comma-separated bots, one per other seat")
    parser.add_argument("--timesteps", type=int, default=2048, help="learner steps of training")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--max-cycles", type=int, default=100, help="truncate a game after this many rounds of "
                        "the table (random play in basic can run for thousands of steps)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="save the model here (a .zip)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the networks are small: one is "
                        "fastest on a shared CPU)")
    parser.add_argument("--quick", action="store_true", help="128 training steps, 2 short evaluation games")
    args = parser.parse_args()
    timesteps, eval_games = (128, 2) if args.quick else (args.timesteps, args.eval_games)
    max_cycles = 50 if args.quick else args.max_cycles
    torch.set_num_threads(args.threads)
    opponents = args.opponents.split(",")

    # reward="score" (the default): at each round's end, the round's score against the others' mean, in points
    # (reward="win" pays +1/-1 at the game's end only: too sparse for a short run); max_cycles cuts long games
    env = gym_env(args.variant, opponents=opponents, reward="score", max_cycles=max_cycles, seed=args.seed)
    print(f"{args.variant} vs {opponents}: observation {env.observation_space['observation'].shape}, "
          f"actions {env.action_space.n}; training {timesteps} steps")
    # small rollouts so that even the quick run makes an update; widen n_steps / batch_size for real runs
    model = MaskablePPO("MultiInputPolicy", env, n_steps=min(256, timesteps), batch_size=64,
                        n_epochs=2 if args.quick else 10,
                        seed=args.seed, verbose=0, device="cpu")
    start = time.process_time()
    model.learn(total_timesteps=timesteps)
    print(f"trained {timesteps} steps in {time.process_time() - start:.1f} s of CPU")
    if args.save:
        model.save(args.save)  # MaskablePPO.load(path) brings it back

    # evaluation on deals the training did not see: the greedy masked policy and uniformly random allowed ids, the
    # same deals from the same seat (paired), mean return per game (points ahead of the others' mean)
    rng = np.random.default_rng(args.seed)
    returns = {"MaskablePPO": np.zeros(eval_games), "uniform random ids": np.zeros(eval_games)}
    for name, results in returns.items():
        for game in range(eval_games):
            observation, info = env.reset(seed=10_000 + game)
            done = False
            while not done:
                if name == "MaskablePPO":
                    action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
                else:
                    action = rng.choice(np.flatnonzero(env.action_masks()))
                observation, reward, terminated, truncated, info = env.step(int(action))
                results[game] += reward
                done = terminated or truncated
    text = ", ".join(f"{name} {results.mean():+.1f}" for name, results in returns.items())
    print(f"vs {opponents}, {eval_games} deals, mean return: {text}")
    assert env.illegal_actions == 0, "a masked policy never picks a refused id"


if __name__ == "__main__":
    main()
