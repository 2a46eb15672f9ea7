"""Unit tests of the server's pure parts: message parsing, the state encoder, move-log sentences,
table configuration and the event log's replay."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummy.engine.actions import Action, Verb
from rummy.engine.game import Game, new_game
from rummy.search.playout import random_choice
from rummy.server.events.describe import Before, card_text, describe_action, describe_deal, describe_round_end
from rummy.server.events.log import deal_payload, rebuild
from rummy.server.sessions import Session, SessionSigner, clean_name
from rummy.server.tables.catalog import RequestError, TableConfig, variant_catalog
from rummy.server.tables.protocol import ERROR_CODES, ProtocolError, encode, parse_command
from rummy.server.tables.snapshots import StateEncoder, state_message
from tests.random_games import Turn, random_play
from tests.variants import BUILT_IN


@pytest.mark.parametrize("text, fragment", [
    ("", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"v": 1, "id": "", "type": "ping"}', "id"),
    ('{"v": 1, "id": true, "type": "ping"}', "id"),
    ('{"v": 1, "id": "x", "type": "join", "seat": -1}', "seat"),
    ('{"v": 1, "id": "x", "type": "join", "seat": "2"}', "seat"),
    ('{"v": 1, "id": "x", "type": "action", "seq": true, "action": "p0 draw"}', "seq"),
    ('{"v": 1, "id": "x", "type": "action", "seq": 1, "action": "   "}', "action"),
    ('{"v": 1, "id": "x", "type": "action", "seq": 1, "action": 5}', "action"),
    ('{"v": "1", "id": "x", "type": "ping"}', "version"),
    ('{"v": 1, "id": "x", "type": "skip_claims", "until": "tomorrow"}', "until"),
    ('{"v": 1, "id": "x", "type": "skip_claims"}', "until"),
])
def test_malformed_commands_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(text)
    assert caught.value.code == "bad-message" and fragment in caught.value.message


def test_error_messages_carry_the_id_when_it_was_valid() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command('{"v": 1, "id": "c-9", "type": "dance"}')
    message = caught.value.to_message()
    assert message == {"v": 1, "type": "error", "id": "c-9", "code": "bad-message", "message": message["message"]}
    assert all(ERROR_CODES.values())


def test_state_encoder_is_plain_json_of_the_message() -> None:
    table = SimpleNamespace(game=new_game("may-i", 4, seed=3), seq=12)
    summary: dict[str, Any] = {"id": "t", "seats": [{"name": "Zoë"}], "settlement": None}
    events, deadline = ["Ann discarded the 7♥"], {"kind": "turn", "seat": 1, "seconds": 3.5}
    encoder = StateEncoder(table, summary, events, deadline)  # type: ignore[arg-type]
    for seat in (None, 0, 3):
        text = encoder.text(seat)
        assert text == encode(state_message(table, seat, summary, events, deadline))  # type: ignore[arg-type]
        assert json.loads(text)["view"]["seat"] == seat


# What a server message holds: text (any Unicode but lone surrogates), integers a browser reads
# exactly, booleans, None and timer seconds; lists, tuples and objects of them.
MESSAGE_TEXT = st.text(st.characters(blacklist_categories=("Cs",)))
MESSAGE_SCALARS = (st.none() | st.booleans() | st.integers(-(2**53), 2**53) | MESSAGE_TEXT
                   | st.floats(0, 10**6).map(lambda seconds: round(seconds, 1)))
MESSAGE_VALUES = st.recursive(
    MESSAGE_SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(MESSAGE_TEXT | st.integers(0, 99), inner, max_size=5),
    max_leaves=30,
)


@given(MESSAGE_VALUES)
def test_encode_writes_what_the_standard_library_writes(value: Any) -> None:
    assert encode(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_sentences_never_name_a_drawn_card() -> None:
    for variant in BUILT_IN:
        read_every_sentence(new_game(variant, ["Ann", "Bob", "Cid", "Dee"], seed=9), random.Random(9))


def read_every_sentence(game: Game, rng: random.Random) -> None:
    """Play 400 decisions of ``game``, reading the sentences of each deal and of each action once applied."""
    played: list[tuple[Before, Action]] = []  # the action just applied, read at the next decision or deal

    def choose(turn: Turn) -> Action:
        action = random_choice(turn.moves, rng, buy_chance=0.5)
        played.append((Before.of(game), action))
        return action

    def read_played() -> None:
        for before, action in played:
            for sentence in describe_action(before, game, action):
                if "drew from the stock" in sentence:
                    assert sentence.endswith("drew from the stock")
                assert "penalty card" not in sentence or "took" in sentence
        played.clear()

    def deal(game: Game) -> None:
        read_played()
        game.deal()
        assert describe_deal(game)[0].startswith(f"Round {game.round_number}:")

    for _ in random_play(game, rng, policy=choose, decisions=400, deal=deal):
        read_played()
    read_played()


def test_card_text() -> None:
    assert [card_text(c) for c in (0, 9, 12, 25, 52)] == ["A♣", "10♣", "K♣", "K♦", "joker"]


def test_rebuilding_from_the_log_gives_the_same_game() -> None:
    game = new_game("progressive-buy-it", ["Ann", "Bob", "Cid"], seed=4)
    events: list[tuple[int, str, dict[str, Any]]] = [(1, "start", {"game": 1, "seed": 4, "players": game.players}),
                                                     (2, "deal", deal_payload(game))]
    rng = random.Random(4)

    def choose(turn: Turn) -> Action:
        action = random_choice(turn.moves, rng)
        events.append((len(events) + 1, "action", {"action": str(action), "by": "player"}))
        return action

    def deal(game: Game) -> None:
        game.deal()
        events.append((len(events) + 1, "deal", deal_payload(game)))

    for _ in random_play(game, rng, policy=choose, deal=deal):
        if len(events) >= 300:
            break
    rebuilt = rebuild(game.variant, events)
    assert rebuilt.game is not None and rebuilt.seq == len(events) and rebuilt.game_number == 1
    assert rebuilt.game.view(0).to_json() == game.view(0).to_json()
    assert [rebuilt.game.hand(s) for s in range(3)] == [game.hand(s) for s in range(3)]
    assert rebuilt.game.stock == game.stock and rebuilt.game.rng.getstate() == game.rng.getstate()
    assert rebuilt.sentences and rebuilt.sentences[0] == "Game 1: Progressive Rummy — I'll Buy It"


def test_table_configuration() -> None:
    config = TableConfig.from_request({"variant": "progressive-15", "bots": {"1": "hard", "2": "random"},
                                       "turn_seconds": 30, "options": {"settlement_unit": 5}})
    assert config.seats == 4 and config.bots == {1: "hard", 2: "random"} and config.turn_seconds == 30.0
    assert TableConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    with pytest.raises(RequestError, match="bad-option"):
        TableConfig.from_request({"variant": "basic", "options": {"claim_limit": 3}})
    with pytest.raises(RequestError, match="bad-request"):
        TableConfig.from_request({"variant": "basic", "turn_seconds": float("nan")})
    with pytest.raises(RequestError, match="bad-bot"):  # it would read a file named by the client
        TableConfig.from_request({"variant": "basic", "bots": {"1": "learned:path=policy.npz"}})
    assert TableConfig.from_request({"variant": "basic", "bots": {"1": "learned"}}).bots == {1: "learned"}
    catalog = {v["id"]: v for v in variant_catalog()}
    assert catalog["basic"]["players"] == [2, 4]
    assert not any(o["key"] == "claim_limit" for o in catalog["basic"]["options"])
    wild = next(o for o in catalog["may-i"]["options"] if o["key"] == "wild_ranks")
    assert wild["default"] == ["JOKER", "2"]


def test_sessions_and_names() -> None:
    signer = SessionSigner("secret")
    token = signer.sign(Session("p-1", "Ann"))
    assert SessionSigner("another secret").read(token) is None
    assert signer.read("garbage") is None and signer.read(None) is None
    assert clean_name("  Nana  Jo ") == "Nana Jo"
    for bad in ("", "   ", "x" * 25, "Ann\u0000", 7):
        with pytest.raises(ValueError):
            clean_name(bad)


def test_the_default_database_is_ignored_in_a_clone() -> None:
    """``rummy serve`` run from a clone makes ``rummy.db`` and SQLite's ``-shm`` / ``-wal`` files there."""
    root = Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git clone")
    names = ["rummy.db", "rummy.db-shm", "rummy.db-wal"]
    result = subprocess.run(["git", "check-ignore", *names], cwd=root, capture_output=True, text=True, check=False)
    assert result.stdout.split() == names


