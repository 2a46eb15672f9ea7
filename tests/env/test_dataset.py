"""``rummy dataset``: the documented layout (docs/dataset.md) is what is written, the records replay, every row
lines up with its record (the observation and mask again from the environment when the record's actions are
played from the documented seed), the same seed writes the same bytes, and bad arguments exit 2 leaving nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
from rummy.cli import main  # noqa: E402
from rummy.engine import parse_action  # noqa: E402
from rummy.env import aec_env  # noqa: E402
from rummy.env.dataset import ARRAYS, MANIFEST, load_shard  # noqa: E402
from rummy.record import load, replay  # noqa: E402
from rummy.sim import derive_seed  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "dataset.md"
#: A small dataset: three short games of basic for two (one hand to 10 points), two games a shard.
ARGS = ["--variant", "basic", "--players", "random,greedy", "--games", "3", "--shard-games", "2",
        "--option", 'target_by_players={"2": 10}']


def write(out: Path, *extra: str) -> int:
    return main(["dataset", *ARGS, "--out", str(out), *extra])


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "set"
    assert write(out, "--seed", "5") == 0
    return out


def doc_table(heading: str) -> list[list[str]]:
    """The rows (cells, without the header) of the first table under ``heading`` in docs/dataset.md."""
    text = DOC.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1]
    rows = [line for line in text.split("\n## ", 1)[0].splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[2:]]
    return [[cell.strip("`") for cell in row[:3]] + row[3:] for row in cells]  # names, dtypes, shapes in code


def test_the_documented_layout_is_what_is_written(dataset: Path) -> None:
    manifest = json.loads((dataset / MANIFEST).read_text(encoding="utf-8"))
    assert [row[0] for row in doc_table("The manifest")] == list(manifest)
    documented = [(name, dtype, shape.replace(" ", ""), meaning) for name, dtype, shape, meaning in
                  doc_table("Arrays of a shard")]
    assert documented == [(name, dtype, shape.replace(" ", ""), meaning) for name, dtype, shape, meaning in ARRAYS]
    assert manifest["arrays"] == {name: dtype for name, dtype, _, _ in ARRAYS}
    assert manifest["format"] == "rummy-dataset/1" and manifest["variant"] == "basic"
    assert manifest["rules"] == {"target_by_players": {"2": 10}} and manifest["bots"] == ["random", "greedy"]
    env = aec_env("basic", 2, manifest["rules"])
    space = env.observation_space("player_0")
    size, actions = space["observation"].shape[0], space["action_mask"].shape[0]
    assert manifest["shapes"] == {"observation": [size], "action_mask": [actions]}
    assert manifest["action_space_version"] == env.metadata["action_space_version"]
    assert manifest["observation_version"] == env.metadata["observation_version"] == 2
    files = {row[0].split(" ")[0].strip("`") for row in doc_table("Files")}
    assert files == {"manifest.json", "records/game-00001.json", "shard-00000.npz"}
    assert sorted(path.name for path in dataset.iterdir()) == ["manifest.json", "records", "shard-00000.npz",
                                                                 "shard-00001.npz"]
    assert sorted(path.name for path in (dataset / "records").iterdir()) == [
        "game-00001.json", "game-00002.json", "game-00003.json"]
    shapes = {"D": None, "O": size, "⌈A/8⌉": -(-actions // 8)}
    decisions = 0
    for entry in manifest["shards"]:
        with np.load(dataset / entry["file"]) as shard:
            assert shard.files == [name for name, _, _, _ in ARRAYS]
            for name, dtype, shape, _ in ARRAYS:
                array = shard[name]
                assert array.dtype == np.dtype(dtype), name
                assert array.shape == tuple(shapes[part] or entry["decisions"] for part in shape.split(" × ")), name
            assert sorted(set(shard["game"].tolist())) == list(range(entry["games"][0], entry["games"][1] + 1))
        decisions += entry["decisions"]
    assert manifest["counts"] == {"games": 3, "decisions": decisions, "shards": 2}
    assert [entry["games"] for entry in manifest["shards"]] == [[0, 1], [2, 2]]


def test_every_record_replays(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted((dataset / "records").iterdir()):
        record = load(path)
        result = replay(record)
        assert result.ok and result.game is not None and result.game.game_over
        assert record.extra["x-dataset"]["seed"] == 5
        assert main(["replay", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["ok"] is True


def test_every_row_lines_up_with_its_record(dataset: Path) -> None:
    """Play each record's actions again on the environment reset with the documented seed: at every decision the
    stored observation and mask are what it shows, the stored action id plays the record's action, and the
    seats, plies, rounds, rewards and returns agree."""
    manifest = json.loads((dataset / MANIFEST).read_text(encoding="utf-8"))
    actions = manifest["shapes"]["action_mask"][0]
    rows = [load_shard(dataset / entry["file"], actions) for entry in manifest["shards"]]
    arrays = {name: np.concatenate([shard[name] for shard in rows]) for name in rows[0]}
    unnumbered = 0
    for game in range(3):
        record = load(dataset / "records" / f"game-{game + 1:05d}.json")
        mine = np.flatnonzero(arrays["game"] == game)
        texts = [(number, text) for number, rnd in enumerate(record.rounds, 1) for text in rnd.actions]
        assert len(mine) == len(texts) and arrays["ply"][mine].tolist() == list(range(len(texts)))
        env = aec_env("basic", 2, manifest["rules"])
        env.reset(seed=derive_seed(5, "game", game))
        rewards = np.zeros(2)
        for row, (number, text) in zip(mine, texts, strict=True):
            move = parse_action(text, 2)
            seat = int(arrays["seat"][row])
            assert env.agent_selection == f"player_{seat}" and move.seat == seat and arrays["round"][row] == number
            assert arrays["player"][row] == (seat + game) % 2
            observed = env.observe(env.agent_selection)
            assert np.array_equal(observed["observation"], arrays["observation"][row])
            assert np.array_equal(observed["action_mask"].astype(bool), arrays["action_mask"][row])
            action = int(arrays["action"][row])
            if action >= 0:
                assert arrays["action_mask"][row, action]
                env.step(action)
                assert str(env.game.log[-1]) == text
            else:
                unnumbered += 1
                env.play(move)
            rewards += [env.rewards[agent] for agent in env.possible_agents]
        assert env.game.game_over and env.game.deals[0]["hands"] == record.rounds[0].hands
        for seat in range(2):  # the rewards add up to the seat's total; the return of its first row is that total
            seat_rows = mine[arrays["seat"][mine] == seat]
            assert arrays["reward"][seat_rows].sum() == pytest.approx(rewards[seat])
            assert arrays["return"][seat_rows[0]] == pytest.approx(rewards[seat])
            assert arrays["last"][seat_rows].tolist() == [False] * (len(seat_rows) - 1) + [True]
    assert unnumbered < len(arrays["action"]) / 10


def test_the_same_seed_writes_the_same_bytes(dataset: Path, tmp_path: Path) -> None:
    assert write(tmp_path / "again", "--seed", "5") == 0
    assert write(tmp_path / "other", "--seed", "6") == 0

    def contents(root: Path) -> dict[str, bytes]:
        return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}

    assert contents(tmp_path / "again") == contents(dataset)
    other = contents(tmp_path / "other")
    assert other.keys() == contents(dataset).keys() and other["shard-00000.npz"] != contents(dataset)["shard-00000.npz"]


@pytest.mark.slow
def test_worker_processes_write_the_same_bytes(dataset: Path, tmp_path: Path) -> None:
    assert write(tmp_path / "pool", "--seed", "5", "--workers", "2") == 0
    assert [(path.relative_to(tmp_path / "pool"), path.read_bytes()) for path in sorted((tmp_path / "pool").rglob("*"))
            if path.is_file()] == [(path.relative_to(dataset), path.read_bytes()) for path in sorted(dataset.rglob("*"))
                                   if path.is_file()]


@pytest.mark.parametrize(("extra", "message"), [
    (["--variant", "nope"], "nope"),
    (["--players", "random"], "basic is for 2–4 players, not 1"),
    (["--players", "random,wizard"], "unknown bot 'wizard'"),
    (["--players", "random,llm"], "not reproducible"),
    (["--games", "0"], "--games must be at least 1"),
    (["--shard-games", "0"], "--shard-games must be at least 1"),
    (["--option", "max_turns=-3"], "max_turns"),
    (["--options", "{"], "--options is not valid JSON"),
])
def test_bad_arguments_exit_2_with_one_line_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                extra: list[str], message: str) -> None:
    out = tmp_path / "set"
    assert write(out, *extra) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error and len(error.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_not_new_or_a_missing_parent_is_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    assert write(tmp_path / "full") == 2
    assert write(tmp_path / "no" / "such" / "set") == 2
    assert "exists and is not an empty directory" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["full", "keep.txt"]
    (tmp_path / "empty").mkdir()
    assert write(tmp_path / "empty", "--games", "1") == 0  # an empty directory is filled
    assert (tmp_path / "empty" / "manifest.json").is_file()


def test_a_failure_midway_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    import rummy.env.dataset as module

    real = module.play_game

    def failing(config: Any, index: int) -> Any:
        if index == 2:
            raise module.GameFailed("game 3 (seed 0) failed: RuntimeError: a bot fell over")
        return real(config, index)

    monkeypatch.setattr(module, "play_game", failing)
    assert write(tmp_path / "set") == 1
    assert "game 3" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_reading_example_of_the_docs_runs(dataset: Path) -> None:
    code = DOC.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code.replace('"may-i-200/', f'"{dataset}/'), str(DOC), "exec"), {})  # noqa: S102
