"""Playing the games of a simulation: each game's seed and seating, the bots, the records, and where the
games run (a :class:`GamePool`: spawned worker processes here, or tasks on a Ray cluster), returning one
:class:`GameSummary` per game, in game order."""

from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rummy.bots import Bot, decide, make_bot
from rummy.engine import Game, Variant, new_game, scoring_rule
from rummy.record import dumps, record_of
from rummy.search.playout import drive

MAX_DECISIONS = 500_000  # per game, as in rummy.bots.play_game


class GameFailed(RuntimeError):
    """A simulated game raised (a bot chose an illegal action, or a game did not end)."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 48-bit seed from ``seed`` and ``parts`` (stable across runs, platforms and processes)."""
    text = "/".join(str(part) for part in ("rummy-sim", seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")


@dataclass(frozen=True)
class SimConfig:
    """Everything a worker needs to play game ``index`` (picklable, for spawned processes)."""

    variant: Variant
    names: tuple[str, ...]
    kinds: tuple[str, ...]
    games: int  # games to play (deals × players with ``duplicate``)
    seed: int = 0
    duplicate: bool = False
    records: str | None = None
    #: Per player, its bot options as (key, value) pairs (empty: none for anybody).
    bot_options: tuple[tuple[tuple[str, Any], ...], ...] = ()

    def options_of(self, player: int) -> dict[str, Any]:
        """The bot options of player ``player``."""
        return dict(self.bot_options[player]) if self.bot_options else {}

    @property
    def n(self) -> int:
        return len(self.names)

    def plan(self, index: int) -> tuple[int, list[int]]:
        """Game ``index``'s shuffle seed and its seating (``seating[seat]`` is a player index)."""
        n = self.n
        rotation = index % n
        seed = derive_seed(self.seed, "deal", index // n) if self.duplicate else derive_seed(self.seed, "game", index)
        return seed, [(seat + rotation) % n for seat in range(n)]


@dataclass(frozen=True)
class GameSummary:
    """What the aggregate needs of one game, by seat."""

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]  # final score per seat (totals; books won in ``purchase``)
    winners: tuple[int, ...]
    rounds: tuple[tuple[int, int | None, tuple[int, ...]], ...]  # (round, went_out seat, scores)
    buys: tuple[int, ...]
    decisions: int
    #: per seat, the bot's counters where it keeps some (the ``llm`` bot: requests, retries, fallbacks,
    #: tokens …), else None
    counters: tuple[dict[str, int] | None, ...] = ()


def record_path(directory: str | Path, index: int) -> Path:
    """``DIR/game-00001.json`` for game index 0."""
    return Path(directory) / f"game-{index + 1:05d}.json"


def _save_record(config: SimConfig, game: Game, index: int, seating: Sequence[int]) -> Path | None:
    if config.records is None:
        return None
    record = record_of(game)
    about: dict[str, Any] = {"game": index + 1, "seed": config.seed, "bots": [config.kinds[p] for p in seating]}
    if any(config.options_of(p) for p in seating):
        about["bot_options"] = [config.options_of(p) for p in seating]
    record.extra["x-sim"] = about
    path = record_path(config.records, index)
    path.write_text(dumps(record) + "\n", encoding="utf-8")
    return path


def play_one(config: SimConfig, index: int) -> GameSummary:
    """Play game ``index`` to its end (and save its record when ``config.records`` is set)."""
    seed, seating = config.plan(index)
    bots: list[Bot] = [make_bot(config.kinds[p], seed=derive_seed(config.seed, "bot", index, p), **config.options_of(p))
                      for p in seating]
    game = new_game(config.variant, [config.names[p] for p in seating], seed=seed)
    try:
        decisions = drive(game, lambda g, seat: decide(g, seat, bots[seat]), max_actions=MAX_DECISIONS)
    except Exception as error:  # reported with the game's number and seed
        saved = _save_record(config, game, index, seating)
        where = f"; its record so far is {saved}" if saved else ""
        text = " ".join(str(error).split())
        raise GameFailed(
            f"game {index + 1} (seed {seed}, round {game.round_number}) failed: {type(error).__name__}: {text}{where}"
        ) from None
    _save_record(config, game, index, seating)
    scores = scoring_rule(game.variant).game_scores(game)
    return GameSummary(
        index=index,
        seed=seed,
        seating=tuple(seating),
        scores=tuple(scores),
        winners=tuple(game.winners()),
        rounds=tuple((r.round, r.went_out, r.scores) for r in game.results),
        buys=tuple(sum(r.claims[seat] for r in game.results) for seat in range(game.n)),
        decisions=decisions,
        counters=tuple(bot_counters(bot) for bot in bots),
    )


def bot_counters(bot: Bot) -> dict[str, int] | None:
    """The counters of a bot that keeps some (``counters.to_json()``, as the ``llm`` bot's), else None."""
    counters = getattr(bot, "counters", None)
    to_json = getattr(counters, "to_json", None)
    return dict(to_json()) if callable(to_json) else None


def play_chunk(config: SimConfig, indices: Sequence[int]) -> list[GameSummary]:
    """Worker entry point: play a run of games."""
    return [play_one(config, index) for index in indices]


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


#: A run of games played where a pool puts it: ``task(config, indices)`` gives one result per index, in order.
#: A module-level function (spawned processes and Ray pickle it by name): :func:`play_chunk` for ``rummy sim``
#: and ``rummy eval``, ``rummy.env.dataset.play_chunk`` for ``rummy dataset``.
ChunkTask = Callable[[Any, list[int]], list[Any]]
#: A finished run of games: its indices and its results (one each).
ChunkDone = tuple[list[int], list[Any]]


class GamePool(Protocol):
    """Where games run: plays runs of games (chunks of game indices) and yields each run's results as it
    finishes, in any order (:func:`in_game_order` puts them back in game order).  :class:`LocalPool` is this
    machine; ``rummy.sim.ray_pool.RayPool`` is a Ray cluster (``--ray ADDRESS``)."""

    @property
    def workers(self) -> int:
        """How many games may run at once (sets the size of the chunks)."""
        ...

    @property
    def label(self) -> str:
        """Where the games ran, for the last line of ``rummy sim`` and ``rummy eval``: ``2 workers``."""
        ...

    def run(self, task: ChunkTask, config: Any, chunks: Sequence[Sequence[int]]) -> Iterator[ChunkDone]:
        """``task(config, chunk)`` for every chunk; yield each chunk with its results as it finishes."""
        ...

    def close(self) -> None:
        """Stop the workers (cancelling games not yet played)."""
        ...


class LocalPool:
    """This machine: ``workers`` spawned processes (started when first needed and kept for every later
    :meth:`play`, so the matches of ``rummy eval`` share them), or this process when ``workers`` is 1."""

    def __init__(self, workers: int = 1) -> None:
        self._workers = max(1, workers)
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        return self._workers

    @property
    def label(self) -> str:
        return f"{self._workers} worker{'s' if self._workers != 1 else ''}"

    def run(self, task: ChunkTask, config: Any, chunks: Sequence[Sequence[int]]) -> Iterator[ChunkDone]:
        if self._workers == 1:  # here, a game at a time (a progress bar moves with each)
            for chunk in chunks:
                for index in chunk:
                    yield [index], task(config, [index])
            return
        if self._executor is None:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self._workers, mp_context=multiprocessing.get_context("spawn"))
        futures = {self._executor.submit(task, config, list(chunk)): list(chunk) for chunk in chunks}
        try:
            for future in concurrent.futures.as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_games(
    config: SimConfig,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    pool: GamePool | None = None,
) -> list[GameSummary]:
    """Play every game of ``config`` in ``pool``, or else in ``workers`` spawned processes (1: in this process).

    ``progress(done)`` is called as games finish.  The summaries come back in game order, whatever order the
    games finished in (each game's seeds depend on its index only).
    """
    if pool is None:
        with LocalPool(min(workers, config.games)) as local:
            return play_games(config, progress=progress, pool=local)
    return list(in_game_order(pool, play_chunk, config, config.games, progress))


def in_game_order(pool: GamePool, task: ChunkTask, config: Any, total: int,
                  progress: Callable[[int], None] | None = None) -> Iterator[Any]:
    """The results of ``task`` for games 0 … ``total``-1 run in ``pool``, in game order, each as soon as it and
    every game before it are done (a game's seeds depend on its index only, so the order it finished in
    changes nothing).  ``progress(done)`` is called as runs of games finish."""
    size = max(1, min(64, total // (pool.workers * 16)))
    chunks = [range(start, min(start + size, total)) for start in range(0, total, size)]
    waiting: dict[int, Any] = {}
    following = 0
    for indices, results in pool.run(task, config, chunks):
        waiting.update(zip(indices, results, strict=True))
        if progress:
            progress(following + len(waiting))
        while following in waiting:
            yield waiting.pop(following)
            following += 1
