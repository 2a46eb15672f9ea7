"""A game in this process: the person at the keyboard against the project's bots.

:class:`LocalTable` owns the :class:`~rummy.engine.game.Game`, asks the bots for their moves one at a time (so
the screen can show each), applies what a person typed (the engine's message when it is refused, and
nothing changes), and writes the game record.  It never shows a person more than their seat's view.

>>> table = LocalTable.start("may-i", ["me", "heuristic", "heuristic", "heuristic"], seed=7)
>>> table.person
0
>>> while table.bot_to_act() is not None:
...     _ = table.step_bot()
>>> table.snapshot().seat, table.game.to_act == [0] or table.game.phase.value == "claim"
(0, True)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy.bots import Bot, decide, make_bot
from rummy.engine import Action, Game, Phase, RecordSyntaxError, RummyError, UsageError, Variant, new_game, parse_action
from rummy.record import dumps, record_of, results_json
from rummy.server.events.describe import Before, describe_action, describe_deal
from rummy.server.tables.seats import BOT_NAMES
from rummy.tui.entry import full_action
from rummy.tui.session import Publish, SeatError
from rummy.tui.snapshot import Snapshot

#: The name that makes a seat a person at this keyboard in ``--players``.
PERSON = "me"


@dataclass
class LocalTable:
    """The game, the bot of every computer seat, and the move log; the one seat without a bot is the
    person's."""

    game: Game
    bots: dict[int, Bot]
    log: list[str] = field(default_factory=list)
    _new_events: list[str] = field(default_factory=list)
    seq: int = 0

    @classmethod
    def start(cls, variant: str | Variant, players: Sequence[str], *, seed: int = 0,
              options: Mapping[str, Any] | None = None,
              bot_options: Sequence[Mapping[str, Any]] | None = None) -> LocalTable:
        """A dealt game; ``players`` holds ``me`` for a person and a bot name or level for a bot."""
        if list(players).count(PERSON) != 1:
            raise UsageError(f"--players needs exactly one {PERSON!r} (the person at this keyboard; one screen "
                             "cannot hide a hand from a second person)")
        names = _display_names(players)
        game = new_game(variant, names, seed=seed, options=dict(options or {}))
        bots: dict[int, Bot] = {}
        for seat, kind in enumerate(players):
            if kind != PERSON:
                extra = dict(bot_options[seat]) if bot_options else {}
                bots[seat] = make_bot(kind.split(":")[0], seed=seed * 31 + seat, **extra)
        table = cls(game, bots)
        table._tell(describe_deal(game))
        return table

    @property
    def person(self) -> int:
        """The seat played at this keyboard."""
        return next(seat for seat in range(self.game.n) if seat not in self.bots)

    def _in_play(self) -> bool:
        return self.game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER)

    # -- moves ------------------------------------------------------------------------------

    def bot_to_act(self) -> int | None:
        """A computer seat the game waits for (the nearest to the active player's left), or None."""
        if not self._in_play():
            return None
        waiting = [seat for seat in self.game.to_act if seat in self.bots]
        if not waiting:
            return None
        return min(waiting, key=lambda seat: (seat - self.game.active) % self.game.n)

    def step_bot(self) -> list[str]:
        """Let one bot make its move; the move-log sentences it produced."""
        seat = self.bot_to_act()
        if seat is None:
            raise UsageError("no computer player is to act")
        return self._apply(decide(self.game, seat, self.bots[seat]))

    def bot_move(self, seat: int, game: Game) -> Action:
        """What the bot of ``seat`` would play in ``game`` (a copy of this table's game, so the bot may think
        in another thread while the screen goes on); :meth:`apply_bot` plays it."""
        return decide(game, seat, self.bots[seat])

    def apply_bot(self, action: Action) -> list[str]:
        if action.seat not in self.bots:
            raise UsageError(f"seat {action.seat} is not a computer player")
        return self._apply(action)

    def play(self, seat: int, text: str) -> list[str]:
        """Apply what the person at ``seat`` typed (with or without the ``pN`` prefix).

        A :class:`~rummy.engine.errors.RummyError` (a syntax error or the engine's refusal) leaves the game as it
        was.
        """
        if seat != self.person:
            raise UsageError(f"seat {seat} is not played at this keyboard")
        line = full_action(text, seat)
        action = parse_action(line, self.game.n)
        if action.seat != seat:
            raise RecordSyntaxError(f"{line!r}: you play seat p{seat}, not p{action.seat}")
        return self._apply(action)

    def suggest(self, seat: int) -> str | None:
        """The move the heuristic bot would make for ``seat`` now, from that seat's view only (a hint)."""
        if seat not in self.game.to_act:
            return None
        move = decide(self.game, seat, make_bot("heuristic", seed=self.seq))
        return str(move).split(" ", 1)[1]

    def pass_claim(self, seat: int) -> list[str]:
        """The claim window's time ran out for ``seat``: silence is a pass."""
        return self.play(seat, "pass")

    def _apply(self, action: Action) -> list[str]:
        before = Before.of(self.game)
        self.game.apply(action)
        sentences = describe_action(before, self.game, action)
        self._tell(sentences)
        return sentences

    def deal_next_round(self) -> list[str]:
        """Deal the next round once the last one is over."""
        if self.game.phase is not Phase.ROUND_OVER:
            raise UsageError("the round is not over")
        self.game.deal()
        sentences = describe_deal(self.game)
        self._tell(sentences)
        return sentences

    def _tell(self, sentences: list[str]) -> None:
        self.log.extend(sentences)
        self._new_events.extend(sentences)
        self.seq += 1

    # -- what the screen shows ----------------------------------------------------------------

    def snapshot(self, seat: int | None = None, deadline: dict[str, Any] | None = None) -> Snapshot:
        """What ``seat`` (default the person's) may see, in the server's state shape."""
        shown = self.person if seat is None else seat
        results = results_json(self.game)
        table = {
            "variant": self.game.variant.id,
            "variant_name": self.game.variant.name,
            "status": "finished" if self.game.game_over else "playing",
            "seats": [{"seat": s, "name": name, "kind": "bot" if s in self.bots else "human",
                       "level": None} for s, name in enumerate(self.game.players)],
            "score_sheet": results["rounds"],
            "totals": results["totals"],
            "winners": results.get("winners"),
        }
        events, self._new_events = tuple(self._new_events), []
        return Snapshot(shown, self.game.view(shown).to_json(), table, events, deadline, self.seq)

    def record_text(self) -> str:
        """The game's ``rummy-record/1`` so far (docs/game-record.md)."""
        return dumps(record_of(self.game), indent=1)

    def save_record(self, path: str | Path) -> Path:
        target = Path(path)
        target.write_text(self.record_text() + "\n", encoding="utf-8")
        return target


