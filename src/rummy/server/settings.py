"""Server-wide settings: pacing, grace periods and limits (``rummy serve`` flags set some of them).

The limits that keep one client from exhausting a server open to the internet are described for
operators in docs/security.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerSettings:
    """Knobs of a running server; tests set the delays to 0."""

    #: Seconds a bot waits before it answers (so people can follow the game); 0 in tests.
    bot_delay: float = 0.8
    #: Seconds between the end of a round and the next deal, unless every player is ready sooner.
    round_pause: float = 10.0
    #: Seconds a dropped player has to come back before a bot may take the seat (table option).
    reconnect_grace: float = 30.0
    #: Bot level that plays for a dropped player or when a turn timer runs out.
    takeover_level: str = "medium"
    #: Worker processes for the search bots (0: a thread instead); the random bot always runs inline.
    bot_processes: int = 1
    #: Seconds a bot may think before the server plays a random legal move for it.
    bot_timeout: float = 30.0
    #: Seconds a waiting or finished table without clients stays in memory (it reloads when asked for).
    idle_table_seconds: float = 900.0
    #: Sentences of the move log sent to a client when it connects.
    recent_events: int = 50
    #: Largest client message accepted, in bytes.
    max_message_bytes: int = 16_384
    #: Client messages per second a connection may send (token bucket), and the burst allowed.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: Messages queued for a client that does not read before the server drops the connection.
    send_queue_limit: int = 1000
    #: Mark the session cookie ``Secure`` (behind HTTPS).
    secure_cookies: bool = False
    #: Refuse state-changing HTTP requests and WebSocket handshakes that a browser sends from a page of
    #: another origin (``Origin`` or ``Sec-Fetch-Site``): cross-site request forgery and WebSocket hijacking.
    check_origin: bool = True
    #: Serve ``/docs``, the API drawn by Swagger UI (its script comes from a CDN; ``/openapi.json`` is
    #: always served).
    api_docs: bool = False
    #: Origins accepted besides the server's own ``Host`` (e.g. ``https://games.example.org`` behind a
    #: proxy that rewrites ``Host``).
    allowed_origins: tuple[str, ...] = ()
    #: The names (``Host`` without the port) the server answers to; empty: any.  ``rummy serve`` on a
    #: loopback address answers to 127.0.0.1, localhost and ::1 only, unless ``--allow-host`` names others.
    allowed_hosts: tuple[str, ...] = ()
    #: Unfinished tables (waiting or playing, in memory) one player may host at once, and all the
    #: players of one client address together (an IPv6 address counts by its /64 network).
    max_tables_per_player: int = 10
    max_tables_per_address: int = 40
    #: Games that may run with no person connected (bots play every turn) per client address that made
    #: their tables, and on the whole server; a game past the limit waits until someone comes back.
    max_unattended_games_per_address: int = 4
    max_unattended_games: int = 50
    #: A game with nobody connected plays on to the end of its current round, at most this many turns
    #: after the last person left, then rests until someone comes back (docs/protocol.md).
    max_unattended_turns: int = 200
    #: Seconds an HTTP request may take to arrive whole, headers and body (slow clients are dropped).
    request_seconds: float = 20.0
    #: Open WebSocket connections per client address.
    max_sockets_per_address: int = 64
    #: Shortest turn timer a table may set (0, no timer, is always allowed): a shorter one would let a
    #: connected but silent host have the bots play a game at full speed.
    min_turn_seconds: float = 5.0
    #: SQLite: seconds between checkpoints of the write-ahead log, and the size past which (or the
    #: seconds after which) a checkpoint also truncates it; the size is the WAL's ``journal_size_limit``.
    checkpoint_seconds: float = 2.0
    wal_limit_bytes: int = 32 * 2**20
    wal_truncate_seconds: float = 60.0
    #: Seconds between moves of the surviving objects to the garbage collector's permanent generation
    #: (0: never), and between full collections of everything (:mod:`rummy.server.gc_pauses`).
    gc_freeze_seconds: float = 10.0
    gc_full_seconds: float = 3600.0
    #: The replay viewer (docs/replay-viewer.md): the largest record that may be uploaded, in bytes; the
    #: most actions and rounds one replay works through; replays per minute per client address, and the
    #: burst allowed.
    max_record_bytes: int = 2**20
    max_replay_actions: int = 10_000
    max_replay_rounds: int = 200
    replays_per_minute: float = 30.0
    replay_burst: int = 10
    #: On a cluster (``--redis``): seconds between a worker's heartbeats, and how long after its last
    #: one the others take its tables over (:mod:`rummy.server.cluster.membership`).
    heartbeat_seconds: float = 1.0
    lease_seconds: float = 3.0
