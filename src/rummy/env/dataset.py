"""Datasets for offline reinforcement learning and imitation: self-play games of chosen bots, written as game
records plus per-decision arrays (observation, mask, action, seat, reward, return, game) in NumPy ``.npz`` shards.

``rummy dataset`` (:mod:`rummy.sim.dataset`) is the command; ``docs/dataset.md`` documents the layout on disk,
which :data:`ARRAYS` and :func:`manifest_of` define.  Game ``g`` is seated as ``rummy sim`` seats it (seat ``s``
holds player ``(s + g) % n`` of the ``--players`` list) and its bots are seeded as there; it is played on the
AEC environment (:class:`~rummy.env.aec.RummyAECEnv`), whose observation and mask each decision records, its deal
from ``derive_seed(seed, "game", g)``.  Every byte written follows from the arguments: the same ones give
the same files (the shards are zip files with fixed timestamps).

>>> from rummy.sim import SimConfig
>>> from rummy.engine import get_variant
>>> config = DatasetConfig(SimConfig(get_variant("basic"), ("random", "greedy"), ("random", "greedy"), 1, seed=3))
>>> record, arrays = play_game(config, 0)
>>> len(arrays["action"]) == sum(len(rnd.actions) for rnd in record.rounds)
True
"""

from __future__ import annotations

import importlib.metadata
import io
import json
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces

from rummy.bots import Bot, decide, make_bot
from rummy.engine import COMPOSITE_VERBS, Action, RummyError, legal_actions
from rummy.env.aec import RummyAECEnv
from rummy.record import Record, dumps, record_of
from rummy.sim.run import MAX_DECISIONS, GameFailed, SimConfig, derive_seed, record_path

