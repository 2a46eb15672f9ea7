"""``rummy sim``: play many bot-vs-bot games and tabulate how each player did.

Game ``g`` (counted from 0) seats the ``--players`` list rotated by ``g``: seat ``s`` holds player
``(s + g) % n``.  Every game's shuffle seed is derived from ``--seed`` and the game index only (and
each bot's seed from ``--seed``, the game index and the player), so the results are the same for any
number of worker processes.  With ``--duplicate`` each deal (one seed) is played once per seat
rotation: ``--games`` then counts deals, and ``n × deals`` games are played.

Counting conventions:

* a win is a first place; co-winners (equal totals) **each count a full win**, so the wins of all
  players add up to at least the number of games (more when wins were shared; fewer only when a
  game ends with no winner, such as a ``purchase`` game stopped by ``max_turns``).  The 95% interval
  is the Wilson score interval of the win share ``wins / games``;
* a player's score is its final total (penalty points in the contract variants — lower is better,
  points collected in ``basic``); in ``purchase``, which has no points, it is the number of books won;
* points per round pool every round of every game: the sum of the player's round scores divided by
  the number of rounds played (always 0 in ``purchase``);
* buys are successful claims of a discard out of turn, own-turn buys included (penalty cards are
  part of a claim, not counted apart); rounds out are the rounds the player ended by going out (or
  by tabling the book in ``purchase``).

>>> wilson_interval(41, 100)
(0.3187, 0.508)
>>> parse_players("heuristic,random,heuristic:rummy=off")
(['heuristic', 'random', 'heuristic:rummy=off'], ['heuristic', 'random', 'heuristic'], [{}, {}, {'rummy': 'off'}])
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import hashlib
import importlib
import io
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rummy.bots import BOTS, LEVELS, Bot, decide, make_bot
from rummy.errors import RummyError
from rummy.game import Game, new_game
from rummy.house_rules import apply_options, load_variant_file
from rummy.playout import drive
from rummy.record import dumps, record_of
from rummy.scoring import scoring_rule
from rummy.variants import Variant, get_variant

MAX_DECISIONS = 500_000  # per game, as in rummy.bots.play_game
Z95 = 1.959963984540054


class SimError(RummyError, ValueError):
    """Bad input to the simulator (exit code 2 of ``rummy sim``)."""


class GameFailed(RuntimeError):
    """A simulated game raised (a bot chose an illegal action, or a game did not end)."""


# -- set-up ---------------------------------------------------------------------------------


def parse_players(text: str) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """Player names (a repeated player gets ``#2``, ``#3`` …), bot kinds and bot options from ``"a,b,c"``.

    A player is a bot name or level, optionally followed by bot options, each as ``:key=value``
    (``ismcts:simulations=100:confidence=2``); the name is the text as given.
    """
    given = [part.strip() for part in split_outside_json(text)]
    if any(not part for part in given):
        raise SimError(f"--players {text!r}: empty player name (use bot names separated by commas)")
    names: list[str] = []
    kinds: list[str] = []
    options: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for part in given:
        seen[part] = seen.get(part, 0) + 1
        names.append(part if seen[part] == 1 else f"{part}#{seen[part]}")
        kind = split_outside_json(part, ":")[0].strip()
        kinds.append(LEVELS.get(kind, kind))
        options.append(parse_bot_options(part))
    return names, kinds, options


def split_outside_json(text: str, separator: str = ",") -> list[str]:
    """``text`` split at every ``separator`` that is not inside a JSON value's brackets or quotes.

    >>> split_outside_json('ismcts:confidence_by_verb={"meld": 1, "take": 2},heuristic')
    ['ismcts:confidence_by_verb={"meld": 1, "take": 2}', 'heuristic']
    """
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "[{":
            depth += 1
        elif not quoted and char in "]}":
            depth = max(0, depth - 1)
        elif char == separator and depth == 0 and not quoted:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts


def parse_bot_options(player: str) -> dict[str, Any]:
    """The options of a player written ``bot:key=value:key=value`` (values read as JSON, else as text).

    >>> parse_bot_options("ismcts:simulations=100:rollout=greedy")
    {'simulations': 100, 'rollout': 'greedy'}
    """
    options: dict[str, Any] = {}
    for pair in split_outside_json(player, ":")[1:]:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise SimError(f"--players: {player!r}: write bot options as bot:key=value:key=value")
        options[key.strip()] = _json_or_text(text.strip())
    return options


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def check_bots(names: Sequence[str], kinds: Sequence[str], options: Sequence[Mapping[str, Any]]) -> None:
    """Fail early, with one line, on an unknown bot, a bad bot option or a bot whose module does not load."""
    for name, kind, bot_options in zip(names, kinds, options, strict=True):
        if kind not in BOTS:
            known = ", ".join(sorted(BOTS) + sorted(LEVELS))
            raise SimError(f"unknown bot {kind!r} (known: {known})")
        try:
            make_bot(kind, seed=0, **bot_options)
        except ImportError as error:
            raise SimError(f"bot {kind!r} is not available: {error}") from None
        except (TypeError, ValueError) as error:
            raise SimError(f"--players: {name}: {error}") from None


def parse_options(options_json: str | None, pairs: Sequence[str]) -> dict[str, Any]:
    """House rules from ``--options JSON`` then ``--option key=value`` (values parse as JSON, else text)."""
    options: dict[str, Any] = {}
    if options_json is not None:
        try:
            loaded = json.loads(options_json)
        except json.JSONDecodeError as error:
            raise SimError(f"--options is not valid JSON: {error}") from None
        if not isinstance(loaded, dict):
            raise SimError("--options must be a JSON object such as '{\"may_i_limit\": 5}'")
        options.update(loaded)
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise SimError(f"--option {pair!r}: use key=value")
        options[key.strip()] = _json_or_text(text)
    return options


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
    )


def play_chunk(config: SimConfig, indices: Sequence[int]) -> list[GameSummary]:
    """Worker entry point: play a run of games."""
    return [play_one(config, index) for index in indices]


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def play_games(
    config: SimConfig,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameSummary]:
    """Play every game of ``config``, in ``workers`` spawned processes (1: in this process).

    ``progress(done)`` is called as games finish.  The summaries come back in game order.
    """
    total = config.games
    workers = max(1, min(workers, total))
    if workers == 1:
        summaries = []
        for index in range(total):
            summaries.append(play_one(config, index))
            if progress:
                progress(index + 1)
        return summaries
    size = max(1, min(64, total // (workers * 16)))
    chunks = [list(range(start, min(start + size, total))) for start in range(0, total, size)]
    results: dict[int, list[GameSummary]] = {}
    done = 0
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(play_chunk, config, chunk): number for number, chunk in enumerate(chunks)}
        try:
            for future in concurrent.futures.as_completed(futures):
                results[futures[future]] = future.result()
                done += len(results[futures[future]])
                if progress:
                    progress(done)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [summary for number in range(len(chunks)) for summary in results[number]]


# -- aggregate ------------------------------------------------------------------------------


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / trials`` (rounded to 4 places)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


@dataclass
class PlayerStats:
    name: str
    kind: str
    wins: int = 0
    shared_wins: int = 0
    buys: int = 0
    rounds_out: int = 0
    points: int = 0
    scores: list[int] = field(default_factory=list)


@dataclass
class SimResults:
    """The aggregate of a simulation; :meth:`to_json` is ``rummy sim --json``."""

    config: SimConfig
    players: list[PlayerStats]
    rounds: int = 0
    shared: int = 0  # games won by more than one player
    unwon: int = 0  # games with no winner
    decisions: int = 0
    # round number -> (points per player, games that reached that round)
    by_round: dict[int, tuple[list[int], int]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.config.games

    def to_json(self) -> dict[str, Any]:
        games, rounds = self.games, self.rounds
        data: dict[str, Any] = {
            "games": games,
            "variant": self.config.variant.id,
            "seed": self.config.seed,
            "duplicate": self.config.duplicate,
        }
        if self.config.duplicate:
            data["deals"] = games // self.config.n
        options = {k: v for k, v in self.config.variant.options if not k.startswith("__")}
        if options:
            data["options"] = options
        data.update({"rounds": rounds, "shared_wins": self.shared, "no_winner": self.unwon})
        data["players"] = [
            {
                "name": p.name,
                "seat_kind": p.kind,
                "wins": p.wins,
                "win_share": round(p.wins / games, 4),
                "ci95": list(wilson_interval(p.wins, games)),
                "mean_score": round(sum(p.scores) / games, 3),
                "mean_points_per_round": round(p.points / rounds, 3) if rounds else 0.0,
                "buys": p.buys,
                "rounds_out": p.rounds_out,
            }
            for p in self.players
        ]
        return data


def aggregate(config: SimConfig, summaries: Iterable[GameSummary]) -> SimResults:
    """Fold per-game summaries (in any order; the sums are exact) into per-player figures."""
    stats = [PlayerStats(name, kind) for name, kind in zip(config.names, config.kinds, strict=True)]
    results = SimResults(config, stats)
    players = results.players
    for summary in sorted(summaries, key=lambda s: s.index):
        seating = summary.seating
        for seat, player in enumerate(seating):
            players[player].scores.append(summary.scores[seat])
            players[player].buys += summary.buys[seat]
        for seat in summary.winners:
            players[seating[seat]].wins += 1
            if len(summary.winners) > 1:
                players[seating[seat]].shared_wins += 1
        results.shared += len(summary.winners) > 1
        results.unwon += not summary.winners
        results.decisions += summary.decisions
        for number, went_out, scores in summary.rounds:
            results.rounds += 1
            if went_out is not None:
                players[seating[went_out]].rounds_out += 1
            points, count = results.by_round.get(number, ([0] * config.n, 0))
            for seat, score in enumerate(scores):
                players[seating[seat]].points += score
                points[seating[seat]] += score
            results.by_round[number] = (points, count + 1)
    return results


# -- output ---------------------------------------------------------------------------------


def _score_meaning(variant: Variant) -> str:
    return scoring_rule(variant).score_meaning


def table_text(results: SimResults) -> str:
    """The results as a table for people."""
    data = results.to_json()
    games = data["games"]
    header = ["player", "wins", "win share", "95% CI", "mean score", "points/round", "buys", "rounds out"]
    rows = [header]
    for p in data["players"]:
        low, high = p["ci95"]
        rows.append([
            p["name"], str(p["wins"]), f"{100 * p['win_share']:.1f}%", f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{p['mean_score']:.1f}", f"{p['mean_points_per_round']:.2f}", str(p["buys"]), str(p["rounds_out"]),
        ])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
    n = results.config.n
    seats = f"{games // n} deals × {n} seat rotations" if results.config.duplicate else "seats rotate"
    title = f"{data['variant']}: {games} games, {n} players ({seats}), {data['rounds']} rounds"
    notes = [f"Score: {_score_meaning(results.config.variant)}; co-winners each count a win."]
    if results.shared:
        notes.append(f"{results.shared} game(s) had co-winners.")
    if results.unwon:
        notes.append(f"{results.unwon} game(s) ended without a winner.")
    return "\n".join([title, "", *lines, "", " ".join(notes)])


CSV_FIELDS = ["name", "seat_kind", "games", "wins", "win_share", "ci95_low", "ci95_high", "mean_score",
              "mean_points_per_round", "buys", "rounds_out"]


def csv_text(results: SimResults) -> str:
    data = results.to_json()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for p in data["players"]:
        writer.writerow([p["name"], p["seat_kind"], data["games"], p["wins"], p["win_share"], p["ci95"][0],
                         p["ci95"][1], p["mean_score"], p["mean_points_per_round"], p["buys"], p["rounds_out"]])
    return out.getvalue()


def save_results(results: SimResults, path: str | Path) -> None:
    """``FILE.json`` (the ``--json`` object) or ``FILE.csv`` (one row per player)."""
    path = Path(path)
    suffix = path.suffix.lower()
    text = csv_text(results) if suffix == ".csv" else json.dumps(results.to_json(), indent=2) + "\n"
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise SimError(f"cannot write {str(path)!r}: {error.strerror}") from None


def load_matplotlib() -> Any:
    """The ``matplotlib.figure`` module, or a :class:`SimError` saying how to install it."""
    try:
        return importlib.import_module("matplotlib.figure")
    except ImportError:
        raise SimError("--plot needs matplotlib: pip install 'rummy[sim]' (or pip install matplotlib)") from None


def plot_results(results: SimResults, path: str | Path) -> None:
    """Score distributions and mean points by round number, one colour per player."""
    figure_module = load_matplotlib()
    figure = figure_module.Figure(figsize=(12, 4.8), layout="constrained")
    left, right = figure.subplots(1, 2)
    data = results.to_json()
    players = results.players
    every = [score for p in players for score in p.scores]
    low, high = min(every), max(every)
    bins = max(1, min(40, high - low + 1))
    for p in players:
        left.hist(p.scores, bins=bins, range=(low - 0.5, high + 0.5), histtype="step", linewidth=1.5, label=p.name)
    left.set_title("Final score")
    left.set_xlabel(_score_meaning(results.config.variant))
    left.set_ylabel("games")
    left.legend()
    numbers = sorted(results.by_round)
    for index, (p, row) in enumerate(zip(players, data["players"], strict=True)):
        means = [results.by_round[k][0][index] / results.by_round[k][1] for k in numbers]
        right.plot(numbers, means, marker="o", label=f"{p.name} (all rounds {row['mean_points_per_round']:.2f})")
    right.set_title("Mean points per round")
    right.set_xlabel("round")
    right.set_ylabel("points")
    right.legend()
    figure.suptitle(f"{data['variant']}: {data['games']} games")
    try:
        figure.savefig(path)
    except (OSError, ValueError) as error:
        raise SimError(f"cannot save the plot to {str(path)!r}: {error}") from None


class ProgressBar:
    """A carriage-return progress bar on ``stream``."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.started = time.monotonic()
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.started
        filled = self.width * done // self.total
        eta = f", {elapsed / done * (self.total - done):.0f} s left" if 0 < done < self.total else ""
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} games, {elapsed:.1f} s{eta}   ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


