"""Issue #27, second pass, on the server side: the replay's move list names the card a player let go,
"Your tables" says who plays, when and whose turn it is, and a returning player is told what the computer
played for them (and the history does not count such a game as theirs)."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from typing import Any

from rummy.engine import get_variant, new_game
from rummy.record import dumps, from_data, record_of
from rummy.search.playout import random_game
from rummy.server.events.game_results import finished_games
from rummy.server.events.log import game_events
from rummy.server.events.replay_frames import build_replay
from rummy.server.storage.history import variant_stats
from tests.server.conftest import Player, run, seated_table, start_game
from tests.server.test_protocol import event_rows


def may_i_record(seed: int = 4, actions: int = 300) -> dict[str, Any]:
    game = new_game("may-i", ["Ann", "Bob", "Cid", "Dee"], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.phase.value != "claim" and game.phase.value not in ("draw", "play"):
            break
        game.apply(rng.choice(game.legal_actions()))
    data: dict[str, Any] = json.loads(dumps(record_of(game)))
    return data


def test_the_replays_move_list_names_the_card_a_player_passed_on() -> None:
    replay = build_replay(from_data(may_i_record()))
    passes = [event for step in replay["steps"] if (step["action"] or "").endswith(" pass")
              for event in step["events"] if " passed" in event]
    assert passes, "no silent pass in the record"
    for event in passes:
        assert " passed on the " in event, event


def log_with_stand_in(seat: int, from_round: int) -> tuple[Any, list[tuple[int, str, dict[str, Any]]]]:
    """A finished may-i game's event log in which the computer made ``seat``'s moves from ``from_round`` on."""
    game = random_game("may-i", 3, seed=11)
    events = []
    round_number = 0
    for seq, kind, payload in game_events(game, by="player"):
        if kind == "deal":
            round_number += 1
        if kind == "action" and payload["action"].startswith(f"p{seat} ") and round_number >= from_round:
            payload = {**payload, "by": "takeover"}
        events.append((seq, kind, payload))
    return game, events


def test_a_game_the_computer_mostly_played_for_a_person_is_marked_so() -> None:
    game, events = log_with_stand_in(0, from_round=2)
    [result] = finished_games(get_variant("may-i"), events)
    mine = result.seats[0]
    assert mine.moves > 0 and mine.computer_moves * 2 > mine.moves and mine.by_computer
    assert not any(seat.by_computer or seat.computer_moves for seat in result.seats[1:])
    _, late = log_with_stand_in(0, from_round=len(game.results))  # only the last round: still the person's game
    [result] = finished_games(get_variant("may-i"), late)
    assert 0 < result.seats[0].computer_moves and not result.seats[0].by_computer


def test_a_game_the_computer_played_is_not_the_players_best_game() -> None:
    def row(game: int, score: int, won: bool, computer: int) -> dict[str, Any]:
        return {"table_id": "t", "game": game, "variant": "may-i", "higher_is_better": False, "score": score,
                "won": won, "rounds_out": 1, "buys": 2, "moves": 100, "computer_moves": computer,
                "finished_at": datetime(2026, 11, game, tzinfo=UTC)}

    [stats] = variant_stats([row(1, 140, False, 0), row(2, 20, True, 90), row(3, 300, False, 10)])
    assert stats["games"] == 2 and stats["won"] == 0 and stats["computer_games"] == 1
    assert stats["best_game"]["game"] == 1 and stats["best_game"]["score"] == 140
    assert stats["average_score"] == 220
    [only] = variant_stats([row(2, 20, True, 90)])
    assert only["games"] == 0 and only["best_game"] is None and only["average_score"] is None
    assert only["computer_games"] == 1
    old = {**row(4, 10, True, 0), "moves": None, "computer_moves": None}  # a row stored before migration 0004
    assert variant_stats([old])[0]["best_game"]["game"] == 4


def test_a_person_who_comes_back_is_told_what_the_computer_played_for_them(server_factory: Any) -> None:
    server = server_factory(reconnect_grace=0.3)

    async def scenario() -> None:
        table_id, (ann, bob) = await seated_table(server, ["Ann", "Bob"], variant="basic", seats=3,
                                                  bots={"2": "easy"}, claim_seconds=0)
        await start_game(ann)
        await bob.close()
        await ann.wait_for(lambda m: m["type"] == "state" and m["table"]["seats"][1]["bot_playing"], timeout=5)
        start = len(ann.messages)
        await ann.play(random.Random(2), until=lambda: len(ann.messages) > start + 40)
        played_for_bob = {row[0] for row in event_rows(server, table_id)
                          if row[1] == "action" and row[2]["by"] == "takeover" and row[2]["action"].startswith("p1 ")}
        assert played_for_bob
        back = await Player(server, "Bob", cookie=bob.cookie).connect(table_id)
        assert back.state is not None
        notice = back.state.get("notice")
        # The computer may finish round 1 for Bob and play on into the next ones.
        assert notice and re.fullmatch(
            r"While you were away the computer played for you: \d+ turns?, in (round 1|rounds 1–\d+)\.", notice), notice
        assert "notice" not in (ann.state or {}), "only the person who came back is told"
        again = await Player(server, "Bob", cookie=bob.cookie).connect(table_id)  # a second tab: told once
        assert again.state is not None and "notice" not in again.state
        for player in (ann, back, again):
            await player.close()

    run(scenario())


def test_your_tables_say_who_plays_when_and_whose_turn(live_server: Any) -> None:
    async def scenario() -> None:
        table_id, (ann, bob) = await seated_table(live_server, ["Ann", "Bob"], variant="may-i", seats=3,
                                                  bots={"2": "easy"})
        waiting = {t["table_id"]: t for t in (await bob.http("GET", "/api/tables")).json()}[table_id]
        assert waiting["players"][:2] == ["Ann", "Bob"] and waiting["players"][2].endswith("(bot)")
        assert waiting["seat"] == 1 and waiting["turn"] == "waiting for players"
        await start_game(ann)
        await ann.wait_state(lambda m: m["view"] is not None)
        mine = {t["table_id"]: t for t in (await ann.http("GET", "/api/tables")).json()}[table_id]
        assert datetime.fromisoformat(mine["last_move_at"]).tzinfo is not None
        assert mine["turn"] in {"your turn", "between rounds", "Bob's turn", f"{mine['players'][2]}'s turn"}, mine
        for player in (ann, bob):
            await player.close()

    run(scenario())
