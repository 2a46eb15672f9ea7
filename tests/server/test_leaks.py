"""No message and no HTTP answer ever shows a seat a card it may not see.

Whole games are played over WebSockets by one client per seat plus a spectator, every message is
kept, and afterwards the table's event log is replayed to know the true state at every ``seq``.
Each message is then checked: its view is exactly that seat's (own hand, public table and pile),
and no card it names anywhere (views, legal actions, move-log sentences, score sheet) exists only in
another hand or the stock.  The expected count of such cards is zero.

Meanwhile every seat and the spectator ask every HTTP route that reads (:data:`HTTP_READS`, checked
against the application's own route list) over and over, with their cookies: while the game runs no
answer names a card at all (the summary and the lists hold none; the record, which holds every hand,
the stock and the seed, is refused; a round's shuffle check names the cards of its deal only once
that round is over); once it is over the record is served to everyone.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute, iter_route_contexts

from rummy.engine.actions import parse_action
from rummy.engine.cards import card_names
from rummy.engine.fair_shuffle import ShuffleSecret
from rummy.engine.game import Game, Phase
from rummy.engine.house_rules import get_variant
from rummy.record import loads as record_loads
from rummy.record import replay
from rummy.server.events.log import replay_deal, replay_start
from rummy.server.http.app import STATIC_DIR, create_app
from tests.server.conftest import LiveServer, Player, run, seated_table, start_game
from tests.variants import BUILT_IN

RECORD_CARD = re.compile(r"(?<![A-Za-z0-9])(JK|[A2-9TJQK][CDHS])(?![A-Za-z0-9])")
DECLARATION = re.compile(r"=[^\s;]*")
SENTENCE_CARD = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])|\bjoker\b")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
NOT_CARDS = {"id", "invite_url", "player_id", "as", "name", "variant", "variant_name", "options", "players",
             "table_id", "replay_url",
             "wild_cards"}  # the table's rule facts: every card that plays wild, wherever it lies


@dataclass
class Truth:
    """What is where after one event: each hand, the stock, and what everyone can see."""

    phase: str
    hands: list[list[str]]
    stock: list[str]
    public: Counter[str]  # table, whole discard pile, purchase cards (and every hand at a round's end)
    shown: Counter[str]  # cards the event itself played face up (a discard the stock swallowed at once)


def truth_of(game: Game, shown: Counter[str]) -> Truth:
    public: Counter[str] = Counter(card_names(game.discard))
    for meld in game.table:
        public.update(card_names(meld.cards))
    public.update(card_names(game.purchase_cards or []))
    hands = [card_names(game.hand(seat)) for seat in range(game.n)]
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        for hand in hands:
            public.update(hand)
    return Truth(game.phase.value, hands, card_names(game.stock), public, shown)


def truths(server: LiveServer, table_id: str, variant: str, options: dict[str, Any]) -> dict[int, Truth]:
    """The true state after every event of the table's log, by seq."""
    with sqlite3.connect(server.db_path) as db:
        rows = db.execute("SELECT seq, kind, payload FROM events WHERE table_id = ? ORDER BY seq", (table_id,))
        events = [(seq, kind, json.loads(payload)) for seq, kind, payload in rows]
    rules = get_variant(variant, options)
    result: dict[int, Truth] = {}
    game: Game | None = None
    start: dict[str, Any] = {}
    secret: ShuffleSecret | None = None
    for seq, kind, payload in events:
        shown: Counter[str] = Counter()
        if kind == "start":
            start, game = payload, None
        elif kind == "shuffle":
            secret = ShuffleSecret(payload["seed"], payload["salt"])
        elif kind == "deal":
            if game is None:
                game = replay_start(payload, rules, start["players"], start["seed"], secret)
            else:
                replay_deal(game, payload, secret)
        elif kind == "action":
            assert game is not None
            game.apply(parse_action(payload["action"], game.n))
            shown = Counter(RECORD_CARD.findall(DECLARATION.sub("", payload["action"])))
        if game is not None:
            result[seq] = truth_of(game, shown)
    return result


