"""Game history and statistics over HTTP, against a real server.

Whole games of every variant are played by two scripted people (and bots in the other seats); the
history and statistics the server works out from its event log must equal what replaying each game's
record (``GET /api/tables/{id}/record``) gives: scores, winners, rounds gone out, buys, and the
aggregates per variant.  A player sees only their own finished games.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from typing import Any

import pytest

from rummy.engine.actions import Verb
from rummy.engine.house_rules import get_variant
from rummy.engine.modes import ClaimMode
from rummy.record import loads, prepare, replay, results_json, revealed_shuffle
from tests.server.conftest import LiveServer, Player, run, seated_table, start_game

#: Seats and house rules that keep a whole game short enough for the default run.
SHORT_GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "basic": (3, {"target_by_players": {"3": 60}}),
    "purchase": (3, {"max_turns": 80}),
    "may-i": (3, {}),
}
LONG_GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "progressive-buy-it": (3, {}),
    "progressive-15": (3, {}),
}


def expected_from_record(text: str) -> dict[str, Any]:
    """A finished game's results recomputed by replaying its record: per seat the final score (total
    points, or books tabled where books decide), whether it won, rounds gone out and buys made."""
    record = loads(text)
    replayed = replay(record)
    assert replayed.ok and replayed.game is not None and replayed.game.game_over
    results = results_json(replayed.game)
    rules = get_variant(record.variant, record.options)
    n = len(record.players)
    game, parsed = prepare(record)
    buys = [0] * n
    for round_record, actions in zip(record.rounds, parsed, strict=True):
        game.deal(dealer=round_record.dealer, hands=round_record.hands, upcard=round_record.upcard,
                  stock=round_record.stock, purchase_cards=round_record.purchase_cards,
                  shuffle=revealed_shuffle(round_record))
        for action in actions:
            applied = game.apply(action)
            if applied.claimed_by is not None:
                buys[applied.claimed_by] += 1
            if action.verb is Verb.PURCHASE:
                buys[action.seat] += 1
    buying = rules.claim_mode is not ClaimMode.NONE or rules.uses_purchase_cards
    books = any(r["end"] == "book" for r in results["rounds"]) or rules.uses_books
    seats = []
    for seat in range(n):
        went_out = sum(1 for r in results["rounds"] if r["went_out"] == seat)
        score = (sum(1 for r in results["rounds"] if r["end"] == "book" and r["went_out"] == seat)
                 if books else results["totals"][seat])
        seats.append({"seat": seat, "name": record.players[seat], "score": score,
                      "won": seat in results["winners"], "rounds_out": went_out,
                      "buys": buys[seat] if buying else None})
    return {"variant": record.variant, "rounds": len(results["rounds"]), "seats": seats,
            "winners": [record.players[s] for s in results["winners"]]}


async def play_table(server: LiveServer, people: list[Player], variant: str, seats: int, options: dict[str, Any],
                     seed: int) -> str:
    """One whole game at a new table hosted by ``people[0]``; returns the table id."""
    host, *others = people
    bots = {str(seat): "easy" for seat in range(len(people), seats)}
    table_id = await host.create_table(variant=variant, seats=seats, bots=bots, claim_seconds=0, options=options)
    for player in people:
        await player.connect(table_id)
    for player in others:
        assert (await player.reply_to(await player.send("join")))["type"] == "ack"
    await start_game(host)
    rng = random.Random(seed)
    await asyncio.gather(*(p.play(random.Random(rng.random()), buy_chance=0.4, timeout=900) for p in people))
    for player in people:
        await player.close()
    return table_id


async def settled(player: Player, path: str, **params: Any) -> dict[str, Any]:
    """The answer of ``path`` once every table is scanned (a request replays for a moment and leaves the
    rest, ``pending``, to the next)."""
    for _ in range(200):
        answer: dict[str, Any] = (await player.http("GET", path, params=params)).json()
        if answer["pending"] == 0:
            return answer
        await asyncio.sleep(0.05)
    raise AssertionError(f"{path} still has {answer['pending']} table(s) to scan")


def check_history(history: dict[str, Any], expected: dict[str, dict[str, Any]], me: str) -> None:
    """``history`` lists exactly the games of ``expected`` (by table), each equal to its record."""
    assert history["total"] == len(expected)
    assert {g["table_id"] for g in history["games"]} == set(expected)
    for game in history["games"]:
        want = expected[game["table_id"]]
        assert game["game"] == 1 and game["variant"] == want["variant"]
        assert game["rounds"] == want["rounds"]
        assert game["winners"] == want["winners"]
        got = [{k: p[k] for k in ("seat", "name", "score", "won", "rounds_out", "buys")} for p in game["players"]]
        assert got == want["seats"]
        assert [p["name"] for p in game["players"] if p["you"]] == [me]
        assert game["replay_url"] == f"/replay/{game['table_id']}?game=1"
    stamps = [g["finished_at"] for g in history["games"]]
    assert stamps == sorted(stamps, reverse=True)


def check_stats(stats: dict[str, Any], expected: dict[str, dict[str, Any]], me: str) -> None:
    """The statistics per variant equal the aggregates of the replayed records."""
    mine: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for table_id, game in expected.items():
        seat = next(s for s in game["seats"] if s["name"] == me)
        mine[game["variant"]].append((table_id, seat))
    assert [row["variant"] for row in stats["variants"]] == sorted(mine)
    for row in stats["variants"]:
        games = mine[row["variant"]]
        scores = [seat["score"] for _, seat in games]
        assert row["games"] == len(games)
        assert row["won"] == sum(seat["won"] for _, seat in games)
        assert row["average_score"] == round(sum(scores) / len(scores), 2)
        assert row["rounds_out"] == sum(seat["rounds_out"] for _, seat in games)
        buys = [seat["buys"] for _, seat in games]
        assert row["buys"] == (None if None in buys else sum(buys))
        best = max(scores) if row["higher_is_better"] else min(scores)
        assert row["best_game"]["score"] == best
        assert dict(games)[row["best_game"]["table_id"]]["score"] == best


async def history_equals_records(server: LiveServer, games: dict[str, tuple[int, dict[str, Any]]],
                                 tables_each: int) -> None:
    ann, bob = [await Player(server, name).login() for name in ("Ann", "Bob")]
    expected: dict[str, dict[str, Any]] = {}
    for index, (variant, (seats, options)) in enumerate(sorted(games.items())):
        for number in range(tables_each):
            people = [ann, bob] if number % 2 == 0 else [bob, ann]  # each hosts some
            table_id = await play_table(server, people, variant, seats, options, seed=100 * index + number)
            record = await ann.http("GET", f"/api/tables/{table_id}/record")
            assert record.status_code == 200
            expected[table_id] = expected_from_record(record.text)
    seats = [seat for game in expected.values() for seat in game["seats"]]
    assert any(seat["buys"] for seat in seats) and any(seat["rounds_out"] for seat in seats)  # not all zeros
    for me, player in (("Ann", ann), ("Bob", bob)):
        check_history(await settled(player, "/api/history", limit=100), expected, me)
        check_stats(await settled(player, "/api/history/stats"), expected, me)
    again = await settled(ann, "/api/history", limit=100)  # stored, not recomputed
    assert again == (await ann.http("GET", "/api/history", params={"limit": 100})).json()


def test_history_equals_the_replayed_records(live_server: LiveServer) -> None:
    run(history_equals_records(live_server, SHORT_GAMES, tables_each=2))


@pytest.mark.slow
def test_history_equals_the_replayed_records_long_variants(live_server: LiveServer) -> None:
    run(history_equals_records(live_server, LONG_GAMES, tables_each=1))  # a whole random game is long here


def test_only_my_finished_games(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, (ann, bob) = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=3,
                                                  bots={"2": "easy"}, claim_seconds=0,
                                                  options={"target_by_players": {"3": 40}})
        carl = await Player(live_server, "Carl").login()
        await start_game(ann)
        for player in (ann, bob, carl):  # a game in play is nobody's history yet
            history = await settled(player, "/api/history")
            assert table_id not in {g["table_id"] for g in history["games"]}
        await asyncio.gather(*(p.play(random.Random(i)) for i, p in enumerate((ann, bob))))
        for player in (ann, bob):
            history = await settled(player, "/api/history")
            assert [g["table_id"] for g in history["games"]] == [table_id]
        assert (await carl.http("GET", "/api/history")).json() == {"games": [], "total": 0, "pending": 0}
        assert (await carl.http("GET", "/api/history/stats")).json() == {"variants": [], "pending": 0}
        anonymous = Player(live_server, "Nobody")
        for path in ("/api/history", "/api/history/stats"):
            response = await anonymous.http("GET", path)
            assert response.status_code == 401 and response.json()["error"]["code"] == "no-session"
        for query in ({"limit": "0"}, {"limit": "x"}, {"offset": "-1"}, {"limit": "101"}):
            response = await ann.http("GET", "/api/history", params=query)
            assert response.status_code == 400 and response.json()["error"]["code"] == "bad-request"
        for player in (ann, bob):
            await player.close()

    run(scenario())


def test_every_game_of_a_table_played_again(live_server: LiveServer) -> None:
    async def scenario() -> None:
        table_id, (ann, bob) = await seated_table(live_server, ["Ann", "Bob"], variant="purchase", seats=2,
                                                  claim_seconds=0, options={"max_turns": 40})
        await start_game(ann)
        await asyncio.gather(*(p.play(random.Random(i)) for i, p in enumerate((ann, bob))))
        first = expected_from_record((await ann.http("GET", f"/api/tables/{table_id}/record")).text)
        history = await settled(ann, "/api/history")  # scanned after game 1
        assert [g["game"] for g in history["games"]] == [1]
        assert (await ann.reply_to(await ann.send("play_again")))["type"] == "ack"
        for player in (ann, bob):
            await player.wait_state(lambda m: m["table"]["game"] == 2)
        assert [g["game"] for g in (await settled(ann, "/api/history"))["games"]] == [1]
        await asyncio.gather(*(p.play(random.Random(i + 5)) for i, p in enumerate((ann, bob))))
        second = expected_from_record((await ann.http("GET", f"/api/tables/{table_id}/record")).text)
        games = (await settled(bob, "/api/history"))["games"]
        assert [g["game"] for g in games] == [2, 1]
        for game, want in zip(games, (second, first), strict=True):
            got = [{k: p[k] for k in ("seat", "name", "score", "won", "rounds_out", "buys")} for p in game["players"]]
            assert got == want["seats"]
        stats = (await settled(bob, "/api/history/stats"))["variants"]
        assert [(row["variant"], row["games"]) for row in stats] == [("purchase", 2)]
        for player in (ann, bob):
            await player.close()

    run(scenario())
