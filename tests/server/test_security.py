"""The server seen by an attacker: real HTTP requests to a real ``rummy serve`` process.

Each test pins one defect class: hidden state of a live game over HTTP, and the like.
"""

from __future__ import annotations

import httpx

from tests.server.conftest import LiveServer, run, seated_table, start_game
from tests.server.test_leaks import RECORD_CARD


def test_live_record_is_never_served(live_server: LiveServer) -> None:
    """A record holds every hand, the stock order and the seed: refused over HTTP until the game is over."""
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2, bots={"1": "easy"})
        await start_game(players[0])
        async with httpx.AsyncClient(base_url=live_server.base_url) as stranger:
            response = await stranger.get(f"/api/tables/{table_id}/record")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game-in-progress"
        assert "seed" not in response.text and not RECORD_CARD.findall(response.text.replace("game-in-progress", ""))
        mine = await players[0].http("GET", f"/api/tables/{table_id}/record")  # a seated player neither
        assert mine.status_code == 409
        await players[0].close()

    run(scenario())
