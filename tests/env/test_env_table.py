"""The environments' table-level API: ``action_masks()`` of the single-seat env (sb3-contrib's protocol),
the AEC env's ``state()`` for centralised critics (sees everything, deterministic), and ``reset(options=...)``
in both envs (variant, house rules, players; clear errors; the official checkers after a change)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from rummy.engine import RummyError, UsageError  # noqa: E402
from rummy.env import aec_env, gym_env  # noqa: E402


def test_action_masks_is_the_observed_mask_as_booleans() -> None:
    env = gym_env("basic", ["random"], seed=3)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, observation["action_mask"].astype(bool))
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        observation, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        if terminated or truncated:
            observation, info = env.reset()


def test_sb3_contrib_finds_the_masks_without_a_wrapper() -> None:
    # sb3-contrib's get_action_masks calls env.action_masks() (or env_method("action_masks") on a vec env)
    # and is_masking_supported checks for the method; the same calls, made here without the library.
    env = gym_env("may-i", ["random"] * 3, seed=1)
    env.reset(seed=1)
    assert callable(getattr(env, "action_masks", None))
    masks = np.stack([env.action_masks()])
    assert masks.dtype == np.bool_ and masks.any()


def test_state_is_deterministic_fixed_size_and_holds_every_hand() -> None:
    env = aec_env("may-i", 4, seed=2)
    env.reset(seed=2)
    twin = aec_env("may-i", 4, seed=2)
    twin.reset(seed=2)
    rng = np.random.default_rng(2)
    size = env.encoder.size
    copies = env.encoder.scales.copies  # card counts are scaled by the copies of a card kind in the pack
    for _ in range(150):
        state = env.state()
        assert state.shape == env.state_space.shape and state.dtype == np.float32
        assert state.tobytes() == env.state().tobytes() == twin.state().tobytes()
        for seat in range(4):  # every hand, as each seat observes it
            assert (state[seat * size:seat * size + 53] * copies).tolist() == list(env.game.hands[seat])
            assert np.array_equal(state[seat * size:(seat + 1) * size], env.encode(seat))
        assert state[4 * size:].sum() * copies == len(env.game.stock)
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        twin.step(action)


def test_state_changes_with_a_hidden_card_while_observations_do_not() -> None:
    env = aec_env("basic", 2, seed=4)
    env.reset(seed=4)
    before = env.state()
    seen = [env.observe(agent)["observation"].tobytes() for agent in env.possible_agents]
    game = env.game
    stock_card, hand_card = game.stock[-1], next(c for c in range(53) if game.hands[1][c])
    if stock_card == hand_card:
        pytest.skip("the swap changes nothing")
    game.stock[-1] = hand_card  # swap a card of seat 1's hand with one in the stock
    game.hands[1][hand_card] -= 1
    game.hands[1][stock_card] += 1
    env._forget_decision()
    assert env.state().tobytes() != before.tobytes()
    assert env.observe("player_0")["observation"].tobytes() == seen[0]  # seat 0 sees neither card


def test_aec_reset_options_change_the_table() -> None:
    env = aec_env("may-i", 4, seed=1)
    env.reset(seed=1, options={"variant": "basic", "players": 2, "rules": {"ace_mode": "low_or_high"}})
    assert env.possible_agents == ["player_0", "player_1"] and env.game.n == 2
    assert env.variant_name == "basic" and env.options == {"ace_mode": "low_or_high"}
    assert env.action_space("player_0").n == env.space.size
    assert env.state_space.shape == env.state().shape
    env.reset()  # the table stays for the following games
    assert env.game.n == 2 and env.variant_name == "basic"
    env.reset(options={"players": 3})  # the house rules stay with the variant
    assert env.options == {"ace_mode": "low_or_high"} and env.game.n == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=50)


@pytest.mark.parametrize(("options", "error"), [
    ({"seats": 3}, UsageError), ({"players": "4"}, UsageError), ({"variant": 3}, UsageError),
    ({"rules": ["x"]}, UsageError), ({"variant": "canasta"}, RummyError), ({"rules": {"nope": 1}}, RummyError),
    ({"players": 12}, RummyError), ({"variant": "basic", "players": 6}, RummyError),
])
def test_aec_reset_options_refused_clearly_and_nothing_changes(options: dict[str, object],
                                                              error: type[Exception]) -> None:
    env = aec_env("may-i", 4, seed=1)
    env.reset(seed=1)
    with pytest.raises(error):
        env.reset(options=options)
    assert env.players == 4 and env.variant_name == "may-i" and env.action_space("player_0").n == env.space.size


def test_single_seat_reset_options_and_the_checker() -> None:
    env = gym_env("basic", ["random"], seed=2)
    env.reset(seed=2, options={"variant": "may-i", "opponents": ["random", "greedy", "random"]})
    assert env.aec.players == 4 and env.observation_space == env.aec.observation_space("player_0")
    assert env.action_masks().shape == (env.action_space.n,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    for bad in ({"players": 3}, {"opponents": "random"}, {"opponents": ["nobody"]}, {"colour": 1}):
        with pytest.raises(RummyError):
            env.reset(options=bad)
    assert env.aec.players == 4 and env.opponent_names == ["random", "greedy", "random"]


def test_observations_leak_nothing_after_a_reset_with_options() -> None:
    # The redealt-hidden-cards check of tests/env/test_env.py, on a table chosen by reset(options=...).
    from rummy.engine import player_view
    from tests.env.test_env import _hidden_shuffled

    env = aec_env("basic", 2, seed=5)
    env.reset(seed=5, options={"variant": "purchase", "players": 3})
    rng = random.Random(5)
    for agent in env.agent_iter(max_iter=120):
        observation, _, terminated, truncated, _ = env.last()
        for other in range(3):
            twin = _hidden_shuffled(env.game, other, rng)
            assert np.array_equal(env.encoder.encode(player_view(twin, other, with_actions=False), twin),
                                  env.observe(f"player_{other}")["observation"])
        del agent
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
