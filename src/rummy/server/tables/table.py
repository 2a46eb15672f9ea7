"""One owner task per table: every command (sockets, timers, bots) goes through its queue, in order.

The owner holds the :class:`~rummy.engine.game.Game` and the timers of docs/protocol.md: the claim window
(silence is a pass after ``claim_seconds``; the active player waits until the window closes), the
turn timer (a bot finishes the turn), bot pacing, the pause between rounds, and the reconnect grace
after which a bot may play for a dropped player.  A change is written to the event log before any
state is sent; each seat gets only its own view, spectators the public one.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Iterator

from rummy.bots import decide, make_bot
from rummy.engine import Action, ClaimWindow, Game, Phase, RecordSyntaxError, Verb, claim_name, parse_action
from rummy.server.events.describe import card_text, describe_deal, hint_words, stood_in_words
from rummy.server.events.fair_deal import deal_round
from rummy.server.tables.bot_runner import BotRunner
from rummy.server.tables.connections import Connection
from rummy.server.tables.core import Move, TableCore
from rummy.server.tables.inbox import (
    AutoPass,
    BotChoice,
    BotTurn,
    ClientCommand,
    Connected,
    Disconnected,
    Item,
    Refresh,
    Stop,
    TimerFired,
)
from rummy.server.tables.protocol import VERSION, Command, ProtocolError, ack_message, error_message
from rummy.server.tables.seats import player_names

log = logging.getLogger("rummy.server")


class Table(TableCore):
    """A table and its owner task; everything but :meth:`post` runs inside that task."""

    # -- life cycle -------------------------------------------------------------------------

    _stopped = False  # stop() was called: nothing posted from then on is read

    def start(self) -> None:
        """Start the owner task; its first job arms the timers and calls the bots of the current state."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self.post(Refresh())

    def post(self, item: Item) -> None:
        if self._stopped and isinstance(item, Connected):
            # A socket that reached the table as it stopped (handed over, lease lost, evicted) would wait
            # for a state that never comes: it is closed at once and reconnects (1012).
            item.connection.close(1012)
            return
        super().post(item)

    async def stop(self) -> None:
        self._stopped = True
        self.unattended.release(self.id)
        self.clock.stop()
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
        for task in self._thinking:
            task.cancel()
        if self._task is not None:
            super().post(Stop())
            await self._task
        for connection in self.connections:
            connection.close(1012)
        while not self._queue.empty():  # posted behind the Stop: sockets that were never connected
            item = self._queue.get_nowait()
            if isinstance(item, (Connected, ClientCommand)):
                item.connection.close(1012)

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            self.last_active = asyncio.get_running_loop().time()
            if isinstance(item, Stop):
                return
            connection = item.connection if isinstance(item, ClientCommand) else None
            command_id = item.command.id if isinstance(item, ClientCommand) else None
            try:
                await self._handle(item)
            except ProtocolError as error:
                if connection is not None:
                    error.command_id = command_id
                    connection.send(error.to_message())
                else:
                    log.warning("table %s: %s", self.id, error)
            except Exception:  # noqa: BLE001 - one bad command must not kill the table
                log.exception("table %s failed on %r", self.id, item)
                if connection is not None:
                    connection.send(error_message("internal", "the server failed on this command; nothing changed",
                                                  command_id=command_id))

    async def _handle(self, item: Item) -> None:
        if isinstance(item, ClientCommand):
            await self._command(item.connection, item.command)
        elif isinstance(item, Connected):
            self._connect(item.connection)
        elif isinstance(item, Disconnected):
            self._disconnect(item.connection)
        elif isinstance(item, TimerFired):
            await self._timer(item)
        elif isinstance(item, BotTurn):
            await self._bot_turn(item.seat)
        elif isinstance(item, BotChoice):
            await self._bot_choice(item)
        elif isinstance(item, AutoPass):
            await self._auto_pass()
        elif isinstance(item, Refresh):
            self._refresh()

    # -- commands ---------------------------------------------------------------------------

    async def _command(self, connection: Connection, command: Command) -> None:
        ack = (connection, command.id)
        if command.type == "action":
            await self._client_action(connection, command)
        elif command.type == "join":
            await self._join(connection, command)
        elif command.type == "start":
            self._require_host(connection)
            if self.status != "waiting":
                raise ProtocolError("already-started", "the game has already started")
            empty = [str(seat.index) for seat in self.seats if seat.kind == "open"]
            if empty:
                raise ProtocolError("seats-empty", f"seat {', '.join(empty)} still waits for a player")
            await self._new_game(ack)
        elif command.type == "play_again":
            self._require_host(connection)
            if self.status != "finished":
                raise ProtocolError("not-finished", "play again is for when the game is over")
            await self._new_game(ack)
        elif command.type == "ready":
            await self._ready(connection, command)
        elif command.type == "skip_claims":
            self._skip_claims(connection, command)
        elif command.type == "hint":
            self._hint(connection, command)
        else:  # "ping" is answered by the socket itself; anything else never gets here
            connection.send(ack_message(command.id))

    def _require_host(self, connection: Connection) -> None:
        if connection.player_id is None or connection.player_id != self.host:
            raise ProtocolError("not-host", "only the host (who made the table) may do this")

    async def _client_action(self, connection: Connection, command: Command) -> None:
        game = self._require_game()
        seat = connection.seat
        if seat is None:
            raise ProtocolError("not-seated", "you are watching this table; take a seat to play")
        assert command.action is not None and command.seq is not None
        try:
            action = parse_action(command.action, game.n)
        except RecordSyntaxError as error:
            raise ProtocolError("syntax", str(error)) from None
        if action.seat != seat:
            raise ProtocolError("not-your-seat",
                                f"you sit in seat {seat}; {command.action!r} is for seat {action.seat}")
        if command.seq > self.seq:
            raise ProtocolError("bad-message", f"seq {command.seq} is ahead of the table's newest state ({self.seq})")
        if command.seq < self._decision_seq[seat]:
            raise ProtocolError("stale", self._stale_reason(game, action, command.seq))
        if game.phase is Phase.CLAIM and seat == game.active:
            card = card_text(game.window.card) if game.window is not None else "the discard"
            raise ProtocolError("illegal", f"wait: the others may still buy the {card}", rule="claim-window-open")
        if self._autoplay is not None and self._autoplay[0] == seat:
            self._autoplay = None  # the player is back before the bot finished the turn
        await self._play([(action, "player")], ack=(connection, command.id))

    def _hint(self, connection: Connection, command: Command) -> None:
        """The move the heuristic bot would make for the connection's seat, from that seat's view only,
        in record notation and in words (docs/protocol.md, ``hint``)."""
        game, seat = self.game, connection.seat
        if seat is None:
            raise ProtocolError("not-seated", "you are watching this table; take a seat to play")
        if game is None or self.status != "playing" or seat not in game.to_act:
            raise ProtocolError("not-your-turn", "a hint is for a decision of your own: wait for your move")
        move = decide(game, seat, make_bot("heuristic", seed=self.seq))
        connection.send({"v": VERSION, "type": "hint", "id": command.id, "seq": self.seq,
                         "move": str(move).split(" ", 1)[1], "words": hint_words(game, seat, move)})

    def _stale_reason(self, game: Game, action: Action, seq: int) -> str:
        """Why an action chosen on state ``seq`` comes too late: for a buy that lost the race, who won it."""
        if action.verb is Verb.BUY:
            since = game.log[seq - self.seq:]  # the actions logged since ``seq`` (seq < self.seq here)
            winner = next((a.seat for a in reversed(since) if a.verb is Verb.BUY and a.seat != action.seat), None)
            if winner is not None:
                call = "called May I" if claim_name(game.variant) == "May I" else "bought it"
                return f"{game.players[winner]} {call} first"
        return f"the table changed after state {seq} (now {self.seq}); choose again"

    async def _join(self, connection: Connection, command: Command) -> None:
        session = connection.session
        if session is None:
            raise ProtocolError("no-session", "choose a name first (POST /api/session)")
        if self.status != "waiting":
            raise ProtocolError("already-started", "the game has started; seats cannot change")
        if connection.seat is not None:
            raise ProtocolError("already-seated", f"you already sit in seat {connection.seat}")
        if command.seat is not None:
            if command.seat >= len(self.seats):
                raise ProtocolError("bad-message", f"there is no seat {command.seat} (seats 0–{len(self.seats) - 1})")
            seat = self.seats[command.seat]
            if seat.kind != "open":
                raise ProtocolError("seat-taken", f"seat {command.seat} is taken")
        else:
            free = [s for s in self.seats if s.kind == "open"]
            if not free:
                raise ProtocolError("table-full", "every seat is taken")
            seat = free[0]
        row = {**seat.to_row(), "kind": "human", "player_id": session.player_id, "name": session.name}
        event = ("join", {"seat": seat.index, "player_id": session.player_id, "name": session.name})
        await self._persist([event], seats=[row])
        seat.kind, seat.player_id, seat.name = "human", session.player_id, session.name
        for other in self.connections:
            if other.player_id == session.player_id:
                other.seat = seat.index
                seat.connections += 1
        self._accept([f"{session.name} sat down"], (connection, command.id))

    async def _ready(self, connection: Connection, command: Command) -> None:
        game = self._require_game()
        if connection.seat is None:
            raise ProtocolError("not-seated", "only players can be ready for the next round")
        if game.phase is not Phase.ROUND_OVER:
            raise ProtocolError("illegal", "ready is for the pause between rounds", rule="round-not-over")
        self.seats[connection.seat].ready = True
        connection.send(ack_message(command.id))
        waiting = [s for s in self.seats if s.kind == "human" and s.connections and not s.takeover and not s.ready]
        if waiting:
            self._refresh()
        else:
            await self._deal_next_round()

    def _skip_claims(self, connection: Connection, command: Command) -> None:
        """Pass on every claim until the player's turn, or for the rest of the hand (or stop doing so)."""
        game = self._require_game()
        if connection.seat is None:
            raise ProtocolError("not-seated", "only players can pass on claims")
        seat = self.seats[connection.seat]
        seat.skip_claims = None if command.until == "off" else command.until
        seat.skip_round = (self.game_number, game.round_number)
        connection.send(ack_message(command.id))
        self._refresh()  # answers an open window at once (AutoPass)

    async def _new_game(self, ack: tuple[Connection, str | int]) -> None:
        names = player_names(self.seats)
        seed = secrets.randbelow(2**31)
        game = Game(self.rules, names, seed=seed)
        dealt = deal_round(game, dealer=game.choose_first_dealer())
        number = self.game_number + 1
        events = [("start", {"game": number, "seed": seed, "players": names}), *dealt]
        await self._persist(events, status="playing")
        self._begin(game, number)
        self._accept([f"Game {number}: {self.rules.name}", *describe_deal(game)], ack)

    async def _deal_next_round(self) -> None:
        game = self._require_game()
        if game.phase is not Phase.ROUND_OVER:
            return
        saved = game.snapshot()
        dealt = deal_round(game)
        try:  # (a deal can end the game: the turn cap, max_turns, reached as the round ended)
            await self._persist(dealt, status="finished" if game.game_over else None)
        except ProtocolError:
            game.restore(saved)
            raise
        self._accept(describe_deal(game))

    # -- timers and bots ----------------------------------------------------------------------

    async def _timer(self, item: TimerFired) -> None:
        game = self.game
        if item.kind == "grace":
            assert isinstance(item.key, int)
            self._grace_over(item.key)
            return
        self.clock.fired(item.kind)
        if game is None or self.status != "playing" or self.paused:
            return
        try:
            window = game.window
            if item.kind == "claim" and game.phase is Phase.CLAIM and window is not None and window is item.key:
                await self._play(self._silent_passes(game, window))
            elif item.kind == "round" and item.key == self._round_key:
                await self._deal_next_round()
            elif item.kind == "turn" and self._timed_turn is not None and item.key == self._timed_turn:
                self._autoplay = (game.active, self._timed_turn)
                self._accept([f"Time is up: the computer plays {game.players[game.active]}'s turn"])
        except ProtocolError as error:
            if error.code != "unavailable":
                raise
            self.clock.later(2.0, item)  # the database refused: try again shortly

    @staticmethod
    def _silent_passes(game: Game, window: ClaimWindow) -> Iterator[Move]:
        while game.phase is Phase.CLAIM and game.window is window and game.to_act:
            yield Action(game.next_to_act(), Verb.PASS), "timer"

    def _idle(self, seat: int) -> bool:
        """A person who will not answer a claim window: passing on claims (skip_claims), or away."""
        state = self.seats[seat]
        if state.kind != "human" or self._bot_controlled(seat):
            return False
        return state.skip_claims is not None or state.connections == 0

    def _idle_passes(self, game: Game, window: ClaimWindow) -> Iterator[Move]:
        while game.phase is Phase.CLAIM and game.window is window:
            idle = [seat for seat in game.to_act if self._idle(seat)]
            if not idle:
                return
            yield Action(idle[0], Verb.PASS), "auto"

    async def _auto_pass(self) -> None:
        self._auto_pending = False
        game = self.game
        if game is None or self.status != "playing" or game.phase is not Phase.CLAIM or game.window is None:
            return
        try:
            await self._play(self._idle_passes(game, game.window))
        except ProtocolError as error:
            if error.code != "unavailable":
                raise
            self._auto_pending = True
            self.clock.later(2.0, AutoPass())

    def _expire_skips(self, game: Game) -> None:
        """``skip_claims`` ends at the player's turn ("turn") or with the hand (both)."""
        for seat in self.seats:
            if seat.skip_claims is None:
                continue
            turn_came = seat.skip_claims == "turn" and game.active == seat.index and game.phase in (
                Phase.DRAW, Phase.PLAY)
            if turn_came or seat.skip_round != (self.game_number, game.round_number):
                seat.skip_claims = seat.skip_round = None

    def _bot_controlled(self, seat: int) -> bool:
        state = self.seats[seat]
        return state.kind == "bot" or state.takeover or (self._autoplay is not None and self._autoplay[0] == seat)

    def _bot_level(self, seat: int) -> str:
        state = self.seats[seat]
        return state.level if state.kind == "bot" and state.level else self.settings.takeover_level

    def _bot_by(self, seat: int) -> str:
        state = self.seats[seat]
        return "bot" if state.kind == "bot" else "takeover" if state.takeover else "timer"

    def _bot_may_move(self, seat: int) -> bool:
        game = self.game
        return (game is not None and self.status == "playing" and not self.paused and seat in game.to_act
                and self._bot_controlled(seat))

    async def _bot_turn(self, seat: int) -> None:
        self._bot_pending.discard(seat)
        game = self.game
        if game is None or not self._bot_may_move(seat):
            return
        level = self._bot_level(seat)
        seed = hash((game.seed, self.seq, seat)) & 0x7FFFFFFF
        if self.bots.is_inline(level):
            await self._bot_move(seat, self.bots.choose_inline(game, seat, level, seed))
            return
        self._bot_pending.add(seat)
        snapshot, seq = game.clone(), self.seq

        async def think() -> None:
            action = await self.bots.choose(snapshot, seat, level, seed)
            self.post(BotChoice(seat, seq, action))

        task = asyncio.create_task(think())
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _bot_choice(self, choice: BotChoice) -> None:
        self._bot_pending.discard(choice.seat)
        seat = choice.seat
        if not self._bot_may_move(seat):
            return
        if choice.action is None or choice.seq < self._decision_seq[seat]:
            self._refresh()  # the state moved on while the bot thought: it thinks again
            return
        await self._bot_move(seat, choice.action)

    async def _bot_move(self, seat: int, action: Action) -> None:
        game = self._require_game()
        by = self._bot_by(seat)
        try:
            await self._play([(action, by)])
        except ProtocolError as error:
            if error.code == "unavailable":
                self.clock.later(2.0, BotTurn(seat))
                self._bot_pending.add(seat)
                return
            if error.code != "illegal":
                raise
            log.warning("table %s: bot move %r refused (%s); playing a random move", self.id, str(action), error)
            await self._play([(BotRunner.fallback(game, seat, self.seq), by)])

    def _round_pause(self) -> float:
        return self.config.round_pause if self.config.round_pause is not None else self.settings.round_pause

    def _may_run(self) -> bool:
        """Whether bots and timers may move the game now: always while a person is connected to a seat.
        With nobody there the game plays on to the end of its round, at most ``max_unattended_turns``
        turns, and only within the unattended-game limits (:mod:`rummy.server.limits`); then it rests."""
        attended = any(seat.kind == "human" and seat.connections for seat in self.seats)
        game = self.game
        if self.status != "playing" or attended or game is None:
            self.unattended.release(self.id)
            self.paused = False
            self.unattended_since = None
            return True
        if self.unattended_since is None:
            self.unattended_since = game.turns_played
        resting = (game.phase is Phase.ROUND_OVER
                   or game.turns_played - self.unattended_since >= self.settings.max_unattended_turns)
        if resting:
            self.unattended.release(self.id)
            self.paused = True
        else:
            self.paused = not self.unattended.claim(self.id, self.address, lambda: self.post(Refresh()))
        return not self.paused

    def _schedule(self) -> None:
        """Arm or drop every timer for the current state, and call the bots that must act."""
        self._schedule_grace()
        game = self.game
        if game is None or not self._may_run() or self.status != "playing":
            for kind in ("claim", "turn", "round"):
                self.clock.disarm(kind)
            self._timed_window = self._timed_turn = self._round_key = None  # armed afresh when it may run
            return
        self._expire_skips(game)
        if game.phase is Phase.CLAIM:
            if not self._auto_pending and any(self._idle(seat) for seat in game.to_act):
                self._auto_pending = True
                self.clock.later(0, AutoPass())
            if game.window is not self._timed_window:
                self._timed_window = game.window
                self.clock.disarm("claim")
                if self.config.claim_seconds > 0:
                    self.clock.arm("claim", self.config.claim_seconds, game.window)
        else:
            self._timed_window = None
            self.clock.disarm("claim")
        if game.phase is Phase.ROUND_OVER:
            key = (self.game_number, game.round_number)
            if self._round_key != key:
                self._round_key = key
                for seat in self.seats:
                    seat.ready = False
                self.clock.arm("round", self._round_pause(), key)
        else:
            self._round_key = None
            self.clock.disarm("round")
        turn = self._turn_id()
        if self._autoplay is not None and self._autoplay[1] != turn:
            self._autoplay = None
        timed = (self.config.turn_seconds > 0 and turn is not None and self.seats[game.active].kind == "human"
                 and not self._bot_controlled(game.active))
        if not timed:
            self._timed_turn = None
            self.clock.disarm("turn")
        elif game.phase in (Phase.DRAW, Phase.PLAY) and self._timed_turn != turn:
            self._timed_turn = turn
            self.clock.arm("turn", self.config.turn_seconds, turn, seat=game.active)
        for index in game.to_act:
            if index not in self._bot_pending and self._bot_controlled(index):
                self._bot_pending.add(index)
                self.clock.later(self.settings.bot_delay, BotTurn(index))

    # -- presence -------------------------------------------------------------------------------

    def _seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        return next((s.index for s in self.seats if s.kind == "human" and s.player_id == player_id), None)

    def _connect(self, connection: Connection) -> None:
        self.connections.add(connection)
        connection.seat = self._seat_of(connection.player_id)
        notice = None
        if connection.seat is not None:
            seat = self.seats[connection.seat]
            seat.connections += 1
            if seat.connections == 1:
                if seat.takeover:
                    seat.takeover = False
                    self.recent.append(f"{seat.name} is back")
                    self._fresh.append(f"{seat.name} is back")
                turns = self.stood_in[seat.index]
                if turns:  # tell the person what the computer played for them while they were away
                    notice = stood_in_words(len(turns), sorted({r for _, r, _ in turns}))
                    turns.clear()
                self._refresh(exclude=connection)
        self._send_state(connection, list(self.recent), history=True, notice=notice)

    def _disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.seat is not None:
            seat = self.seats[connection.seat]
            seat.connections -= 1
            if seat.connections == 0:
                self._refresh()

    def _schedule_grace(self) -> None:
        loop = asyncio.get_running_loop()
        for seat in self.seats:
            dropped = (seat.kind == "human" and seat.connections == 0 and not seat.takeover
                       and self.status == "playing" and self.config.bot_takeover)
            if dropped and seat.grace is None:
                seat.grace = loop.call_later(self.settings.reconnect_grace, self.post, TimerFired("grace", seat.index))
            elif not dropped and seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None

    def _grace_over(self, index: int) -> None:
        seat = self.seats[index]
        seat.grace = None
        if seat.kind == "human" and seat.connections == 0 and self.status == "playing" and self.config.bot_takeover:
            seat.takeover = True
            self._accept([f"{seat.name} left: the computer plays for them until they come back"])
