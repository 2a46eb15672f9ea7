"""``rummy sim --ray``, ``rummy eval --ray`` and ``rummy dataset --ray``: the games played as Ray tasks on a
fresh local Ray give the local run's results, and a missing Ray or an unreachable cluster is one line and exit
code 2."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator

import pytest

from rummy.cli import main
from rummy.engine import get_variant
from rummy.record import dumps
from rummy.sim.evaluation import EvalConfig, run_eval
from rummy.sim.pools import open_pool
from rummy.sim.run import GamePool, SimConfig, in_game_order, play_games


def test_without_ray_installed_ray_is_a_usage_error(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    # a run without --ray never imports Ray
    assert main(["sim", "--variant", "basic", "--players", "random,random", "--games", "2", "--workers", "1"]) == 0
    assert "1 worker" in capsys.readouterr()[0]
    for command in (["sim", "--variant", "basic", "--players", "random,random", "--games", "1"],
                    ["eval", "random", "--opponents", "greedy", "--variants", "basic", "--deals", "1"]):
        assert main([*command, "--ray", "auto"]) == 2
        err = capsys.readouterr()[1]
        assert err.startswith("rummy: --ray needs Ray") and "rummy[ray]" in err and "Traceback" not in err


def test_an_unreachable_cluster_or_workers_for_a_cluster_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    sim = ["sim", "--variant", "basic", "--players", "random,random", "--games", "1"]
    assert main([*sim, "--ray", "ray://127.0.0.1:1"]) == 2  # nothing listens on port 1: refused at once
    assert "cannot reach the Ray cluster" in capsys.readouterr()[1]
    assert main([*sim, "--ray", "auto", "--workers", "2"]) == 2
    assert "--workers" in capsys.readouterr()[1]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[GamePool]:
    pytest.importorskip("ray")
    pool = open_pool(2, "local")  # a fresh Ray on this machine with 2 CPUs, stopped afterwards
    try:
        yield pool
    finally:
        pool.close()


def test_games_on_ray_equal_the_local_run(local_ray: GamePool) -> None:
    assert local_ray.workers == 2 and local_ray.label == "Ray at local (2 CPUs)"
    # 12 games in chunks of one: they finish in any order and come back in game order
    sim = SimConfig(get_variant("basic"), ("random", "greedy", "heuristic"), ("random", "greedy", "heuristic"),
                    games=12, seed=7)
    done: list[int] = []
    assert play_games(sim, pool=local_ray, progress=done.append) == play_games(sim, workers=1)
    assert done == list(range(1, 13))
    evaluation = EvalConfig(("random",), ("greedy",), (get_variant("purchase"),), deals=2, seed=5, players=3,
                            reference=False)
    assert run_eval(evaluation, pool=local_ray).to_json() == run_eval(evaluation, workers=1).to_json()


def test_dataset_games_on_ray_equal_the_local_run(local_ray: GamePool) -> None:
    """``rummy dataset --ray`` plays its games as the same tasks: records and arrays as a local run's."""
    dataset = pytest.importorskip("rummy.env.dataset")
    sim = SimConfig(get_variant("basic", {"target_by_players": {"2": 10}}), ("random", "greedy"),
                    ("random", "greedy"), games=3, seed=4)
    config = dataset.DatasetConfig(sim, 2, "score", ("random", "greedy"))
    on_ray = list(in_game_order(local_ray, dataset.play_chunk, config, 3))
    here = dataset.play_chunk(config, [0, 1, 2])
    assert [dumps(record) for record, _ in on_ray] == [dumps(record) for record, _ in here]
    for (_, ray_arrays), (_, local_arrays) in zip(on_ray, here, strict=True):
        assert ray_arrays.keys() == local_arrays.keys()
        assert all((ray_arrays[name] == local_arrays[name]).all() for name in ray_arrays)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_sim_and_eval_against_ray_start_head_on_loopback(capsys: pytest.CaptureFixture[str]) -> None:
    """The commands as a researcher runs them against a cluster that ``ray start --head`` started."""
    pytest.importorskip("ray")
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}  # this throw-away head's token would be another file
    env.pop("RAY_ADDRESS", None)
    with tempfile.TemporaryDirectory(prefix="ray", dir="/tmp") as temp:  # short: Ray's socket paths live there
        head = subprocess.Popen(
            [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block", f"--port={port}",
             "--node-ip-address=127.0.0.1", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
             f"--temp-dir={temp}"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert head.stdout is not None
            for line in head.stdout:  # --block: prints this once the node runs, then waits to be stopped
                if "Ray runtime started" in line:
                    break
            address = f"127.0.0.1:{port}"
            sim = ["sim", "--variant", "basic", "--players", "random,greedy,heuristic", "--games", "6", "--seed", "3",
                   "--json"]
            evaluation = ["eval", "random", "--opponents", "greedy", "--variants", "basic", "--deals", "2",
                          "--players", "2", "--no-reference", "--json"]
            for command in (sim, evaluation):
                assert main([*command, "--workers", "1"]) == 0
                local = json.loads(capsys.readouterr()[0])
                assert main([*command, "--ray", address]) == 0
                assert json.loads(capsys.readouterr()[0]) == local
        finally:
            head.terminate()
            head.wait(timeout=60)