def cards_named(value: Any, key: str = "") -> list[str]:
    """Every card a message names: record tokens in its strings, and sentence cards (``7♥``)."""
    if key in NOT_CARDS:
        return []
    if isinstance(value, dict):
        return [c for k, v in value.items() for c in cards_named(v, k)]
    if isinstance(value, list):
        return [c for v in value for c in cards_named(v, key)]
    if not isinstance(value, str):
        return []
    if key == "events":
        found = []
        for match in SENTENCE_CARD.finditer(value):
            if match.group(0) == "joker":
                found.append("JK")
            else:
                rank = "T" if match.group(1) == "10" else match.group(1)
                found.append(rank + SUITS[match.group(2)])
        return found
    return RECORD_CARD.findall(DECLARATION.sub("", value))


def leaks_in(message: dict[str, Any], seat: int | None, now: Truth, before: Truth | None,
             shown: Counter[str] | None = None) -> list[str]:
    """The problems of one state message sent to ``seat`` (None: a spectator); ``shown``: the cards the
    events since the previous message played face up."""
    problems = []
    view = message["view"]
    if view is None:
        return [] if not cards_named(message) else [f"cards before the game: {cards_named(message)}"]
    own = now.hands[seat] if seat is not None else []
    if sorted(view["hand"]) != sorted(own):
        problems.append(f"seq {message['seq']}: the hand shown is not seat {seat}'s own")
    if view["revealed_hands"] is not None and now.phase not in ("round_over", "game_over"):
        problems.append(f"seq {message['seq']}: hands revealed during play")
    seen = Counter(own) + now.public + (shown or Counter())
    if before is not None:  # a sentence may name the card a move just took off the table or the pile
        seen |= before.public + Counter(before.hands[seat] if seat is not None else [])
    hidden = Counter(c for other, hand in enumerate(now.hands) if other != seat for c in hand) + Counter(now.stock)
    for card in cards_named({"view": view, "events": message["events"], "table": message["table"]}):
        if seen[card] == 0 and hidden[card] > 0:
            problems.append(f"seq {message['seq']}: {card} is only in another hand or the stock")
    return problems


def check_messages(player: Player, seat: int | None, facts: dict[int, Truth]) -> list[str]:
    problems: list[str] = []
    previous: Truth | None = None
    previous_seq = 0
    for message in player.messages:
        text = json.dumps(message)
        if '"hands"' in text or '"stock"' in text:
            problems.append(f"a message to seat {seat} carries hands or the stock: {text[:200]}")
        if message["type"] != "state" or message["view"] is None:
            continue
        now = facts[message["seq"]]
        shown = sum((facts[q].shown for q in range(previous_seq + 1, message["seq"] + 1) if q in facts), Counter())
        problems += leaks_in(message, seat, now, previous, shown)
        previous, previous_seq = now, message["seq"]
    return problems


# Every route that answers GET, by path template; a route added to the application without being
# listed here fails test_every_http_read_is_probed.
HTTP_READS = ("/", "/table/{table_id}", "/healthz", "/api/session", "/api/variants", "/api/bots", "/api/tables",
              "/api/tables/{table_id}", "/api/tables/{table_id}/help", "/api/tables/{table_id}/record",
              "/history", "/transfer", "/api/history", "/api/history/stats",
              "/replay", "/replay/{table_id}", "/api/tables/{table_id}/replay",
              "/api/tables/{table_id}/shuffles/{round_text}", "/table/{table_id}/verify/{round_text}",
              "/static/main.js",
              "/api/tables/{table_id}/arrange?meld=run:3H-4H-JK", "/api/tables/{table_id}/layoffs?meld=1&cards=5H")
#: Routes that answer with the cards the asker named (in the engine's order), and no other.
ECHOES = {"/api/tables/{table_id}/arrange": {"3H", "4H", "JK"}, "/api/tables/{table_id}/layoffs": {"5H"}}
#: Routes whose answer is the rules in words, built from the variant data alone: they may name example cards.
RULES_TEXT = ("/api/variants", "/api/tables/{table_id}/help")
PAGES = {"/", "/table/{table_id}", "/history", "/transfer", "/replay", "/replay/{table_id}"}
VERIFY_PAGE = "/table/{table_id}/verify/{round_text}"


