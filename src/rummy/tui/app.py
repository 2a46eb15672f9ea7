"""The terminal screen of ``rummy play`` (Textual): status, players, table melds, the move log, the score
sheet, the claim prompt with its countdown, the sorted hand and the entry line.

Every move is typed in record notation (``down set:7H-7S-JK run:3D-4D-5D-6D``, ``layoff 3 8H``,
``discard 9C``) with the seat prefix optional; Tab or → accepts the completion shown.  While a claim
window waits for the player, ``b`` buys and ``p`` passes.  Words understood besides moves: ``hint``,
``sort``, ``next`` (or Enter on an empty line between rounds), ``help`` and ``quit``.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.suggester import Suggester
from textual.widgets import Footer, Input, RichLog, Static

from rummy.tui import render
from rummy.tui.entry import complete
from rummy.tui.hints import hint
from rummy.tui.session import Seat, SeatError
from rummy.tui.snapshot import Snapshot

HELP = ("Type a move in record notation: draw, take, buy, pass, discard 7H, down set:7H-7S-JK run:3D-4D-5D-6D, "
        "layoff 3 8H, meld run:9C-TC-JC …  Tab completes; 'hint' (F1) suggests a move; 'sort' (F2) sorts the "
        "hand by rank or suit; Enter on an empty line goes on to the next round; Ctrl+Q quits.")


class MoveSuggester(Suggester):
    """Completes the verb, a whole legal move, a card of the hand or a meld kind (:func:`complete`)."""

    def __init__(self, screen_app: PlayApp) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.screen_app = screen_app

    async def get_suggestion(self, value: str) -> str | None:
        snap = self.screen_app.snapshot
        if snap is None or snap.view is None:
            return None
        return complete(value, snap.view.get("hand", []), snap.legal)


class MoveInput(Input):
    """The entry line: Tab accepts the completion shown."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("tab", "accept_completion", "complete", show=False)]

    def action_accept_completion(self) -> None:
        self.action_cursor_right()
        self.cursor_position = len(self.value)


class MoveLog(RichLog):
    """The move log: each sentence wrapped to the panel's width (a RichLog draws lines at least 78 cells
    wide and cuts what the panel cannot show), and wrapped again when the panel changes width."""

    def __init__(self, *, id: str) -> None:  # noqa: A002 - Textual's name for it
        super().__init__(id=id, wrap=True, markup=False, min_width=1)
        self.sentences: list[str] = []
        self._wrapped_at = 0

    def add(self, sentence: str) -> None:
        self.sentences.append(sentence)
        self.write(sentence)

    def reset(self) -> None:
        self.sentences.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width and width != self._wrapped_at:
            self._wrapped_at = width
            self.clear()
            for sentence in self.sentences:
                self.write(sentence)


