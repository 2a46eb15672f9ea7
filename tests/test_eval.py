"""``rummy eval``: the duplicate structure of a match, determinism under a seed, the JSON form, the errors
of the command line, and the Bradley–Terry fit on synthetic results."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummy.cli import main
from rummy.engine import get_variant
from rummy.sim.evaluation import (
    SCHEMA,
    EvalConfig,
    match_result,
    mean_interval,
    pinned_options,
    plan_matches,
    reference_comparisons,
    t_quantile,
)
from rummy.sim.evaluation import fit as fit_suite
from rummy.sim.ladder import REFERENCE_COMPARISONS
from rummy.sim.rating import Comparison, expected_score, fit_ratings
from rummy.sim.run import play_games

TINY = ["random", "--opponents", "greedy", "--variants", "basic", "--deals", "2", "--players", "3", "--workers", "1"]


def eval_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["eval", *args, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr()[0])
    return data


def test_each_deal_is_played_once_per_rotation_with_the_agent_in_every_seat() -> None:
    config = EvalConfig(("random",), ("greedy",), (get_variant("basic"),), deals=2, seed=3, players=3)
    [match] = plan_matches(config)
    assert match.sim.kinds == ("random", "greedy", "greedy") and match.sim.duplicate
    summaries = play_games(match.sim)
    assert len(summaries) == 6
    by_deal: dict[int, list[Any]] = {}
    for summary in summaries:
        by_deal.setdefault(summary.seed, []).append(summary)
    assert len(by_deal) == 2  # two deals, each dealt from its own seed …
    for games in by_deal.values():  # … three times, the agent (player 0) once in every seat
        assert sorted(game.seating.index(0) for game in games) == [0, 1, 2]
        assert all(sorted(game.seating) == [0, 1, 2] for game in games)
    result = match_result(match, summaries)
    wins, losses, ties = result.ahead
    assert wins + losses + ties == 6 * 2  # every game compares the agent with two opponent seats
    assert [c.cluster for c in result.comparisons] == [("basic", 0), ("basic", 1)]


def test_same_seed_same_results_and_the_json_form(capsys: pytest.CaptureFixture[str]) -> None:
    one = eval_json(capsys, *TINY, "--seed", "5")
    assert eval_json(capsys, *TINY, "--seed", "5") == one
    assert set(one) == {"schema", "seed", "deals", "players", "variants", "agents", "opponents", "matches",
                        "ratings", "comparisons"}
    assert one["schema"] == SCHEMA and one["seed"] == 5 and one["deals"] == 2 and one["players"] == 3
    assert one["variants"] == ["basic"] and one["agents"] == ["random"] and one["opponents"] == ["greedy"]
    [match] = one["matches"]
    assert set(match) == {"variant", "agent", "opponent", "players", "deals", "games", "score_diff", "win_rate",
                          "ahead", "decisions"}
    assert (match["agent"], match["opponent"], match["games"], match["deals"]) == ("random", "greedy", 6, 2)
    assert set(match["score_diff"]) == {"mean", "ci95"} and match["win_rate"]["chance"] == round(1 / 3, 4)
    low, high = match["win_rate"]["ci95"]
    assert 0 <= low <= match["win_rate"]["mean"] <= high <= 1
    assert sum(match["ahead"][key] for key in ("wins", "losses", "ties")) == 12
    ratings = one["ratings"]
    assert ratings["model"] == "bradley-terry" and ratings["anchor"] == "random" and ratings["reference"] is True
    assert {row["player"] for row in ratings["overall"]} >= {"random", "greedy"}  # and the shipped ladder's
    assert set(ratings["by_variant"]) == {"basic"}
    assert one["comparisons"] == [{"variant": "basic", "first": "random", "second": "greedy",
                                   **{key: match["ahead"][key] for key in ("wins", "losses", "ties")}}]
    other = eval_json(capsys, *TINY, "--seed", "6")
    assert other["matches"][0]["decisions"] != match["decisions"]  # other deals


def _shape(value: Any) -> Any:
    """The keys of ``value`` at every depth (lists by their first item), its leaves by JSON type."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value and not isinstance(value[0], (int, float)) else "numbers"
    return "number" if isinstance(value, (int, float)) and not isinstance(value, bool) else type(value).__name__


def test_the_documented_json_form_is_the_codes(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "eval.md").read_text(encoding="utf-8")
    documented = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    assert _shape(documented) == _shape(eval_json(capsys, *TINY))


def test_the_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", *TINY, "--no-reference"]) == 0
    out = capsys.readouterr()[0]
    assert [line.split()[0] for line in out.split("Ratings")[1].splitlines()[2:4]] == ["greedy", "random"]
    assert "Agent random:" in out and "greedy" in out and "95% CI" in out
    assert "Ratings (Bradley–Terry" in out and "this run's games only" in out