@dataclass
class Answer:
    """One HTTP answer, and the newest state its asker had seen when it asked."""

    path: str
    seq: int
    status_seen: str  # the table's status in the newest state the asker had seen: waiting, playing, finished
    status: int
    body: bytes

    @property
    def finished(self) -> bool:
        return self.status_seen == "finished"


async def ask_every_route(player: Player, table_id: str, stop: asyncio.Event,
                          asked_in_play: asyncio.Event) -> list[Answer]:
    """Ask every route of :data:`HTTP_READS` with ``player``'s cookie, round after round, until ``stop``
    (one more round after it); ``asked_in_play`` is set once a whole round was asked during the game."""
    answers = []
    cookies = {"rummy_session": player.cookie} if player.cookie else {}
    # a finished game's replay is worked out on the first request: seconds for a long game on a busy machine
    async with httpx.AsyncClient(base_url=player.server.base_url, cookies=cookies, timeout=60) as http:
        while True:
            last_round = stop.is_set()
            for template in HTTP_READS:
                state = player.state or {"seq": 0, "table": {"status": "waiting"}}
                response = await http.get(template.format(table_id=table_id, round_text=1))
                answers.append(Answer(template, state["seq"], state["table"]["status"], response.status_code,
                                      response.content))
            if all(answer.status_seen == "playing" for answer in answers[-len(HTTP_READS):]):
                asked_in_play.set()
            if last_round:
                return answers
            await asyncio.sleep(0.01)


def check_answers(answers: list[Answer], who: str) -> list[str]:
    problems = []
    index = (STATIC_DIR / "index.html").read_bytes()
    for answer in answers:
        where = f"GET {answer.path} by {who} at seq {answer.seq}"
        if answer.path in PAGES or answer.path == VERIFY_PAGE or answer.path.startswith("/static/"):
            expected = index if answer.path in PAGES else (STATIC_DIR / (
                "verify.html" if answer.path == VERIFY_PAGE else "main.js")).read_bytes()
            if answer.body != expected:
                problems.append(f"{where}: not the static file")
            continue
        if answer.path.endswith("/record"):
            if answer.finished and answer.status != 200:
                problems.append(f"{where}: the finished game's record is refused ({answer.status})")
            if answer.status == 200:  # served: only ever a finished game's (the asker may lag behind)
                result = replay(record_loads(answer.body.decode()))
                if result.game is None or not result.game.game_over:
                    problems.append(f"{where}: a live game's record was served")
                continue
        if answer.path.endswith("/replay"):  # every hand face up: only ever a finished game's
            if answer.finished and answer.status != 200:
                problems.append(f"{where}: the finished game's replay is refused ({answer.status})")
            if answer.status == 200 and not json.loads(answer.body)["results"]["game_over"]:
                problems.append(f"{where}: a live game's replay was served")
            if answer.status == 200:
                continue
        body = json.loads(answer.body)
        if answer.path.endswith("/shuffles/{round_text}") and body.get("status") not in (None, "pending"):
            continue  # round 1 is over: its seed, and so its whole deal, are public (docs/fair-shuffle.md)
        named = cards_named(body)
        if answer.path.split("?")[0] in ECHOES:
            named = [card for card in named if card not in ECHOES[answer.path.split("?")[0]]]
        if named and answer.path not in RULES_TEXT:
            problems.append(f"{where}: names cards {named[:5]}")
    return problems


def test_every_http_read_is_probed() -> None:
    """The leak test asks every GET route the application has (and the static files)."""
    routes = {route.path for route in iter_route_contexts(create_app("sqlite:///unused.db").routes)
              if isinstance(route.original_route, APIRoute) and "GET" in (route.methods or ())}
    assert routes == {path.split("?")[0] for path in HTTP_READS if not path.startswith("/static/")}


