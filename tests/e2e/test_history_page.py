""""My games" in a real browser: the finished games and statistics of the browser's player, on a desktop
(mouse and keyboard) and on a touch phone (taps only), and the one-time code that carries the identity from
one to the other.

The games are played by a scripted client holding the desktop browser's session cookie (the page under test
is the history, not the table), against the same ``rummy serve``.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import PHONE, new_page
from tests.server.conftest import LiveServer, Player, start_game

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


# A server whose computer players answer at once and which takes a scripted client's pace: the games are played by a
# script (the page under test is the history, not the table), so nobody needs to follow them.
SERVER_PACE = {"bot_delay": 0, "round_pause": 0, "rate_limit": 10_000}


#: Short games: basic to 30 points, purchase drawn after 60 turns (if nobody tables a book first).
GAMES = [("basic", {"target_by_players": {"2": 30}}), ("purchase", {"max_turns": 60})]


async def play_games(server: str, cookie: str) -> list[str]:
    """A whole game of each of :data:`GAMES` by the cookie's player against one bot; their table ids."""
    tables = []
    for number, (variant, options) in enumerate(GAMES):
        me = Player(LiveServer(server, Path()), "Ann", cookie=cookie)
        table_id = await me.create_table(variant=variant, seats=2, bots={"1": "easy"}, claim_seconds=0,
                                         options=options)
        await me.connect(table_id)
        await start_game(me)
        await me.play(random.Random(number), timeout=240, ready=True)
        await me.close()
        tables.append(table_id)
    return tables


def name_the_browser(page: Any, server: str) -> str:
    page.goto(server + "/")
    page.fill("#name", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#create-form")
    cookie: str = next(c["value"] for c in page.context.cookies() if c["name"] == "rummy_session")
    return cookie


def check_games_shown(page: Any, tables: list[str]) -> None:
    page.wait_for_selector("#games .game-item")
    assert page.locator("#games .game-item").count() == len(tables)
    assert page.inner_text("#game-count") == f"{len(tables)} finished games"
    hrefs = {page.locator("#games .replay-link").nth(i).get_attribute("href") for i in range(len(tables))}
    assert hrefs == {f"/replay/{table_id}?game=1" for table_id in tables}
    for item in page.locator("#games .game-item").all():
        assert item.locator("tr.you").count() == 1 and "Ann" in item.locator("tr.you").inner_text()
        outcome = item.locator(".outcome").inner_text()
        assert outcome.startswith(("You won", "Won by", "Nobody won")), outcome
    titles = page.locator("#games .game-item h3").all_inner_texts()
    assert sorted(title.split(" · ")[0] for title in titles) == ["Basic Rummy", "Bookstore (Purchase-Card Rummy)"]
    cards = page.locator("#stats .stat-card")
    assert cards.count() == len(GAMES)
    for card in cards.all():
        figures = dict(zip(card.locator("dt").all_inner_texts(), card.locator("dd").all_inner_texts(), strict=True))
        assert figures["Games played"] == "1", figures
        no_buying = "Basic" in card.locator("h3").inner_text()  # basic has no buying: a dash, not a 0
        assert (figures["Buys made"] == "—") == no_buying, figures


def test_history_on_desktop_and_phone(server: str, browser: Any, screenshots: Path) -> None:
    desktop, problems = new_page(browser)
    cookie = name_the_browser(desktop, server)
    desktop.goto(server + "/history")
    desktop.wait_for_selector("#game-count:has-text('No finished games yet')")

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's event loop
        tables = thread.submit(asyncio.run, play_games(server, cookie)).result(timeout=600)
    desktop.click("#my-games-link")
    desktop.wait_for_url("**/history")
    check_games_shown(desktop, tables)
    desktop.screenshot(path=str(screenshots / "history-desktop.png"), full_page=True)

    desktop.focus("#make-code")  # the keyboard works the code button
    desktop.keyboard.press("Enter")
    desktop.wait_for_selector("#transfer-code")
    link = desktop.input_value("#transfer-link")
    code = desktop.inner_text("#transfer-code")
    assert link.endswith(f"/transfer#code={code}") and len(code) == 19

    phone, phone_problems = new_page(browser, PHONE, touch=True)
    phone.goto(server + "/history")  # a new browser: no games of its own
    phone.wait_for_selector("#game-count:has-text('No finished games yet')")
    phone.goto(link)
    phone.wait_for_selector("#transfer-form")
    assert phone.input_value("#transfer-code-input") == code
    assert "#code" not in phone.url  # the code leaves the address bar and the browser's history
    phone.screenshot(path=str(screenshots / "transfer-phone.png"), full_page=True)
    phone.tap("#use-code")
    phone.wait_for_selector("#transfer-done")
    assert "Ann" in phone.inner_text("#who")
    phone.tap("#transfer-done a[href='/history']")
    phone.wait_for_url("**/history")
    check_games_shown(phone, tables)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the history page is {width}px wide on a {PHONE['width']}px phone"
    phone.locator("#games .game-item details summary").first.tap()
    assert phone.locator("#games .game-item details").first.get_attribute("open") is not None
    phone.screenshot(path=str(screenshots / "history-phone.png"), full_page=True)

    other, other_problems = new_page(browser, PHONE, touch=True)  # the code was used: it works no more
    other.goto(link)
    other.wait_for_selector("#transfer-form")
    other.tap("#use-code")
    other.wait_for_selector("#transfer-error:has-text('wrong, was used already or has expired')")
    assert other.locator("#transfer-done").count() == 0

    assert problems == [] and phone_problems == []
    # the refused code is a 400 the browser logs as a failed resource; nothing else may go wrong
    assert [p for p in other_problems if "status of 400" not in p] == []
