"""Carrying an identity to another browser: one-time codes, their expiry, wrong codes, and misuse.

The code store is tested against a real migrated SQLite file with a clock the test moves; the routes
against a real server (a new browser is an HTTP client without the cookie).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummy.server.limits import LimitError
from rummy.server.sessions import Session
from rummy.server.storage.database import Database, migrate, normalize_db_url
from rummy.server.storage.identity_codes import (
    ALPHABET,
    IdentityCodes,
    code_hash,
    failed_redeems,
    new_code,
    normalize_code,
)
from tests.server.conftest import LiveServer, Player, run
from tests.server.test_history_migration import postgres_server, postgres_url  # noqa: F401 - fixtures


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def with_codes(path: Path | str, body: Any, **options: Any) -> Any:
    """Run ``body(codes, db)`` on a migrated database: a SQLite file, or a database URL."""
    url = normalize_db_url(str(path))
    await migrate(url)
    db = Database(url)
    await db.start()
    try:
        return await body(IdentityCodes(db, **options), db)
    finally:
        await db.close()


ANN = Session("p-ann", "Ann")


def test_a_code_works_once_and_only_in_time(tmp_path: Path) -> None:
    clock = Clock()

    async def body(codes: IdentityCodes, db: Database) -> None:
        issued = await codes.issue(ANN)
        assert issued.expires_at == clock.now + timedelta(minutes=10)
        assert await codes.redeem(issued.code.lower().replace("-", " ")) == ANN  # typed loosely: still the code
        assert await codes.redeem(issued.code) is None  # used
        late = await codes.issue(ANN)
        clock.now += timedelta(minutes=10)
        assert await codes.redeem(late.code) is None  # expired at exactly its lifetime
        fresh = await codes.issue(ANN)
        clock.now += timedelta(minutes=9, seconds=59)
        assert await codes.redeem(fresh.code) == ANN

    run(with_codes(tmp_path / "codes.db", body, clock=clock))


def test_codes_on_postgres(postgres_url: str) -> None:  # noqa: F811 - the imported fixture
    clock = Clock()

    async def body(codes: IdentityCodes, db: Database) -> None:
        issued = await codes.issue(ANN)
        answers = await asyncio.gather(*(codes.redeem(issued.code) for _ in range(4)))
        assert answers.count(ANN) == 1 and answers.count(None) == 3
        late = await codes.issue(ANN)
        clock.now += timedelta(minutes=10)
        assert await codes.redeem(late.code) is None
        fresh = await codes.issue(ANN)
        clock.now += timedelta(minutes=9)
        assert await codes.redeem(fresh.code) == ANN

    run(with_codes(postgres_url, body, clock=clock))


def test_wrong_codes_and_a_new_code_cancels_the_old(tmp_path: Path) -> None:
    async def body(codes: IdentityCodes, db: Database) -> None:
        first = await codes.issue(ANN)
        second = await codes.issue(ANN)
        assert await codes.redeem(first.code) is None  # cancelled by the second
        for wrong in ("", "ABCD", "x" * 16, None, 12345, ["code"], new_code(), "A" * 1000):
            assert await codes.redeem(wrong) is None
        bob = await codes.issue(Session("p-bob", "Bob"))
        assert await codes.redeem(bob.code) == Session("p-bob", "Bob")
        assert await codes.redeem(second.code) == ANN  # Bob's code did not cancel Ann's

    run(with_codes(tmp_path / "codes.db", body))


def test_only_the_hash_of_a_code_is_stored(tmp_path: Path) -> None:
    async def body(codes: IdentityCodes, db: Database) -> list[Any]:
        issued = await codes.issue(ANN)
        async with db.engine.connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT * FROM identity_codes")).all()
        assert issued.code.replace("-", "") not in repr(rows)
        assert code_hash(issued.code.replace("-", "")) in repr(rows)
        return list(rows)

    assert len(run(with_codes(tmp_path / "codes.db", body))) == 1


def test_codes_per_hour_are_limited(tmp_path: Path) -> None:
    clock = Clock()

    async def body(codes: IdentityCodes, db: Database) -> None:
        for _ in range(3):
            await codes.issue(ANN)
        with pytest.raises(LimitError) as refused:
            await codes.issue(ANN)
        assert refused.value.code == "too-many-codes"
        await codes.issue(Session("p-bob", "Bob"))  # another player is not held back
        clock.now += timedelta(hours=1, seconds=1)
        assert await codes.redeem((await codes.issue(ANN)).code) == ANN

    run(with_codes(tmp_path / "codes.db", body, clock=clock, per_hour=3))


def test_two_browsers_racing_with_one_code(tmp_path: Path) -> None:
    async def body(codes: IdentityCodes, db: Database) -> None:
        for _ in range(5):
            issued = await codes.issue(ANN)
            answers = await asyncio.gather(*(codes.redeem(issued.code) for _ in range(4)))
            assert answers.count(ANN) == 1 and answers.count(None) == 3

    run(with_codes(tmp_path / "codes.db", body, per_hour=100))


def test_codes_are_random_and_read_forgivingly() -> None:
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000
    for code in list(codes)[:200]:
        plain = code.replace("-", "")
        assert len(plain) == 16 and set(plain) <= set(ALPHABET)
        assert normalize_code(code.lower()) == plain
    assert normalize_code("o0o0-iIlL-0000-0000") == "0000111100000000"
    assert normalize_code("U000-0000-0000-0000") is None  # not in the alphabet


def test_failed_redeems_slide_out_of_the_window() -> None:
    moment = [0.0]
    failed = failed_redeems(clock=lambda: moment[0])
    for _ in range(10):
        failed.take("192.0.2.1")
        moment[0] += 10
    with pytest.raises(LimitError) as refused:
        failed.take("192.0.2.1")
    assert refused.value.code == "too-many-attempts" and "500 seconds" in refused.value.message
    right = failed.take("192.0.2.2")  # another address is not held back, and a right code is given back
    failed.give_back("192.0.2.2", right)
    moment[0] += 501  # the first failure has left the window
    failed.take("192.0.2.1")


# -- over HTTP ----------------------------------------------------------------------------------------


async def new_browser(server: LiveServer, path: str, body: Any, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        return await http.post(path, json=body, headers=headers)


def test_another_browser_takes_the_identity(live_server: LiveServer) -> None:
    async def scenario() -> None:
        ann = await Player(live_server, "Ann").login()
        issued = await ann.http("POST", "/api/identity/code", json={})
        assert issued.status_code == 201 and issued.headers["cache-control"] == "no-store"
        data = issued.json()
        assert data["link"] == f"{live_server.base_url}/transfer#code={data['code']}"
        assert data["expires_in"] == 600
        answer = await new_browser(live_server, "/api/identity/redeem", {"code": data["code"]})
        assert answer.status_code == 200 and answer.json() == {"player_id": ann.player_id, "name": "Ann"}
        cookie = answer.cookies["rummy_session"]
        assert "httponly" in answer.headers["set-cookie"].lower()
        async with httpx.AsyncClient(base_url=live_server.base_url, cookies={"rummy_session": cookie}) as http:
            assert (await http.get("/api/session")).json() == {"player_id": ann.player_id, "name": "Ann"}
            assert (await http.get("/api/history")).status_code == 200
        again = await new_browser(live_server, "/api/identity/redeem", {"code": data["code"]})
        assert again.status_code == 400 and again.json()["error"]["code"] == "bad-code"
        assert "set-cookie" not in again.headers

    run(scenario())


def test_identity_routes_refuse_misuse(live_server: LiveServer) -> None:
    async def scenario() -> None:
        nobody = await new_browser(live_server, "/api/identity/code", {})
        assert nobody.status_code == 401 and nobody.json()["error"]["code"] == "no-session"
        ann = await Player(live_server, "Ann").login()
        code = (await ann.http("POST", "/api/identity/code", json={})).json()["code"]
        cross = await new_browser(live_server, "/api/identity/redeem", {"code": code}, **{
            "Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"})
        assert cross.status_code == 403
        async with httpx.AsyncClient(base_url=live_server.base_url) as http:
            form = await http.post("/api/identity/redeem", content=f'{{"code": "{code}"}}',
                                   headers={"Content-Type": "text/plain"})
        assert form.status_code == 415
        for bad in ([code], {"code": code, "extra": 1}, {"cod": code}, "code"):
            answer = await new_browser(live_server, "/api/identity/redeem", bad)
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad-request"
        # none of the refusals used the code up
        answer = await new_browser(live_server, "/api/identity/redeem", {"code": code})
        assert answer.status_code == 200 and answer.json()["player_id"] == ann.player_id

    run(scenario())


def test_guessing_codes_is_cut_off(server_factory: Any) -> None:
    server = server_factory()

    async def scenario() -> None:
        ann = await Player(server, "Ann").login()
        code = (await ann.http("POST", "/api/identity/code", json={})).json()["code"]
        for _ in range(10):
            answer = await new_browser(server, "/api/identity/redeem", {"code": new_code()})
            assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad-code"
        blocked = await new_browser(server, "/api/identity/redeem", {"code": code})  # even the right code
        assert blocked.status_code == 429 and blocked.json()["error"]["code"] == "too-many-attempts"
        for _ in range(4):  # five codes an hour, the first included
            assert (await ann.http("POST", "/api/identity/code", json={})).status_code == 201
        too_many = await ann.http("POST", "/api/identity/code", json={})
        assert too_many.status_code == 429 and too_many.json()["error"]["code"] == "too-many-codes"

    run(scenario())


def test_concurrent_guesses_are_counted_before_they_are_checked(server_factory: Any) -> None:
    """Guesses sent at once from one address: only the allowance of ten is looked up, the rest are refused."""
    server = server_factory()

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.base_url) as http:
            answers = await asyncio.gather(*(http.post("/api/identity/redeem", json={"code": new_code()})
                                             for _ in range(60)))
        codes = [answer.json()["error"]["code"] for answer in answers]
        assert codes.count("bad-code") == 10 and codes.count("too-many-attempts") == 50

    run(scenario())


def test_codes_issued_per_address_are_limited(server_factory: Any) -> None:
    """A fresh session costs nothing, so codes are also counted per address: 30 an hour."""
    server = server_factory()

    async def scenario() -> None:
        answers = []
        for index in range(31):
            player = await Player(server, f"P{index}").login()
            answers.append(await player.http("POST", "/api/identity/code", json={}))
        assert [a.status_code for a in answers] == [201] * 30 + [429]
        assert answers[-1].json()["error"]["code"] == "too-many-codes"

    run(scenario())
