"""The terminal's seat at a server table (``rummy play --join URL``, :mod:`rummy.tui.remote`) against a real
``rummy serve``: it gets its identity cookie as a browser does and keeps it, joins an open seat through the
invite link, comes back to the same seat with the same cookie, gets the server's message for a refused
move (and nothing changes), and says so when the table does not exist."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.server.conftest import LiveServer, Player, run, start_game

pytest.importorskip("websockets")
pytest.importorskip("httpx")

from rummy.tui.remote import COOKIE, CookieFile, RemoteSeat, identity_cookie  # noqa: E402
from rummy.tui.session import SeatError  # noqa: E402
from rummy.tui.snapshot import Snapshot  # noqa: E402


async def connected(seat: RemoteSeat, until: object) -> tuple[asyncio.Task[None], list[Snapshot]]:
    seen: list[Snapshot] = []
    task = asyncio.create_task(seat.run(seen.append))
    for _ in range(400):
        if seen and until(seen[-1]):  # type: ignore[operator]
            return task, seen
        if task.done():
            task.result()
        await asyncio.sleep(0.05)
    raise AssertionError(f"no such state; last: {seen[-1] if seen else None}")


def test_the_terminal_joins_by_invite_comes_back_to_its_seat_and_hears_refusals(
        live_server: LiveServer, tmp_path: Path) -> None:
    cookie_file = tmp_path / "sessions.json"

    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        table_id = await ann.create_table(variant="may-i", seats=3, bots={"2": "easy"}, claim_seconds=0)
        await ann.connect(table_id)
        invite = f"{live_server.base_url}/table/{table_id}"
        bob = RemoteSeat(invite, "Bob", cookie_file)
        task, seen = await connected(bob, lambda s: s.seat == 1)
        assert seen[-1].names[:2] == ["Ann", "Bob"]
        kept = json.loads(cookie_file.read_text())[live_server.base_url]
        assert kept == bob.cookie and oct(cookie_file.stat().st_mode & 0o777) == "0o600"
        await start_game(ann)
        await connected_until(seen, lambda s: s.view is not None)
        view = seen[-1].view
        assert view is not None and view["seat"] == 1 and len(view["hand"]) == 11
        assert view["revealed_hands"] is None  # nobody's cards but Bob's own
        # a move out of turn: the server's message, and no change
        card = view["hand"][0]
        with pytest.raises(SeatError, match=r"\S"):  # the engine's sentence, whatever the phase
            await bob.send("discard " + card)
        with pytest.raises(SeatError):
            await bob.send("discard ZZ")
        assert seen[-1].view["hand"].count(card) >= view["hand"].count(card)  # the card never left
        await bob.close()
        await task
        # the same cookie file: the same player, back in seat 1
        again = RemoteSeat(invite, "Robert", cookie_file)
        task, seen = await connected(again, lambda s: s.view is not None)
        assert seen[-1].seat == 1 and again.cookie == kept
        with pytest.raises(SeatError, match="once the game is over"):
            await again.save_record(str(tmp_path / "record.json"))
        await again.close()
        await task
        await ann.close()

    async def connected_until(seen: list[Snapshot], predicate: object) -> None:
        for _ in range(400):
            if seen and predicate(seen[-1]):  # type: ignore[operator]
                return
            await asyncio.sleep(0.05)
        raise AssertionError("no such state")

    run(scenario())


def test_a_stale_cookie_gets_a_new_session_and_a_missing_table_is_named(
        live_server: LiveServer, tmp_path: Path) -> None:
    cookies = CookieFile(tmp_path / "sessions.json")
    cookies.put(live_server.base_url, "not-a-signed-token")

    async def scenario() -> None:
        cookie = await identity_cookie(live_server.base_url, "Cid", cookies)
        assert cookie != "not-a-signed-token" and cookies.get(live_server.base_url) == cookie
        assert COOKIE == "rummy_session"
        seat = RemoteSeat(f"{live_server.base_url}/table/nosuchtable", "Cid", tmp_path / "sessions.json")
        with pytest.raises(SeatError, match="4404"):
            await seat.run(lambda snapshot: None)

    run(scenario())
