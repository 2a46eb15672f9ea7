"""Provably fair deals at a real server: every seat sees a round's commitment before anyone acts in
it, nobody (seat, spectator, any HTTP route) sees its seed or salt before the round is over, the
reveal then matches the commitment, and a restart keeps commitment and secret."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx

from rummy.engine.actions import parse_action
from rummy.engine.fair_shuffle import commitment_of
from rummy.engine.house_rules import get_variant
from rummy.record import record_of, replay
from rummy.search.playout import random_choice
from rummy.server.events.log import rebuild
from tests.server.conftest import TLS, LiveServer, Player, ServerProcess, run, seated_table, start_game

SHORT_BASIC = {"target_by_players": {"3": 500}}  # the tests stop after a round or two
HTTP_EVERY = 8  # the fair-deal game asks every read route at least this often (in steps), see fair_deal_game


def logged_events(db_path: Path, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT seq, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (table_id,))
        return [(seq, kind, json.loads(payload)) for seq, kind, payload in rows]


def secrets_logged(db_path: Path, table_id: str) -> dict[int, dict[str, Any]]:
    """Each round's ``shuffle`` event, by round, with the seq of that event."""
    return {payload["round"]: {**payload, "seq": seq}
            for seq, kind, payload in logged_events(db_path, table_id) if kind == "shuffle"}


async def step(players: list[Player], spectator: Player, rng: random.Random) -> int:
    """One action by a seat that must act (every client is a person: nothing else moves the table);
    returns the seq every client has seen afterwards."""
    newest = max(p.state["seq"] for p in [*players, spectator] if p.state is not None)
    for client in [*players, spectator]:
        await client.state_from(newest)
    state = players[0].state
    assert state is not None
    mover = next(p for p in players if p.my_turn())
    view = mover.state["view"]  # type: ignore[index]
    action = random_choice([parse_action(t, len(view["players"])) for t in view["legal_actions"]], rng)
    command_id = await mover.send("action", seq=mover.state["seq"], action=str(action))  # type: ignore[index]
    reply = await mover.reply_to(command_id)
    assert reply["type"] == "ack", reply
    seq = mover.state["seq"] if mover.state["seq"] > state["seq"] else (await mover.state_after(state["seq"]))["seq"]
    for client in [*players, spectator]:
        await client.state_from(seq)
    return seq


def http_client(player: Player) -> httpx.AsyncClient:
    """An HTTP client with ``player``'s cookie (none for a spectator), kept for the whole game: building one
    costs more than the requests it makes."""
    cookies = {"rummy_session": player.cookie} if player.cookie else {}
    return httpx.AsyncClient(base_url=player.server.base_url, cookies=cookies, verify=TLS)


async def http_texts(http: httpx.AsyncClient, table_id: str, rounds: int) -> list[str]:
    """Every read route about the table, including each dealt round's shuffle check."""
    paths = [f"/api/tables/{table_id}", f"/api/tables/{table_id}/record", f"/api/tables/{table_id}/help",
             "/api/tables", *(f"/api/tables/{table_id}/shuffles/{r}" for r in range(1, rounds + 1))]
    return [(await http.get(path)).text for path in paths]


async def fair_deal_game(server: LiveServer) -> None:
    table_id, players = await seated_table(server, ["Ann", "Bob", "Cid"], variant="basic", seats=3,
                                           claim_seconds=0, round_pause=0, options=SHORT_BASIC)
    spectator = await Player(server, "Watcher").connect(table_id)
    await start_game(players[0])
    rng = random.Random(19)
    checked_http = 0
    clients = [http_client(p) for p in [*players, spectator]]
    # The routes answer from the table's round, phase and whose turn it is (never from the cards), so every
    # route is asked at the first step of each such combination and at every HTTP_EVERY-th step besides;
    # every state message is still checked at every step below.
    asked_at: set[tuple[int, str, tuple[int, ...]]] = set()
    steps = 0
    while len(players[0].state["table"]["score_sheet"]) < 2:  # type: ignore[index]
        view = players[0].state["view"]  # type: ignore[index]
        if view["phase"] in ("round_over", "game_over"):
            await players[0].state_after(players[0].state["seq"])  # type: ignore[index]  # the next deal
            continue
        situation = (view["round"], view["phase"], tuple(view["to_act"]))
        if situation not in asked_at or steps % HTTP_EVERY == 0:
            asked_at.add(situation)
            live = secrets_logged(server.db_path, table_id)[view["round"]]
            # While the round is played nobody, by any route, learns its seed or salt.
            texts = await asyncio.gather(*(http_texts(http, table_id, view["round"]) for http in clients))
            for text in (t for group in texts for t in group):
                assert live["seed"] not in text and live["salt"] not in text
                checked_http += 1
        await step(players, spectator, rng)
        steps += 1
    for http in clients:
        await http.aclose()
    logged = secrets_logged(server.db_path, table_id)
    first_action: dict[int, int] = {}
    ended: dict[int, int] = {}  # round -> the seq of its last action (rounds 1 and 2 are over)
    dealt_round = 0
    for event_seq, kind, payload in logged_events(server.db_path, table_id):
        if kind == "deal":
            dealt_round = payload["round"]
        elif kind == "action":
            first_action.setdefault(dealt_round, event_seq)
            if dealt_round <= 2:
                ended[dealt_round] = event_seq
    assert sorted(ended) == [1, 2]
    for client in [*players, spectator]:
        for round_number, secret in logged.items():
            if round_number not in ended:
                continue
            # The commitment is in every state of the round from its deal on, before the first action.
            states = [m for m in client.messages if m["type"] == "state" and m["view"] is not None
                      and m["view"]["round"] == round_number]
            assert states and states[0]["seq"] < first_action[round_number]
            for message in states:
                row = next(r for r in message["table"]["shuffles"] if r["round"] == round_number)
                assert row["commitment"] == secret["commitment"]
            # Seed and salt: in no message before the round's end, revealed in the state that ends it.
            for message in client.messages:
                text = json.dumps(message)
                early = message.get("seq", 0) < ended[round_number]
                assert not early or (secret["seed"] not in text and secret["salt"] not in text), message
            reveal = next(r for m in client.messages if m["type"] == "state" and m["seq"] >= ended[round_number]
                          for r in m["table"]["shuffles"] if r["round"] == round_number)
            assert reveal["revealed"] and (reveal["seed"], reveal["salt"]) == (secret["seed"], secret["salt"])
            assert commitment_of(reveal["seed"], reveal["salt"]) == secret["commitment"]
    assert checked_http > 50
    answer = (await players[1].http("GET", f"/api/tables/{table_id}/shuffles/1")).json()
    assert answer["status"] == "verified" and answer["seed"] == logged[1]["seed"]
    assert answer["message"] == f"rummy-shuffle/1:{logged[1]['seed']}:{logged[1]['salt']}"
    assert len(answer["deal"]["hands"]) == 3
    for client in [*players, spectator]:
        await client.close()


