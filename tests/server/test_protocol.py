"""The WebSocket protocol of docs/protocol.md, against a real server on a loopback port.

Whole games between people (scripted clients choosing among their view's legal actions) and bots
for every variant; simultaneous buys resolved with exactly one winner; every kind of bad command
refused with a clear error and no state change; spectators never see a hand.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

import pytest

from rummy.record import loads, replay
from tests.server.conftest import LiveServer, Player, open_window, playing, run, seated_table, start_game
from tests.variants import BUILT_IN

VARIANTS = list(BUILT_IN)
FAST_VARIANTS = set(VARIANTS) - {"progressive-15"}  # 15 rounds: its whole game is a slow test


def event_count(server: LiveServer, table_id: str) -> int:
    with sqlite3.connect(server.db_path) as db:
        (count,) = db.execute("SELECT count(*) FROM events WHERE table_id = ?", (table_id,)).fetchone()
    return int(count)


def event_rows(server: LiveServer, table_id: str) -> list[tuple[int, str, dict[str, object]]]:
    with sqlite3.connect(server.db_path) as db:
        rows = db.execute("SELECT seq, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (table_id,))
        return [(seq, kind, json.loads(payload)) for seq, kind, payload in rows]


async def play_whole_game(server: LiveServer, variant: str, seats: int, humans: int, seed: int,
                          options: dict[str, object] | None = None) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"][:humans]
    bots = {str(seat): "easy" for seat in range(humans, seats)}
    table_id, players = await seated_table(server, names, variant=variant, seats=seats, bots=bots, claim_seconds=0,
                                           options=options or {})
    await start_game(players[0])
    rng = random.Random(seed)
    await asyncio.gather(*(p.play(random.Random(rng.random()), timeout=600) for p in players))
    final = players[0].state
    assert final is not None and final["table"]["status"] == "finished"
    assert final["view"]["phase"] == "game_over"
    assert final["view"]["revealed_hands"] is not None
    assert final["table"]["winners"] is not None
    if variant == "progressive-15":
        assert final["table"]["settlement"], "progressive-15 ends with a penny settlement"
    response = await players[1].http("GET", f"/api/tables/{table_id}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    result = replay(loads(response.text))
    assert result.ok and result.game is not None and result.game.game_over
    assert result.game.totals == final["view"]["totals"]
    assert [e[0] for e in event_rows(server, table_id)] == list(range(1, final["seq"] + 1))
    for player in players:
        await player.close()


@pytest.mark.parametrize("variant", sorted(FAST_VARIANTS))
def test_whole_game_people_and_bots(live_server: LiveServer, variant: str) -> None:
    seats = 2 if variant in ("basic", "purchase") else 3
    options = {"target_by_players": {"2": 50}} if variant == "basic" else {}  # a shorter game to 50 points
    run(play_whole_game(live_server, variant, seats=seats, humans=2, seed=len(variant), options=options))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_game_four_people(live_server: LiveServer, variant: str) -> None:
    run(play_whole_game(live_server, variant, seats=4, humans=4, seed=7))


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - FAST_VARIANTS))
def test_whole_game_people_and_bots_long_variants(live_server: LiveServer, variant: str) -> None:
    run(play_whole_game(live_server, variant, seats=3, humans=2, seed=3))


def test_bots_only_game_to_the_end(live_server: LiveServer) -> None:
    async def scenario() -> None:
        host = await Player(live_server, "Ann").login()
        table_id = await host.create_table(variant="may-i", seats=3, bots={"1": "easy", "2": "random"})
        watcher = await Player(live_server, "Eve").login()
        await host.connect(table_id)
        await watcher.connect(table_id)
        await start_game(host)
        await host.play(random.Random(1), timeout=300)
        final = await watcher.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
        assert final["seat"] is None and final["view"]["hand"] == []

    run(scenario())


# -- claims ----------------------------------------------------------------------------------------


def test_simultaneous_buys_first_call_one_winner(live_server: LiveServer) -> None:
    """progressive-buy-it (first call wins): three clients call at once; exactly one buys."""

    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob", "Cid", "Dee"],
                                               variant="progressive-buy-it", seats=4, claim_seconds=0)
        await start_game(players[0])
        for window in range(6):
            state = await open_window(players)
            view = state["view"]
            callers = [p for p in players if p.seat in view["to_act"]]
            before_used = sum(view["claims_used"])
            ids = await asyncio.gather(*(p.send("action", seq=state["seq"], action=f"p{p.seat} buy")
                                         for p in callers))
            replies = await asyncio.gather(*(p.reply_to(i) for p, i in zip(callers, ids, strict=True)))
            winners = [p for p, r in zip(callers, replies, strict=True) if r["type"] == "ack"]
            assert len(winners) == 1, replies
            for reply in replies:
                assert reply["type"] == "ack" or reply["code"] in ("illegal", "stale"), reply
                if reply.get("code") == "stale":  # the loser of the race is told who won it
                    assert reply["message"] == f"{winners[0].name} bought it first", reply
            after = await players[0].state_after(state["seq"])
            assert sum(after["view"]["claims_used"]) == before_used + 1
            assert after["view"]["claims_used"][winners[0].seat] == view["claims_used"][winners[0].seat] + 1
            assert any("bought" in sentence for sentence in after["events"])
            active = next(p for p in players if p.seat == after["view"]["active"])
            await active.state_from(after["seq"])
            await active.finish_turn(random.Random(window))
        for player in players:
            await player.close()

    run(scenario())


def test_simultaneous_calls_rotation_nearest_wins(live_server: LiveServer) -> None:
    """may-i (rotation): everyone calls May I at once; the nearest to the active player's left wins."""

    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob", "Cid", "Dee"],
                                               variant="may-i", seats=4, claim_seconds=0)
        await start_game(players[0])
        windows = 0
        while windows < 3:
            state = max((p.state for p in players), key=lambda m: m["seq"])
            active = next(p for p in players if p.seat == state["view"]["active"])
            await active.state_from(state["seq"])
            seq = active.state["seq"]
            assert active.seat in active.state["view"]["to_act"] and active.state["view"]["phase"] == "draw"
            command_id = await active.send("action", seq=seq, action=f"p{active.seat} draw")
            assert (await active.reply_to(command_id))["type"] == "ack"
            drawn = await active.state_after(seq)
            if drawn["view"]["phase"] != "claim":
                await active.finish_turn(random.Random(1))
                continue
            windows += 1
            state = await open_window(players)
            view = state["view"]
            callers = [p for p in players if p.seat in view["to_act"]]
            n = len(players)
            nearest = min((p.seat for p in callers), key=lambda s: (s - view["active"]) % n)
            ids = await asyncio.gather(*(p.send("action", seq=state["seq"], action=f"p{p.seat} buy") for p in callers))
            await asyncio.gather(*(p.reply_to(i) for p, i in zip(callers, ids, strict=True)))
            after = await players[0].state_after(state["seq"])
            while after["view"]["phase"] == "claim":
                after = await players[0].state_after(after["seq"])
            gained = [s for s in range(n) if after["view"]["claims_used"][s] > view["claims_used"][s]]
            assert gained == [nearest]
            # the active player now discards so the next turn starts
            await active.state_from(after["seq"])
            await active.finish_turn(random.Random(1))
        for player in players:
            await player.close()

    run(scenario())


