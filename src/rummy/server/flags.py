"""The flags of ``rummy serve`` and the :class:`~rummy.server.settings.ServerSettings` they make.

Importing this module needs no server extra (the command line parses every command's flags up front);
each default is the setting's own default.
"""

from __future__ import annotations

import argparse
import ipaddress
import os

from rummy.server.settings import ServerSettings

DEFAULTS = ServerSettings()


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def add_serve_arguments(serve: argparse.ArgumentParser, db_help: str) -> None:
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free)")
    serve.add_argument("--db", metavar="URL", help=f"{db_help}; default $RUMMY_DB")
    serve.add_argument("--db-file", metavar="PATH",
                       help="read the --db URL from this file (keeps a password off the command line)")
    serve.add_argument("--secret", help="cookie-signing secret (default: $RUMMY_SECRET, else one kept in the db)")
    serve.add_argument("--bot-delay", type=float, default=DEFAULTS.bot_delay, metavar="SECONDS",
                       help="bots wait before moving")
    serve.add_argument("--round-pause", type=float, default=DEFAULTS.round_pause, metavar="SECONDS",
                       help="pause between rounds unless everyone is ready")
    serve.add_argument("--reconnect-grace", type=float, default=DEFAULTS.reconnect_grace, metavar="SECONDS",
                       help="time a dropped player has before a bot may take the seat")
    serve.add_argument("--rate-limit", type=float, default=DEFAULTS.messages_per_second, metavar="PER_SECOND",
                       help="messages a client may send per second (bursts of three times as many)")
    limits = serve.add_argument_group("on the open internet (docs/security.md)")
    limits.add_argument("--max-tables-per-player", type=_count, default=DEFAULTS.max_tables_per_player,
                        metavar="N", help="unfinished tables one player may host at once")
    limits.add_argument("--max-tables-per-address", type=_count, default=DEFAULTS.max_tables_per_address,
                        metavar="N", help="unfinished tables the players of one address may host at once")
    limits.add_argument("--max-unattended-games", type=_count, default=DEFAULTS.max_unattended_games,
                        metavar="N", help="games bots may play on with nobody connected, on the whole server")
    limits.add_argument("--max-unattended-games-per-address", type=_count,
                        default=DEFAULTS.max_unattended_games_per_address, metavar="N",
                        help="the same, per address that made the tables")
    limits.add_argument("--max-unattended-turns", type=_count, default=DEFAULTS.max_unattended_turns,
                        metavar="N", help="turns a game with nobody connected plays on (at most to the round's end)")
    limits.add_argument("--max-sockets-per-address", type=_count, default=DEFAULTS.max_sockets_per_address,
                        metavar="N", help="open table connections per address")
    limits.add_argument("--wal-limit-mb", type=_count, default=DEFAULTS.wal_limit_bytes // 2**20, metavar="MB",
                        help="SQLite: truncate the write-ahead log once it passes this size")
    limits.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="another origin whose pages may use this server (behind a proxy that rewrites Host)")
    limits.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="a name (Host) this server answers to; any other is refused (default on a loopback "
                             "--host: 127.0.0.1, localhost, ::1; else any)")
    limits.add_argument("--secure-cookies", action="store_true", help="mark the session cookie Secure (behind HTTPS)")
    limits.add_argument("--api-docs", action="store_true",
                        help="serve /docs, the HTTP API drawn by Swagger UI from a CDN (/openapi.json is always there)")
    cluster = serve.add_argument_group("several processes sharing one game world (docs/deploy.md)")
    cluster.add_argument("--redis", metavar="URL",
                         help="redis://HOST:PORT/N shared by every worker (needs a PostgreSQL --db); "
                              "default $RUMMY_REDIS")
    cluster.add_argument("--redis-file", metavar="PATH", help="read the --redis URL from this file")
    cluster.add_argument("--workers", type=_count, default=1, metavar="N",
                         help="worker processes on this port (more than 1 needs --redis)")
    cluster.add_argument("--worker-ports", type=int, default=None, metavar="FIRST",
                         help="with --workers N: worker k also listens on port FIRST+k-1 alone, where the "
                              "clients of its tables are sent (default: --port + 1; 0: any free port)")
    cluster.add_argument("--lease-seconds", type=float, default=DEFAULTS.lease_seconds, metavar="SECONDS",
                         help="a worker silent this long is dead: the others take its tables over")
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.add_argument("--access-log", action="store_true", help="log every HTTP request")