def test_a_washed_out_hand_is_told_as_such() -> None:
    """rules.md §2.9: the round-end sentence says the hand is dead, not that the cards ran out."""
    game = new_game("may-i", ["Ann", "Bob", "Cid"], seed=5, options={"washout_laps": 1})
    while not game.results:
        game.apply(next(a for a in game.legal_actions(game.next_to_act()) if a.verb in (Verb.PASS, Verb.DRAW,
                                                                                        Verb.DISCARD)))
    assert game.washed_out
    assert describe_round_end(game)[0] == "Nobody put a card on the table for 1 times round the table: the hand is dead"


def test_an_outage_is_recognised_through_the_drivers_wrappers() -> None:
    """A database going away answers 503 (docs/protocol.md ``unavailable``), never 500: asyncpg's errors of a
    server shutting down or a connection cut mid-operation, as SQLAlchemy wraps them, are outages; a refused
    write (a constraint) is not."""
    asyncpg_errors = pytest.importorskip("asyncpg.exceptions")
    sqlalchemy_errors = pytest.importorskip("sqlalchemy.exc")
    from rummy.server.outages import outage

    def wrapped(error: Exception) -> Exception:
        """``error`` as SQLAlchemy's asyncpg dialect hands it on: its own error, caused by the driver's."""
        adapted = RuntimeError("adapted")
        adapted.__cause__ = error
        return sqlalchemy_errors.InternalError("SELECT 1", {}, adapted)

    cut = asyncpg_errors.InternalClientError("cannot switch to state 15; another operation (2) is in progress")
    for error in (wrapped(cut), wrapped(asyncpg_errors.AdminShutdownError("terminating connection")),
                  asyncpg_errors.CrashShutdownError("crash"), ConnectionResetError()):
        assert outage(error) == "the database", error
    assert outage(sqlalchemy_errors.IntegrityError("INSERT", {}, ValueError("duplicate key"))) is None
    assert outage(ValueError("a bug")) is None