def test_claim_window_holds_the_active_player_then_times_out(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob", "Cid"],
                                               variant="progressive-buy-it", seats=3, claim_seconds=0.5)
        await start_game(players[0])
        state = await open_window(players)
        assert state["deadline"]["kind"] == "claim"
        active = next(p for p in players if p.seat == state["view"]["active"])
        command_id = await active.send("action", seq=state["seq"], action=f"p{active.seat} draw")
        reply = await active.reply_to(command_id)
        assert reply["type"] == "error" and reply["code"] == "illegal" and reply["rule"] == "claim-window-open"
        assert event_count(live_server, table_id) == state["seq"]
        after = await active.wait_for(lambda m: m["type"] == "state" and m["seq"] > state["seq"], timeout=5)
        assert after["view"]["phase"] == "draw"
        assert after["view"]["active"] == active.seat
        passes = [e for e in event_rows(live_server, table_id) if e[1] == "action" and e[2]["by"] == "timer"]
        assert len(passes) == 2
        command_id = await active.send("action", seq=after["seq"], action=f"p{active.seat} draw")
        assert (await active.reply_to(command_id))["type"] == "ack"
        for player in players:
            await player.close()

    run(scenario())


# -- refusals ----------------------------------------------------------------------------------------


def test_bad_commands_are_refused_and_change_nothing(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=2)
        ann, bob = players
        await start_game(ann)
        await bob.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
        state = ann.state
        seq, view = state["seq"], state["view"]
        me = next(p for p in players if p.seat == view["active"])
        other = bob if me is ann else ann
        events_before = event_count(live_server, table_id)
        legal = me.state["view"]["legal_actions"][0]

        async def refused(player: Player, message: object, code: str) -> dict[str, object]:
            start = len(player.messages)
            await player.send_raw(message)
            reply = await player.wait_for(lambda m: m["type"] == "error", start=start)
            assert reply["code"] == code, reply
            assert reply["message"]
            return reply

        await refused(me, "this is not json", "bad-message")
        await refused(me, json.dumps([1, 2]), "bad-message")
        await refused(me, {"v": 2, "id": "x1", "type": "ping"}, "bad-message")
        await refused(me, {"v": 1, "type": "ping"}, "bad-message")
        await refused(me, {"v": 1, "id": "x2", "type": "teleport"}, "bad-message")
        await refused(me, {"v": 1, "id": "x3", "type": "action", "action": legal}, "bad-message")
        await refused(me, {"v": 1, "id": "x4", "type": "action", "seq": seq}, "bad-message")
        await refused(me, {"v": 1, "id": "x5", "type": "action", "seq": seq + 5, "action": legal}, "bad-message")
        await refused(me, {"v": 1, "id": "x6", "type": "action", "seq": seq, "action": "p0 fly away"}, "syntax")
        forged = f"p{other.seat} draw"
        await refused(me, {"v": 1, "id": "x7", "type": "action", "seq": seq, "action": forged}, "not-your-seat")
        await refused(other, {"v": 1, "id": "x8", "type": "action", "seq": seq,
                              "action": f"p{other.seat} draw"}, "illegal")
        await refused(me, {"v": 1, "id": "x9", "type": "action", "seq": seq,
                           "action": f"p{me.seat} discard {view['hand'][0]}"}, "illegal")
        await refused(other, {"v": 1, "id": "x10", "type": "start"}, "not-host" if other is bob else "already-started")
        await refused(me, {"v": 1, "id": "x11", "type": "play_again"}, "not-host" if me is bob else "not-finished")
        await refused(me, {"v": 1, "id": "x12", "type": "join"}, "already-started")
        ack = await me.send("ping")
        assert (await me.reply_to(ack))["type"] == "ack"
        await refused(me, {"v": 1, "id": ack, "type": "ping"}, "duplicate")
        spectator = await Player(live_server, "Eve").connect(table_id)
        await refused(spectator, {"v": 1, "id": "s1", "type": "action", "seq": seq, "action": legal}, "not-seated")
        await refused(spectator, {"v": 1, "id": "s2", "type": "join"}, "no-session")
        # nothing changed: no new event, no newer state anywhere
        assert event_count(live_server, table_id) == events_before
        assert all(p.state["seq"] == seq for p in (ann, bob, spectator))
        # the legal action still applies once, and its id cannot be used twice
        ok = await me.send("action", seq=seq, action=legal)
        assert (await me.reply_to(ok))["type"] == "ack"
        await refused(me, {"v": 1, "id": ok, "type": "action", "seq": seq + 1, "action": legal}, "duplicate")
        # a second action chosen on the old state is stale
        await me.wait_for(lambda m: m["type"] == "state" and m["seq"] == seq + 1)
        again = me.state["view"]["legal_actions"][0]
        await refused(me, {"v": 1, "id": "x13", "type": "action", "seq": seq, "action": again}, "stale")
        assert event_count(live_server, table_id) == events_before + 1
        for player in (ann, bob, spectator):
            await player.close()

    run(scenario())


