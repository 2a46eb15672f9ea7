"""The ``rummy eval`` command: its argument parser, the validation of the command line and the run
(the suite itself is :mod:`rummy.sim.evaluation`)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from rummy.engine import VARIANTS, get_variant
from rummy.sim.args import SimError, split_outside_json
from rummy.sim.evaluation import DEFAULT_PLAYERS, LADDER, EvalConfig, run_eval, table_text, total_games
from rummy.sim.pools import open_pool
from rummy.sim.report import Stopped, play_shown


def _specs(text: str, what: str) -> tuple[str, ...]:
    specs = tuple(part.strip() for part in split_outside_json(text))
    if not specs or any(not spec for spec in specs):
        raise SimError(f"{what} {text!r}: give bot specs separated by commas (random,greedy,heuristic)")
    if len(set(specs)) != len(specs):
        raise SimError(f"{what} {text!r}: a bot is named twice")
    return specs


def build_eval_config(args: argparse.Namespace) -> EvalConfig:
    """Validate the command line (a :class:`SimError` or VariantError on bad input)."""
    agents = _specs(args.agent, "AGENT")
    opponents = _specs(args.opponents, "--opponents") if args.opponents is not None else LADDER
    if args.variants is not None:
        ids = _specs(args.variants, "--variants")
        variants = tuple(get_variant(variant_id) for variant_id in ids)
    else:
        variants = tuple(VARIANTS.values())
    if args.workers is not None and args.workers < 1:
        raise SimError(f"--workers must be at least 1, not {args.workers}")
    config = EvalConfig(agents, opponents, variants, args.deals, args.seed, args.players, not args.no_reference)
    total_games(config)  # plans the matches: checks the numbers, the tables and the bots
    return config


def cmd_eval(args: argparse.Namespace) -> int:
    config = build_eval_config(args)
    pool = open_pool(args.workers, args.ray)
    started = time.perf_counter()
    try:
        results = play_shown("eval", total_games(config), args.progress, pool,
                             lambda bar: run_eval(config, progress=bar, pool=pool))
    except Stopped as stop:
        return stop.code
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(results.to_json()))
        return 0
    print(table_text(results))
    print(f"\n{sum(m.match.sim.games for m in results.matches)} games in {seconds:.1f} s on {pool.label}.")
    return 0


def add_parser(commands: Any) -> None:
    """Add ``eval`` to the ``rummy`` subcommands (``commands`` is an ``add_subparsers`` object)."""
    parser = commands.add_parser(
        "eval",
        help="evaluate a bot against the ladder: duplicate deals, paired intervals, ratings",
        description="Play an agent against each bot of the ladder in every variant, each deal once per seat "
                    "rotation, and print its score difference and win rate with 95% intervals paired by deal "
                    "and Bradley–Terry ratings on the Elo scale (docs/eval.md).",
        usage="rummy eval AGENT[,AGENT...] [--deals N] [--seed S] [--variants IDS] [--opponents BOTS] [options]",
    )
    parser.add_argument("agent", metavar="AGENT",
                        help="the bot to evaluate, as rummy sim --players takes it (heuristic, ismcts:simulations=64, "
                             "learned:path=policy.npz); several, separated by commas, are each evaluated")
    parser.add_argument("--deals", type=int, default=20, help="deals per match (each played once per seat); "
                                                              "default 20")
    parser.add_argument("--seed", type=int, default=0, help="master seed: the deals and the bots' seeds derive "
                                                            "from it; default 0")
    parser.add_argument("--variants", help="comma-separated variant ids (default: every variant)")
    parser.add_argument("--opponents", help=f"comma-separated bots (default: the ladder, {','.join(LADDER)})")
    parser.add_argument("--players", type=int, default=DEFAULT_PLAYERS,
                        help=f"players at each table: the agent and copies of the opponent; default {DEFAULT_PLAYERS}")
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the games on a Ray cluster: auto, local (a fresh Ray here) or ray://host:port "
                             "(needs the ray extra; results as a local run's)")
    parser.add_argument("--no-reference", action="store_true",
                        help="fit the ratings on this run's games only, without the shipped ladder results")
    parser.add_argument("--json", action="store_true", help="print only the results, as JSON (docs/eval.md)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: when stderr is a terminal)")
    parser.set_defaults(run=cmd_eval)