def test_an_outage_answers_503_without_reaching_the_asgi_server_as_an_error() -> None:
    """A request failing because a service is away is answered 503 and ends there (one log line); only an
    unexpected error goes on to the ASGI server, which logs its traceback, after the 500 answer."""
    sqlalchemy_errors = pytest.importorskip("sqlalchemy.exc")
    from fastapi import FastAPI

    from rummy.server.http.errors import add_error_handlers

    app = FastAPI()
    add_error_handlers(app)

    @app.get("/away")
    async def away() -> None:
        raise sqlalchemy_errors.OperationalError("SELECT 1", {}, ConnectionRefusedError("refused"))

    @app.get("/constraint")
    async def constraint() -> None:
        raise sqlalchemy_errors.IntegrityError("INSERT", {}, ValueError("duplicate key"))

    async def get(path: str, *, raising: bool = True) -> Any:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=raising)  # raises what reaches the server
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get(path)

    answer = asyncio.run(get("/away"))
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert answer.json()["error"]["code"] == "unavailable"
    with pytest.raises(sqlalchemy_errors.IntegrityError):
        asyncio.run(get("/constraint"))
    answer = asyncio.run(get("/constraint", raising=False))
    assert answer.status_code == 500 and answer.json()["error"]["code"] == "internal"
