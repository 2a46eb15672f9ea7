"""A table's state and the layer every change goes through: the event log first, then the clients.

:class:`TableCore` holds the game, the seats and the clients of one table.  A change is applied to
the game, written to the event log (:meth:`TableCore._persist`) and only then told: the move-log
sentences, the ack, and every client's new state (:meth:`TableCore._accept`).  It also rebuilds a
table from its log.  The owner task, its commands, timers and bots are :class:`~rummy.server.tables.table.Table`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from rummy.engine import Action, ClaimWindow, Game, IllegalActionError, Phase
from rummy.server.events.describe import Before, describe_action
from rummy.server.events.log import Rebuilt, rebuild
from rummy.server.limits import UnattendedGames
from rummy.server.outages import CLOSE_TRY_AGAIN, UNAVAILABLE, outage, unavailable_message
from rummy.server.settings import ServerSettings
from rummy.server.storage.commit import Commit, CommitOutcomeUnknown
from rummy.server.storage.database import Database, StaleOwnerError
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.catalog import TableConfig
from rummy.server.tables.clock import TableClock
from rummy.server.tables.connections import Connection
from rummy.server.tables.inbox import Item, TimerFired
from rummy.server.tables.protocol import ProtocolError, ack_message, error_message
from rummy.server.tables.seats import SeatState
from rummy.server.tables.snapshots import StateEncoder, state_message, table_summary

log = logging.getLogger("rummy.server")

Event = tuple[str, dict[str, Any]]
Move = tuple[Action, str]  # an action and who made it: "player", "bot", "takeover", "timer"


class TableCore:
    """A table's state, its durable changes and what its clients see."""

    def __init__(self, table_id: str, config: TableConfig, host: str, seats: list[SeatState], *,
                 db: Database, bots: BotRunner, settings: ServerSettings, status: str = "waiting",
                 unattended: UnattendedGames | None = None, address: str | None = None) -> None:
        self.id = table_id
        self.config = config
        self.rules = config.rules()
        self.host = host
        #: Who the per-address limits count this table under: the address that made it, or (for a
        #: table rebuilt after a restart, whose address was never stored) its host.
        self.address = address or f"player {host}"
        self.unattended = unattended or UnattendedGames(settings.max_unattended_games_per_address,
                                                        settings.max_unattended_games)
        self.paused = False  # an unattended game past the limits, or resting: its bots and timers wait
        #: The game's ``turns_played`` when the last person left (None while someone is connected).
        self.unattended_since: int | None = None
        self.seats = seats
        self.status = status
        self.db, self.bots, self.settings = db, bots, settings
        self.game: Game | None = None
        self.game_number = 0
        self.seq = 0
        #: This server's fencing token for the table (``rummy serve --redis``; None on a single server),
        #: and what to do once a write shows another server took the table over.
        self.fence: int | None = None
        self.on_lost: Callable[[TableCore], None] | None = None
        self.connections: set[Connection] = set()
        self.recent: deque[str] = deque(maxlen=settings.recent_events)
        self._fresh: list[str] = []
        self._queue: asyncio.Queue[Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.last_active = 0.0  # event-loop time of the owner's latest job
        self.clock = TableClock(self.post, TimerFired)
        self._timed_window: ClaimWindow | None = None
        self._timed_turn: tuple[int, int, int] | None = None
        self._round_key: tuple[int, int] | None = None
        self._autoplay: tuple[int, tuple[int, int, int]] | None = None
        self._bot_pending: set[int] = set()
        self._auto_pending = False  # an AutoPass is queued
        self._thinking: set[asyncio.Task[None]] = set()
        self._seen_window: ClaimWindow | None = None
        self._window_serial = 0
        self._decision_seq = [0] * len(seats)
        self._decision_sig: list[object] = [None] * len(seats)
        #: Per seat, the turns the computer played for its person since they left: (game, round, turn).
        self.stood_in: list[set[tuple[int, int, int]]] = [set() for _ in seats]
        #: The database was found away and the clients were told (once an outage: cleared by a write).
        self._told_outage = False
        #: A write's outcome is unknown (the connection was lost during its commit): the log is read
        #: before the next write (:meth:`_settle`).
        self.in_doubt = False

    def post(self, item: Item) -> None:
        self._queue.put_nowait(item)

    def idle_for(self, now: float) -> float:
        """Seconds nothing has happened at a table that nothing can move (else 0): no client, nothing
        queued, no bot thinking, no timer running — a waiting or finished table, or a game waiting for
        players who left (it comes back from the event log as it was)."""
        busy = (self.connections or not self._queue.empty() or self._bot_pending or self._thinking
                or self.clock.armed() or any(seat.grace is not None for seat in self.seats))
        return 0.0 if busy else now - self.last_active

    def _require_game(self) -> Game:
        if self.game is None or self.status != "playing":
            raise ProtocolError("not-started", "no game is being played at this table")
        return self.game

    def _turn_id(self) -> tuple[int, int, int] | None:
        game = self.game
        if game is None or game.phase not in (Phase.CLAIM, Phase.DRAW, Phase.PLAY):
            return None
        return (self.game_number, game.round_number, game.turns_played)

    # -- changing the game --------------------------------------------------------------------

    async def _persist(self, events: list[Event], *, status: str | None = None,
                       seats: list[dict[str, Any]] | None = None) -> None:
        """Write ``events`` to the log (raises ``unavailable`` when the database refuses)."""
        if self.in_doubt:
            await self._settle()
        rows = [(self.seq + i + 1, kind, payload) for i, (kind, payload) in enumerate(events)]
        try:
            await self.db.commit(Commit(self.id, rows, status=status, seats=seats or [], fence=self.fence))
        except StaleOwnerError:
            raise self._moved() from None
        except CommitOutcomeUnknown as error:
            self.in_doubt = True
            self._database_failed(error, len(rows), in_doubt=True)
            raise ProtocolError("unavailable", "the database went away while saving this, so it may or may not "
                                "have been saved: the next state will say (reconnect if none comes)") from None
        except Exception as error:  # noqa: BLE001 - any database failure leaves the table as it was
            self._database_failed(error, len(rows))
            raise ProtocolError("unavailable", "the server could not save this; nothing changed, try again") from None
        self._told_outage = False
        if rows:
            self.seq = rows[-1][0]
        if status is not None:
            self.status = status

    def _moved(self) -> ProtocolError:
        log.warning("table %s: another server took the table over; this one lets it go", self.id)
        if self.on_lost is not None:
            self.on_lost(self)
        return ProtocolError("unavailable", "this table moved to another server: reconnect and try again")

    def _database_failed(self, error: Exception, count: int, *, in_doubt: bool = False) -> None:
        log.error("table %s: could not write %d event(s): %s", self.id, count, error)
        service = outage(error)
        if service is not None and not self._told_outage:
            self._told_outage = True
            # After the answer to the command that failed (queued next): never a silent socket.
            asyncio.get_running_loop().call_soon(self.tell_outage, service, in_doubt)

    async def _settle(self) -> None:
        """Find out whether the write in doubt landed (:meth:`Database.settle`), before writing again:
        if its events are in the log, the table is rebuilt from the log (it is stopped here: its clients
        reconnect and find it as the log has it); if not, it writes on from where it was."""
        try:
            settled = await self.db.settle(self.id, self.fence)
        except Exception as error:  # noqa: BLE001 - still in doubt: the next write asks again
            self._database_failed(error, 0)
            raise ProtocolError("unavailable", "the server could not save this; nothing changed, try again") from None
        if settled is None:
            raise self._moved()
        if settled.last_seq > self.seq:
            log.warning("table %s: the write in doubt was saved (the log ends at %d, this table at %d): "
                        "the table is rebuilt from the log", self.id, settled.last_seq, self.seq)
            if self.on_lost is not None:
                self.on_lost(self)
            raise ProtocolError("unavailable", "this table is being rebuilt from its log: reconnect and try again")
        log.info("table %s: the write in doubt was not saved; writing on", self.id)
        self.fence = settled.fence
        self.in_doubt = False

    def _accept(self, sentences: Iterable[str], ack: tuple[Connection, str | int] | None = None) -> None:
        """After a durable change: the move log, the ack, then timers, bots and every client's state."""
        for sentence in sentences:
            self.recent.append(sentence)
            self._fresh.append(sentence)
        if ack is not None:
            ack[0].send(ack_message(ack[1]))
        self._refresh()

    async def _play(self, moves: Iterable[Move], *, ack: tuple[Connection, str | int] | None = None) -> None:
        """Apply ``moves`` (read lazily, so a generator may look at the state) as one change."""
        game = self._require_game()
        saved = game.snapshot()
        events: list[Event] = []
        sentences: list[str] = []
        stood_in: list[tuple[int, tuple[int, int, int]]] = []
        try:
            for action, by in moves:
                before = Before.of(game)
                if by == "takeover" and action.seat == game.active and game.phase in (Phase.DRAW, Phase.PLAY):
                    stood_in.append((action.seat, (self.game_number, game.round_number, game.turns_played)))
                game.apply(action)
                events.append(("action", {"action": str(action), "by": by}))
                sentences.extend(describe_action(before, game, action))
        except IllegalActionError as error:
            game.restore(saved)
            raise ProtocolError("illegal", error.reason, rule=error.rule) from None
        if not events:
            return
        try:
            await self._persist(events, status="finished" if game.game_over else None)
        except ProtocolError:
            game.restore(saved)
            raise
        for seat, turn in stood_in:
            self.stood_in[seat].add(turn)
        self._accept(sentences, ack)

    def _begin(self, game: Game, number: int) -> None:
        self.game, self.game_number = game, number
        self._autoplay = None
        self._timed_turn = None
        self._round_key = None
        for seat in self.seats:
            seat.ready = False

    def _schedule(self) -> None:
        """Arm the timers and call the bots of the current state (the owner's job)."""
        raise NotImplementedError

    # -- what the clients see -------------------------------------------------------------------

    def _refresh(self, exclude: Connection | None = None) -> None:
        self._track_decisions()
        self._schedule()
        self._broadcast(exclude)

    def _track_decisions(self) -> None:
        """Note, per seat, the newest state that changed what it must decide (the ``stale`` rule)."""
        game = self.game
        if game is None:
            return
        if game.window is not self._seen_window:
            self._seen_window = game.window
            self._window_serial += 1
        to_act = game.to_act
        for seat in range(game.n):
            signature: object = None
            if seat in to_act:
                signature = ("claim", self._window_serial) if game.phase is Phase.CLAIM else ("turn", self.seq)
            if signature != self._decision_sig[seat]:
                self._decision_sig[seat] = signature
                self._decision_seq[seat] = self.seq

    def turn_words(self, seat: int) -> str | None:
        """Where the game stands, for ``seat``'s entry in "Your tables": ``your turn``, ``Bob's turn``,
        ``between rounds``, ``waiting for players`` (None once the game is over)."""
        game = self.game
        if self.status == "waiting" or game is None:
            return "waiting for players"
        if game.game_over or self.status == "finished":
            return None
        if game.phase not in (Phase.CLAIM, Phase.DRAW, Phase.PLAY):
            return "between rounds"
        if game.active == seat:
            return "your turn"
        return f"{game.players[game.active]}'s turn"

    def summary(self) -> dict[str, Any]:
        """The public part of the state (``table`` of a state message, ``GET /api/tables/{id}``)."""
        autoplay = self._autoplay[0] if self._autoplay is not None else None
        return table_summary(self, autoplay)

    def tell_outage(self, service: str, in_doubt: bool = False) -> None:
        """Every client: an ``unavailable`` error, then close code 1013 (reconnect after a pause)."""
        message = (f"{service} went away while a change was being saved, so it may or may not have been saved: "
                   "reconnect in a few seconds to see" if in_doubt else unavailable_message(service))
        for connection in list(self.connections):
            connection.send(error_message(UNAVAILABLE, message))
            connection.close(CLOSE_TRY_AGAIN)

    def _broadcast(self, exclude: Connection | None = None) -> None:
        events, self._fresh = self._fresh, []
        if not self.connections:
            return
        states = StateEncoder(self, self.summary(), events, self.clock.deadline())
        for connection in list(self.connections):
            if connection is not exclude:
                connection.send_text(states.text(connection.seat))

    def _send_state(self, connection: Connection, events: list[str], *, history: bool = False,
                    notice: str | None = None) -> None:
        message = state_message(self, connection.seat, self.summary(), events, self.clock.deadline())
        if history:
            message["history"] = True
        if notice is not None:
            message["notice"] = notice
        connection.send(message)

    # -- rebuilding from the event log ----------------------------------------------------------

    def replay(self, events: Iterable[tuple[int, str, dict[str, Any]]]) -> None:
        """Rebuild the table from its event log (before :meth:`start`)."""
        self.restore(rebuild(self.rules, events))

    def restore(self, rebuilt: Rebuilt) -> None:
        """Take the state :func:`~rummy.server.events.log.rebuild` made of the log (before :meth:`start`;
        the rebuilding itself touches nothing of the table, so it may run in a thread)."""
        if rebuilt.game is not None:
            self._begin(rebuilt.game, rebuilt.game_number)
            if rebuilt.game.game_over:
                self.status = "finished"
        self.seq = rebuilt.seq
        self.recent.extend(rebuilt.sentences)
        self._decision_seq = [self.seq] * len(self.seats)
