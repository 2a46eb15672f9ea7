"""The ``rummy sim`` command: its argument parser, the validation of the command line and the run."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from rummy.engine import apply_options, get_variant, load_variant_file
from rummy.sim.args import SimError, check_bots, parse_options, parse_players
from rummy.sim.pools import open_pool
from rummy.sim.report import Stopped, load_matplotlib, play_shown, plot_results, save_results, table_text
from rummy.sim.run import SimConfig, play_games
from rummy.sim.stats import aggregate


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
    pool = open_pool(args.workers, args.ray, config.games)
    started = time.perf_counter()
    try:
        summaries = play_shown("sim", config.games, args.progress, pool,
                               lambda bar: play_games(config, progress=bar, pool=pool))
    except Stopped as stop:
        return stop.code
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
    print(f"{seconds:.1f} s on {pool.label} (seed {config.seed}).")
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
                     help="comma-separated bots, one per seat: random, greedy, heuristic, ismcts, llm (a chat model, "
                          "docs/llm.md) or easy … expert; bot options follow as :key=value (ismcts:simulations=100)")
    sim.add_argument("--games", type=int, default=100, help="games to play (deals with --duplicate); default 100")
    sim.add_argument("--seed", type=int, default=0, help="master seed; every game's seed derives from it")
    sim.add_argument("--workers", type=int, help="worker processes (default: every core)")
    sim.add_argument("--ray", metavar="ADDRESS",
                     help="play the games on a Ray cluster: auto, local (a fresh Ray here) or ray://host:port "
                          "(needs the ray extra; results as a local run's)")
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
