"""The ``rummy`` command: ``variants``, ``rules ID``, ``rules --errors``, ``replay FILE [--json]``, ``sim``
(see :mod:`rummy.sim`), ``play`` (see :mod:`rummy.tui`; Textual is imported only when run),
and ``serve`` / ``migrate`` (the game server, imported only when run: the others need no server extra)."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from collections.abc import Callable, Sequence

from rummy import sim
from rummy.engine import (
    OPTION_PARSERS,
    VARIANTS,
    Rule,
    RummyError,
    Variant,
    backend,
    get_variant,
    load_variant_file,
    register_variant,
)
from rummy.record import ReplayResult, replay_file
from rummy.sim import dataset as dataset_command
from rummy.sim.eval_cli import add_parser as add_eval_parser
from rummy.text.house_rule_docs import GROUPS, RULE_DOCS, rules_in_words, variant_value
from rummy.text.how_to_play import how_to_play
from rummy.tui.command import add_parser as add_play_parser


def _players(variant: Variant) -> str:
    return f"{variant.players_min}–{variant.players_max}"


def _decks(variant: Variant) -> str:
    if variant.decks is None:
        return "2–4 (by players)"
    jokers = variant.decks * variant.jokers_per_deck
    return f"{variant.decks}" + (f" + {jokers} jokers" if jokers else "")


def cmd_variants(_: argparse.Namespace) -> int:
    rows = [("id", "name", "players", "decks", "rounds")]
    for variant in VARIANTS.values():
        rounds = str(variant.round_count) if variant.round_count else (
            "to a target" if variant.target_by_players else "one game"
        )
        rows.append((variant.id, variant.name, _players(variant), _decks(variant), rounds))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def rules_text(variant: Variant) -> str:
    """One variant's rules in words: how to play (:mod:`rummy.text.how_to_play`), then every house rule by group
    with its value in words, its key and value as a variant file writes them, and what it means
    (:mod:`rummy.text.house_rule_docs`, the words of the create-table panel)."""
    lines = [f"{variant.name} ({variant.id}), rules.md seed {variant.seed}", ""]
    lines.append(f"Players: {_players(variant)}.  Decks: {_decks(variant)}.")
    for section in how_to_play(variant):
        lines += ["", section["title"], *(f"  {line}" for line in section["lines"])]
    lines += ["", "House rules (rules.md §8): what each means here, its key and value for a variant file."]
    for group, title in GROUPS.items():
        rows = rules_in_words(variant, group)
        if rows:
            lines += ["", title]
        for row in rows:
            lines.append(f"  {row.label}: {row.words}")
            lines.append(f"    {row.key} = {json.dumps(row.value)} — {row.description}")
    shown = {row.key for row in rules_in_words(variant)}
    lines += ["", "Keys with no effect in this game:"]
    for key in OPTION_PARSERS:
        if key not in shown and key != "may_i_limit":
            lines.append(f"  {key} = {json.dumps(variant_value(variant, key))} — {RULE_DOCS[key].label}")
    return "\n".join(lines)


def errors_text() -> str:
    """Every rule key an illegal action is refused with, and what it forbids, one a line."""
    width = max(len(rule) for rule in Rule)
    return "\n".join(f"{rule:<{width}}  {rule.description}" for rule in Rule)


def cmd_rules(args: argparse.Namespace) -> int:
    if args.errors:
        print(errors_text())
        return 0
    if args.variant is None:
        print("rummy rules: give a variant id (see 'rummy variants') or --errors", file=sys.stderr)
        return 2
    print(rules_text(get_variant(args.variant)))
    return 0


def _summary(result: ReplayResult) -> str:
    data = result.to_json()
    if result.exit_code == 2:
        return f"malformed record: {data['error']['message']}"
    lines = []
    error = data.get("error")
    if error is not None and "index" in error:
        lines.append(f"illegal action in round {error['round']}, action {error['index']}: {error['message']}")
    elif error is not None:
        lines.append(error["message"])
    state = data["state"]
    lines.append(f"round {state['round']}, phase {state['phase']}, active p{state['active']}")
    for verdict in data["shuffles"]:
        reason = f" ({verdict['reason']})" if "reason" in verdict else ""
        lines.append(f"  round {verdict['round']} shuffle: {verdict['status']}{reason}")
    if "results" in data:
        res = data["results"]
        for row in res["rounds"]:
            went = "nobody" if row["went_out"] is None else f"p{row['went_out']}"
            lines.append(f"  round {row['round']}: {row['end']} ({went}) scores {row['scores']}")
        lines.append(f"totals {res['totals']}" + (f", winners {res['winners']}" if res["game_over"] else ""))
        for row in res.get("settlement", []):
            lines.append(f"  p{row['seat']}: position {row['position']}, net {row['net']}")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    variant = None
    if args.variant_file:
        try:
            variant = load_variant_file(args.variant_file)
        except RummyError as error:
            result = ReplayResult(False, 2, error={"message": str(error)})
            print(json.dumps(result.to_json()) if args.json else _summary(result))
            return 2
        register_variant(variant)
    result = replay_file(args.file, variant)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(_summary(result))
    return result.exit_code


SERVER_PACKAGES = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "aiosqlite", "asyncpg", "alembic",
                   "itsdangerous", "greenlet", "anyio"}


def _server_command(name: str) -> Callable[[argparse.Namespace], int] | None:
    """``serve_command`` or ``migrate_command`` of :mod:`rummy.server.serve`; None (after a message)
    when the server extra is not installed."""
    try:
        from rummy.server import serve
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in SERVER_PACKAGES:
            raise
        print(f"rummy: `rummy {name}` needs the server extra ({error.name} is missing): "
              "pip install 'rummy[server]'", file=sys.stderr)
        return None
    command: Callable[[argparse.Namespace], int] = getattr(serve, f"{name}_command")
    return command


def cmd_serve(args: argparse.Namespace) -> int:
    command = _server_command("serve")
    return command(args) if command is not None else 2


def cmd_migrate(args: argparse.Namespace) -> int:
    command = _server_command("migrate")
    return command(args) if command is not None else 2


def _add_server_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db_help = "sqlite:///FILE, postgresql://USER@HOST/DB or a file path (default: rummy.db here)"
    serve = commands.add_parser("serve", help="run the game server (needs the server extra)")
    from rummy.server.flags import add_serve_arguments  # no server extra needed: argparse only

    add_serve_arguments(serve, db_help)
    serve.set_defaults(run=cmd_serve)
    migrate = commands.add_parser("migrate", help="create or upgrade the server's database schema")
    migrate.add_argument("--db", metavar="URL", help=f"{db_help}; default $RUMMY_DB")
    migrate.add_argument("--db-file", metavar="PATH", help="read the --db URL from this file")
    migrate.set_defaults(run=cmd_migrate)


def _version() -> str:
    """``rummy 0.1.0 (engine backend: native)``: the installed version and which engine backend runs."""
    try:
        number = importlib.metadata.version("rummy")
    except importlib.metadata.PackageNotFoundError:  # (run from a source tree that was never installed)
        number = "unknown"
    return f"rummy {number} (engine backend: {backend()})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummy", description="Rummy-family card games.")
    parser.add_argument("--version", action="version", version=_version(),
                        help="print the version and the engine backend that runs (RUMMY_ENGINE), and exit")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("variants", help="list the variants").set_defaults(run=cmd_variants)
    rules = commands.add_parser("rules", help="summarise one variant's rules and options, or list the rule keys")
    rules.add_argument("variant", nargs="?", help="a variant id (see 'rummy variants')")
    rules.add_argument("--errors", action="store_true",
                       help="list the rule keys an illegal action is refused with, and what each forbids")
    rules.set_defaults(run=cmd_rules)
    replay = commands.add_parser("replay", help="replay a game record and check every action")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.add_argument("--variant-file", help="a TOML or JSON file defining a house variant")
    replay.set_defaults(run=cmd_replay)
    sim.add_parser(commands)
    add_eval_parser(commands)
    dataset_command.add_parser(commands)
    add_play_parser(commands)
    _add_server_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except RummyError as error:
        print(f"rummy: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a pager that quit early
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
