"""The move log of ``rummy play`` wraps a long sentence to its panel instead of cutting it (issue #27),
and wraps again when the terminal changes width."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rummy.tui.app import MoveLog, PlayApp  # noqa: E402
from rummy.tui.local import LocalSession, LocalTable  # noqa: E402

LONG = "Ann laid down " + " ".join(f"card{i}" for i in range(40)) + " and the end"


def shown(log: MoveLog) -> list[str]:
    return ["".join(segment.text for segment in line).rstrip() for line in log.lines]


def test_a_long_move_log_sentence_wraps_within_the_panel(tmp_path: Path) -> None:
    async def scenario() -> None:
        table = LocalTable.start("may-i", ["me", "heuristic", "heuristic", "heuristic"], seed=3)
        app = PlayApp(LocalSession(table, bot_delay=0, claim_seconds=0), str(tmp_path / "game.json"))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                if app.snapshot is not None:
                    break
                await pilot.pause(0.02)
            log = app.query_one("#log", MoveLog)
            log.add(LONG)
            await pilot.pause()
            for width in (120, 90):
                await pilot.resize_terminal(width, 40)
                await pilot.pause()
                panel = log.scrollable_content_region.width
                lines = shown(log)
                assert all(len(line) <= panel for line in lines), (panel, lines)
                assert log.virtual_size.width <= panel, "the log scrolls sideways"
                # (the bots play on meanwhile, so their sentences may follow the long one)
                assert any(line.endswith("and the end") for line in lines), lines[-3:]
            await pilot.press("ctrl+q")

    asyncio.run(scenario())


def test_the_servers_notice_is_shown_to_the_person(tmp_path: Path) -> None:
    """A state's ``notice`` (what the computer played for the person while they were away) is said."""
    async def scenario() -> None:
        table = LocalTable.start("may-i", ["me", "heuristic", "heuristic", "heuristic"], seed=3)
        app = PlayApp(LocalSession(table, bot_delay=0, claim_seconds=0), str(tmp_path / "game.json"))
        words = "While you were away the computer played for you: 3 turns, in round 1."
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(200):
                if app.snapshot is not None:
                    break
                await pilot.pause(0.02)
            assert app.snapshot is not None
            app.show(replace(app.snapshot, notice=words))
            assert app.messages[-1] == words
            assert words in str(app.query_one("#message").render())
            await pilot.press("ctrl+q")

    asyncio.run(scenario())