async def leak_check(server: LiveServer, variant: str, seats: int, seed: int,
                     options: dict[str, Any] | None = None) -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:seats]
    table_id, players = await seated_table(server, names, variant=variant, seats=seats, claim_seconds=0,
                                           options=options or {})
    spectator = await Player(server, "Watcher").connect(table_id)
    stop = asyncio.Event()
    asked_in_play = [asyncio.Event() for _ in range(len(players) + 1)]
    askers = [asyncio.create_task(ask_every_route(p, table_id, stop, asked))
              for p, asked in zip([*players, spectator], asked_in_play, strict=True)]
    await start_game(players[0])
    # every route is asked at least once during the game, however soon it ends (a purchase game can end
    # after a few turns): nobody moves before each asker has been round them all
    await asyncio.wait_for(asyncio.gather(*(asked.wait() for asked in asked_in_play)), timeout=120)
    rng = random.Random(seed)
    await asyncio.gather(*(p.play(random.Random(rng.random()), buy_chance=0.3, timeout=600) for p in players))
    final_seq = players[0].state["seq"]
    await spectator.wait_state(lambda m: m["seq"] >= final_seq)
    stop.set()
    answers = await asyncio.gather(*askers)
    facts = truths(server, table_id, variant, options or {})
    problems = []
    for player, asked in zip(players, answers, strict=False):
        problems += check_messages(player, player.seat, facts)
        problems += check_answers(asked, f"seat {player.seat}")
    problems += check_messages(spectator, None, facts)
    problems += check_answers(answers[-1], "a spectator")
    checked = sum(len(p.messages) for p in [*players, spectator])
    during = sum(1 for asked in answers for answer in asked if answer.status_seen == "playing")
    # Everyone was checked on the deal and on the game's end at least (however soon a game ends: a purchase round
    # can end after a few turns, when the first four-card book is laid).
    assert all(len(p.messages) >= 2 for p in [*players, spectator]), checked
    for asked in answers:  # every route asked by everyone during the game, and the record served after it
        assert {answer.path for answer in asked if answer.status_seen == "playing"} == set(HTTP_READS)
        assert any(answer.finished and answer.status == 200 and answer.path.endswith("/record") for answer in asked)
        assert any(answer.finished and answer.status == 200 and answer.path.endswith("/replay") for answer in asked)
    assert problems == [], f"{len(problems)} leak(s) in {checked} messages and {during} HTTP answers: {problems[:5]}"
    for player in [*players, spectator]:
        await player.close()


# Shorter games for the default run: basic to 60 points; purchase to two rounds won (a round can end after a few
# turns), drawn after 80 turns.
SHORT = {"basic": {"target_by_players": {"3": 60}}, "purchase": {"max_turns": 80, "match_target": 2}, "may-i": {}}


@pytest.mark.parametrize("variant", sorted(SHORT))
def test_no_card_leaks(live_server: LiveServer, variant: str) -> None:
    run(leak_check(live_server, variant, 3, seed=11, options=SHORT[variant]))


# Four seats: basic to 60 points (its default, 200, took 8 to 18 rounds), every other variant's whole game.
SHORT_FOUR = {"basic": {"target_by_players": {"4": 60}}}


@pytest.mark.slow
@pytest.mark.parametrize("variant", BUILT_IN)
def test_no_card_leaks_four_seats(live_server: LiveServer, variant: str) -> None:
    run(leak_check(live_server, variant, 4, seed=5, options=SHORT_FOUR.get(variant)))


def test_the_checker_finds_a_leak() -> None:
    """The check itself: a message naming a card held only by another seat is a leak."""
    now = Truth("play", [["7H", "8H"], ["KS", "QS"]], ["2C"], Counter({"3D": 1}), Counter())
    message = {"seq": 5, "view": {"hand": ["7H", "8H"], "revealed_hands": None, "legal_actions": []},
               "events": ["Bob discarded the K♠"], "table": {}}
    assert leaks_in(message, 0, now, None) == ["seq 5: KS is only in another hand or the stock"]
    message["events"] = ["Ann discarded the 3♦"]
    assert leaks_in(message, 0, now, None) == []