FORMAT = "rummy-dataset/1"
MANIFEST = "manifest.json"
RECORDS = "records"
#: The arrays of every shard, one row per decision: name, dtype, shape (``D`` decisions, ``O`` the observation
#: size, ``A`` the action space size, both in the manifest's ``shapes``) and meaning.  docs/dataset.md's table.
ARRAYS: tuple[tuple[str, str, str, str], ...] = (
    ("observation", "float32", "D × O", "the deciding seat's observation vector, as the AEC environment gives it"),
    ("action_mask_bits", "uint8", "D × ⌈A/8⌉", "the deciding seat's action mask (the ids the environment accepts "
                                             "now), 8 ids a byte, first id in the high bit: `numpy.packbits` of the "
                                             "boolean mask; `numpy.unpackbits(bits, axis=1, count=A)` restores it"),
    ("action", "int32", "D", "the id of the move the bot made; -1 when the move has no id (a lay-down or other "
                             "composite move outside the numbered candidate slots)"),
    ("seat", "int8", "D", "the deciding seat (0-based)"),
    ("player", "int8", "D", "the deciding bot: its index in the manifest's `bots` (the `--players` list)"),
    ("game", "int32", "D", "the game's index (0-based); its record is `records/game-{game+1:05d}.json`"),
    ("ply", "int32", "D", "the decision's index in the game: its action is the ply-th of the record's actions, "
                          "counted over all rounds"),
    ("round", "int16", "D", "the round (hand) number, from 1"),
    ("reward", "float32", "D", "the reward the deciding seat received from this decision until its next one "
                               "(the AEC environment's rewards; before a seat's first decision, added to it)"),
    ("return", "float32", "D", "the sum of the seat's rewards from this decision to the end of the game "
                               "(undiscounted return to go)"),
    ("last", "bool", "D", "this is the seat's last decision in the game (its episode ends here)"),
)
DTYPES = {name: np.dtype(dtype) for name, dtype, _, _ in ARRAYS}
#: Every entry of a shard is written with this time (zip has no "no time"), so the same data gives the same bytes.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class DatasetConfig:
    """What a dataset holds: the games (``sim``: variant, players, bots, seed, game count) and how it is cut."""

    sim: SimConfig
    shard_games: int = 10
    reward: str = "score"
    #: The ``--players`` text of each player, as given (for the manifest).
    specs: tuple[str, ...] = ()

    @property
    def shards(self) -> int:
        return -(-self.sim.games // self.shard_games)

    def shard_range(self, shard: int) -> range:
        """The game indices of shard ``shard``."""
        return range(shard * self.shard_games, min((shard + 1) * self.shard_games, self.sim.games))


def shard_name(shard: int) -> str:
    """``shard-00000.npz`` for shard 0."""
    return f"shard-{shard:05d}.npz"


def play_game(config: DatasetConfig, index: int) -> tuple[Record, dict[str, np.ndarray[Any, Any]]]:
    """Play game ``index`` of ``config`` on the AEC environment; its record and its arrays (:data:`ARRAYS`).
    Raises :class:`~rummy.sim.run.GameFailed` naming the game when a bot or the game fails."""
    try:
        return _play(config, index)
    except GameFailed:
        raise
    except Exception as error:
        text = " ".join(str(error).split())
        raise GameFailed(f"game {index + 1} (seed {config.sim.seed}) failed: {type(error).__name__}: {text}") from None


def play_chunk(config: DatasetConfig, indices: list[int]) -> list[tuple[Record, dict[str, np.ndarray[Any, Any]]]]:
    """A run of games (:data:`rummy.sim.run.ChunkTask`, the worker's entry point): each one's :func:`play_game`."""
    return [play_game(config, index) for index in indices]


def _play(config: DatasetConfig, index: int) -> tuple[Record, dict[str, np.ndarray[Any, Any]]]:
    sim = config.sim
    _, seating = sim.plan(index)
    bots: list[Bot] = [make_bot(sim.kinds[p], seed=derive_seed(sim.seed, "bot", index, p), **sim.options_of(p))
                       for p in seating]
    options = {key: value for key, value in sim.variant.options if not key.startswith("__")}
    env = RummyAECEnv(sim.variant.id, sim.n, options, reward=config.reward)
    env.reset(seed=derive_seed(sim.seed, "game", index))
    seat_of = {agent: seat for seat, agent in enumerate(env.possible_agents)}
    rows: dict[str, list[Any]] = {name: [] for name in DTYPES if name not in ("return", "last")}
    latest: list[int | None] = [None] * sim.n  # each seat's latest decision (row)
    pending = [0.0] * sim.n  # rewards a seat received before its first decision
    while not env.terminations[env.agent_selection]:
        if len(rows["seat"]) >= MAX_DECISIONS:
            raise GameFailed(f"game {index + 1} did not end in {MAX_DECISIONS} decisions")
        agent = env.agent_selection
        seat = seat_of[agent]
        observed = env.observe(agent)
        move = decide(env.game, seat, bots[seat])
        action = _action_id(env, seat, move, observed["action_mask"])
        row = len(rows["seat"])
        bits = np.packbits(observed["action_mask"].view(np.bool_))
        for name, value in (("observation", observed["observation"]), ("action_mask_bits", bits),
                            ("action", action), ("seat", seat), ("player", seating[seat]), ("game", index),
                            ("ply", len(env.game.log)), ("round", env.game.round_number), ("reward", pending[seat])):
            rows[name].append(value)
        pending[seat] = 0.0
        latest[seat] = row
        _apply(env, seat, move, action, index)
        for other, name in enumerate(env.possible_agents):
            reward = env.rewards.get(name, 0.0)
            if reward:
                target = latest[other]
                if target is None:
                    pending[other] += reward
                else:
                    rows["reward"][target] += reward
    record = record_of(env.game)
    record.players = [sim.names[p] for p in seating]
    record.extra["x-dataset"] = {"game": index + 1, "seed": sim.seed, "bots": [sim.kinds[p] for p in seating]}
    return record, _arrays(rows, env, latest)


def _action_id(env: RummyAECEnv, seat: int, move: Action, mask: np.ndarray[Any, Any]) -> int:
    """The id of ``move`` in ``env``'s action space now, or -1 (a composite move outside the numbered slots)."""
    space = env.space
    if move.verb not in COMPOSITE_VERBS:
        try:
            action = int(space.id_of(env.game, move))
        except RummyError:
            return -1
        return action if mask[action] else -1
    start = next(family.start for family in space.families if family.verb == "composite")
    listed = [other for other in legal_actions(env.game, seat) if other.verb in COMPOSITE_VERBS]
    slots = listed[:space.composite_slots]
    return start + slots.index(move) if move in slots else -1


def _apply(env: RummyAECEnv, seat: int, move: Action, action: int, index: int) -> None:
    """Step ``env`` by the id when there is one, else by the move itself.  A composite id names a slot of the
    environment's listing, so the move it played is checked to be the bot's (any other id names one move, which
    may be written more fully than the bot wrote it: ``layoff 1 TC low`` for ``layoff 1 TC``)."""
    if action < 0:
        env.play(move)
        return
    env.step(action)
    played = env.game.log[-1]
    if move.verb in COMPOSITE_VERBS and played != move:
        raise GameFailed(f"game {index + 1}: id {action} of p{seat} played {played}, not the bot's move {move}")


def _arrays(rows: dict[str, list[Any]], env: RummyAECEnv, latest: Sequence[int | None]
            ) -> dict[str, np.ndarray[Any, Any]]:
    count = len(rows["seat"])
    observation_size = _size(env, "observation")
    arrays = {name: np.asarray(values, dtype=DTYPES[name]) for name, values in rows.items()}
    arrays["observation"] = arrays["observation"].reshape(count, observation_size)
    arrays["action_mask_bits"] = arrays["action_mask_bits"].reshape(count, -(-_size(env, "action_mask") // 8))
    returns = np.zeros(count, dtype=np.float64)
    totals = np.zeros(env.players, dtype=np.float64)
    seats = arrays["seat"]
    for row in range(count - 1, -1, -1):  # the return to go of each seat, from its rewards
        totals[seats[row]] += arrays["reward"][row]
        returns[row] = totals[seats[row]]
    arrays["return"] = returns.astype(DTYPES["return"])
    arrays["last"] = np.zeros(count, dtype=np.bool_)
    arrays["last"][[row for row in latest if row is not None]] = True
    return {name: arrays[name] for name in DTYPES}


def _size(env: RummyAECEnv, key: str) -> int:
    space = env.observation_space(env.possible_agents[0])
    assert isinstance(space, spaces.Dict), space  # {"observation": Box, "action_mask": Box}
    shape = space[key].shape
    return int(np.prod(shape or ()))


def shapes_of(config: DatasetConfig) -> dict[str, list[int]]:
    """The manifest's ``shapes``: the observation and mask sizes of the table, read from its spaces."""
    options = {key: value for key, value in config.sim.variant.options if not key.startswith("__")}
    env = RummyAECEnv(config.sim.variant.id, config.sim.n, options)
    return {"observation": [_size(env, "observation")], "action_mask": [_size(env, "action_mask")]}


def write_shard(path: Path, arrays: Mapping[str, np.ndarray[Any, Any]]) -> None:
    """``arrays`` as an ``.npz`` file (``numpy.load`` reads it) whose bytes depend on the arrays only."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.ascontiguousarray(array), allow_pickle=False)
            archive.writestr(info, buffer.getvalue(), compresslevel=6)


def write_dataset(config: DatasetConfig, directory: Path,
                  games: Iterator[tuple[Record, dict[str, Any]]]) -> dict[str, Any]:
    """Write the records, the shards and the manifest of ``config`` into ``directory`` (which exists and is empty)
    from ``games`` (each game's :func:`play_game`, in order); the manifest."""
    (directory / RECORDS).mkdir()
    shards: list[dict[str, Any]] = []
    decisions = 0
    for shard in range(config.shards):
        parts = []
        for index in config.shard_range(shard):
            record, arrays = next(games)
            record_path(directory / RECORDS, index).write_text(dumps(record) + "\n", encoding="utf-8")
            parts.append(arrays)
        joined = {name: np.concatenate([part[name] for part in parts]) for name in DTYPES}
        write_shard(directory / shard_name(shard), joined)
        count = len(joined["seat"])
        games_in = config.shard_range(shard)
        shards.append({"file": shard_name(shard), "games": [games_in.start, games_in.stop - 1], "decisions": count})
        decisions += count
    manifest = manifest_of(config, shards, decisions)
    (directory / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def manifest_of(config: DatasetConfig, shards: list[dict[str, Any]], decisions: int) -> dict[str, Any]:
    """The manifest: what the dataset holds and how to read it (docs/dataset.md)."""
    sim = config.sim
    options = {key: value for key, value in sim.variant.options if not key.startswith("__")}
    return {
        "format": FORMAT,
        "rummy": _version(),
        "action_space_version": RummyAECEnv.metadata["action_space_version"],
        "observation_version": RummyAECEnv.metadata["observation_version"],
        "variant": sim.variant.id,
        "rules": options,
        "players": sim.n,
        "bots": list(config.specs or sim.names),
        "seating": "game g seats player (s + g) % players at seat s",
        "seed": sim.seed,
        "reward": config.reward,
        "shapes": shapes_of(config),
        "arrays": {name: dtype for name, dtype, _, _ in ARRAYS},
        "counts": {"games": sim.games, "decisions": decisions, "shards": len(shards)},
        "shard_games": config.shard_games,
        "shards": shards,
        "records": f"{RECORDS}/game-NNNNN.json (game index + 1)",
    }


def _version() -> str:
    try:
        return importlib.metadata.version("rummy")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a source tree never installed
        return "unknown"


def load_shard(path: str | Path, actions: int | None = None) -> dict[str, np.ndarray[Any, Any]]:
    """Every array of a shard, by name; given the action space's size ``actions`` (the manifest's
    ``shapes["action_mask"][0]``), also ``"action_mask"``, the masks unpacked as booleans (``D × actions``)."""
    with np.load(path, allow_pickle=False) as shard:
        arrays = {name: shard[name] for name in shard.files}
    if actions is not None:
        arrays["action_mask"] = np.unpackbits(arrays["action_mask_bits"], axis=1, count=actions).view(np.bool_)
    return arrays