def test_spectators_and_other_seats_never_get_a_hand(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="purchase", seats=3,
                                               bots={"2": "easy"}, options={"max_turns": 60})
        anonymous = await Player(live_server, "anonymous").connect(table_id)
        named = await (await Player(live_server, "Eve").login()).connect(table_id)
        await start_game(players[0])
        await asyncio.gather(*(p.play(random.Random(p.name)) for p in players))
        for watcher in (anonymous, named):
            await watcher.wait_for(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
            states = [m for m in watcher.messages if m["type"] == "state" and m["view"]]
            assert states
            for message in states:
                assert message["seat"] is None and message["view"]["seat"] is None
                assert message["view"]["hand"] == [] and message["view"]["legal_actions"] == []
                if message["view"]["phase"] not in ("round_over", "game_over"):
                    assert message["view"]["revealed_hands"] is None
        for player in [*players, anonymous, named]:
            await player.close()

    run(scenario())


# -- seats, hosts, timers ----------------------------------------------------------------------------


def test_joining_seats(live_server: LiveServer) -> None:
    async def scenario() -> None:
        host = await Player(live_server, "Ann").login()
        table_id = await host.create_table(variant="basic", seats=3, bots={"2": "easy"})
        await host.connect(table_id)
        bob, cid = await Player(live_server, "Bob").login(), await Player(live_server, "Cid").login()
        await bob.connect(table_id)
        await cid.connect(table_id)

        async def reply(player: Player, **fields: object) -> dict[str, object]:
            return await player.reply_to(await player.send("join", **fields))

        assert (await reply(bob, seat=2))["code"] == "seat-taken"
        assert (await reply(bob, seat=9))["code"] == "bad-message"
        assert (await reply(host))["code"] == "already-seated"
        start = await host.reply_to(await host.send("start"))
        assert start["code"] == "seats-empty"
        assert (await reply(bob))["type"] == "ack"
        assert (await reply(bob))["code"] == "already-seated"
        assert (await reply(cid))["code"] == "table-full"
        state = await cid.wait_for(lambda m: m["type"] == "state" and m["table"]["seats"][1]["kind"] == "human")
        assert state["table"]["seats"][1]["name"] == "Bob" and state["table"]["seats"][1]["connected"]
        assert (await bob.reply_to(await bob.send("start")))["code"] == "not-host"
        await start_game(host)
        for player in (host, bob, cid):
            await player.close()

    run(scenario())


def test_play_again_starts_a_new_game(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="purchase", seats=2,
                                               options={"max_turns": 30})
        await start_game(players[0])
        await asyncio.gather(*(p.play(random.Random(i)) for i, p in enumerate(players)))
        bob = players[1]
        assert (await bob.reply_to(await bob.send("play_again")))["code"] == "not-host"
        host = players[0]
        assert (await host.reply_to(await host.send("play_again")))["type"] == "ack"
        state = await bob.wait_for(lambda m: m["type"] == "state" and m["table"]["game"] == 2)
        assert state["table"]["status"] == "playing" and state["view"]["phase"] in ("draw", "play")
        kinds = [kind for _, kind, _ in event_rows(live_server, table_id)]
        assert kinds.count("start") == 2
        for player in players:
            await player.close()

    run(scenario())


def test_turn_timer_lets_a_bot_play_the_turn(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=2,
                                               turn_seconds=0.3)
        await start_game(players[0])
        state = players[0].state
        assert state["deadline"]["kind"] == "turn" and state["deadline"]["seat"] == state["view"]["active"]
        first = state["view"]["active"]
        after = await players[0].wait_for(lambda m: playing(m) and m["view"]["active"] != first, timeout=5)
        assert any("Time is up" in line for m in players[0].messages if m["type"] == "state" for line in m["events"])
        bys = {e[2]["by"] for e in event_rows(live_server, table_id) if e[1] == "action"}
        assert bys == {"timer"}
        assert after["deadline"]["kind"] == "turn"
        for player in players:
            await player.close()

    run(scenario())


def test_bot_takes_a_dropped_seat_until_the_player_returns(server_factory: object) -> None:
    server = server_factory(reconnect_grace=0.3)  # type: ignore[operator]

    async def scenario() -> None:
        table_id, players = await seated_table(server, ["Ann", "Bob"], variant="basic", seats=3, bots={"2": "easy"},
                                               claim_seconds=0)
        ann, bob = players
        await start_game(ann)
        await bob.close()
        dropped = await ann.wait_for(lambda m: m["type"] == "state" and m["table"]["seats"][1]["bot_playing"],
                                     timeout=5)
        assert not dropped["table"]["seats"][1]["connected"]
        start = len(ann.messages)
        await ann.play(random.Random(2), until=lambda: len(ann.messages) > start + 40)
        assert any(e[2]["by"] == "takeover" for e in event_rows(server, table_id) if e[1] == "action")
        back = Player(server, "Bob", cookie=bob.cookie)
        await back.connect(table_id)
        assert back.seat == 1 and back.state["view"]["hand"]
        seen = await ann.wait_for(lambda m: m["type"] == "state" and not m["table"]["seats"][1]["bot_playing"]
                                  and m["table"]["seats"][1]["connected"], start=start)
        assert any("is back" in line for line in seen["events"])
        for player in (ann, back):
            await player.close()

    run(scenario())


def test_idle_tables_leave_memory_and_come_back(server_factory: object) -> None:
    server = server_factory(idle_table_seconds=0.2)  # type: ignore[operator]

    async def scenario() -> None:
        table_id, players = await seated_table(server, ["Ann", "Bob"], variant="purchase", seats=2,
                                               options={"max_turns": 10})
        await start_game(players[0])
        await asyncio.gather(*(p.play(random.Random(i)) for i, p in enumerate(players)))
        final = players[0].state
        for player in players:
            await player.close()
        await asyncio.sleep(1.0)  # evicted by now
        back = await Player(server, "Ann", cookie=players[0].cookie).connect(table_id)
        assert back.state["seq"] == final["seq"] and back.state["table"]["status"] == "finished"
        assert back.state["view"] == final["view"]
        assert (await back.reply_to(await back.send("play_again")))["type"] == "ack"
        await back.close()

    run(scenario())


# -- HTTP ----------------------------------------------------------------------------------------------


def test_http_api(live_server: LiveServer) -> None:
    async def scenario() -> None:
        anonymous = Player(live_server, "x")
        assert (await anonymous.http("GET", "/healthz")).json() == {"ok": True}
        response = await anonymous.http("GET", "/api/session")  # a first visit is not an error
        assert response.status_code == 200 and response.json() == {"player_id": None, "name": None}
        response = await anonymous.http("POST", "/api/tables", json={"variant": "basic"})
        assert response.status_code == 401
        bad_name = await anonymous.http("POST", "/api/session", json={"name": "   "})
        assert bad_name.status_code == 400 and bad_name.json()["error"]["code"] == "bad-name"
        ann = await Player(live_server, "Ann").login()
        assert (await ann.http("GET", "/api/session")).json()["name"] == "Ann"
        variants = (await ann.http("GET", "/api/variants")).json()
        assert {v["id"] for v in variants} == set(VARIANTS)
        kinds = ("bool", "int", "choice", "set", "per_players", "payments", "schedule")
        assert all(o["type"] in kinds and o["label"] and o["description"] for v in variants for o in v["options"])
        for body, code in [
            ({"variant": "chess"}, "bad-variant"),
            ({"variant": "basic", "seats": 7}, "bad-seats"),
            ({"variant": "basic", "options": {"colour": "red"}}, "bad-option"),
            ({"variant": "purchase", "seats": 6, "options": {"deal_size": 10}}, "bad-option"),  # 67 of 52 cards
            ({"variant": "basic", "bots": {"0": "easy"}}, "bad-bot"),
            ({"variant": "basic", "bots": {"1": "grandmaster"}}, "bad-bot"),
            ({"variant": "basic", "bots": {"1": "llm"}}, "bad-bot"),  # needs a model: a simulator bot only
            ({"variant": "basic", "claim_seconds": -1}, "bad-request"),
            ({"variant": "basic", "speed": 3}, "bad-request"),
        ]:
            response = await ann.http("POST", "/api/tables", json=body)
            assert response.status_code == 400, body
            assert response.json()["error"]["code"] == code, response.json()
        response = await ann.http("POST", "/api/tables", content=b"{not json",
                                  headers={"Content-Type": "application/json"})
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
        assert (await ann.http("GET", "/api/tables/nope")).status_code == 404
        assert (await ann.http("GET", "/api/tables/nope/record")).status_code == 404
        assert (await ann.http("GET", "/api/nothing-here")).json()["error"]["code"] == "not-found"
        table_id = await ann.create_table(variant="basic", seats=2, bots={"1": "easy"})
        summary = (await ann.http("GET", f"/api/tables/{table_id}")).json()
        assert summary["status"] == "waiting" and summary["invite_url"].endswith(f"/table/{table_id}")
        assert (await ann.http("GET", f"/api/tables/{table_id}/record")).json()["error"]["code"] == "not-started"
        mine = (await ann.http("GET", "/api/tables")).json()
        assert [t["table_id"] for t in mine] == [table_id]
        page = await ann.http("GET", f"/table/{table_id}")
        assert page.status_code in (200, 503) and "text/html" in page.headers["content-type"]
        socket = Player(live_server, "x")
        with pytest.raises(ConnectionError):
            await socket.connect("does-not-exist")
        assert socket.messages[0]["code"] == "not-found"

    run(scenario())


def test_a_hint_names_a_legal_move_of_ones_own_and_changes_nothing(live_server: LiveServer) -> None:
    """``hint``: the heuristic bot's move from the seat's view, one of the seat's legal actions, in words;
    refused to a seat with no decision and to a spectator; the table's seq does not move."""
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=2)
        await start_game(players[0])
        watcher = await Player(live_server, "Eve").connect(table_id)
        state = await players[0].wait_state(lambda m: m["view"] is not None and m["view"]["phase"] == "draw")
        acting = players[state["view"]["active"]]
        idle = players[1 - state["view"]["active"]]
        for phase in ("draw", "play"):
            state = await acting.wait_state(lambda m, phase=phase: m["view"]["phase"] == phase)
            answer = await acting.reply_to(await acting.send("hint"))
            assert answer["type"] == "hint" and answer["seq"] == state["seq"], answer
            assert f"p{acting.seat} {answer['move']}" in state["view"]["legal_actions"], answer
            assert answer["words"][0].isupper() and "." in answer["words"], answer
            assert (await idle.reply_to(await idle.send("hint")))["code"] == "not-your-turn"
            assert (await watcher.reply_to(await watcher.send("hint")))["code"] == "not-seated"
            assert acting.state["seq"] == state["seq"]  # a hint changes nothing
            played = await acting.reply_to(await acting.send("action", seq=state["seq"],
                                                             action=f"p{acting.seat} {answer['move']}"))
            assert played["type"] == "ack", played
        for player in (*players, watcher):
            await player.close()

    run(scenario())
