"""``rummy play`` driven through Textual's pilot: a whole round of may-i against three heuristic bots,
typed moves, completion, hints, the claim prompt, a refused move that changes nothing, and the record
saved at the end that ``rummy replay`` accepts with the same scores."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rummy.engine.cards import card_names  # noqa: E402
from rummy.record import replay_file, state_json  # noqa: E402
from rummy.tui.app import PlayApp  # noqa: E402
from rummy.tui.local import LocalSession, LocalTable  # noqa: E402

PLAYERS = ["me", "heuristic", "heuristic", "heuristic"]
SIZE = (120, 40)


@pytest.fixture(autouse=True)
def quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pilot waits after every key until the app is idle, in looks of 20 ms (at least two per key, most of
    a whole game's time); the same check (under 5% of a look's time busy) in looks of 4 ms."""
    monkeypatch.setattr("textual._wait.SLEEP_GRANULARITY", 0.004)
    monkeypatch.setattr("textual._wait.SLEEP_IDLE", 0.004 / 20)


def new_app(tmp_path: Path, seed: int = 3, claim_seconds: float = 0) -> tuple[PlayApp, LocalTable]:
    table = LocalTable.start("may-i", PLAYERS, seed=seed)
    return PlayApp(LocalSession(table, bot_delay=0, claim_seconds=claim_seconds), str(tmp_path / "game.json")), table


async def wait_for(pilot: Any, predicate: Any, what: str, steps: int = 400) -> None:
    for _ in range(steps):
        if predicate():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def play_a_turn_by_hint(app: PlayApp, pilot: Any) -> str:
    """Ask for a hint (F1 puts the suggested move in the entry line) and press Enter; the move played."""
    seq = app.snapshot.seq if app.snapshot else 0
    await pilot.press("f1")
    await wait_for(pilot, lambda: app.query_one("#entry").value, "the hint's move")
    move = str(app.query_one("#entry").value)
    await pilot.press("enter")
    await wait_for(pilot, lambda: app.snapshot is not None and app.snapshot.seq > seq, f"the move {move!r}")
    return move


def test_a_whole_round_through_the_screen(tmp_path: Path) -> None:
    async def scenario() -> None:
        app, table = new_app(tmp_path)
        played: list[str] = []
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.snapshot is not None, "the first state")
            while not table.game.results:
                snap = app.snapshot
                assert snap is not None
                # the screen holds the person's view only: their own hand, no other
                assert snap.seat == 0 and snap.view["revealed_hands"] is None
                assert sorted(snap.view["hand"]) == sorted(card_names(table.game.hand(0)))
                if snap.my_turn or snap.claim_offered:
                    if snap.claim_offered:
                        assert app.query_one("#claim").has_class("open")
                        assert "May I take the" in str(app.query_one("#claim").render())
                    played.append(await play_a_turn_by_hint(app, pilot))
                else:
                    await pilot.pause(0.02)
                assert len(played) < 300, "the round does not end"
            await wait_for(pilot, lambda: app.snapshot.phase == "round_over", "the round's end")
            assert "Round over" in app.messages[-1]
            sheet = app.snapshot.table["score_sheet"]
            assert len(sheet) == 1 and sheet[0]["scores"] == list(table.game.results[0].scores)
            scores_panel = str(app.query_one("#scores").render())
            assert all(str(score) in scores_panel for score in sheet[0]["scores"])
            await pilot.press("enter")  # on to round 2
            await wait_for(pilot, lambda: app.snapshot.view["round"] == 2, "round 2")
            await pilot.press("ctrl+q")
        assert {move.split()[0] for move in played} >= {"draw", "discard"}
        record = tmp_path / "game.json"
        assert app.record_saved == str(record)
        result = replay_file(record)
        assert result.ok, result.to_json()
        assert result.to_json()["results"]["rounds"][0]["scores"] == list(table.game.results[0].scores)
        assert json.loads(record.read_text())["players"][0] == "You"

    asyncio.run(scenario())


