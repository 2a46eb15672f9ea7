"""The learned-policy baseline: the bot sees the same moves and features as the trainer, a short training
writes a policy the simulator can seat, and a bad policy file is refused in one line."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from rummy.bots import make_bot  # noqa: E402
from rummy.bots.learned import (  # noqa: E402
    FEATURES,
    FeatureMaker,
    PolicyFile,
    choice_of_id,
    choices_of_view,
    load_policy,
    save_policy,
)
from rummy.cli import main as rummy_main  # noqa: E402
from rummy.engine.action_space import DEFAULT_COMPOSITE_SLOTS  # noqa: E402
from rummy.engine.errors import BotError  # noqa: E402
from rummy.env import gym_env  # noqa: E402

TRAINER = Path(__file__).resolve().parents[2] / "examples" / "train_policy_gradient.py"


def trainer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy_gradient", TRAINER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("variant", "options"), [("may-i", {}), ("purchase", {}), ("basic", {}),
                                                  ("progressive-15", {"joker_swap": "to_hand"})])
def test_the_bot_sees_the_moves_and_features_the_trainer_sees(variant: str, options: dict[str, Any]) -> None:
    env = gym_env(variant, opponents=["random"] * 3, options=options, seed=3)
    features = FeatureMaker(env.aec.rules, 4)
    rng = random.Random(5)
    observation, _ = env.reset(seed=3)
    for _ in range(150):
        legal = [int(i) for i in np.flatnonzero(observation["action_mask"])]
        from_ids = [choice_of_id(env.aec.space, i) for i in legal]
        view = env.aec.view(env.agent)
        actions, from_view = choices_of_view(view, DEFAULT_COMPOSITE_SLOTS)
        assert Counter(from_ids) == Counter(from_view)
        assert sorted(env.aec.space.id_of(env.aec.game, a) for a in actions) == legal
        encoded = env.aec.encoder.encode(view, env.aec.game)
        assert np.array_equal(encoded, observation["observation"])
        rows = features(observation["observation"], from_ids)
        assert rows.shape == (len(legal), len(FEATURES)) and np.all(np.isfinite(rows))
        observation, _, terminated, truncated, _ = env.step(rng.choice(legal))
        if terminated or truncated:
            observation, _ = env.reset(seed=rng.randrange(1000))


def test_a_short_training_writes_a_policy_the_simulator_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    trainer().main(["--variant", "may-i", "--episodes", "8", "--batch", "4", "--block", "4", "--workers", "1",
                    "--eval-games", "2", "--out", str(tmp_path)])
    printed = capsys.readouterr().out
    assert "games     8  win rate" in printed and "95% CI" in printed
    assert (tmp_path / "curve.png").stat().st_size > 1000
    policy = load_policy(tmp_path / "policy.npz")
    assert (policy.variant, policy.players, policy.weights.shape) == ("may-i", 4, (len(FEATURES),))
    assert np.any(policy.weights != 0)
    path = tmp_path / "policy.npz"
    code = rummy_main(["sim", "--variant", "may-i", "--players", f"learned:path={path},random,random,random",
                       "--games", "2", "--workers", "1"])
    assert code in (0, None)
    assert "learned:path=" in capsys.readouterr().out


def test_the_learned_bot_plays_whole_games() -> None:
    from rummy.bots import play_game

    weights = np.zeros(len(FEATURES))
    weights[FEATURES.index("family:lay_down")] = 5.0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("rummy.bots.learned.load_policy", lambda path: PolicyFile("purchase", 4, weights))
        bot = make_bot("learned", path="any.npz")
    game = play_game("purchase", [bot] + [make_bot("random", seed=s) for s in range(3)], seed=2)
    assert game.game_over


@pytest.mark.parametrize(("content", "message"), [
    (None, "no policy file"),
    (b"not a zip", "is not a policy file"),
    ("other-version", "feature version"),
    ("wrong-shape", "weights"),
])
def test_a_bad_policy_file_is_refused_in_one_line(tmp_path: Path, content: object, message: str) -> None:
    path = tmp_path / "policy.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "other-version":
        save_policy(path, PolicyFile("may-i", 4, np.zeros(len(FEATURES)), feature_version=99))
    elif content == "wrong-shape":
        save_policy(path, PolicyFile("may-i", 4, np.zeros(3)))
    with pytest.raises(BotError, match=message) as caught:
        make_bot("learned", path=str(path))
    assert "\n" not in str(caught.value)


def test_a_policy_for_another_table_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "policy.npz"
    save_policy(path, PolicyFile("may-i", 4, np.zeros(len(FEATURES))))
    code = rummy_main(["sim", "--variant", "basic", "--players", f"learned:path={path},random,random,random",
                       "--games", "1", "--workers", "1"])
    assert code not in (0, None)
    error = capsys.readouterr().err.strip()
    assert "a policy for may-i with 4 players, not basic with 4" in error and "\n" not in error


@pytest.mark.slow
def test_a_short_training_beats_uniform_play_on_the_same_deals(tmp_path: Path) -> None:
    module = trainer()
    args = module.argparse.Namespace(variant="may-i", players=4, minutes=60.0, episodes=96, batch=8, block=48,
                                     learning_rate=0.1, win_bonus=2.0, eval_games=40, seed=4)
    weights, curve = module.train(args, None)
    assert [games for games, _, _ in curve] == [48, 96]
    assert weights[FEATURES.index("family:lay_down")] > 0
    learned, played = module.evaluate(args, None, weights, "greedy")
    uniform, _ = module.evaluate(args, None, None, "uniform")
    assert played == 40 and learned >= uniform + 10