# -- the command ----------------------------------------------------------------------------


def build_config(args: argparse.Namespace) -> SimConfig:
    """Validate the command line (a :class:`SimError` or VariantError on bad input)."""
    options = parse_options(args.options, args.option)
    if args.variant_file:
        variant = load_variant_file(args.variant_file)
        if args.variant and args.variant != variant.id:
            raise SimError(f"--variant {args.variant!r} differs from the variant file's id {variant.id!r}")
        if options:
            variant = apply_options(variant, options)
    elif args.variant:
        variant = get_variant(args.variant, options)
    else:
        raise SimError("give --variant ID (see 'rummy variants') or --variant-file FILE")
    names, kinds, bot_options = parse_players(args.players)
    if not variant.players_min <= len(names) <= variant.players_max:
        raise SimError(
            f"{variant.id} is for {variant.players_min}–{variant.players_max} players, "
            f"not {len(names)} ({args.players})"
        )
    check_bots(names, kinds, bot_options)
    if args.games < 1:
        raise SimError(f"--games must be at least 1, not {args.games}")
    if args.workers is not None and args.workers < 1:
        raise SimError(f"--workers must be at least 1, not {args.workers}")
    if args.save and Path(args.save).suffix.lower() not in (".json", ".csv"):
        raise SimError(f"--save {args.save!r}: the file name must end in .json or .csv")
    if args.plot:
        load_matplotlib()
    records = None
    if args.records:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SimError(f"--records {args.records!r}: {error.strerror}") from None
        records = str(Path(args.records).resolve())
    games = args.games * len(names) if args.duplicate else args.games
    options_by_player = tuple(tuple(sorted(player.items())) for player in bot_options) if any(bot_options) else ()
    return SimConfig(variant, tuple(names), tuple(kinds), games, args.seed, args.duplicate, records,
                     options_by_player)


