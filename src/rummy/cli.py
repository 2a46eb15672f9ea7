"""The ``rummy`` command: ``variants``, ``rules ID``, ``replay FILE [--json]``, ``sim`` (see :mod:`rummy.sim`),
and ``serve`` / ``migrate`` (the game server, imported only when run: the others need no server extra)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from rummy import sim
from rummy.errors import RummyError
from rummy.house_rules import OPTION_PARSERS, load_variant_file
from rummy.record import ReplayResult, replay_file
from rummy.variants import VARIANTS, Variant, get_variant, register_variant


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
            "to a target" if variant.scoring == "winner_collects" else "one game"
        )
        rows.append((variant.id, variant.name, _players(variant), _decks(variant), rounds))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def rules_text(variant: Variant) -> str:
    """A readable summary of one variant's rules and options."""
    lines = [f"{variant.name} ({variant.id}), rules.md seed {variant.seed}", ""]
    lines.append(f"Players: {_players(variant)}.  Decks: {_decks(variant)}.")
    wild = {0: "jokers", 2: "2s"}
    wilds = " and ".join(wild[r] for r in sorted(variant.wild_ranks)) or "none"
    lines.append(f"Wild cards: {wilds}.  Aces in runs: {variant.ace_mode.replace('_', ' ')}.")
    if variant.rounds:
        lines.append("")
        lines.append("Rounds:")
        for number in range(1, len(variant.rounds) + 1):
            rules = variant.round_rules(number, variant.players_min)
            extra = []
            if rules.claim_limit and variant.buy_schedule is not None:
                blind = f", {rules.penalty_cards} blind" if rules.penalty_cards else ""
                extra.append(f"buy {rules.claim_limit}{blind}")
            if not rules.final_discard_allowed:
                extra.append("no final discard")
            contract = ", ".join(str(slot) for slot in rules.contract)
            deal = f"{rules.deal_size} cards: " if rules.deal_size else ""
            lines.append(f"  {number:>2}. {deal}{contract}" + (f" ({'; '.join(extra)})" if extra else ""))
    lines.append("")
    claims = {
        "pre_draw": "any other player may buy the top discard before each draw (first call wins)",
        "active_first_then_others": "the active player may buy first; others after the active player declines",
        "after_decline": "after the active player declines the discard, others may claim it (nearest wins)",
        "none": "no out-of-turn claims",
    }[variant.claim_mode]
    lines.append(f"Claims: {claims}.")
    scoring = {
        "penalty": "penalty points for cards left in hand; lowest total wins",
        "winner_collects": "the winner of a hand collects the points in the other hands; first to the target wins",
        "book": "first player to table a four-card book wins",
    }[variant.scoring]
    lines.append(f"Scoring: {scoring}.")
    lines.append("")
    lines.append("House-rule options (rules.md §8) and their values here:")
    for key, (attribute, _) in sorted(OPTION_PARSERS.items()):
        if key != "may_i_limit":
            lines.append(f"  {key} = {json.dumps(option_value(key, getattr(variant, attribute)))}")
    return "\n".join(lines)


def option_value(key: str, value: object) -> object:
    """An option's value spelled as a record or variant file writes it."""
    if key == "wild_ranks" and isinstance(value, frozenset):
        return ["JOKER" if rank == 0 else str(rank) for rank in sorted(value)]
    if key == "ace_purchasable_by" and isinstance(value, frozenset):
        return ["A" if rank == 1 else str(rank) for rank in sorted(value)]
    if key == "claims_per_window" and value == "1":
        return 1
    if key in ("target_by_players", "settlement_table") and isinstance(value, tuple):
        return {str(players): list(v) if isinstance(v, tuple) else v for players, v in value}
    if key == "buy_schedule" and isinstance(value, tuple):
        return [list(entry) for entry in value]
    return value


def cmd_rules(args: argparse.Namespace) -> int:
    print(rules_text(get_variant(args.variant)))
    return 0


def _summary(result: ReplayResult) -> str:
    data = result.to_json()
    if result.exit_code == 2:
        return f"malformed record: {data['error']['message']}"
    lines = []
    if not result.ok:
        error = data["error"]
        lines.append(f"illegal action in round {error['round']}, action {error['index']}: {error['message']}")
    state = data["state"]
    lines.append(f"round {state['round']}, phase {state['phase']}, active p{state['active']}")
    if result.ok:
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
    migrate.add_argument("--db", metavar="URL", help=db_help)
    migrate.set_defaults(run=cmd_migrate)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummy", description="Rummy-family card games.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("variants", help="list the variants").set_defaults(run=cmd_variants)
    rules = commands.add_parser("rules", help="summarise one variant's rules and options")
    rules.add_argument("variant")
    rules.set_defaults(run=cmd_rules)
    replay = commands.add_parser("replay", help="replay a game record and check every action")
    replay.add_argument("file")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.add_argument("--variant-file", help="a TOML or JSON file defining a house variant")
    replay.set_defaults(run=cmd_replay)
    sim.add_parser(commands)
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
