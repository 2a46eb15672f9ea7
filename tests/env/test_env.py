"""The learning environments: PettingZoo's and Gymnasium's own checkers on every variant (default and
non-default house rules), truncation, reproducibility, illegal ids, and no hidden card in any observation."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rummy.bots import decide  # noqa: E402
from rummy.engine.action_space import ActionSpaceError  # noqa: E402
from rummy.engine.actions import Action, Verb  # noqa: E402
from rummy.engine.errors import IllegalActionError, UsageError  # noqa: E402
from rummy.engine.game import Game  # noqa: E402
from rummy.engine.view import player_view  # noqa: E402
from rummy.env import aec as aec_module  # noqa: E402
from rummy.env import aec_env, gym_env  # noqa: E402
from rummy.env.aec import RummyAECEnv  # noqa: E402
from rummy.features import Encoder  # noqa: E402

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("progressive-buy-it", 4, {}),
    ("progressive-buy-it", 3, {"joker_swap": "none", "layoff_timing": "always"}),
    ("progressive-15", 4, {}),
    ("progressive-15", 5, {"ace_mode": "high_only", "claim_priority": "rotation"}),
    ("may-i", 4, {}),
    ("may-i", 3, {"wild_policy": "none", "upcard": False}),
    ("basic", 2, {}),
    ("basic", 4, {"ace_mode": "low_or_high", "max_new_melds_per_turn": 1}),
    ("purchase", 4, {}),
    ("purchase", 3, {"first_dealer": "first_seat"}),
]
IDS = [f"{variant}-{players}-{'house' if options else 'default'}" for variant, players, options in TABLES]


def random_masked_play(env: RummyAECEnv, steps: int, seed: int) -> list[tuple[str, bytes, bytes, float]]:
    """(agent, observation bytes, mask bytes, reward) of each turn of a random masked player."""
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter(max_iter=steps):
        observation, reward, terminated, truncated, _ = env.last()
        seen.append((agent, observation["observation"].tobytes(), observation["action_mask"].tobytes(), reward))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return seen


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_pettingzoo_checkers(variant: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(variant, players, options, seed=1), num_cycles=200)
        seed_test(lambda: aec_env(variant, players, options, seed=1), num_cycles=100)


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_gymnasium_checker(variant: str, players: int, options: dict[str, Any]) -> None:
    env = gym_env(variant, ["random"] * (players - 1), options, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    observation, info = env.reset(seed=5)
    assert np.array_equal(observation["action_mask"], info["action_mask"])


@pytest.mark.parametrize("variant", ["progressive-buy-it", "may-i", "basic", "purchase"])
def test_max_cycles_truncates_every_agent(variant: str) -> None:
    # PettingZoo's max_cycles_test needs a parallel env; its equivalent for a turn-based game: after
    # max_cycles × players actions every agent is truncated and steps out with None.
    env = aec_env(variant, 4 if variant != "basic" else 2, max_cycles=3, seed=4)
    env.reset(seed=4)
    live = 0
    for _ in env.agent_iter(max_iter=1000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        live += 1
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert live == 3 * env.players
    assert env.agents == []
    assert all(env.truncations.values()) and not any(env.terminations.values())


@pytest.mark.parametrize(("variant", "players", "options"), TABLES[::2], ids=IDS[::2])
def test_same_seed_same_actions_same_bytes(variant: str, players: int, options: dict[str, Any]) -> None:
    runs = []
    for _ in range(2):
        env = aec_env(variant, players, options)
        env.reset(seed=11)
        runs.append(random_masked_play(env, 600, seed=3))
    assert runs[0] == runs[1]
    other = aec_env(variant, players, options)
    other.reset(seed=12)
    assert random_masked_play(other, 600, seed=3) != runs[0]


def test_whole_games_end_with_rewards() -> None:
    for reward in ("score", "win"):
        env = aec_env("basic", 2, reward=reward, seed=8)
        env.reset(seed=8)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(8)
        for agent in env.agent_iter(max_iter=100_000):
            observation, got, terminated, truncated, _ = env.last()
            totals[agent] += got
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert env.agents == [] and env.game.game_over
        winners = {f"player_{seat}" for seat in env.game.winners()}
        if reward == "win":
            assert totals == {agent: 1.0 if agent in winners else -1.0 for agent in env.possible_agents}
        else:
            assert abs(sum(totals.values())) < 1e-6  # differences from the others' mean add up to zero
            assert max(totals, key=lambda agent: totals[agent]) in winners


def _hidden_shuffled(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with every card ``seat`` cannot see (other hands, the stock) dealt anew, sizes kept."""
    twin = game.copy()
    hidden = list(twin.stock)
    for other in range(twin.n):
        if other != seat:
            hidden += [card for card, count in enumerate(twin.hands[other]) for _ in range(count)]
    rng.shuffle(hidden)
    for other in range(twin.n):
        if other != seat:
            size = sum(twin.hands[other])
            counts = [0] * len(twin.hands[other])
            for card in hidden[:size]:
                counts[card] += 1
            twin.hands[other] = counts
            del hidden[:size]
    twin.stock[:] = hidden
    return twin