def test_typing_with_completion_and_a_refused_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        app, table = new_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.snapshot is not None and (app.snapshot.my_turn
                                                                       or app.snapshot.claim_offered), "a decision")
            while not app.snapshot.my_turn:  # let the offered discards go, as a typist does: p, then Enter
                await pilot.press("p", "enter")
                await wait_for(pilot, lambda: app.snapshot.my_turn or app.snapshot.claim_offered, "a decision")
            assert not [m for m in app.messages if "unknown verb" in m or "not" in m.lower()[:4]], app.messages
            entry = app.query_one("#entry")
            # a card that is not in the hand: the engine's message, and nothing changes
            missing = next(name for name in ("KH", "KS", "KD", "KC", "QH", "QS")
                           if name not in app.snapshot.view["hand"])
            await pilot.press(*"draw")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.snapshot.phase == "play", "the draw")
            before = (state_json(table.game), len(table.game.log))
            await pilot.press(*f"discard {missing.lower()}")
            await pilot.press("enter")
            await wait_for(pilot, lambda: "discard" in app.messages[-1].lower() and
                           app.query_one("#message").has_class("error"), "the refusal")
            assert "not in" in app.messages[-1] or "hand" in app.messages[-1], app.messages[-1]
            assert (state_json(table.game), len(table.game.log)) == before
            # completion: "dis" + Tab gives the verb, a rank + Tab a card of the hand
            await pilot.press(*"dis")
            await pilot.pause(0.1)
            await pilot.press("tab")
            assert entry.value == "discard "
            card = app.snapshot.view["hand"][0]
            await pilot.press(card[0].lower() if card != "JK" else "j")
            await pilot.pause(0.1)
            await pilot.press("tab")
            assert entry.value.upper().startswith("DISCARD ") and len(entry.value.split()[1]) == 2
            typed = entry.value.split()[1].upper()
            assert typed in app.snapshot.view["hand"]
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.snapshot.phase != "play" or app.snapshot.view["active"] != 0,
                           "the discard")
            assert table.game.log[-1].verb.value == "discard" or table.game.phase.value == "claim"
            # the sort key shows the hand by rank
            await pilot.press("f2")
            assert "by rank" in str(app.query_one("#hand").border_title)
            await pilot.press("ctrl+q")

    asyncio.run(scenario())


def test_the_claim_window_counts_down_and_silence_passes(tmp_path: Path) -> None:
    async def scenario() -> None:
        app, table = new_app(tmp_path, claim_seconds=0.6)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.snapshot is not None and (app.snapshot.my_turn
                                                                       or app.snapshot.claim_offered), "a decision")
            assert app.snapshot.claim_offered, "seed 3 offers the first discard to the person"
            assert app.snapshot.deadline and app.snapshot.deadline["kind"] == "claim"
            assert "left" in str(app.query_one("#claim").render())
            await wait_for(pilot, lambda: not app.snapshot.claim_offered, "the window to close by itself")
            assert any(str(a) == "p0 pass" for a in table.game.log)
            await pilot.press("ctrl+q")

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_whole_game_is_played_and_its_record_saved_at_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        app, table = new_app(tmp_path, seed=11)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.snapshot is not None, "the first state")
            decisions = 0
            while not table.game.game_over:
                snap = app.snapshot
                if snap.phase == "round_over":
                    await pilot.press("enter")
                    await wait_for(pilot, lambda: app.snapshot.phase != "round_over", "the next deal")
                elif snap.my_turn or snap.claim_offered:
                    await play_a_turn_by_hint(app, pilot)
                    decisions += 1
                else:
                    await pilot.pause(0.02)
                assert decisions < 3000
            await wait_for(pilot, lambda: app.record_saved is not None, "the record")
            assert app.messages[-1].startswith("Game over.")
            assert "Winner:" in str(app.query_one("#scores").render())
            await pilot.press("ctrl+q")
        assert app.return_value == 0
        result = replay_file(tmp_path / "game.json").to_json()
        assert result["ok"] and result["results"]["game_over"]
        assert result["results"]["totals"] == list(table.game.totals)
        assert len(result["results"]["rounds"]) == 7

    asyncio.run(scenario())
