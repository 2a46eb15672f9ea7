"""A terminal client and a browser client play one table together on a real ``rummy serve``.

Ann (Chromium) creates a may-i table with one open seat and one computer player and shares the invite
link; Bob joins it from the terminal (``rummy play --join URL``'s screen, driven by Textual's pilot in a
thread of its own): his client gets its identity cookie from ``POST /api/session`` as a browser does and
plays over the same WebSocket.  Both play until the first round ends and see the same score sheet; Bob's
screen never shows another seat's cards while the round is played.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import new_page

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
pytest.importorskip("textual")


# A server whose computer player answers at once: both people's clients wait on its moves, not a clock.
SERVER_PACE = {"bot_delay": 0}

TIME_LIMIT = 300  # seconds for the round


class TerminalBob(threading.Thread):
    """Bob's terminal screen in a thread with its own event loop; it plays every decision by typing."""

    def __init__(self, invite: str, cookie_file: Path, record: Path) -> None:
        super().__init__(daemon=True)
        from rummy.tui.app import PlayApp
        from rummy.tui.remote import RemoteSeat

        self.seat = RemoteSeat(invite, "Bob", cookie_file)
        self.app = PlayApp(self.seat, str(record))
        self.stop = threading.Event()
        self.failure: BaseException | None = None
        self.typed: list[str] = []
        self.hidden_leaks: list[str] = []

    def run(self) -> None:
        try:
            asyncio.run(self.play())
        except BaseException as error:  # noqa: BLE001 - reported to the test's thread
            self.failure = error

    async def play(self) -> None:
        app = self.app
        async with app.run_test(size=(120, 40)) as pilot:
            while not self.stop.is_set():
                snap = app.snapshot
                if snap is not None and snap.view is not None:
                    self.check_hidden(snap.view)
                if snap is not None and snap.claim_offered and "pass" in snap.legal:
                    await self.type(pilot, "p", enter=False, seq=snap.seq)
                elif snap is not None and snap.my_turn:
                    await self.take_turn(pilot, snap)
                else:
                    await pilot.pause(0.05)
            await pilot.press("ctrl+q")
            await pilot.pause(0.2)

    def check_hidden(self, view: dict[str, Any]) -> None:
        if view["phase"] in ("draw", "play", "claim") and view.get("revealed_hands"):
            self.hidden_leaks.append(f"revealed hands during play: {view['revealed_hands']}")

    async def take_turn(self, pilot: Any, snap: Any) -> None:
        legal = snap.legal
        if snap.phase == "draw":
            await self.type(pilot, "dr\t", seq=snap.seq)  # completed to "draw"
            return
        if any(move.startswith(("down ", "layoff ")) and ";" not in move for move in legal):
            await pilot.press("f1")  # the hint puts the lay-down (or lay-off) in the entry line
            await pilot.pause(0.1)
            self.typed.append(str(self.app.query_one("#entry").value))
            await pilot.press("enter")
            await self.wait_for_change(pilot, snap.seq)
            return
        discards = [move.split()[1] for move in legal if move.startswith("discard ")]
        if discards:
            card = next((c for c in discards if c != "JK" and c[0] != "2"), discards[0])
            await self.type(pilot, f"discard {card.lower()}", seq=snap.seq)
            return
        await pilot.pause(0.05)

    async def type(self, pilot: Any, text: str, *, seq: int, enter: bool = True) -> None:
        self.typed.append(text)
        await pilot.press(*text)
        if enter:
            await pilot.press("enter")
        await self.wait_for_change(pilot, seq)

    async def wait_for_change(self, pilot: Any, seq: int) -> None:
        for _ in range(200):
            snap = self.app.snapshot
            if snap is not None and snap.seq > seq:
                return
            await pilot.pause(0.05)


def wait(predicate: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def test_a_terminal_and_a_browser_play_one_table(server: str, browser: Any, tmp_path: Path) -> None:
    page, problems = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#name-form")
    page.fill("#name", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#create-form")
    page.select_option("#variant", "may-i")
    page.fill("#seats", "3")
    page.dispatch_event("#seats", "change")
    page.select_option("select[name=seat-1]", "")
    page.select_option("select[name=seat-2]", "medium")
    page.select_option("#claim-seconds", "3")
    page.click("#create-table")
    page.wait_for_selector("#invite-link")
    invite = page.input_value("#invite-link")

    bob = TerminalBob(invite, tmp_path / "sessions.json", tmp_path / "bob.json")
    bob.start()
    try:
        page.wait_for_selector(".waiting-seats li:has-text('Bob')")
        page.wait_for_selector("#start-button:not([disabled])")
        page.click("#start-button")
        page.wait_for_selector("#hand .card")
        wait(lambda: bob.app.snapshot is not None and bob.app.snapshot.view is not None, "Bob's first deal")
        assert bob.app.snapshot.seat == 1 and bob.app.snapshot.names[:2] == ["Ann", "Bob"]

        deadline = time.monotonic() + TIME_LIMIT
        ann_moves = 0
        while time.monotonic() < deadline and bob.failure is None:
            state = page.evaluate("window.rummy.state()")
            view, seat = state["view"], state["seat"]
            if state["table"]["score_sheet"]:
                break
            legal = [a.split(" ", 1)[1] for a in view["legal_actions"]]
            if view["phase"] == "claim" and "pass" in legal:
                try:
                    page.click("#pass-button", timeout=2000)
                except Exception:  # noqa: BLE001 - the window closed meanwhile
                    pass
            elif view["active"] == seat and view["phase"] == "draw" and "draw" in legal:
                page.click("#stock")
                page.wait_for_function("s => window.rummy.state().seq > s", arg=state["seq"])
                ann_moves += 1
            elif view["active"] == seat and view["phase"] == "play":
                card = next(b.split()[1] for b in legal if b.startswith("discard "))
                page.locator(f'#hand .card[data-card="{card}"]').first.click()
                page.click("#discard-button")
                page.wait_for_function("s => window.rummy.state().seq > s", arg=state["seq"])
                ann_moves += 1
            else:
                time.sleep(0.1)
        assert bob.failure is None, repr(bob.failure)
        sheet = page.evaluate("window.rummy.state().table.score_sheet")
        assert len(sheet) == 1, "the round did not end in time"
        wait(lambda: bool(bob.app.snapshot.table.get("score_sheet")), "the score sheet on Bob's screen")
        assert bob.app.snapshot.table["score_sheet"] == sheet
        scores = str(bob.app.query_one("#scores").render())
        assert all(str(score) in scores for score in sheet[0]["scores"])
        assert ann_moves > 0 and any(text.startswith("discard ") for text in bob.typed)
        assert not bob.hidden_leaks, bob.hidden_leaks
        assert not problems, problems
    finally:
        bob.stop.set()
        bob.join(timeout=30)
    assert bob.failure is None, repr(bob.failure)