@pytest.mark.parametrize(("variant", "players", "options"), TABLES[::2], ids=IDS[::2])
def test_no_observation_depends_on_a_hidden_card(variant: str, players: int, options: dict[str, Any]) -> None:
    # Over a long stretch of play, every agent's observation is unchanged when every card it cannot see
    # is dealt anew: it holds no other hand and no stock card.  The history blocks are read from the twin's
    # record, by the view's path and by the game's path of an encoder of its own (so that the environment's
    # keeps its history up to date step by step).
    env = aec_env(variant, players, options, seed=6)
    env.reset(seed=6)
    rng = random.Random(6)
    checked = 0
    history = next(block.start for block in env.encoder.blocks.values() if block.name == "taken")
    fresh = Encoder(env.rules, players)
    history_seen = 0
    for agent in env.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = env.last()
        seat = int(agent.split("_")[1])
        for other in range(players):
            twin = _hidden_shuffled(env.game, other, rng)
            selected = f"player_{other}" == env.agent_selection  # its candidates are in its observation
            mine = fresh.encode(player_view(twin, other, with_actions=selected), twin)  # reads the twin's history once
            theirs = env.observe(f"player_{other}")["observation"]
            assert np.array_equal(mine, theirs)
            assert np.array_equal(fresh.encode_game(twin, other)[history:], theirs[history:])
            history_seen += bool(theirs[history:].any())
            checked += 1
        hand = observation["observation"][:53] * env.encoder.scales.copies
        assert hand.tolist() == list(env.game.hands[seat])
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checked >= 400 and history_seen >= checked // 2


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_the_environment_encodes_exactly_the_view(variant: str, players: int, options: dict[str, Any]) -> None:
    # The environment encodes from the game (counts kept up to date from step to step) what the encoder makes
    # of the seat's view: equal byte for byte for every seat at every turn, as the pile and the table change.
    env = aec_env(variant, players, options, seed=10)
    env.reset(seed=10)
    rng = np.random.default_rng(10)
    melds, piles = 0, set()
    for _ in range(2500):
        observation, _, terminated, truncated, _ = env.last()
        melds, piles = max(melds, len(env.game.table)), piles | {len(env.game.discard)}
        for seat, other in enumerate(env.possible_agents):
            expected = env.encoder.encode(player_view(env.game, seat, with_actions=other == env.agent_selection),
                                          env.game)
            assert env.observe(other)["observation"].tobytes() == expected.tobytes()
        if terminated or truncated:
            env.reset()
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert len(piles) >= 5
    assert melds >= 2 or env.rules.uses_books  # random play seldom lays a book