class PlayApp(App[int]):
    """The game at one seat; the app's return value is the exit code (0 when the game was played out)."""

    TITLE = "rummy"
    CSS = """
    #status { height: 2; padding: 0 1; background: $boost; }
    #middle { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; }
    #players { height: auto; padding: 0 1; border: round $primary; }
    #table { height: 1fr; padding: 0 1; border: round $primary; }
    #scores { height: auto; max-height: 12; padding: 0 1; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    #claim { height: auto; padding: 0 1; background: $warning 30%; display: none; }
    #claim.open { display: block; }
    #hand { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    #message { height: auto; padding: 0 1; }
    #message.error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "hint", "hint"),
        Binding("f2", "sort", "sort hand"),
        Binding("ctrl+q", "quit_game", "quit", priority=True),
    ]

    def __init__(self, seat: Seat, record_path: str) -> None:
        super().__init__()
        self.seat = seat
        self.record_path = record_path
        self.snapshot: Snapshot | None = None
        self._answered_by_key: str | None = None  # "b" or "p" that just answered a claim window
        self.by_rank = False
        self.messages: list[str] = []  # every line shown in #message, for a reader (and a test) to look back
        self.record_saved: str | None = None
        self.failure: str | None = None
        self._deadline_at: float | None = None
        self._saving = False

    def compose(self) -> ComposeResult:
        yield Static("connecting…", id="status")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield Static("", id="players")
                yield Static("", id="table")
            with Vertical(id="right"):
                yield Static("", id="scores")
                yield MoveLog(id="log")
        yield Static("", id="claim")
        yield Static("", id="hand")
        yield Static(HELP, id="message")
        yield MoveInput(placeholder="your move (hint: F1)", id="entry", suggester=MoveSuggester(self))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#table", Static).border_title = "table"
        self.query_one("#hand", Static).border_title = "your hand"
        self.query_one("#scores", Static).border_title = "scores"
        self.query_one("#log", MoveLog).border_title = "moves"
        self.query_one("#players", Static).border_title = "players"
        self.query_one("#entry", MoveInput).focus()
        self.set_interval(0.25, self._tick)
        self.play()

    @work(exclusive=True, group="table")
    async def play(self) -> None:
        """Run the table until the game is over, then save the record."""
        try:
            await self.seat.run(self.show)
        except (SeatError, OSError) as error:
            self.failure = str(error)
            self.say(f"The table stopped: {error}", error=True)

    async def _save_record(self) -> None:
        if self._saving or self.record_saved is not None:
            return
        self._saving = True
        try:
            self.record_saved = await self.seat.save_record(self.record_path)
        except (SeatError, OSError) as error:
            self.say(f"The record could not be saved: {error}", error=True)
            return
        finally:
            self._saving = False
        self.say(f"Game over. The record is saved in {self.record_saved} (rummy replay {self.record_saved}). "
                 "Ctrl+Q leaves.")

    # -- showing the table ----------------------------------------------------------------------

    def show(self, snap: Snapshot) -> None:
        """Draw ``snap``: every panel, and the new move-log sentences."""
        previous = self.snapshot
        self.snapshot = snap
        log = self.query_one("#log", MoveLog)
        if snap.history:
            log.reset()
        for sentence in snap.events:
            log.add(sentence)
        self._deadline_at = time.monotonic() + float(snap.deadline["seconds"]) if snap.deadline else None
        self.query_one("#status", Static).update(render.status_text(snap))
        self.query_one("#players", Static).update(render.players_text(snap))
        self.query_one("#table", Static).update(render.table_text(snap))
        self.query_one("#scores", Static).update(render.scores_text(snap))
        self._draw_hand()
        self._draw_claim()
        if snap.notice:  # the server's words for this person: what the computer played for them while away
            self.say(snap.notice)
        elif snap.game_over and (previous is None or not previous.game_over):
            self.run_worker(self._save_record(), group="record")
        elif snap.phase == "round_over" and (previous is None or previous.phase != "round_over"):
            self.say("Round over. Press Enter (or type next) for the next round.")
        elif snap.my_turn and (previous is None or not previous.my_turn):
            self.say("Your turn: " + ("draw or take." if snap.phase == "draw" else "play, then discard."))
        elif previous is not None and snap.seq != previous.seq and self.messages and \
                self.messages[-1].startswith("Hint: "):
            self.say("")  # a hint goes once the game has moved on

    def _draw_hand(self) -> None:
        snap = self.snapshot
        hand = self.query_one("#hand", Static)
        if snap is None or snap.view is None:
            hand.update("")
            return
        revealed = render.revealed_text(snap)
        order = "rank" if self.by_rank else "suit"
        hand.border_title = f"your hand ({len(snap.view['hand'])} cards, by {order})"
        text = render.hand_text(snap.view["hand"], self.by_rank)
        hand.update(text + (f"\n[dim]hands at the end of the round:[/dim]\n{revealed}" if revealed else ""))

    def _draw_claim(self) -> None:
        claim = self.query_one("#claim", Static)
        snap = self.snapshot
        waiting = self.claim_waiting()
        claim.set_class(waiting, "open")
        if waiting and snap is not None:
            left = max(0.0, self._deadline_at - time.monotonic()) if self._deadline_at is not None else None
            claim.update(render.claim_text(snap, left))

    def _tick(self) -> None:
        if self._deadline_at is not None:
            self._draw_claim()

    def claim_waiting(self) -> bool:
        return self.snapshot is not None and self.snapshot.claim_offered

    def say(self, text: str, *, error: bool = False) -> None:
        self.messages.append(text)
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "error")

    # -- input ------------------------------------------------------------------------------------

    @on(Input.Changed, "#entry")
    def typed(self, event: Input.Changed) -> None:
        """``b`` or ``p`` alone answers a claim window at once."""
        if event.value in ("b", "p") and self.claim_waiting():
            event.input.value = ""
            self._answered_by_key = event.value
            self.submit("buy" if event.value == "b" else "pass")

    @on(Input.Submitted, "#entry")
    def entered(self, event: Input.Submitted) -> None:
        event.input.value = ""
        answered, self._answered_by_key = self._answered_by_key, None
        if answered is not None and event.value in (answered, ""):
            return  # Enter right after the key that answered the window: that answer was sent already
        self.submit(event.value)

    def submit(self, text: str) -> None:
        words = text.strip()
        command = words.lower()
        if command in ("hint", "?"):
            self.action_hint()
        elif command == "sort":
            self.action_sort()
        elif command == "help":
            self.say(HELP)
        elif command in ("quit", "exit"):
            self.action_quit_game()
        elif command in ("", "next", "ready"):
            self.run_worker(self._ready(), group="ready")
        else:
            self.run_worker(self._send(words), group="send")

    async def _send(self, text: str) -> None:
        try:
            await self.seat.send(text)
        except SeatError as error:
            self.say(f"{text}: {error}", error=True)
        except TimeoutError:
            self.say(f"{text}: the table did not answer", error=True)

    async def _ready(self) -> None:
        try:
            await self.seat.ready()
        except SeatError as error:
            self.say(str(error), error=True)

    def action_sort(self) -> None:
        self.by_rank = not self.by_rank
        self._draw_hand()

    def action_hint(self) -> None:
        self.run_worker(self._hint(), group="hint")

    async def _hint(self) -> None:
        snap = self.snapshot
        if snap is None or snap.view is None:
            self.say("No game yet.")
            return
        suggested = await self.seat.suggest() if (snap.my_turn or snap.claim_offered) else None
        advice = hint(snap.legal, suggested)
        self.say("Hint: " + advice.words)
        if advice.move:
            entry = self.query_one("#entry", MoveInput)
            entry.value = advice.move
            entry.cursor_position = len(advice.move)

    def action_quit_game(self) -> None:
        self.run_worker(self._quit(), group="quit")

    async def _quit(self) -> None:
        snap = self.snapshot
        while self._saving:  # the game just ended: let its record be written first
            await asyncio.sleep(0.05)
        if snap is not None and snap.view is not None and self.record_saved is None:
            await self._save_record()  # a local game's record so far; a server serves only a finished game's
        await self.seat.close()
        self.exit(0 if snap is not None and snap.game_over else 1)
