"""The server seen by an attacker over WebSocket: frames that used to end the connection without a
word, versions Python would take for 1, and handshakes from other sites.

Each bad frame must be answered by an ``error`` on a connection that stays open (the next ``ping`` is
answered), and change nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import websockets

from tests.server.conftest import LiveServer, Player, run, seated_table, start_game

HUGE = "9" * 5000

BAD_FRAMES = {
    "id of 5,000 digits": '{"v": 1, "id": ' + HUGE + ', "type": "ping"}',
    "seq of 5,000 digits": '{"v": 1, "id": "a", "type": "action", "seq": ' + HUGE + ', "action": "p0 draw"}',
    "seat of 5,000 digits": '{"v": 1, "id": "a", "type": "join", "seat": ' + HUGE + '}',
    "lone surrogate in the id": '{"v": 1, "id": "\\ud800", "type": "ping"}',
    "lone surrogate in the action": '{"v": 1, "id": "a", "type": "action", "seq": 1, "action": "p0 \\udfff"}',
    "version true": '{"v": true, "id": "a", "type": "ping"}',
    "version 1.0": '{"v": 1.0, "id": "a", "type": "ping"}',
    "version string 1": '{"v": "1", "id": "a", "type": "ping"}',
    "duplicate type": '{"v": 1, "id": "a", "type": "action", "type": "ping"}',
    "NaN seq": '{"v": 1, "id": "a", "type": "action", "seq": NaN, "action": "p0 draw"}',
    "id past 2**53": '{"v": 1, "id": 9007199254740993, "type": "ping"}',
}


async def still_answers(player: Player) -> None:
    """The connection is open and answers in order: a fresh ping is acknowledged."""
    command_id = await player.send("ping")
    assert (await player.reply_to(command_id))["type"] == "ack"


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_bad_frames_get_an_error_and_the_connection_stays(live_server: LiveServer, name: str) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2, bots={"1": "easy"})
        ann = players[0]
        await start_game(ann)
        await ann.wait_state(lambda m: ann.my_turn())
        before = ann.state
        count = len(ann.messages)
        await ann.send_raw(BAD_FRAMES[name])
        error = await ann.wait_for(lambda m: m["type"] == "error", start=count)
        assert error["code"] == "bad-message" and error["message"]
        assert "id" not in error or isinstance(error["id"], str) and error["id"] == "a"
        await still_answers(ann)
        assert ann.state == before  # nothing changed: no new state at all
        await ann.close()

    run(scenario())


def test_cross_site_handshake_is_closed_with_4403_and_says_why(live_server: LiveServer) -> None:
    """docs/protocol.md: a handshake from another site's page gets an ``error`` and close code 4403 —
    what a browser script can see (a refused handshake shows it only 1006)."""
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2, bots={"1": "easy"})
        url = f"{live_server.ws_url}/ws/tables/{table_id}"
        cookie = {"Cookie": f"rummy_session={players[0].cookie}"}
        for origin in ("http://evil.example", live_server.base_url.rsplit(":", 1)[0] + ":1", "null"):
            async with websockets.connect(url, origin=origin, additional_headers=cookie) as socket:  # type: ignore[arg-type]
                message: dict[str, Any] = json.loads(await socket.recv())
                assert message["type"] == "error" and message["code"] == "forbidden"
                with pytest.raises(websockets.ConnectionClosed):
                    await socket.recv()
                assert socket.close_code == 4403
        async with websockets.connect(url, origin=live_server.base_url, additional_headers=cookie) as socket:  # type: ignore[arg-type]
            assert json.loads(await socket.recv())["type"] == "state"
        await players[0].close()

    run(scenario())


def test_unknown_table_closes_with_4404(live_server: LiveServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(f"{live_server.ws_url}/ws/tables/no-such-table") as socket:
            assert json.loads(await socket.recv())["code"] == "not-found"
            with pytest.raises(websockets.ConnectionClosed):
                await socket.recv()
            assert socket.close_code == 4404

    run(scenario())


def test_a_bad_frame_from_one_client_changes_nothing_for_the_others(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=2)
        await start_game(players[0])
        ann, bob = players
        seq = (await bob.state_from(ann.state["seq"]))["seq"]  # type: ignore[index]
        for frame in BAD_FRAMES.values():
            await ann.send_raw(frame)
        await still_answers(ann)
        await still_answers(bob)
        assert bob.state["seq"] == seq  # type: ignore[index]
        for player in players:
            await player.close()

    run(scenario())
