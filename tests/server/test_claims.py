"""Claim windows and people who do not answer them, and the facts and help a table serves.

A person who passes on claims (``skip_claims``) or is away never holds a window open: the table passes
for them at once (logged ``by: "auto"``), so a window closes as soon as every other eligible seat has
answered.  The windows here would otherwise wait ``claim_seconds`` = 600 s, far beyond the tests' time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.server.conftest import LiveServer, Player, playing, run, seated_table, start_game
from tests.server.test_protocol import event_rows

SLOW_WINDOW = 600  # seconds: a window that closes in a test was closed by its answers, not by the timer


async def draw_and_discard(player: Player, until: Callable[[], bool]) -> None:
    """Play the player's turns by drawing and discarding only (the hand never ends by them), and answer a
    claim window with a pass, unless the player passes on claims: then the table must answer it."""
    while not until():
        state = player.state
        assert state is not None
        view, seat = state["view"], player.seat
        skipping = state["table"]["seats"][seat]["skip_claims"] is not None
        bodies = [text.split(" ", 1)[1] for text in view["legal_actions"]] if view else []
        choice = "draw" if "draw" in bodies else next((b for b in bodies if b.startswith("discard")), None)
        if view and view["phase"] == "claim" and "pass" in bodies and not skipping:
            choice = "pass"
        if choice is not None and seat in view["to_act"]:
            command_id = await player.send("action", seq=state["seq"], action=f"p{seat} {choice}")
            if (await player.reply_to(command_id))["type"] == "ack":
                await player.state_after(state["seq"])
            continue
        try:
            await player.wait_for(lambda m: m["type"] == "state", start=len(player.messages), timeout=1)
        except TimeoutError:
            pass


def passes_by(server: LiveServer, table_id: str, seat: int, after: int = 0, *, one_hand: bool = True) -> list[str]:
    """Who made each of ``seat``'s passes after ``seq`` (``auto``, ``player``, ``timer`` …), in order;
    ``one_hand``: only until the next deal."""
    found = []
    for seq, kind, payload in event_rows(server, table_id):
        if one_hand and seq > after and kind == "deal" and found:
            break
        if seq > after and kind == "action" and payload["action"] == f"p{seat} pass":
            found.append(payload["by"])
    return found


def bobs_turn(state: dict[str, Any] | None) -> bool:
    view = state["view"] if state else None
    return bool(view) and view["active"] == 1 and view["phase"] in ("draw", "play")


def test_a_player_passing_on_claims_is_answered_for_at_once(live_server: LiveServer) -> None:
    async def scenario() -> None:
        # Three people who only draw and discard: no one goes out, so the hand lasts as long as the test
        # needs (a computer player might go out after one window and end "until the hand's end" early).
        table_id, (ann, bob, cy) = await seated_table(live_server, ["Ann", "Bob", "Cy"], variant="progressive-buy-it",
                                                      seats=3, claim_seconds=SLOW_WINDOW)
        await start_game(ann)
        await bob.wait_state(playing)
        for bad in ({"until": "never"}, {}):
            reply = await bob.reply_to(await bob.send("skip_claims", **bad))
            assert reply["code"] == "bad-message"
        reply = await bob.reply_to(await bob.send("skip_claims", until="hand"))
        assert reply["type"] == "ack"
        since = (await ann.wait_state(lambda m: m["table"]["seats"][1]["skip_claims"] == "hand"))["seq"]

        def enough() -> bool:
            return len(passes_by(live_server, table_id, 1, since)) >= 4

        await asyncio.wait_for(asyncio.gather(*(draw_and_discard(p, enough) for p in (ann, bob, cy))), 120)
        passes = passes_by(live_server, table_id, 1, since)
        assert len(passes) >= 4 and set(passes) == {"auto"}  # never the timer, never Bob himself
        assert "timer" not in passes_by(live_server, table_id, 0)
        state = await bob.state_from(event_rows(live_server, table_id)[-1][0])
        assert state["table"]["seats"][1]["skip_claims"] == "hand"

        # "until my turn" ends when Bob's turn comes; "off" ends it at once
        await bob.reply_to(await bob.send("skip_claims", until="turn"))
        await bob.wait_state(lambda m: m["table"]["seats"][1]["skip_claims"] == "turn" or bobs_turn(m))
        reply = await bob.reply_to(await bob.send("skip_claims", until="off"))
        assert reply["type"] == "ack"
        await bob.wait_state(lambda m: m["table"]["seats"][1]["skip_claims"] is None)
        await bob.reply_to(await bob.send("skip_claims", until="turn"))
        await asyncio.wait_for(asyncio.gather(*(draw_and_discard(p, lambda: bobs_turn(bob.state))
                                                for p in (ann, bob, cy))), 120)
        assert bob.state is not None and bob.state["table"]["seats"][1]["skip_claims"] is None

        spectator = await Player(live_server, "Eve").login()
        await spectator.connect(table_id)
        reply = await spectator.reply_to(await spectator.send("skip_claims", until="hand"))
        assert reply["code"] == "not-seated"
        for player in (ann, bob, cy, spectator):
            await player.close()

    run(scenario())


def test_an_away_player_never_holds_a_window_open(server_factory: Callable[..., LiveServer]) -> None:
    server = server_factory(reconnect_grace=3600)  # no computer takes Bob's seat during the test

    async def scenario() -> None:
        table_id, (ann, bob) = await seated_table(server, ["Ann", "Bob"], variant="progressive-buy-it", seats=3,
                                                  bots={"2": "easy"}, claim_seconds=SLOW_WINDOW, turn_seconds=1,
                                                  bot_takeover=False)
        await start_game(ann)
        await bob.close()  # away: his turns are played by the turn timer's computer, his windows by the table
        since = (await ann.wait_state(lambda m: not m["table"]["seats"][1]["connected"]))["seq"]

        def enough() -> bool:
            return len(passes_by(server, table_id, 1, since, one_hand=False)) >= 3

        await asyncio.wait_for(draw_and_discard(ann, enough), 120)
        assert set(passes_by(server, table_id, 1, since, one_hand=False)) == {"auto"}
        await ann.close()

    run(scenario())


def test_the_view_and_the_help_follow_the_tables_house_rules(live_server: LiveServer) -> None:
    options: dict[str, Any] = {"may_i_limit": 5, "two_points": 3, "wild_ranks": ["JOKER"], "run_min": 5}

    async def scenario() -> None:
        table_id, (ann,) = await seated_table(live_server, ["Ann"], variant="may-i", seats=3,
                                              bots={"1": "easy", "2": "easy"}, options=options)
        await start_game(ann)
        state = await ann.wait_state(playing)
        facts = state["view"]["facts"]
        assert facts["claim_name"] == "May I" and facts["claim_limit"] == 5
        assert facts["claims_left"] == [5 - used for used in state["view"]["claims_used"]]
        assert facts["card_points"]["2"] == 3 and facts["card_points"]["JOKER"] == 10
        assert facts["wild_ranks"] == ["JOKER"] and facts["run_min"] == 5 and facts["ace_mode"] == "low_or_high"
        assert facts["claim_cost"] == {"penalty_cards": 1, "penalty_word": "penalty card", "pennies": 0}
        assert facts["played_to_table"] is False and facts["target"] is None and facts["rounds"] == 7
        help_ = (await ann.http("GET", f"/api/tables/{table_id}/help")).json()
        text = "\n".join(line for section in help_["sections"] for line in section["lines"])
        assert "Each player has 5 May-I's per hand." in text
        assert "a run is 5 or more cards" in text and "Wild cards: jokers." in text
        changed = next(s for s in help_["sections"] if s["title"] == "House rules at this table")["lines"]
        assert "Buys per hand: 5 (standard: 3)" in changed and "Shortest run: 5 (standard: 4)" in changed
        assert "dead" in help_["glossary"]
        assert (await ann.http("GET", "/api/tables/nope/help")).status_code == 404
        await ann.close()

    run(scenario())