class URLSourceError(ValueError):
    """A ``--db`` / ``--redis`` URL that cannot be read from where it was asked for."""


def resolve_urls(args: argparse.Namespace) -> None:
    """Fill ``args.db`` and ``args.redis`` from where they were given, first found wins: the flag
    (``--db``), the file it names (``--db-file``), the environment (``RUMMY_DB``); raise
    :class:`URLSourceError` for a flag given with its file flag, a file that cannot be read or is empty.

    >>> args = argparse.Namespace(db=None, db_file=None, redis="redis://cache:6379/0", redis_file=None)
    >>> resolve_urls(args); args.redis
    'redis://cache:6379/0'
    """
    for name in ("db", "redis"):
        if hasattr(args, name):
            setattr(args, name, _url_from(name, getattr(args, name), getattr(args, f"{name}_file", None)))


def _url_from(name: str, given: str | None, path: str | None) -> str | None:
    if given is not None and path is not None:
        raise URLSourceError(f"give --{name} or --{name}-file, not both")
    if given is not None:
        return given
    if path is not None:
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read().strip()
        except OSError as error:
            raise URLSourceError(f"cannot read --{name}-file {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise URLSourceError(f"--{name}-file {path} is not UTF-8 text") from None
        if not text:
            raise URLSourceError(f"--{name}-file {path} is empty: it must hold the URL on one line")
        if "\n" in text:
            raise URLSourceError(f"--{name}-file {path} holds more than one line: it must hold only the URL")
        return text
    return os.environ.get(f"RUMMY_{name.upper()}") or None


def settings_from_args(args: argparse.Namespace) -> ServerSettings:
    return ServerSettings(
        bot_delay=args.bot_delay, round_pause=args.round_pause, reconnect_grace=args.reconnect_grace,
        messages_per_second=args.rate_limit, message_burst=max(1, int(3 * args.rate_limit)),
        max_tables_per_player=args.max_tables_per_player, max_tables_per_address=args.max_tables_per_address,
        max_unattended_games=args.max_unattended_games,
        max_unattended_games_per_address=args.max_unattended_games_per_address,
        max_unattended_turns=args.max_unattended_turns,
        max_sockets_per_address=args.max_sockets_per_address, wal_limit_bytes=args.wal_limit_mb * 2**20,
        allowed_origins=tuple(origin.rstrip("/").lower() for origin in args.allow_origin),
        allowed_hosts=allowed_hosts(args.host, args.allow_host),
        secure_cookies=args.secure_cookies, api_docs=args.api_docs, lease_seconds=args.lease_seconds,
        heartbeat_seconds=args.lease_seconds / 3,
    )


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def allowed_hosts(listen: str, names: list[str]) -> tuple[str, ...]:
    """The ``Host`` names to answer to: those given, else the loopback names when listening on loopback
    (a local server is what DNS rebinding aims at), else any (empty).

    >>> allowed_hosts("127.0.0.1", []), allowed_hosts("0.0.0.0", []), allowed_hosts("0.0.0.0", ["Games.Example"])
    (('127.0.0.1', 'localhost', '::1'), (), ('games.example',))
    """
    if names:
        return tuple(name.strip("[]").lower() for name in names)
    try:
        loopback = ipaddress.ip_address(listen).is_loopback
    except ValueError:
        loopback = listen == "localhost"
    return LOOPBACK_NAMES if loopback else ()
