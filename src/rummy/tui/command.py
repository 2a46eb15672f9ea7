"""``rummy play``: a whole game in the terminal against the project's bots, or a seat at a ``rummy serve``
table by its invite link (``--join URL``).  Needs the ``tui`` extra (Textual); docs/terminal.md."""

from __future__ import annotations

import argparse
import getpass
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from rummy.engine import UsageError, apply_options, get_variant, load_variant_file
from rummy.sim.args import check_bots, parse_options, parse_players

TUI_PACKAGES = {"textual", "rich", "websockets", "httpx"}
DEFAULT_PLAYERS = "me,heuristic,heuristic,heuristic"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = commands.add_parser(
        "play", help="play in the terminal against bots, or join a rummy serve table (needs the tui extra)",
        description="Play a whole game in the terminal (docs/terminal.md).")
    play.add_argument("--variant", default="may-i", help="a variant id (see 'rummy variants'; default may-i)")
    play.add_argument("--variant-file", help="a TOML or JSON file defining a house variant")
    play.add_argument("--players", default=DEFAULT_PLAYERS,
                      help=f"'me' for you, bot names or levels for the others, comma separated "
                           f"(default {DEFAULT_PLAYERS}); bot options as in rummy sim")
    play.add_argument("--seed", type=int, help="the shuffle's seed (default: a random one)")
    play.add_argument("--options", help="house rules as a JSON object, as rummy sim takes them")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="one house rule")
    play.add_argument("--record", metavar="PATH",
                      help="where the game record goes (default rummy-VARIANT-DATE-TIME.json here)")
    play.add_argument("--bot-delay", type=float, default=0.6, help="seconds between bot moves (default 0.6)")
    play.add_argument("--claim-seconds", type=float, default=10.0,
                      help="how long a buy / May-I window waits for you (default 10; 0: until you answer)")
    play.add_argument("--join", metavar="URL", help="take a seat at a rummy serve table by its invite link")
    play.add_argument("--name", help="your name at a server table (default: your login name)")
    play.add_argument("--cookie-file", metavar="PATH",
                      help="where the server identity cookies are kept (default $XDG_STATE_HOME/rummy/sessions.json)")
    play.set_defaults(run=cmd_play)


def default_record_path(variant: str) -> str:
    return f"rummy-{variant}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def build_seat(args: argparse.Namespace) -> tuple[Any, str]:
    """The seat to play and the record's path, from the command line (UsageError etc. on bad input)."""
    if args.bot_delay < 0 or args.claim_seconds < 0:
        raise UsageError("--bot-delay and --claim-seconds must not be negative")
    if args.join:
        from rummy.tui.remote import RemoteSeat

        name = (args.name or _login_name())[:24]
        seat = RemoteSeat(args.join, name, Path(args.cookie_file) if args.cookie_file else None)
        return seat, args.record or f"rummy-{seat.table_id}.json"
    from rummy.tui.local import LocalSession, LocalTable

    options = parse_options(args.options, args.option)
    if args.variant_file:
        variant = load_variant_file(args.variant_file)
        if options:
            variant = apply_options(variant, options)
    else:
        variant = get_variant(args.variant, options)
    names, kinds, bot_options = parse_players(args.players)
    bots = [i for i, kind in enumerate(kinds) if kind != "me"]
    check_bots([names[i] for i in bots], [kinds[i] for i in bots], [bot_options[i] for i in bots])
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    table = LocalTable.start(variant, kinds, seed=seed, bot_options=bot_options)
    session = LocalSession(table, bot_delay=args.bot_delay, claim_seconds=args.claim_seconds)
    return session, args.record or default_record_path(variant.id)


def _login_name() -> str:
    try:
        return getpass.getuser() or "Terminal"
    except (KeyError, OSError):
        return "Terminal"


def cmd_play(args: argparse.Namespace) -> int:
    try:
        seat, record = build_seat(args)  # bad input is refused before the screen's library loads
        from rummy.tui.app import PlayApp
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] not in TUI_PACKAGES:
            raise
        print(f"rummy: `rummy play` needs the tui extra ({error.name} is missing): pip install 'rummy[tui]'",
              file=sys.stderr)
        return 2
    app = PlayApp(seat, record)
    code = app.run()
    if app.failure:
        print(f"rummy play: {app.failure}", file=sys.stderr)
    if app.record_saved:
        print(f"record saved in {app.record_saved}")
    return code if code is not None else 1
