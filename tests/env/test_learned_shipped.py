"""The policies the ``learned`` bot ships (re-rankers of the heuristic's candidates, rummy.bots.expert): they
load, match the feature layout, play a legal game of every variant at any table size, the margin alone
plays exactly as ``heuristic``, and the scripts that train them run (``--quick``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("numpy")
from rummy.bots import make_bot, play_game  # noqa: E402
from rummy.bots.expert import (  # noqa: E402
    FEATURE_VERSION,
    FEATURES,
    RerankBot,
    Reranker,
    candidate_features,
    load_reranker,
    save_reranker,
)
from rummy.bots.heuristic import HeuristicBot  # noqa: E402
from rummy.bots.learned import FEATURES as LINEAR_FEATURES  # noqa: E402
from rummy.bots.learned import load_policy  # noqa: E402
from rummy.bots.policies import LearnedBot, shipped_policy, shipped_variants  # noqa: E402
from rummy.cli import main as rummy_main  # noqa: E402
from rummy.engine import VARIANTS, BotError, Phase, new_game  # noqa: E402

BENCH = Path(__file__).resolve().parents[2] / "bench"


def script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
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
        assert policy.limit >= 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_learned_bot_plays_a_legal_game_of_every_variant(variant: str) -> None:
    bot = make_bot("learned", seed=1)
    assert isinstance(bot, LearnedBot)
    game = play_game(variant, [bot, make_bot("heuristic", seed=2), make_bot("heuristic", seed=3)], seed=7)
    assert game.game_over
    assert bot.reranker is not None and bot.reranker.policy.variant == variant


def test_the_margin_alone_plays_exactly_as_heuristic() -> None:
    learner = RerankBot(Reranker.heuristic("may-i"), seed=0)
    twin = HeuristicBot(0)
    game = play_game("may-i", [learner] + [HeuristicBot(s) for s in (1, 2)], seed=5)
    again = play_game("may-i", [twin] + [HeuristicBot(s) for s in (1, 2)], seed=5)
    assert game.log == again.log and learner.decisions > 0 and learner.changed == 0


def test_candidate_features_describe_each_candidate_from_the_view() -> None:
    game = new_game("may-i", 4, seed=3)
    seat = game.next_to_act()
    view = game.view(seat)
    candidates = HeuristicBot(0).candidates(view, 3)
    rows = candidate_features(view, candidates)
    assert rows.shape == (len(candidates), len(FEATURES)) and np.all(np.isfinite(rows))
    assert rows[0, FEATURES.index("rank:first")] == 1.0


def test_an_unknown_variant_has_no_shipped_policy() -> None:
    with pytest.raises(BotError, match="no shipped policy"):
        shipped_policy("no-such-variant")


def test_a_reranker_file_for_another_variant_or_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "policy.npz"
    save_reranker(path, Reranker.heuristic("may-i"))
    bot = make_bot("learned", path=str(path))
    with pytest.raises(BotError, match="a policy for may-i, not basic"):
        play_game("basic", [bot, make_bot("random"), make_bot("random")], seed=1)
    save_reranker(path, Reranker("may-i", np.zeros(len(FEATURES)), feature_version=99))
    with pytest.raises(BotError, match="feature version 99"):
        load_reranker(path)


def test_rummy_sim_seats_the_shipped_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code = rummy_main(["sim", "--variant", "purchase", "--players", "learned,heuristic,heuristic,heuristic",
                       "--games", "2", "--workers", "1"])
    assert code == 0 and "learned" in capsys.readouterr().out


def test_the_training_script_runs_quick_and_writes_a_policy_the_bot_plays(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert script("train_expert").main(["--quick", "--out", str(tmp_path)]) == 0
    assert "held-out decisions" in capsys.readouterr().out
    policy = load_reranker(tmp_path / "basic.npz")
    assert (policy.variant, policy.weights.shape) == ("basic", (len(FEATURES),))
    bot = make_bot("learned", path=str(tmp_path / "basic.npz"))
    assert play_game("basic", [bot] + [make_bot("random", seed=s) for s in range(3)], seed=1).game_over


def test_a_rollout_of_the_heuristics_own_choice_replays_the_game() -> None:
    # The trainer's advantage compares a branch with the game as it went on: a branch that plays the
    # heuristic's own choice (the game and the bots copied) must end the round exactly as the game does.
    module = script("train_expert")
    game = new_game("may-i", 4, seed=11)
    bots = [HeuristicBot(s) for s in range(4)]
    branch = None
    while game.phase is not Phase.ROUND_OVER:
        seat = game.next_to_act()
        candidates = bots[seat].candidates(game.view(seat), 3)
        if branch is None and len(candidates) > 1 and game.turns_played >= 8:
            branch, copies = game.copy(), [module.clone(bot) for bot in bots]
            branch.apply(candidates[0])
            module.finish_round(branch, copies)
            decider = seat
        game.apply(candidates[0])
    assert branch is not None and branch.log == game.log
    assert module.round_result(branch, decider, 0) == module.round_result(game, decider, 0)


def test_the_imitation_script_runs_quick_and_writes_a_linear_policy_the_bot_plays(tmp_path: Path) -> None:
    assert script("train_learned").main(["--quick", "--improve", "4", "--out", str(tmp_path)]) == 0
    policy = load_policy(tmp_path / "basic.npz")
    assert (policy.variant, policy.players, policy.weights.shape) == ("basic", 4, (len(LINEAR_FEATURES),))
    bot = make_bot("learned", path=str(tmp_path / "basic.npz"))
    assert play_game("basic", [bot] + [make_bot("random", seed=s) for s in range(3)], seed=1).game_over


def test_a_table_can_seat_the_learned_bot() -> None:
    from rummy.server.tables.bot_runner import playable_level
    from rummy.server.tables.catalog import TableConfig

    config = TableConfig.from_request({"variant": "may-i", "seats": 3, "bots": {"1": "learned", "2": "hard"}})
    assert config.bots == {1: "learned", 2: "hard"}
    assert playable_level("learned") == "learned"
