"""The replay viewer's API against a real server: a finished table's replay (every hand, or one seat's
view with no other hand in it), a live table's replay refused, and uploaded records, good, illegal,
malformed, hostile, too large and too many."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import httpx

from rummy.engine.game import new_game
from rummy.record import dumps, loads, record_of, replay
from tests.server.conftest import LiveServer, run, seated_table, start_game


def frames_of(replay_json: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step's whole frame, from the first frame and the differences after it."""
    frames: list[dict[str, Any]] = []
    for delta in replay_json["frames"]:
        frames.append({**(frames[-1] if frames else {}), **delta})
    return frames


def public_cards(full: dict[str, Any]) -> Counter[str]:
    """Cards a seat may see in a full frame besides its own hand: the table, the visible discard pile,
    purchase cards, and every hand once the round is over."""
    seen: Counter[str] = Counter(full["discard"])
    for meld in full["table"]:
        seen.update(meld["cards"])
    seen.update(full["purchase_cards"] or [])
    if full["phase"] in ("round_over", "game_over"):
        for hand in full["hands"]:
            seen.update(hand)
    return seen


CARD_KEYS = ("hand", "discard", "purchase_cards", "claim_card")


def cards_in(frame: dict[str, Any]) -> Counter[str]:
    named: Counter[str] = Counter()
    for key in CARD_KEYS:
        value = frame.get(key)
        named.update([value] if isinstance(value, str) else value or [])
    for meld in frame["table"]:
        named.update(meld["cards"])
    for hand in frame.get("revealed_hands") or []:
        named.update(hand)
    for hand in frame.get("hands") or []:
        named.update(hand)
    return named


async def finished_table(server: LiveServer) -> tuple[str, Any]:
    table_id, players = await seated_table(server, ["Ann", "Bob"], variant="basic", seats=2, claim_seconds=0,
                                           options={"target_by_players": {"2": 40}})
    await start_game(players[0])
    live = await players[0].http("GET", f"/api/tables/{table_id}/replay")
    assert live.status_code == 409 and live.json()["error"]["code"] == "game-in-progress"
    for seat in ("0", "1"):  # nor one seat's view of it
        assert (await players[1].http("GET", f"/api/tables/{table_id}/replay?seat={seat}")).status_code == 409
    rng = random.Random(4)
    await asyncio.gather(*(p.play(random.Random(rng.random())) for p in players))
    return table_id, players


def test_finished_table_replay_every_hand_and_one_seat(live_server: LiveServer) -> None:
    async def body() -> None:
        table_id, players = await finished_table(live_server)
        record = loads((await players[0].http("GET", f"/api/tables/{table_id}/record")).text)
        expected = replay(record).to_json()
        # everyone opens the replay when the game ends: it is worked out once and sent to all
        answers = await asyncio.gather(*(players[i % 2].http("GET", f"/api/tables/{table_id}/replay")
                                         for i in range(6)))
        assert {answer.status_code for answer in answers} == {200}
        assert len({answer.content for answer in answers}) == 1
        full = answers[0].json()
        assert full["results"] == expected["results"] and full["stopped"] is None
        assert full["steps"][0]["id"] == "r1.a0"
        assert len(full["steps"]) == len(full["frames"]) == sum(len(r.actions) + 1 for r in record.rounds)
        full_frames = frames_of(full)
        assert full_frames[-1]["hands"] == expected["state"]["hands"]
        assert full_frames[-1]["totals"] == expected["results"]["totals"]
        for seat in (0, 1):
            response = await players[0].http("GET", f"/api/tables/{table_id}/replay?seat={seat}")
            mine = response.json()
            assert mine["steps"] == full["steps"] and mine["seat"] == seat
            for index, (frame, whole) in enumerate(zip(frames_of(mine), full_frames, strict=True)):
                assert "hands" not in frame
                assert frame["hand"] == whole["hands"][seat]
                hidden = cards_in(frame) - Counter(whole["hands"][seat]) - public_cards(whole)
                assert not hidden, f"step {index}: seat {seat} sees {hidden}"
        # not found, not a seat
        assert (await players[0].http("GET", "/api/tables/nope/replay")).status_code == 404
        bad = await players[0].http("GET", f"/api/tables/{table_id}/replay?seat=2")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-seat"
        assert (await players[0].http("GET", f"/api/tables/{table_id}/replay?seat=-1")).status_code == 400
        page = await players[0].http("GET", f"/replay/{table_id}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for player in players:
            await player.close()

    run(body())


def test_a_table_without_a_game_has_no_replay(live_server: LiveServer) -> None:
    async def body() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2)
        answer = await players[0].http("GET", f"/api/tables/{table_id}/replay")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not-started"
        await players[0].close()

    run(body())


