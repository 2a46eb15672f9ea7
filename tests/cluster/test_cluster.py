"""One game world on several ``rummy serve --redis`` workers sharing PostgreSQL and Redis (real
servers, started by the tests: tests/cluster/services.py).

Clients on different workers play one table; simultaneous buys sent through three workers are
resolved as on one; a worker killed mid-game has its tables taken over and the clients carry on with
no acknowledged action lost or applied twice; a stalled former owner's write is refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
from collections import Counter
from collections.abc import Callable
from typing import Any

import asyncpg
import pytest

from rummy.record import loads, replay
from rummy.server.events.log import rebuild
from rummy.server.storage.commit import Commit
from rummy.server.storage.database import Database, StaleOwnerError, normalize_db_url
from rummy.server.tables.catalog import TableConfig
from tests.cluster.conftest import Services, at, create_owned, owner_routes, spread_table, until
from tests.cluster.services import Worker
from tests.server.conftest import Player, open_window, run, start_game

pytestmark = pytest.mark.slow


async def event_log(services: Services, table_id: str) -> list[tuple[int, str, dict[str, Any], int]]:
    """The table's events as PostgreSQL holds them: seq, kind, payload and the writer's fence."""
    connection = await asyncpg.connect(services.db_url)
    try:
        rows = await connection.fetch("SELECT seq, kind, payload, fence FROM events WHERE table_id = $1 ORDER BY seq",
                                      table_id)
    finally:
        await connection.close()
    return [(row["seq"], row["kind"], json.loads(row["payload"]), row["fence"]) for row in rows]


async def table_fence(services: Services, table_id: str) -> int:
    connection = await asyncpg.connect(services.db_url)
    try:
        return int(await connection.fetchval("SELECT fence FROM tables WHERE id = $1", table_id))
    finally:
        await connection.close()


def check_log(log: list[tuple[int, str, dict[str, Any], int]], variant: str) -> None:
    """Seqs from 1 without gaps, and the log replays to a finished game."""
    assert [seq for seq, *_ in log] == list(range(1, len(log) + 1))
    rebuilt = rebuild(TableConfig.from_request({"variant": variant}).rules(),
                      [(seq, kind, payload) for seq, kind, payload, _ in log])
    assert rebuilt.game is not None and rebuilt.game.game_over


class Tracked(Player):
    """A player that notes every action it sends, in a ledger shared by its reconnections."""

    ledger: list[tuple[Tracked, str, str]]  # socket, command id, action

    async def send(self, kind: str, **fields: Any) -> str:
        command_id = await super().send(kind, **fields)
        if kind == "action":
            self.ledger.append((self, command_id, fields["action"]))
        return command_id


def acked_actions(player: Tracked) -> list[str]:
    """The actions of one player (all its sockets share a ledger) that were acknowledged."""
    return [action for socket, command_id, action in player.ledger
            if socket.replies.get(command_id, {}).get("type") == "ack"]


def test_clients_on_two_workers_play_one_table(services: Services, workers: Callable[..., Worker]) -> None:
    """The table lives on the first worker; two of its three players are connected to the second."""
    first, second = workers(), workers()

    async def scenario() -> None:
        table_id, players = await spread_table([first, second, second], ["Ann", "Bob", "Cid"], variant="basic",
                                               seats=3, claim_seconds=0)
        await start_game(players[0])
        await asyncio.gather(*(p.play(random.Random(i)) for i, p in enumerate(players)))
        finals = [p.state for p in players]
        assert all(f is not None and f["table"]["status"] == "finished" for f in finals)
        assert len({f["seq"] for f in finals if f is not None}) == 1
        assert all(f is not None and f["view"]["hand"] is not None and f["seat"] == i for i, f in enumerate(finals))
        summary = (await players[1].http("GET", f"/api/tables/{table_id}")).json()  # asked of the owner
        assert summary["status"] == "finished" and [s["name"] for s in summary["seats"]] == ["Ann", "Bob", "Cid"]
        assert all(s["connected"] for s in summary["seats"])
        record = await players[1].http("GET", f"/api/tables/{table_id}/record")
        result = replay(loads(record.text))
        assert result.ok and result.game is not None and result.game.totals == finals[0]["view"]["totals"]
        help_page = await players[2].http("GET", f"/api/tables/{table_id}/help")
        assert help_page.status_code == 200
        log = await event_log(services, table_id)
        check_log(log, "basic")
        assert {fence for *_, fence in log} == {1}
        for player in players:
            await player.close()
        mine = await players[1].http("GET", "/api/tables")
        assert [t["table_id"] for t in mine.json()] == [table_id]  # the lobby is the same on every worker

    run(scenario())


def test_simultaneous_buys_across_three_workers(services: Services, workers: Callable[..., Worker]) -> None:
    """First call wins (progressive-buy-it) and nearest-in-rotation wins (may-i), with the callers'
    sockets on three workers: exactly the outcomes of one server."""
    three = [workers(), workers(), workers()]

    async def first_call_wins() -> None:
        _, players = await spread_table(three, ["Ann", "Bob", "Cid", "Dee"], variant="progressive-buy-it",
                                        seats=4, claim_seconds=0)
        await start_game(players[0])
        for window in range(4):
            state = await open_window(players)
            view = state["view"]
            callers = [p for p in players if p.seat in view["to_act"]]
            ids = await asyncio.gather(*(p.send("action", seq=state["seq"], action=f"p{p.seat} buy")
                                         for p in callers))
            replies = await asyncio.gather(*(p.reply_to(i) for p, i in zip(callers, ids, strict=True)))
            winners = [p for p, r in zip(callers, replies, strict=True) if r["type"] == "ack"]
            assert len(winners) == 1, replies
            assert all(r["type"] == "ack" or r["code"] in ("illegal", "stale") for r in replies), replies
            after = await players[0].state_after(state["seq"])
            assert after["view"]["claims_used"][winners[0].seat] == view["claims_used"][winners[0].seat] + 1
            assert sum(after["view"]["claims_used"]) == sum(view["claims_used"]) + 1
            active = next(p for p in players if p.seat == after["view"]["active"])
            await active.state_from(after["seq"])
            await active.finish_turn(random.Random(window))
        for player in players:
            await player.close()

    async def nearest_wins() -> None:
        _, players = await spread_table(three, ["Eve", "Fay", "Gus", "Hal"], variant="may-i", seats=4,
                                        claim_seconds=0)
        await start_game(players[0])
        windows = 0
        while windows < 3:
            state = max((p.state for p in players if p.state is not None), key=lambda m: m["seq"])
            active = next(p for p in players if p.seat == state["view"]["active"])
            await active.state_from(state["seq"])
            seq = active.state["seq"]
            reply = await active.reply_to(await active.send("action", seq=seq, action=f"p{active.seat} draw"))
            assert reply["type"] == "ack", reply
            drawn = await active.state_after(seq)
            if drawn["view"]["phase"] != "claim":
                await active.finish_turn(random.Random(1))
                continue
            windows += 1
            state = await open_window(players)
            view = state["view"]
            callers = [p for p in players if p.seat in view["to_act"]]
            nearest = min((p.seat for p in callers), key=lambda s: (s - view["active"]) % 4)
            ids = await asyncio.gather(*(p.send("action", seq=state["seq"], action=f"p{p.seat} buy") for p in callers))
            await asyncio.gather(*(p.reply_to(i) for p, i in zip(callers, ids, strict=True)))
            after = await players[0].state_after(state["seq"])
            while after["view"]["phase"] == "claim":
                after = await players[0].state_after(after["seq"])
            assert [s for s in range(4) if after["view"]["claims_used"][s] > view["claims_used"][s]] == [nearest]
            await active.state_from(after["seq"])
            await active.finish_turn(random.Random(1))
        for player in players:
            await player.close()

    run(first_call_wins())
    run(nearest_wins())


async def reconnect(player: Tracked, candidates: list[Worker], table_id: str) -> Tracked:
    """The same player (cookie and ledger) on a new socket, to the first of ``candidates`` that serves
    the table (a worker may still be taking it over)."""
    for attempt in range(200):
        worker = candidates[attempt % len(candidates)]
        again = Tracked(at(worker), player.name, cookie=player.cookie)  # type: ignore[arg-type]
        again.ledger = player.ledger
        try:
            await again.connect(table_id)
            return again
        except (OSError, TimeoutError, ConnectionError):
            await asyncio.sleep(0.1)
    raise TimeoutError(f"{player.name} could not reconnect")


async def play_on(player: Tracked, candidates: list[Worker], table_id: str, seed: int) -> list[Tracked]:
    """Play to the end of the game, reconnecting whenever the socket closes; every socket used."""
    rng = random.Random(seed)
    sockets = [player]
    while True:
        try:
            await player.play(rng, timeout=300)
            return sockets
        except ConnectionError:
            player = await reconnect(player, candidates, table_id)
            sockets.append(player)



def test_a_killed_worker_s_tables_are_taken_over(services: Services, workers: Callable[..., Worker]) -> None:
    """SIGKILL the owner mid-game (one client's socket was on it): the survivors rebuild the table from
    the log, every client reconnects to a survivor, and the game ends with every acknowledged action
    in the log exactly as often as it was sent and acknowledged."""
    owner, second, third = workers(), workers(), workers()
    survivors = [second, third]

    async def scenario() -> None:
        names = ["Ann", "Bob", "Cid", "Dee"]
        players = [Tracked(at(w), name) for w, name in zip([second, third, owner, second], names, strict=True)]  # type: ignore[arg-type]
        for player in players:
            player.ledger = []
            await player.login()
        host = Tracked(at(owner), "Ann", cookie=players[0].cookie)  # type: ignore[arg-type]
        host.ledger = players[0].ledger
        table_id = await create_owned(host, owner, services.redis_url, 3, variant="basic", seats=4,
                                      claim_seconds=0)  # made there, placed there
        for player in players:
            await player.connect(table_id)
        for player in players[1:]:
            assert (await player.reply_to(await player.send("join")))["type"] == "ack"
        await start_game(players[0])
        games = [asyncio.create_task(play_on(p, survivors, table_id, i)) for i, p in enumerate(players)]
        await until(lambda: players[0].state is not None and players[0].state["seq"] > 60, timeout=120)
        owner.kill()
        sockets = await asyncio.wait_for(asyncio.gather(*games), 300)
        assert all(len(s) > 1 for s in sockets), "every client lost its socket and reconnected"
        finals = [s[-1].state for s in sockets]
        assert all(f is not None and f["table"]["status"] == "finished" for f in finals)
        log = await event_log(services, table_id)
        check_log(log, "basic")
        fences = [fence for *_, fence in log]
        assert fences == sorted(fences) and fences[0] == 1 and fences[-1] >= 2  # written before and after
        logged = Counter(payload["action"] for _, kind, payload, _ in log
                         if kind == "action" and payload["by"] == "player")
        acked = Counter(a for s in sockets for a in acked_actions(s[0]))
        sent = Counter(a for s in sockets for _, _, a in s[0].ledger)
        assert not acked - logged, "an acknowledged action is missing from the log"
        assert not logged - sent, "the log holds an action more often than it was sent"
        for group in sockets:
            await group[-1].close()

    run(scenario())


def test_a_stale_owner_s_write_is_refused(services: Services) -> None:
    """After another server raised the table's fence, a write with the old token changes nothing."""

    async def scenario() -> None:
        db = Database(normalize_db_url(services.db_url))
        await db.start()
        try:
            config = TableConfig.from_request({"variant": "basic", "seats": 2}).to_json()
            row = {"id": "fenced", "variant": "basic", "options": {}, "config": config, "host": "p1",
                   "status": "finished"}  # no worker started later restores it
            seat = {"seat": 0, "kind": "human", "player_id": "p1", "name": "Ann", "level": None}
            await db.commit(Commit("fenced", seats=[seat], new_table=row, fence=1))
            await db.commit(Commit("fenced", [(1, "join", {"seat": 1})], fence=1))
            assert await db.take_over("fenced") == 2
            with pytest.raises(StaleOwnerError):
                await db.commit(Commit("fenced", [(2, "join", {"seat": 2})], status="waiting", fence=1))
            stored = await db.load_table("fenced")
            assert stored is not None and stored.row["status"] == "finished" and len(stored.events) == 1
            await db.commit(Commit("fenced", [(2, "join", {"seat": 3})], fence=2))
            assert [(seq, fence) for seq, _, _, fence in await event_log(services, "fenced")] == [(1, 1), (2, 2)]
            assert await db.take_over("no-such-table") is None
        finally:
            await db.close()

    run(scenario())


def test_a_stalled_owner_wakes_up_and_lets_the_table_go(services: Services, workers: Callable[..., Worker]) -> None:
    """SIGSTOP the owner with a command in its socket; another worker takes the table over; SIGCONT:
    the old owner's write (if it tries one) is refused, the command is never acknowledged there, and
    the player carries on through the new owner."""
    owner, other = workers(), workers()

    async def scenario() -> None:
        table_id, players = await spread_table([owner, other], ["Ann", "Bob"], variant="basic", seats=2,
                                               claim_seconds=0)
        ann, bob = players
        await start_game(ann)
        for player in players:
            await player.wait_state(lambda m: m["view"] is not None)
        state = ann.state
        assert state is not None
        mover = ann if state["view"]["active"] == 0 else bob
        if mover is bob:  # the one whose socket is on the owner must be the one to move
            await bob.finish_turn(random.Random(3))
            state = await ann.wait_state(lambda m: m["view"]["active"] == 0 and m["view"]["phase"] == "draw")
        fence_before = await table_fence(services, table_id)
        owner.process.send_signal(signal.SIGSTOP)
        try:
            command_id = await ann.send("action", seq=ann.state["seq"], action="p0 draw")
            await until_fence(services, table_id, fence_before)  # the other worker took the table over
        finally:
            owner.process.send_signal(signal.SIGCONT)
        try:
            reply = await ann.reply_to(command_id, timeout=30)
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        except ConnectionError:
            pass  # the old owner let the table go before reading the command: the socket closed (1012)
        log = await event_log(services, table_id)
        assert all(fence > fence_before for seq, *_, fence in log if seq > state["seq"])
        assert len(log) == state["seq"], "the stale owner's draw is not in the log"
        back = await Player(at(other), "Ann", cookie=ann.cookie).connect(table_id)  # type: ignore[arg-type]
        assert back.state is not None and back.state["seq"] == state["seq"]
        reply = await back.reply_to(await back.send("action", seq=back.state["seq"], action="p0 draw"))
        assert reply["type"] == "ack", reply
        log = await event_log(services, table_id)
        assert log[-1][2]["action"] == "p0 draw" and log[-1][3] > fence_before
        await back.close()
        await bob.close()

    run(scenario())


async def until_fence(services: Services, table_id: str, above: int, timeout: float = 30) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while await table_fence(services, table_id) <= above:
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("no worker took the table over")
        await asyncio.sleep(0.1)


def test_workers_flag_replaces_a_killed_worker(services: Services, workers: Callable[..., Worker]) -> None:
    """``--workers 2`` forks two workers on one port; one SIGKILLed is replaced; tables stay reachable."""
    supervisor = workers(workers=2)
    first = supervisor.children()
    assert len(first) == 2

    async def scenario() -> None:
        table_id, players = await spread_table([supervisor], ["Ann", "Bob"], variant="basic", seats=2,
                                               claim_seconds=0)
        await start_game(players[0])
        for player in players:
            await player.close()
        placed = owner_routes(services.redis_url, [table_id])[table_id]
        os.kill(first[0], signal.SIGKILL)
        await until(lambda: len(supervisor.children()) == 2 and first[0] not in supervisor.children())
        # the new worker has the killed one's own port, so its route: a table placed there is taken over
        # by the survivor, then handed back; the players come back once it is home
        await until(lambda: owner_routes(services.redis_url, [table_id])[table_id] == placed, timeout=60)
        back = []
        for player in players:  # a socket linked to the killed worker is closed (1012): connect again
            tracked = Tracked(at(supervisor), player.name, cookie=player.cookie)  # type: ignore[arg-type]
            tracked.ledger = []
            back.append(await reconnect(tracked, [supervisor], table_id))
        assert all(p.state is not None and p.state["table"]["status"] == "playing" for p in back)
        # a client whose socket closes (a worker sent it on to the table's owner) connects again
        sockets = await asyncio.gather(*(play_on(p, [supervisor], table_id, i) for i, p in enumerate(back)))
        check_log(await event_log(services, table_id), "basic")
        for player in (s[-1] for s in sockets):
            await player.close()

    run(scenario())


def test_the_workers_of_a_killed_supervisor_stop(services: Services, workers: Callable[..., Worker]) -> None:
    """A supervisor SIGKILLed (no clean-up) leaves no worker behind: each sees its parent gone and stops
    (gracefully: its lease and its route leave Redis), so a restarted server finds its ports free."""
    supervisor = workers(workers=2)
    children = supervisor.children()
    assert len(children) == 2
    supervisor.process.send_signal(signal.SIGKILL)
    supervisor.process.wait()

    def ended(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/status") as status:
                return "(zombie)" in status.read()
        except FileNotFoundError:
            return True

    run(until(lambda: all(ended(pid) for pid in children), timeout=60))