def _display_names(players: Sequence[str]) -> list[str]:
    """``You`` for the person; a bot gets a name as at a served table, with its kind: ``Alan (heuristic)``.

    >>> _display_names(["heuristic", "me", "heuristic:simulations=80", "random"])
    ['Ada (heuristic)', 'You', 'Grace (heuristic)', 'Edsger (random)']
    """
    return ["You" if player == PERSON else f"{BOT_NAMES[seat % len(BOT_NAMES)]} ({player.split(':')[0]})"
            for seat, player in enumerate(players)]


class LocalSession:
    """A :class:`LocalTable` played in time: bots move one at a time ``bot_delay`` seconds apart, a claim
    window offered to a person closes after ``claim_seconds`` (silence is a pass; 0 waits for the
    answer), and the next round is dealt when the person says they are ready."""

    def __init__(self, table: LocalTable, *, bot_delay: float = 0.6, claim_seconds: float = 10.0) -> None:
        self.table = table
        self.bot_delay = bot_delay
        self.claim_seconds = claim_seconds
        self._wake = asyncio.Event()
        self._claim_ends: float | None = None
        self._publish: Publish = lambda snapshot: None
        self._closed = False

    async def run(self, publish: Publish) -> None:
        """Play until the game is over, sending every change to ``publish``."""
        self._publish = publish
        self._show()
        table = self.table
        while not table.game.game_over and not self._closed:
            if self._claim_clock_ran_out():
                table.pass_claim(table.person)
                self._show()
                continue
            bot = table.bot_to_act()
            if bot is not None:
                seq = table.seq
                started = time.monotonic()
                # a search bot may think for a while: on a copy, in a thread
                move = await asyncio.to_thread(table.bot_move, bot, table.game.copy())
                await asyncio.sleep(max(0.0, self.bot_delay - (time.monotonic() - started)))
                if table.seq == seq and table.bot_to_act() == bot and not self._closed:  # nothing moved meanwhile
                    table.apply_bot(move)
                    self._show()
                continue
            try:
                left = None if self._claim_ends is None else max(0.0, self._claim_ends - time.monotonic())
                await asyncio.wait_for(self._wake.wait(), left)
            except TimeoutError:
                pass
            self._wake.clear()

    def _claim_clock_ran_out(self) -> bool:
        """Start the claim clock when a window waits for the person (from the moment it opens, while the
        bots answer too), stop it when it no longer does; True when it has run out."""
        game = self.table.game
        waiting = self.claim_seconds > 0 and game.phase is Phase.CLAIM and self.table.person in game.to_act
        if not waiting:
            self._claim_ends = None
            return False
        if self._claim_ends is None:
            self._claim_ends = time.monotonic() + self.claim_seconds
            self._show()
        if time.monotonic() < self._claim_ends:
            return False
        self._claim_ends = None
        return True

    def _show(self) -> None:
        if self._closed:
            return
        deadline = None
        if self._claim_ends is not None:
            deadline = {"kind": "claim", "seconds": max(0.0, self._claim_ends - time.monotonic())}
        self._publish(self.table.snapshot(deadline=deadline))

    async def send(self, text: str) -> None:
        """Play what the person typed; :class:`SeatError` with the engine's message when it is refused."""
        try:
            self.table.play(self.table.person, text)
        except RummyError as error:
            raise SeatError(str(error)) from None
        self._claim_ends = None
        self._show()
        self._wake.set()

    async def ready(self) -> None:
        """Deal the next round (when the round is over)."""
        if self.table.game.phase is Phase.ROUND_OVER:
            self.table.deal_next_round()
            self._show()
            self._wake.set()

    async def suggest(self) -> str | None:
        return self.table.suggest(self.table.person)

    async def save_record(self, path: str) -> str:
        return str(self.table.save_record(path))

    async def close(self) -> None:
        self._closed = True
        self._wake.set()
