"""The ``rummy dataset`` command: self-play games of chosen bots written as game records plus per-decision arrays
(:mod:`rummy.env.dataset`, docs/dataset.md), reproducible from ``--seed``.

The bots and their seating are ``rummy sim``'s (``--players``, bot options, seats rotating between games).  The
command line is checked before anything is written (bad input: exit code 2, one line, no file); the dataset is
written into a new directory beside ``--out`` and renamed to it only when complete, so an error or an interrupt
leaves nothing behind.  Needs the ``rl`` extra (numpy, gymnasium, pettingzoo), imported only when run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummy.engine import get_variant
from rummy.sim.args import SimError, check_bots, parse_options, parse_players, split_outside_json
from rummy.sim.pools import open_pool
from rummy.sim.report import Stopped, play_shown
from rummy.sim.run import SimConfig, in_game_order

if TYPE_CHECKING:
    from rummy.env.dataset import DatasetConfig

REWARDS = ("score", "win")


def build_dataset_config(args: argparse.Namespace) -> DatasetConfig:
    """Validate the command line (a :class:`~rummy.sim.args.SimError` or the engine's error on bad input)."""
    try:
        from rummy.env.dataset import DatasetConfig
    except ImportError as error:
        raise SimError(f"rummy dataset needs the optional extra 'rl' (pip install 'rummy[rl]'): {error}") from None
    options = parse_options(args.options, args.option)
    variant = get_variant(args.variant, options)
    names, kinds, bot_options = parse_players(args.players)
    if not variant.players_min <= len(names) <= variant.players_max:
        raise SimError(f"{variant.id} is for {variant.players_min}–{variant.players_max} players, "
                       f"not {len(names)} ({args.players})")
    if "llm" in kinds:
        raise SimError("--players: the llm bot is not reproducible from a seed; a dataset cannot seat it")
    check_bots(names, kinds, bot_options)
    for flag, value in (("--games", args.games), ("--shard-games", args.shard_games), ("--workers", args.workers)):
        if value is not None and value < 1:
            raise SimError(f"{flag} must be at least 1, not {value}")
    out = Path(args.out)
    if out.exists() and not (out.is_dir() and not any(out.iterdir())):
        raise SimError(f"--out {args.out!r} exists and is not an empty directory: give a new one")
    if not out.resolve().parent.is_dir():
        raise SimError(f"--out {args.out!r}: the directory {str(out.resolve().parent)!r} does not exist")
    by_player = tuple(tuple(sorted(player.items())) for player in bot_options) if any(bot_options) else ()
    sim = SimConfig(variant, tuple(names), tuple(kinds), args.games, args.seed, bot_options=by_player)
    specs = tuple(part.strip() for part in split_outside_json(args.players))
    return DatasetConfig(sim, args.shard_games, args.reward, specs)


def cmd_dataset(args: argparse.Namespace) -> int:
    config = build_dataset_config(args)
    from rummy.env.dataset import play_chunk, write_dataset

    out = Path(args.out)
    games = config.sim.games
    pool = open_pool(args.workers if args.ray else args.workers or 1, args.ray, games)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.resolve().parent))
    umask = os.umask(0)
    os.umask(umask)
    partial.chmod(0o777 & ~umask)  # (mkdtemp makes it private; the dataset is an ordinary directory)
    try:
        manifest = play_shown("dataset", games, args.progress, pool, lambda bar: write_dataset(
            config, partial, in_game_order(pool, play_chunk, config, games, bar)))
        if out.exists():
            out.rmdir()  # (checked empty above)
        partial.rename(out)
    except Stopped as stop:
        return stop.code
    except OSError as error:
        print(f"rummy dataset: {out}: {error.strerror or error}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    counts = manifest["counts"]
    print(f"Wrote {counts['games']} games, {counts['decisions']} decisions in {counts['shards']} "
          f"shard{'s' if counts['shards'] != 1 else ''} to {args.out} (seed {config.sim.seed}) on {pool.label}.")
    return 0


def add_parser(commands: Any) -> None:
    """Add ``dataset`` to the ``rummy`` subcommands (``commands`` is an ``add_subparsers`` object)."""
    parser = commands.add_parser(
        "dataset",
        help="write self-play games as records plus per-decision arrays (offline RL, imitation)",
        description="Play games between bots (seated as in 'rummy sim') and write their records and, per decision, "
                    "the observation, mask, action, seat, reward and return as .npz shards (docs/dataset.md).",
        usage="rummy dataset --variant ID --players BOT,BOT,... --out DIR [--games N] [--seed S] [options]",
    )
    parser.add_argument("--variant", required=True, help="variant id (see 'rummy variants')")
    parser.add_argument("--players", required=True,
                        help="comma-separated bots, one per seat, as for 'rummy sim' (random, greedy, heuristic, "
                             "ismcts, learned, or easy … expert; bot options as :key=value)")
    parser.add_argument("--out", required=True, metavar="DIR", help="a new (or empty) directory to write")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="master seed: the same seed writes the same bytes")
    parser.add_argument("--shard-games", type=int, default=10, metavar="K", help="games per shard (default 10)")
    parser.add_argument("--reward", choices=REWARDS, default="score",
                        help="the environment's rewards: score (each round, default) or win (at the end)")
    parser.add_argument("--workers", type=int, help="worker processes (default 1; the bytes do not depend on it)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the games on a Ray cluster: auto, local (a fresh Ray here) or ray://host:port "
                             "(needs the ray extra; the bytes are a local run's)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on standard error (default: when it is a terminal)")
    parser.add_argument("--options", help="house rules as a JSON object")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="one house rule (repeatable; the value is read as JSON, else as text)")
    parser.set_defaults(run=cmd_dataset)
