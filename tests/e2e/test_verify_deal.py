"""The "verify this deal" link in a real browser: after a round the table links to the verify page,
which shows the reveal, the server's verdict and the browser's own SHA-256 of the committed text."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from rummy.engine.fair_shuffle import commitment_of
from tests.e2e.conftest import new_page
from tests.server.conftest import LiveServer, Player

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
PlaywrightTimeoutError = pytest.importorskip("playwright.sync_api").TimeoutError


# What the page has when the verify link does not appear: its last state's seq, phase and reveals, and whether it
# is connected.
PAGE_STATE = """() => { const s = window.rummy.state();
  return { seq: s.seq, phase: s.view?.phase, shuffles: s.table?.shuffles,
           offline: document.querySelector(".offline") !== null,
           summary: document.querySelector("#summary")?.innerText ?? null }; }"""

# A server whose computer player answers at once: the round is played by a script, the page only watches.
SERVER_PACE = {"bot_delay": 0}


def play_first_round(server: str, cookie: str, table_id: str, outcome: dict[str, Any]) -> None:
    """In a thread of its own: seat 0's second connection starts the game and plays it by random legal
    moves until the first round is over; ``outcome`` gets the state that ends it (or the error)."""
    async def body() -> None:
        player = await Player(LiveServer(server, Path()), "Ann", cookie=cookie).connect(table_id)
        command_id = await player.send("start")
        assert (await player.reply_to(command_id))["type"] == "ack"
        await player.play(random.Random(5), until=lambda: bool(player.state and player.state["table"]["score_sheet"]),
                          buy_chance=0.0, timeout=240)
        outcome["state"] = player.state
        await player.close()

    try:
        asyncio.run(body())
    except Exception as error:  # noqa: BLE001 - reported by the test in the main thread
        outcome["error"] = error


def test_verify_link_after_a_round_shows_a_verified_deal(server: str, browser: Any, screenshots: Path) -> None:
    with httpx.Client(base_url=server) as http:
        cookie = http.post("/api/session", json={"name": "Ann"}).cookies["rummy_session"]
        http.cookies.set("rummy_session", cookie)
        created = http.post("/api/tables", json={
            "variant": "basic", "seats": 2, "bots": {"1": "easy"}, "claim_seconds": 0,
            "options": {"target_by_players": {"2": 1000}}, "round_pause": 120})
        assert created.status_code == 201, created.text
        table_id = created.json()["table_id"]
    page, errors = new_page(browser)
    page.context.add_cookies([{"name": "rummy_session", "value": cookie, "url": server}])
    page.goto(f"{server}/table/{table_id}")
    outcome: dict[str, Any] = {}
    driver = threading.Thread(target=play_first_round, args=(server, cookie, table_id, outcome))
    driver.start()
    driver.join(timeout=300)
    assert not driver.is_alive() and "error" not in outcome, outcome.get("error")
    reveal = outcome["state"]["table"]["shuffles"][0]
    assert reveal["revealed"] and commitment_of(reveal["seed"], reveal["salt"]) == reveal["commitment"]

    # The page renders every state the script's moves made; it is waited on until it holds the state that ended
    # the round (a page lagging behind the script catches up), then for the link, and a failure says what it has.
    try:
        page.wait_for_function("seq => window.rummy.state().seq >= seq", arg=outcome["state"]["seq"], timeout=120_000)
        page.wait_for_selector(".round-summary #verify-deal")
    except PlaywrightTimeoutError:
        pytest.fail(f"the page shows no verify link after the round ending at seq {outcome['state']['seq']}: "
                    f"{page.evaluate(PAGE_STATE)}, page errors {errors}")
    assert page.locator("#verify-deal").inner_text() == "Verify this deal"
    assert page.locator("#sheet .verify-link").count() == 1
    with page.expect_popup() as popup_info:
        page.click("#verify-deal")
    verify = popup_info.value
    verify_errors: list[str] = []
    verify.on("console", lambda m: verify_errors.append(m.text) if m.type == "error" else None)
    verify.wait_for_selector("#verify-status[data-status='verified']")
    assert verify.url.endswith(f"/table/{table_id}/verify/1")
    assert verify.inner_text("#verify-commitment") == reveal["commitment"]
    assert verify.inner_text("#verify-seed") == reveal["seed"]
    assert verify.inner_text("#verify-salt") == reveal["salt"]
    verify.wait_for_selector("#verify-browser[data-match='true']")  # WebCrypto agrees with the server
    assert verify.locator("#verify-hands li").count() == 2
    hands = verify.locator("#verify-hands li").all_inner_texts()  # seats from 1, cards as the table shows them
    assert hands[0].startswith("Seat 1") and hands[1].startswith("Seat 2"), hands
    assert not any(name in " ".join(hands).split() for name in ("TD", "TH", "TS", "TC")), hands
    page.screenshot(path=str(screenshots / "verify-link-desktop.png"))
    verify.screenshot(path=str(screenshots / "verify-deal-desktop.png"), full_page=True)
    assert not errors and not verify_errors, (errors, verify_errors)
    page.context.close()