def record_text(variant: str = "may-i", seed: int = 3, actions: int = 60) -> str:
    game = new_game(variant, ["Ann", "Bob", "Cid"], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.game_over or game.phase.value == "round_over":
            break
        game.apply(rng.choice(game.legal_actions()))
    return dumps(record_of(game))


def post(server: LiveServer, body: bytes | str, *, seat: str | None = None,
         content_type: str = "application/json", **headers: str) -> httpx.Response:
    params = {"seat": seat} if seat is not None else {}
    return httpx.post(f"{server.base_url}/api/replays", content=body, params=params,
                      headers={"Content-Type": content_type, **headers}, timeout=30)


def test_uploaded_record_replays_as_rummy_replay_does(live_server: LiveServer) -> None:
    text = record_text()
    answer = post(live_server, text)
    assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
    data = answer.json()
    assert data["results"] == replay(loads(text)).to_json()["results"]
    assert data["stopped"] is None and data["players"] == ["Ann", "Bob", "Cid"]
    plain = httpx.post(f"{live_server.base_url}/api/replays", content=text, timeout=30,
                       headers={"Content-Type": "application/json", "Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == data
    seat_view = post(live_server, text, seat="2").json()
    assert all("hands" not in frame for frame in seat_view["frames"])


def test_an_illegal_action_stops_the_replay_with_the_engines_message(live_server: LiveServer) -> None:
    record = json.loads(record_text(actions=20))
    good = len(record["rounds"][0]["actions"])
    record["rounds"][0]["actions"].append("p0 discard JK")  # whoever is to play, p0 has no such turn now
    expected = replay(loads(json.dumps(record))).to_json()
    assert expected["ok"] is False
    data = post(live_server, json.dumps(record)).json()
    stopped = data["stopped"]
    assert stopped["message"] == expected["error"]["message"] and stopped["rule"] == expected["error"]["rule"]
    assert stopped["index"] == good and stopped["step"] == len(data["steps"]) - 1 == good


def error_of(answer: httpx.Response) -> tuple[int, str, str]:
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["message"]


def test_malformed_and_hostile_uploads_get_a_clear_error(live_server: LiveServer) -> None:
    good = json.loads(record_text(actions=5))
    cases: list[tuple[str | bytes, str]] = [
        ("not json", "not valid JSON"),
        ("", "empty"),
        ("[1, 2]", "a record must be a JSON object"),
        ('{"format": "rummy-record/1", "format": "x"}', "appears twice"),
        ('{"seed": ' + "9" * 5000 + "}", "out of range"),
        ('{"seed": 1e999}', "out of range"),
        ('{"players": ["\\ud800"]}', "surrogate"),
        (json.dumps({**good, "variant": "chess"}), "chess"),
        (json.dumps({**good, "colour": "red"}), "unknown key 'colour'"),
        (json.dumps({**good, "players": ["Ann", "Bob\u0007", "Cid"]}), "control character"),
        (json.dumps({**good, "players": ["Ann", "B" * 65, "Cid"]}), "1–64 characters"),
        (json.dumps({**good, "players": ["Ann", "\u202eboB", "Cid"]}), "bidirectional control"),
        (json.dumps({**good, "start": {"round": 2**53}}), "rounds 1–7"),
        (json.dumps({**good, "seed": -1}), "seed must be an integer"),
        (json.dumps({**good, "rounds": [{**good["rounds"][0], "hands": [["ZZ"]]}]}), "ZZ"),
        (b"\xff\xfe{}", "not valid JSON"),
    ]
    for body, words in cases:
        status, code, message = error_of(post(live_server, body))
        assert (status, code) == (400, "bad-record"), (body[:80], status, code, message)
        assert words in message, (body[:80], message)
    # strange but valid names are shown as they are
    names = ["\u200fRTL", "👨‍👩‍👧", "Zoë"]
    data = post(live_server, json.dumps({**good, "players": names})).json()
    assert data["players"] == names
    status, code, _ = error_of(post(live_server, json.dumps(good), content_type="text/plain"))
    assert (status, code) == (415, "unsupported-media-type")
    status, code, _ = error_of(post(live_server, json.dumps(good), seat="seven"))
    assert (status, code) == (400, "bad-seat")
    status, code, message = error_of(post(live_server, json.dumps(good), seat="3"))
    assert (status, code) == (400, "bad-seat") and "seats 0–2" in message


def test_size_and_rate_limits(server_factory: Any) -> None:
    server = server_factory(max_record_bytes=20_000, max_replay_actions=30, replays_per_minute=1, replay_burst=3)
    big = json.dumps({"format": "rummy-record/1", "x-padding": "x" * 30_000})
    assert error_of(post(server, big))[:2] == (413, "too-large")
    long_game = record_text(actions=60)
    status, code, message = error_of(post(server, long_game))
    assert (status, code) == (413, "too-large") and "at most 30" in message
    short = record_text(actions=10)  # the refused long game cost one of the three: two more go through
    answers = [post(server, short) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert answers[-1].json()["error"]["code"] == "rate-limited" and answers[-1].headers["retry-after"] == "2"


def test_a_tables_game_is_replayed_whatever_its_length(server_factory: Any) -> None:
    """The limits on actions and rounds are for uploaded records: a game played here is always replayed."""
    server = server_factory(max_replay_actions=5, max_replay_rounds=1)

    async def body() -> None:
        table_id, players = await finished_table(server)
        answer = await players[0].http("GET", f"/api/tables/{table_id}/replay")
        assert answer.status_code == 200 and len(answer.json()["steps"]) > 6
        record = (await players[0].http("GET", f"/api/tables/{table_id}/record")).content
        refused = post(server, record)
        assert refused.status_code == 413 and refused.json()["error"]["code"] == "too-large"
        for player in players:
            await player.close()

    run(body())


def test_an_earlier_game_of_a_table_played_again(live_server: LiveServer) -> None:
    """My games links to ``/replay/TABLE?game=N``: a game the table finished before its latest one is read
    from the event log, while the latest game, still being played, stays refused."""
    async def body() -> None:
        table_id, players = await finished_table(live_server)
        first = replay(loads((await players[0].http("GET", f"/api/tables/{table_id}/record")).text)).to_json()
        assert (await players[0].reply_to(await players[0].send("play_again")))["type"] == "ack"
        for player in players:
            await player.wait_state(lambda m: m["table"]["game"] == 2)
        earlier = await players[1].http("GET", f"/api/tables/{table_id}/replay?game=1")
        assert earlier.status_code == 200 and earlier.json()["results"] == first["results"]
        mine = await players[1].http("GET", f"/api/tables/{table_id}/replay?game=1&seat=1")
        assert mine.status_code == 200 and all("hands" not in frame for frame in mine.json()["frames"])
        live = await players[1].http("GET", f"/api/tables/{table_id}/replay?game=2")
        assert live.status_code == 409 and live.json()["error"]["code"] == "game-in-progress"
        for wrong in ("0", "3", "x", "-1", "1" * 40):
            bad = await players[1].http("GET", f"/api/tables/{table_id}/replay?game={wrong}")
            assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-game", wrong
        for player in players:
            await player.close()

    run(body())