def test_each_step_lists_the_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The mask, the observation and the composite move an id names come from one listing of the candidates.
    env = aec_env("progressive-buy-it", 4, seed=5)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    calls = 0
    listing = aec_module.legal_actions

    def counted(*arguments: Any) -> Any:
        nonlocal calls
        calls += 1
        return listing(*arguments)

    monkeypatch.setattr(aec_module, "legal_actions", counted)
    steps = 0
    for _ in env.agent_iter(max_iter=400):
        observation, _, terminated, truncated, _ = env.last()
        env.observe(env.agent_selection)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert calls == steps


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    env = aec_env("may-i", 4, seed=9)
    env.reset(seed=9)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.game.copy()
    refused = [i for i in np.flatnonzero(mask == 0)[:50]] + [-1, env.space.size]
    for action_id in refused:
        with pytest.raises((IllegalActionError, ActionSpaceError)):
            env.step(int(action_id))
    assert env.game.to_json() == before.to_json() if hasattr(before, "to_json") else True
    assert env.game.stock == before.stock and env.game.hands == before.hands and env.actions_taken == 0
    with pytest.raises(UsageError):
        env.step(None)
    gym = gym_env("may-i", ["random"] * 3, seed=9)
    observation, _ = gym.reset(seed=9)
    wrong = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = gym.step(wrong)
    assert reward == -1.0 and not terminated and not truncated and "illegal" in info
    assert np.array_equal(again["observation"], observation["observation"]) and gym.illegal_actions == 1


def test_bad_settings_are_refused() -> None:
    with pytest.raises(UsageError):
        aec_env("may-i", 4, reward="money")
    with pytest.raises(UsageError):
        aec_env("may-i", 4, max_cycles=0)
    with pytest.raises(UsageError):
        gym_env("may-i", ["random"] * 3, seat=7)
    with pytest.raises(Exception, match="player"):
        aec_env("basic", 9)


def test_render_shows_only_the_agent_to_act() -> None:
    env = aec_env("basic", 2, seed=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and f"p{env.game.next_to_act()}'s hand" in text
    assert text.count("'s hand") == 1


def test_single_seat_games_run_to_the_end_against_bots() -> None:
    # The bots' moves are applied as actions, so a composite move past the numbered slots (a rearrangement
    # of a large table) is fine; a reset never hands over a game the bots have already finished.
    for variant in ("progressive-buy-it", "purchase"):
        env = gym_env(variant, ["random"] * 3, seed=1, max_cycles=400)
        rng = np.random.default_rng(1)
        for game in range(6 if variant == "purchase" else 2):
            observation, info = env.reset(seed=game)
            assert observation["action_mask"].any()
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
                observation, _, terminated, truncated, _ = env.step(action)
                done = terminated or truncated


def test_play_refuses_a_move_of_another_seat() -> None:
    env = aec_env("basic", 2, seed=2)
    env.reset(seed=2)
    other = 1 - env.game.next_to_act()
    before = env.game.copy()
    with pytest.raises(UsageError):
        env.play(Action(other, Verb.DRAW))
    assert env.game.hands == before.hands and env.actions_taken == 0


@pytest.mark.parametrize(("variant", "players", "options"), TABLES[::2], ids=IDS[::2])
def test_random_opponents_play_as_through_their_view(variant: str, players: int, options: dict[str, Any]) -> None:
    # The single-seat environment picks a random bot's move from the listing, not from a view: the same moves, so
    # the same observations and rewards as asking the bot through its view.
    def play(through_view: bool) -> list[tuple[bytes, bytes, float, bool]]:
        env = gym_env(variant, ["random"] * (players - 1), options, seed=4)
        if through_view:
            env._bot_move = lambda seat: decide(env.aec.game, seat, env.bots[seat])  # type: ignore[method-assign]
        observation, _ = env.reset(seed=4)
        rng = np.random.default_rng(4)
        seen = []
        for _ in range(150):
            observation, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(
                observation["action_mask"]))))
            seen.append((observation["observation"].tobytes(), observation["action_mask"].tobytes(), reward,
                         terminated or truncated))
            if terminated or truncated:
                observation, _ = env.reset()
        return seen

    assert play(through_view=False) == play(through_view=True)