def test_commitment_first_reveal_after_the_round_and_no_seed_leaks(live_server: LiveServer) -> None:
    run(fair_deal_game(live_server))


async def shuffle_answers(server: LiveServer, table_id: str) -> list[tuple[str, int]]:
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        return [((r := await http.get(path)).json().get("error", {}).get("code", ""), r.status_code) for path in (
            f"/api/tables/{table_id}/shuffles/0", f"/api/tables/{table_id}/shuffles/x",
            f"/api/tables/{table_id}/shuffles/99", "/api/tables/nosuchtable/shuffles/1")]


def test_shuffle_route_refuses_bad_rounds(live_server: LiveServer) -> None:
    async def body() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2, bots={"1": "easy"})
        async with httpx.AsyncClient(base_url=live_server.base_url) as http:
            assert (await http.get(f"/api/tables/{table_id}/shuffles/1")).json()["error"]["code"] == "not-started"
            page = await http.get(f"/table/{table_id}/verify/1")
            assert page.status_code == 200 and "verify.js" in page.text
        await start_game(players[0])
        assert await shuffle_answers(live_server, table_id) == [
            ("bad-request", 400), ("bad-request", 400), ("not-found", 404), ("not-found", 404)]
        await players[0].close()

    run(body())


def test_restart_mid_round_keeps_commitment_and_secret(tmp_path: Path) -> None:
    db_path = tmp_path / "fair.db"

    async def first_half(server: LiveServer) -> tuple[str, list[Player], str]:
        table_id, players = await seated_table(server, ["Ann", "Bob", "Cid"], variant="basic", seats=3,
                                               claim_seconds=0, options=SHORT_BASIC)
        spectator = await Player(server, "Watcher").connect(table_id)
        await start_game(players[0])
        rng = random.Random(3)
        for _ in range(8):
            await step(players, spectator, rng)
        assert players[0].state["view"]["phase"] != "round_over"  # type: ignore[index]
        commitment: str = players[0].state["table"]["shuffles"][0]["commitment"]  # type: ignore[index]
        for client in [*players, spectator]:
            await client.close()
        return table_id, players, commitment

    first = ServerProcess(db_path)
    with_server = first.__enter__()
    try:
        table_id, players, commitment = run(first_half(with_server))
    finally:
        assert first.process is not None
        first.process.kill()  # no chance to tidy up
        first.process.wait()
    secret = secrets_logged(db_path, table_id)[1]
    assert secret["commitment"] == commitment == commitment_of(secret["seed"], secret["salt"])

    async def second_half(server: LiveServer) -> None:
        back = [await Player(server, p.name, cookie=p.cookie).connect(table_id) for p in players]
        spectator = await Player(server, "Watcher").connect(table_id)
        row = back[0].state["table"]["shuffles"][0]  # type: ignore[index]
        assert row == {"round": 1, "commitment": commitment, "revealed": False}
        rng = random.Random(4)
        while back[0].state["view"]["round"] == 1 and back[0].state["view"]["phase"] != "round_over":  # type: ignore[index]
            await step(back, spectator, rng)
        for client in [*back, spectator]:
            assert all(secret["seed"] not in json.dumps(m) for m in client.messages
                       if m["type"] == "state" and m["view"]["round"] == 1 and m["view"]["phase"] != "round_over")
        reveal = next(r for r in back[0].state["table"]["shuffles"] if r["round"] == 1)  # type: ignore[index]
        assert (reveal["seed"], reveal["salt"], reveal["commitment"]) == (secret["seed"], secret["salt"], commitment)
        answer = (await back[0].http("GET", f"/api/tables/{table_id}/shuffles/1")).json()
        assert answer["status"] == "verified"
        for client in [*back, spectator]:
            await client.close()

    second = ServerProcess(db_path)
    try:
        run(second_half(second.__enter__()))
    finally:
        second.__exit__()
    # The log alone rebuilds the game; its record verifies round 1, reshuffles included.
    rebuilt = rebuild(get_variant("basic", SHORT_BASIC), logged_events(db_path, table_id))
    assert rebuilt.game is not None
    result = replay(record_of(rebuilt.game))
    assert result.exit_code == 0 and result.shuffles[0]["status"] == "verified"
