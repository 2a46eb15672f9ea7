"""Generated attacks (hypothesis) against a real server process: HTTP bodies and WebSocket frames.

Every body and frame must get a clear error (``{"error": {"code", "message"}}`` with a 4xx status, or
an ``error`` message on a connection that stays open) and change nothing — the player's tables, the
table's state — unless it is a valid request, which must then work; the server answers ``/healthz``
afterwards.  The default run tries a few dozen examples of each; the slow run a few hundred.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from rummy.engine.variants import VARIANTS
from rummy.server.tables.catalog import BOT_LEVELS
from rummy.server.tables.protocol import COMMAND_TYPES
from tests.server.conftest import LiveServer

FEW, MANY = 25, 1000
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)  # a text frame must be UTF-8
NUMBERS = st.one_of(st.integers(), st.integers(-(10**30), 10**30), st.floats(), st.sampled_from([0, 1, -1, 2**53 + 1]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, st.just("\ud800"))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                      max_leaves=10)


def dump(value: Any) -> str:
    """JSON text of ``value`` as a hostile client writes it: NaN and Infinity, ``\\ud800`` escapes."""
    return json.dumps(value)


@st.composite
def duplicated(draw: st.DrawFn, text: str) -> str:
    """``text`` with its first key given again, first with another value (the duplicate-key trick)."""
    match = re.match(r'\{\s*("(?:[^"\\]|\\.)*")\s*:', text)
    if match is None:
        return text
    return "{" + match.group(1) + ": " + dump(draw(VALUES)) + ", " + text[1:]


TABLE_BODIES = st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(sorted(VARIANTS)) | TEXT,
    "seats": st.integers(0, 9) | VALUES,
    "options": st.dictionaries(TEXT | st.sampled_from(["max_turns", "wild_ranks", "target_by_players"]), VALUES,
                               max_size=3) | VALUES,
    "bots": st.dictionaries(st.sampled_from(["1", "2", "²", "١", "0", "9", "01"]) | TEXT,
                            st.sampled_from(BOT_LEVELS) | VALUES, max_size=3) | VALUES,
    "turn_seconds": NUMBERS | VALUES, "claim_seconds": NUMBERS, "bot_takeover": VALUES, "round_pause": NUMBERS,
    "extra": VALUES,
})
BODY_TEXTS = st.one_of(
    TABLE_BODIES.map(dump),
    TABLE_BODIES.map(dump).flatmap(duplicated),
    VALUES.map(dump),
    st.binary(max_size=300).map(lambda raw: raw.decode("latin-1")),
    st.sampled_from(['{"variant": "basic", "seats": ' + "9" * 5000 + "}", "[" * 5000, '{"a": 1e999}', "", "null"]),
)


def login(http: httpx.Client, name: str = "Fuzz") -> str:
    response = http.post("/api/session", json={"name": name})
    response.raise_for_status()
    http.cookies.clear()
    return response.cookies["rummy_session"]


class Client:
    """Requests with one session cookie, sent by hand (the cookie jar would keep the server's too)."""

    def __init__(self, http: httpx.Client, cookie: str) -> None:
        self.http, self.cookie = http, cookie

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        headers = {**options.pop("headers", {}), "Cookie": f"rummy_session={self.cookie}"}
        response = self.http.request(method, path, headers=headers, **options)
        self.http.cookies.clear()
        return response


def check_error(response: httpx.Response) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    error = response.json()["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]


def fuzz_http(server: LiveServer, examples: int) -> None:
    with httpx.Client(base_url=server.base_url) as http:
        player = Client(http, login(http))

        @settings(FUZZ, max_examples=examples)
        @given(body=BODY_TEXTS, path=st.sampled_from(["/api/tables", "/api/session"]))
        def attack(body: str, path: str) -> None:
            tables = len(player.request("GET", "/api/tables").json())
            session = player.request("GET", "/api/session").json()
            response = player.request("POST", path, content=body.encode("utf-8", "surrogatepass"),
                                      headers={"Content-Type": "application/json"})
            if response.status_code == 201:  # a valid table: it exists and answers
                summary = player.request("GET", f"/api/tables/{response.json()['table_id']}")
                assert summary.status_code == 200 and summary.json()["status"] == "waiting"
                assert len(player.request("GET", "/api/tables").json()) == tables + 1
                return
            if response.status_code == 200:  # a valid name: the player keeps their id
                assert path == "/api/session" and response.json()["player_id"] == session["player_id"]
                player.cookie = response.cookies["rummy_session"]
                return
            check_error(response)
            assert "set-cookie" not in response.headers
            assert len(player.request("GET", "/api/tables").json()) == tables
            assert player.request("GET", "/api/session").json() == session

        attack()
        assert http.get("/healthz").json() == {"ok": True}


def test_fuzz_http_bodies(live_server: LiveServer) -> None:
    fuzz_http(live_server, FEW)


@pytest.mark.slow
def test_fuzz_http_bodies_at_length(live_server: LiveServer) -> None:
    fuzz_http(live_server, MANY)


# -- WebSocket frames ---------------------------------------------------------------------------------

COMMANDS = st.fixed_dictionaries(
    {"type": st.sampled_from(COMMAND_TYPES) | TEXT},
    optional={
        "v": st.sampled_from([1, True, 1.0, "1", 2, None, 10**30]),
        "id": TEXT | NUMBERS | st.just("\ud800") | st.just(int("9" * 400)),
        "seq": NUMBERS | VALUES,
        "seat": NUMBERS | VALUES,
        "action": st.sampled_from(["p0 draw", "p1 draw", "p0 take", "p1 discard 5H", "p0 pass", "p7 buy"]) | TEXT,
        "extra": VALUES,
    },
)
FRAMES = st.one_of(
    COMMANDS.map(dump),
    COMMANDS.map(dump).flatmap(duplicated),
    VALUES.map(dump),
    TEXT,
    st.binary(max_size=100),
    st.sampled_from(['{"v": 1, "id": ' + "9" * 5000 + ', "type": "ping"}', "x" * 20_000, "{" * 3000]),
)


@dataclass
class Seat:
    socket: ClientConnection
    counter: int = 0

    def messages_until_reply(self, command_id: str) -> list[dict[str, Any]]:
        """Every message up to and including the answer to ``command_id``."""
        received = []
        while True:
            message = json.loads(self.socket.recv(timeout=20))
            received.append(message)
            if message.get("id") == command_id:
                return received

    def barrier(self) -> list[dict[str, Any]]:
        """Send a command the table's owner answers in order (``ready`` outside a round's end is
        refused), and return what came before and with its answer."""
        self.counter += 1
        command_id = f"barrier-{self.counter}"
        self.socket.send(json.dumps({"v": 1, "id": command_id, "type": "ready"}))
        return self.messages_until_reply(command_id)


@pytest.fixture
def idle_seat(live_server: LiveServer) -> Iterator[tuple[Seat, httpx.Client, str]]:
    """A started two-person game and the socket of the seat that is not to act (nothing it may do
    changes the state), with the table's id."""
    with httpx.Client(base_url=live_server.base_url) as http, contextlib.ExitStack() as stack:
        cookies = [login(http, "Ann"), login(http, "Bob")]
        table_id = Client(http, cookies[0]).request("POST", "/api/tables", json={
            "variant": "basic", "seats": 2, "claim_seconds": 0}).json()["table_id"]
        url = f"{live_server.ws_url}/ws/tables/{table_id}"
        seats = [Seat(stack.enter_context(connect(url, additional_headers={"Cookie": f"rummy_session={c}"},
                                                  max_size=2**22))) for c in cookies]
        seats[1].socket.send(json.dumps({"v": 1, "id": "join", "type": "join"}))
        seats[1].messages_until_reply("join")
        seats[0].socket.send(json.dumps({"v": 1, "id": "start", "type": "start"}))
        states = [m for m in seats[0].messages_until_reply("start") + seats[0].barrier() if m["type"] == "state"]
        idle = seats[1 - states[-1]["view"]["active"]]
        idle.barrier()  # read what the setup sent it
        yield idle, http, table_id


def fuzz_frames(server: LiveServer, seat: Seat, http: httpx.Client, table_id: str, examples: int) -> None:
    before = http.get(f"/api/tables/{table_id}").json()

    @settings(FUZZ, max_examples=examples)
    @given(frame=FRAMES)
    def attack(frame: str | bytes) -> None:
        seat.socket.send(frame)
        received = seat.barrier()
        assert not [m for m in received if m["type"] == "state"], "a refused frame changed the table"
        answers = received[:-1]
        assert len(answers) == 1, answers  # exactly one answer to the frame
        answer = answers[0]
        if answer["type"] == "ack":  # only a well-formed ping is acknowledged
            assert isinstance(frame, str) and json.loads(frame)["type"] == "ping"
        else:
            assert answer["type"] == "error" and answer["code"] and answer["message"]

    attack()
    assert http.get(f"/api/tables/{table_id}").json() == before
    assert http.get("/healthz").json() == {"ok": True}


def test_fuzz_socket_frames(live_server: LiveServer, idle_seat: tuple[Seat, httpx.Client, str]) -> None:
    fuzz_frames(live_server, *idle_seat, FEW)


@pytest.mark.slow
def test_fuzz_socket_frames_at_length(live_server: LiveServer, idle_seat: tuple[Seat, httpx.Client, str]) -> None:
    fuzz_frames(live_server, *idle_seat, MANY)


def test_a_frame_past_the_socket_limit_closes_with_1009(live_server: LiveServer,
                                                         idle_seat: tuple[Seat, httpx.Client, str]) -> None:
    """Past the 64 kB frame limit the connection is closed with 1009 (message too big), a close frame."""
    seat, http, table_id = idle_seat
    seat.socket.send("x" * 70_000)
    # Only read from here on: the server closes its end right after its close frame, so a frame sent now
    # could fail on the reset and end the connection before the close frame is read (code 1006).
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            seat.socket.recv(timeout=60)
    assert seat.socket.close_code == 1009, closed.value