def cmd_sim(args: argparse.Namespace) -> int:
    config = build_config(args)
    workers = args.workers or default_workers()
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = ProgressBar(config.games, sys.stderr) if show else None
    started = time.perf_counter()
    try:
        summaries = play_games(config, workers, bar)
    except GameFailed as error:
        if bar:
            bar.close()
        print(f"rummy sim: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if bar:
            bar.close()
        print("rummy sim: interrupted", file=sys.stderr)
        return 130
    if bar:
        bar.close()
    seconds = time.perf_counter() - started
    results = aggregate(config, summaries)
    if args.save:
        save_results(results, args.save)
    if args.plot:
        plot_results(results, args.plot)
    if args.json:
        print(json.dumps(results.to_json()))
        return 0
    print(table_text(results))
    used = min(workers, config.games)
    print(f"{seconds:.1f} s on {used} worker{'s' if used != 1 else ''} (seed {config.seed}).")
    for what, where in (("results", args.save), ("plot", args.plot), ("records", args.records)):
        if where:
            print(f"Saved the {what} to {where}.")
    return 0


def add_parser(commands: Any) -> None:
    """Add ``sim`` to the ``rummy`` subcommands (``commands`` is an ``add_subparsers`` object)."""
    sim = commands.add_parser(
        "sim",
        help="play many bot games and tabulate the results",
        description="Play many games between bots and print per-player results (seats rotate between games).",
        usage="rummy sim --variant ID --players BOT,BOT,... [--games N] [--seed S] [options]",
    )
    sim.add_argument("--variant", help="variant id (see 'rummy variants')")
    sim.add_argument("--variant-file", help="a TOML or JSON file defining a house variant")
    sim.add_argument("--players", required=True,
                     help="comma-separated bots, one per seat: random, greedy, heuristic, ismcts or easy … expert; "
                          "bot options follow as :key=value (ismcts:simulations=100)")
    sim.add_argument("--games", type=int, default=100, help="games to play (deals with --duplicate); default 100")
    sim.add_argument("--seed", type=int, default=0, help="master seed; every game's seed derives from it")
    sim.add_argument("--workers", type=int, help="worker processes (default: every core)")
    sim.add_argument("--duplicate", action="store_true",
                     help="play each deal once per seat rotation (--games counts deals)")
    sim.add_argument("--options", help="house rules as a JSON object")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="one house rule (repeatable; the value is read as JSON, else as text)")
    sim.add_argument("--json", action="store_true", help="print only the results, as JSON")
    sim.add_argument("--save", metavar="FILE", help="save the results to FILE.json or FILE.csv")
    sim.add_argument("--records", metavar="DIR", help="save every game's record as DIR/game-00001.json …")
    sim.add_argument("--plot", metavar="FILE", help="draw score distributions and points per round (matplotlib)")
    sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show a progress bar on stderr (default: when stderr is a terminal)")
    sim.set_defaults(run=cmd_sim)
