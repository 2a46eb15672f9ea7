"""The vector environment (:class:`rummy.env.SingleSeatVectorEnv`): Gymnasium's vector API, the results of
Gymnasium's own ``SyncVectorEnv`` over the same tables in every autoreset mode (Gymnasium 1.x ships no checker
for vector environments; its reference implementation is the check), determinism under seeds, autoreset,
masks equal to each table's, and a run of random masked actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from rummy.engine import UsageError  # noqa: E402
from rummy.env import SingleSeatVectorEnv, gym_env, vector_env  # noqa: E402

#: A short table: basic for two, truncated after 12 actions of each seat, so games end within a test.
TABLE: dict[str, Any] = {"variant": "basic", "opponents": ["random"], "max_cycles": 12}


def masked_actions(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


def test_the_vector_api_and_its_spaces() -> None:
    envs = vector_env(3, **TABLE, seed=1)
    single = gym_env(**TABLE)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 3
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    observations, infos = envs.reset(seed=1)
    assert observations in envs.observation_space
    size = envs.single_observation_space["observation"].shape[0]
    actions = envs.single_action_space.n
    assert observations["observation"].shape == (3, size) and observations["observation"].dtype == np.float32
    assert observations["action_mask"].shape == (3, actions)
    assert envs.action_masks().shape == (3, actions) and envs.action_masks().dtype == np.bool_
    assert np.array_equal(infos["action_mask"], observations["action_mask"]) and infos["_action_mask"].all()
    assert envs.action_space.shape == (3,)
    result = envs.step(masked_actions(envs.action_masks(), np.random.default_rng(0)))
    assert result[0] in envs.observation_space
    assert [part.shape for part in result[1:4]] == [(3,)] * 3 and result[2].dtype == result[3].dtype == np.bool_
    assert len(envs.render() or ()) == 3 and envs.get_attr("seat") == (0, 0, 0)
    envs.close()
    assert envs.closed


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_the_same_results_as_gymnasiums_sync_vector_env(mode: str) -> None:
    ours = vector_env(3, **TABLE, autoreset_mode=mode)
    theirs = SyncVectorEnv([lambda: gym_env(**TABLE) for _ in range(3)], autoreset_mode=AutoresetMode(ours.metadata[
        "autoreset_mode"]))
    assert data_equivalence(ours.reset(seed=7), theirs.reset(seed=7))
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(70):
        actions = masked_actions(ours.action_masks(), rng)
        mine, reference = ours.step(actions), theirs.step(actions)
        assert data_equivalence(mine, reference), mode
        done = mine[2] | mine[3]
        ended += int(done.sum())
        if mode == "disabled" and done.any():
            masks = ours.action_masks()
            with pytest.raises(UsageError, match="reset it first"):
                ours.step(actions)
            assert np.array_equal(ours.action_masks(), masks)  # refused before any table stepped
            assert data_equivalence(ours.reset(options={"reset_mask": done}),
                                    theirs.reset(options={"reset_mask": done.copy()}))
    assert ended >= 3  # the autoresets were exercised


def test_same_seed_same_run_and_another_seed_another() -> None:
    def run(seed: int) -> list[bytes]:
        envs = vector_env(2, **TABLE)
        observations, _ = envs.reset(seed=seed)
        out = [observations["observation"].tobytes()]
        rng = np.random.default_rng(0)
        for _ in range(40):
            observations, rewards, terminations, truncations, _ = envs.step(masked_actions(envs.action_masks(), rng))
            out += [observations["observation"].tobytes(), observations["action_mask"].tobytes(),
                    rewards.tobytes(), terminations.tobytes(), truncations.tobytes()]
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)
    # table i of a vector environment seeded s plays as a single table seeded s + i
    envs, single = vector_env(2, **TABLE), gym_env(**TABLE)
    batch, _ = envs.reset(seed=10)
    alone, _ = single.reset(seed=11)
    assert np.array_equal(batch["observation"][1], alone["observation"])


def test_masks_are_each_tables_and_a_finished_table_allows_every_id() -> None:
    envs = vector_env(4, **TABLE, seed=2)
    envs.reset(seed=2)
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(60):
        masks = envs.action_masks()
        for index, table in enumerate(envs.envs):
            if envs._done[index]:  # the next step resets this table: any id will do
                assert masks[index].all()
                finished += 1
            else:
                assert np.array_equal(masks[index], table.action_masks())
        observations, _, terminations, truncations, infos = envs.step(masked_actions(masks, rng))
        assert np.array_equal(observations["action_mask"], np.stack([t.action_masks() for t in envs.envs]))
        assert "illegal" not in infos
    assert finished


def test_a_run_of_random_masked_actions_over_whole_games() -> None:
    one_hand = {"target_by_players": {"2": 10}}  # whole games, most of them of one hand
    envs = vector_env(4, "basic", ["random"], one_hand, seed=0, autoreset_mode="same_step")
    statistics = RecordEpisodeStatistics(envs)  # Gymnasium's vector wrappers accept it
    statistics.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(250):
        observations, rewards, terminations, truncations, infos = statistics.step(
            masked_actions(envs.action_masks(), rng))
        assert np.isfinite(rewards).all() and "illegal" not in infos
        assert not truncations.any()
        if terminations.any():
            episodes += int(terminations.sum())
            assert infos["_final_obs"].tolist() == terminations.tolist()
            assert all(final["action_mask"].sum() == 0 for final in infos["final_obs"][terminations])
            assert "episode" in infos
        assert observations["action_mask"].any(axis=1).all()  # every table (reset at once) has a move
    assert episodes >= 4


def test_bad_arguments_are_refused_with_nothing_changed() -> None:
    with pytest.raises(UsageError, match="num_envs"):
        vector_env(0, **TABLE)
    with pytest.raises(UsageError, match="autoreset_mode"):
        vector_env(2, **TABLE, autoreset_mode="sometimes")
    envs = vector_env(2, **TABLE, seed=4)
    before, _ = envs.reset(seed=4)
    with pytest.raises(UsageError, match="one action per table"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(UsageError, match="one seed per table"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(UsageError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.zeros(2, dtype=np.bool_)})
    with pytest.raises(UsageError, match="change the observation or action space"):
        envs.reset(options={"opponents": ["random", "random"]})
    with pytest.raises(UsageError, match="unknown reset option"):
        envs.reset(options={"colour": "red"})
    assert [table.opponent_names for table in envs.envs] == [["random"], ["random"]]
    again, _ = envs.reset(seed=4)
    assert data_equivalence(before, again)
    changed, _ = envs.reset(seed=4, options={"opponents": ["greedy"]})  # same spaces: every table follows
    assert [table.opponent_names for table in envs.envs] == [["greedy"], ["greedy"]]
    assert changed in envs.observation_space and isinstance(envs, SingleSeatVectorEnv)
