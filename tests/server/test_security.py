"""The server seen by an attacker over HTTP: real requests to a real server process.

Each test replays one attack with the headers a browser (or a script) really sends: a live game's
record, login CSRF by a ``text/plain`` form, a table made in a victim's name from another port with
the duplicate-key trick, numbers too long for Python's int-string limit, seat keys that are digits
only outside ASCII, and the response headers and ``HEAD`` answers every route must give.  The
WebSocket side is in test_security_socket.py, the limits in test_limits.py, the process in
test_security_process.py, the generated fuzz in test_fuzz.py.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.server.conftest import LiveServer, Player, run, seated_table, start_game
from tests.server.test_leaks import RECORD_CARD

FORM = {"Content-Type": "text/plain"}
JSON = {"Content-Type": "application/json"}


def attacker_headers(server: LiveServer, *, site: str = "same-site") -> dict[str, str]:
    """What Chromium sends with a form posted by a page on another port of the server's host."""
    port = int(server.base_url.rsplit(":", 1)[1]) + 1
    return {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"}


def error_code(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def test_live_record_is_never_served(live_server: LiveServer) -> None:
    """A record holds every hand, the stock order and the seed: refused over HTTP until the game is over."""
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann"], variant="basic", seats=2, bots={"1": "easy"})
        await start_game(players[0])
        async with httpx.AsyncClient(base_url=live_server.base_url) as stranger:
            response = await stranger.get(f"/api/tables/{table_id}/record")
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "game-in-progress"
        assert "seed" not in response.text and not RECORD_CARD.findall(response.text.replace("game-in-progress", ""))
        mine = await players[0].http("GET", f"/api/tables/{table_id}/record")  # a seated player neither
        assert mine.status_code == 409
        await players[0].close()

    run(scenario())


def test_no_player_id_is_sent_to_anyone(live_server: LiveServer) -> None:
    """A player id is half of an identity (docs/history.md): the table summary over HTTP and every
    WebSocket state carry seats by number and name only, to strangers and to the other players."""
    async def scenario() -> None:
        table_id, players = await seated_table(live_server, ["Ann", "Bob"], variant="basic", seats=3,
                                               bots={"2": "easy"})
        await start_game(players[0])
        async with httpx.AsyncClient(base_url=live_server.base_url) as stranger:
            summary = (await stranger.get(f"/api/tables/{table_id}")).text
        watcher = await Player(live_server, "Eve").connect(table_id)
        texts = [summary] + [str(m) for p in (*players, watcher) for m in p.messages]
        for player in players:
            assert not any(player.player_id in text for text in texts), player.name
        for player in (*players, watcher):
            await player.close()

    run(scenario())


# -- cross-site request forgery -----------------------------------------------------------------------


def test_login_csrf_by_a_text_plain_form_cannot_replace_the_session(live_server: LiveServer) -> None:
    """A page elsewhere auto-submits ``<form enctype="text/plain">`` whose one field spells JSON
    (``name`` = ``{"name":"``, value = ``","name":"Mallory"}``): the cookie it would set is never sent."""
    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        body = '{"name":"=","name":"Mallory"}'
        for headers in (attacker_headers(live_server), attacker_headers(live_server, site="cross-site"),
                        {"Origin": "http://evil.example"}, {"Origin": "null"}):
            response = await ann.http("POST", "/api/session", content=body, headers={**FORM, **headers})
            assert response.status_code == 403 and error_code(response) == "cross-site", headers
            assert "set-cookie" not in response.headers
        # Without browser headers (a script): the form's content type alone is refused.
        response = await ann.http("POST", "/api/session", content=body, headers=FORM)
        assert response.status_code == 415 and error_code(response) == "unsupported-media-type"
        assert "set-cookie" not in response.headers
        assert (await ann.http("GET", "/api/session")).json() == {"player_id": ann.player_id, "name": "Ann"}

    run(scenario())


def test_a_table_cannot_be_made_in_a_victims_name_from_another_port(live_server: LiveServer) -> None:
    """The victim's cookie rides along (same site: ports do not count), the body is the duplicate-key
    trick; refused by origin, by content type and by the duplicate key, each on its own."""
    async def scenario() -> None:
        victim = await Player(live_server, "Vic").login()
        trick = '{"variant":"=","variant":"basic","seats":2,"bots":{"1":"easy"}}'
        other_port = attacker_headers(live_server)
        response = await victim.http("POST", "/api/tables", content=trick, headers={**FORM, **other_port})
        assert response.status_code == 403 and error_code(response) == "cross-site"
        json_from_there = {**JSON, "Origin": other_port["Origin"]}
        response = await victim.http("POST", "/api/tables", content=trick, headers=json_from_there)
        assert response.status_code == 403
        response = await victim.http("POST", "/api/tables", content=trick, headers=FORM)
        assert response.status_code == 415
        response = await victim.http("POST", "/api/tables", content=trick, headers=JSON)
        assert response.status_code == 400 and "'variant' appears twice" in response.json()["error"]["message"]
        assert (await victim.http("GET", "/api/tables")).json() == []

    run(scenario())


def test_dns_rebinding_finds_a_server_that_answers_to_its_own_names_only(
        server_factory: Callable[..., LiveServer]) -> None:
    """A page of evil.example whose name was made to resolve to 127.0.0.1 sends ``Host: evil.example``
    and an ``Origin`` that matches it: refused (400 ``bad-host``) over HTTP and WebSocket alike, and no
    cookie is set; the server's own names still work."""
    server = server_factory(allowed_hosts=["127.0.0.1", "localhost"])

    async def scenario() -> None:
        rebound = {"Host": "evil.example", "Origin": "http://evil.example", **JSON}
        async with httpx.AsyncClient(base_url=server.base_url) as http:
            for method, path in (("POST", "/api/session"), ("GET", "/"), ("GET", "/api/session")):
                response = await http.request(method, path, headers=rebound, content='{"name": "Mallory"}')
                assert response.status_code == 400 and error_code(response) == "bad-host", path
                assert "set-cookie" not in response.headers
            port = server.base_url.rsplit(":", 1)[1]
            assert (await http.get("/", headers={"Host": f"localhost:{port}"})).status_code == 200
        async with websockets.connect(f"{server.ws_url}/ws/tables/x", additional_headers=rebound) as refused:
            message = json.loads(await refused.recv())
            assert (message["type"], message["code"]) == ("error", "forbidden")
            assert "evil.example" in message["message"]
            with pytest.raises(websockets.ConnectionClosed):
                await refused.recv()
            assert refused.close_code == 4403
        ann = await Player(server, "Ann").login()
        assert (await ann.create_table(variant="basic", seats=2, bots={"1": "easy"}))

    run(scenario())


def test_an_http_page_cannot_post_to_the_https_server(live_server: LiveServer) -> None:
    """Behind TLS (``X-Forwarded-Proto: https`` from the proxy) a page of the same name served over plain
    HTTP is another origin: its state-changing requests are refused."""
    async def scenario() -> None:
        host = live_server.base_url.removeprefix("http://")
        async with httpx.AsyncClient(base_url=live_server.base_url) as http:
            downgraded = {"Origin": f"http://{host}", "X-Forwarded-Proto": "https", **JSON}
            response = await http.post("/api/session", headers=downgraded, content='{"name": "Ann"}')
            assert response.status_code == 403 and error_code(response) == "cross-site"
            secure = {**downgraded, "Origin": f"https://{host}"}
            assert (await http.post("/api/session", headers=secure, content='{"name": "Ann"}')).status_code == 200

    run(scenario())


def test_the_servers_own_pages_still_post(live_server: LiveServer) -> None:
    """What the front end sends (same origin, JSON) passes, and so does a script without browser headers."""
    async def scenario() -> None:
        ann = Player(live_server, "Ann")
        own = {**JSON, "Origin": live_server.base_url, "Sec-Fetch-Site": "same-origin"}
        response = await ann.http("POST", "/api/session", content='{"name":"Ann"}', headers=own)
        assert response.status_code == 200
        ann.cookie = response.cookies["rummy_session"]
        response = await ann.http("POST", "/api/tables", content='{"variant":"basic"}', headers=own)
        assert response.status_code == 201
        assert (await ann.http("POST", "/api/tables", json={"variant": "basic"})).status_code == 201

    run(scenario())


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp"])
def test_json_bodies_need_the_json_content_type(live_server: LiveServer, content_type: str | None) -> None:
    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        headers = {"Content-Type": content_type} if content_type else {}
        for path, body in (("/api/session", '{"name":"Bob"}'), ("/api/tables", '{"variant":"basic"}')):
            response = await ann.http("POST", path, content=body, headers=headers)
            assert response.status_code == 415 and error_code(response) == "unsupported-media-type"
        assert (await ann.http("GET", "/api/tables")).json() == []

    run(scenario())


# -- bodies that used to fail inside the server ------------------------------------------------------


HUGE = "9" * 5000


@pytest.mark.parametrize("body", [
    '{"variant": "basic", "seats": ' + HUGE + '}',
    '{"variant": "basic", "turn_seconds": ' + HUGE + '}',
    '{"variant": "basic", "claim_seconds": -' + HUGE + '}',
    '{"variant": "basic", "bots": {"1": ' + HUGE + '}}',
    '{"variant": "basic", "options": {"max_turns": ' + HUGE + '}}',
    '{"variant": "basic", "seats": 1' + "0" * 400 + '}',
    '{"variant": "basic", "claim_seconds": 1e400}',
    '{"variant": "basic", "claim_seconds": NaN}',
    '{"variant": "\\ud800"}',
], ids=["seats", "turn", "claim", "bot", "option", "seats-400-digits", "float-overflow", "nan", "surrogate"])
def test_numbers_and_strings_json_cannot_hold_are_a_clear_400(live_server: LiveServer, body: str) -> None:
    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        response = await ann.http("POST", "/api/tables", content=body, headers=JSON)
        assert response.status_code == 400 and error_code(response) == "bad-request", response.text
        response = await ann.http("POST", "/api/session", content=body.replace('"variant"', '"name"'), headers=JSON)
        assert response.status_code == 400 and "set-cookie" not in response.headers
        assert (await ann.http("GET", "/api/tables")).json() == []

    run(scenario())


@pytest.mark.parametrize("seat", ["²", "١", "١٢", "1.0", " 1", "01x", "-1", ""])
def test_bot_seats_are_ascii_digits(live_server: LiveServer, seat: str) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails; ``int("١")`` is 1: both are refused as seat keys."""
    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        response = await ann.http("POST", "/api/tables", json={"variant": "basic", "seats": 3, "bots": {seat: "easy"}})
        assert response.status_code == 400 and error_code(response) == "bad-bot", response.text
        assert (await ann.http("GET", "/api/tables")).json() == []

    run(scenario())


def test_an_oversized_body_is_refused_without_waiting_for_it(live_server: LiveServer) -> None:
    """A ``Content-Length`` past the limit is answered at once (the body is neither awaited nor held),
    and a chunked body as soon as it passes the limit."""
    host, port = live_server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as raw:
        raw.sendall(b"POST /api/session HTTP/1.1\r\nHost: " + host.encode() + b"\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 1000000000\r\n\r\n{")
        assert raw.recv(4096).startswith(b"HTTP/1.1 413")

    def chunks() -> Iterator[bytes]:
        yield b'{"variant": "basic", "pad": "'
        for _ in range(100):
            yield b"x" * 10_000

    response = httpx.post(live_server.base_url + "/api/session", content=chunks(), headers=JSON)
    assert response.status_code == 413 and error_code(response) == "too-large"


# -- headers and HEAD ---------------------------------------------------------------------------------


def check_security_headers(response: httpx.Response) -> None:
    policy = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, response.request.url
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
    assert response.headers.get("x-content-type-options") == "nosniff"
    assert response.headers.get("referrer-policy") == "same-origin"
    assert response.headers.get("x-frame-options") == "DENY"


REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/", {}), ("GET", "/table/abc", {}), ("GET", "/static/main.js", {}), ("GET", "/static/nothing.js", {}),
    ("GET", "/healthz", {}), ("GET", "/api/variants", {}), ("GET", "/api/session", {}), ("GET", "/api/nothing", {}),
    ("GET", "/api/tables/nope/record", {}), ("POST", "/api/tables", {"json": {"variant": "basic"}}),
    ("POST", "/api/session", {"content": "x", "headers": FORM}),
    ("POST", "/api/session", {"json": {"name": "Ann"}, "headers": {"Origin": "http://evil.example"}}),
    ("DELETE", "/api/session", {}), ("HEAD", "/", {}), ("OPTIONS", "/api/tables", {}),
]


@pytest.mark.parametrize(("method", "path", "options"), REQUESTS)
def test_every_response_carries_the_security_headers(live_server: LiveServer, method: str, path: str,
                                                      options: dict[str, Any]) -> None:
    response = httpx.request(method, live_server.base_url + path, **options)
    check_security_headers(response)
    if response.status_code >= 400 and method != "HEAD":
        assert response.json()["error"]["code"], response.text


@pytest.mark.parametrize("path", ["/", "/table/abc", "/healthz", "/api/variants", "/api/bots",
                                  "/static/style.css", "/api/session"])
def test_head_answers_as_get_without_a_body(live_server: LiveServer, path: str) -> None:
    got = httpx.get(live_server.base_url + path)
    head = httpx.head(live_server.base_url + path)
    assert head.status_code == got.status_code and head.status_code != 405
    assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    check_security_headers(head)
