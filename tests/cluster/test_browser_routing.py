"""The browser behind docs/deploy.md's nginx (issue 31): in Chromium, a player opens tables that are placed
on either of two workers; the page's socket, sent to the table's owner by ``moved`` and routed there by
nginx (``?worker=``), plays the table there: her draw reaches her page without one message through Redis.

The test clients of tests/cluster/test_routing.py follow ``moved`` as the browser does; this test is the
browser itself (static/api.js), so a change there that stopped following would be caught here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.cluster.conftest import Services, until
from tests.cluster.services import Worker
from tests.cluster.test_routing import crossing, documented_nginx, game_messages, owners, serving
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, MY_TURN, new_page, start_bot_table
from tests.server.conftest import run

pytestmark = pytest.mark.slow

MAX_TABLES = 12  # tables opened until each worker owns one (placement is a hash: 1 in 2 each)


def test_a_browser_behind_nginx_plays_each_table_on_its_owner(services: Services, workers: Callable[..., Worker],
                                                             tmp_path: Path) -> None:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    server = workers(workers=2)
    run(until(lambda: serving(services, 2)))
    owned_by: set[str] = set()  # the owners of tables the page played on
    followed = 0  # tables whose first socket landed on the other worker and was sent on (``moved``)
    with documented_nginx(services, server, tmp_path) as listen, sync_api.sync_playwright() as playwright:
        front = f"http://127.0.0.1:{listen}"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            page, problems = new_page(browser)
            sockets: list[str] = []
            page.on("websocket", lambda socket: sockets.append(socket.url))
            for _ in range(MAX_TABLES):
                start_bot_table(page, front, "basic", seats=2)  # Ann and a computer player
                table_id = page.url.rstrip("/").rsplit("/", 1)[1]
                owner = owners(services, [table_id])[table_id]
                assert owner is not None, f"no worker owns the table {table_id} the page plays"
                page.wait_for_function(f"() => ({MY_TURN})('draw')", timeout=60_000)  # after the bot's turn
                seq = page.evaluate("window.rummy.state().seq")
                with crossing(services) as seen:
                    page.click("#stock")
                    page.wait_for_function("s => window.rummy.state().seq > s", arg=seq)
                assert not game_messages(seen), f"table {table_id}: the draw crossed Redis: {seen}"
                owned_by.add(owner)
                named = {parse_qs(urlsplit(url).query).get("worker", [""])[0] for url in sockets
                         if f"/ws/tables/{table_id}" in url} - {""}
                assert named <= {owner}, f"sent to {named}, not to the owner {owner}"
                followed += bool(named)
                if len(owned_by) == 2 and followed:
                    break
            assert len(owned_by) == 2 and followed, (
                f"in {MAX_TABLES} tables the page played on {owned_by}, and followed moved {followed} times")
            assert not problems, problems
        finally:
            browser.close()