@pytest.mark.parametrize(("args", "message"), [
    (["nosuchbot", "--variants", "basic"], "unknown bot 'nosuchbot'"),
    (["random", "--opponents", "greedy,nosuchbot", "--variants", "basic"], "unknown bot 'nosuchbot'"),
    (["random", "--variants", "nosuchvariant"], "nosuchvariant"),
    (["random", "--variants", "basic", "--deals", "0"], "--deals must be at least 1, not 0"),
    (["random", "--variants", "basic", "--players", "7"], "basic is for 2–4 players, not 7"),
    (["random", "--variants", "basic", "--workers", "0"], "--workers must be at least 1"),
    (["random,random", "--variants", "basic"], "a bot is named twice"),
    (["greedy", "--opponents", "greedy", "--variants", "basic"], "nothing to play"),
    (["ismcts:simulations=0", "--variants", "basic"], "simulations"),
])
def test_bad_input_is_one_line_and_exit_code_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                               message: str) -> None:
    assert main(["eval", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_number_that_is_not_a_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "random", "--deals", "many"])
    assert exit_info.value.code == 2 and "invalid int value: 'many'" in capsys.readouterr()[1]


def test_the_shipped_ladder_results_give_way_to_a_run_that_plays_them_again() -> None:
    every = reference_comparisons()
    assert len(every) == len(REFERENCE_COMPARISONS) and all(c.cluster is None for c in every)
    assert {(c.first, c.second) for c in reference_comparisons("basic")} >= {("heuristic", "random")}
    less = reference_comparisons(None, {("basic", "heuristic", "random")})
    assert len(less) == len(every) - 1
    fit = fit_ratings(every, anchor="random")
    assert fit["heuristic"].rating > fit["greedy"].rating > fit["random"].rating == 0
    # ismcts is in the reference for basic and purchase only: no pooled rating over basic and may-i
    results = fit_suite(EvalConfig(("greedy",), variants=(get_variant("basic"), get_variant("may-i"))), [])
    assert "ismcts" in results.ratings_by_variant["basic"] and "ismcts" not in results.ratings_by_variant["may-i"]
    assert set(results.ratings) == {"random", "greedy", "heuristic"}


def test_an_unbudgeted_ismcts_plays_its_default_simulations_without_a_clock() -> None:
    basic = get_variant("basic")
    assert pinned_options("ismcts", {}, basic)["simulations"] > 0
    assert pinned_options("ismcts", {"time_ms": 50}, basic) == {"time_ms": 50}
    assert pinned_options("heuristic", {}, basic) == {}
    [match] = plan_matches(EvalConfig(("ismcts",), ("random",), (basic,), deals=1, players=2))
    assert "simulations" in match.sim.options_of(0) and match.sim.options_of(1) == {}


def test_paired_intervals() -> None:
    assert t_quantile(1) == 12.7062 and t_quantile(30) == 2.0423 and 1.96 < t_quantile(200) < 1.975
    mean, interval = mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and interval == pytest.approx((2 - 4.3027 / 3**0.5, 2 + 4.3027 / 3**0.5))
    assert mean_interval([4.0]) == (4.0, None)


def test_the_rating_fit_recovers_synthetic_strengths() -> None:
    rng = random.Random(7)
    truth = {"random": 0.0, "greedy": 250.0, "heuristic": 450.0, "agent": 600.0}
    comparisons = []
    for deal in range(200):
        for first in truth:
            for second in truth:
                if first < second:
                    p = expected_score(truth[first] - truth[second])
                    wins = sum(rng.random() < p for _ in range(3))
                    comparisons.append(Comparison(first, second, wins / 3, 3, deal))
    fit = fit_ratings(comparisons, anchor="random")
    assert fit["random"].rating == 0.0
    for name, value in truth.items():
        assert fit[name].low - 15 <= value <= fit[name].high + 15, (name, fit[name])
        assert fit[name].comparisons == 200 * 3 * 3
    assert fit["agent"].rating > fit["heuristic"].rating > fit["greedy"].rating > 0
    assert fit["agent"].high - fit["agent"].low < 120


def test_the_rating_fit_stays_finite_and_rates_only_the_linked() -> None:
    shutout = [Comparison("strong", "random", 1.0, 30, deal) for deal in range(5)]
    alone = [Comparison("x", "y", 0.5, 10, 0)]
    fit = fit_ratings(shutout + alone, anchor="random")
    assert set(fit) == {"random", "strong"}  # x and y never met the anchor's side
    assert 500 < fit["strong"].rating < 1500  # the virtual draw keeps a clean sweep finite
    assert fit_ratings([], anchor="random") == {}
    # comparisons without a cluster count as independent ones
    independent = fit_ratings([Comparison("b", "random", 0.75, 400)], anchor="random")["b"]
    assert independent.low < 190 < independent.high
