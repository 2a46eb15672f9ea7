"""The policies the ``learned`` bot ships: they load, match the feature layout, play a legal game of every
variant at any table size, and the script that trains them runs (``--quick``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("numpy")
from rummy.bots import make_bot, play_game  # noqa: E402
from rummy.bots.learned import FEATURE_VERSION, FEATURES, load_policy  # noqa: E402
from rummy.bots.policies import LearnedBot, shipped_policy, shipped_variants  # noqa: E402
from rummy.cli import main as rummy_main  # noqa: E402
from rummy.engine import VARIANTS, BotError  # noqa: E402

TRAINER = Path(__file__).resolve().parents[2] / "bench" / "train_learned.py"


def trainer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_learned", TRAINER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_policy_ships_for_every_variant_with_the_feature_layouts_shape() -> None:
    assert shipped_variants() == tuple(sorted(VARIANTS))
    for variant in VARIANTS:
        policy = shipped_policy(variant)
        assert (policy.variant, policy.feature_version) == (variant, FEATURE_VERSION)
        assert policy.weights.shape == (len(FEATURES),) and np.all(np.isfinite(policy.weights))
        assert np.any(policy.weights != 0)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_learned_bot_plays_a_legal_game_of_every_variant(variant: str) -> None:
    bot = make_bot("learned", seed=1)
    assert isinstance(bot, LearnedBot)
    game = play_game(variant, [bot, make_bot("heuristic", seed=2), make_bot("heuristic", seed=3)], seed=7)
    assert game.game_over


def test_an_unknown_variant_has_no_shipped_policy() -> None:
    with pytest.raises(BotError, match="no shipped policy"):
        shipped_policy("no-such-variant")


def test_rummy_sim_seats_the_shipped_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code = rummy_main(["sim", "--variant", "purchase", "--players", "learned,heuristic,heuristic,heuristic",
                       "--games", "2", "--workers", "1"])
    assert code == 0 and "learned" in capsys.readouterr().out


def test_the_training_script_runs_quick_and_writes_a_policy_the_bot_plays(tmp_path: Path) -> None:
    assert trainer().main(["--quick", "--improve", "4", "--out", str(tmp_path)]) == 0
    policy = load_policy(tmp_path / "basic.npz")
    assert (policy.variant, policy.players, policy.weights.shape) == ("basic", 4, (len(FEATURES),))
    bot = make_bot("learned", path=str(tmp_path / "basic.npz"))
    assert play_game("basic", [bot] + [make_bot("random", seed=s) for s in range(3)], seed=1).game_over


def test_a_table_can_seat_the_learned_bot() -> None:
    from rummy.server.tables.bot_runner import playable_level
    from rummy.server.tables.catalog import TableConfig

    config = TableConfig.from_request({"variant": "may-i", "seats": 3, "bots": {"1": "learned", "2": "hard"}})
    assert config.bots == {1: "learned", 2: "hard"}
    assert playable_level("learned") == "learned"
