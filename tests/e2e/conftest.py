"""End-to-end fixtures: a real ``rummy serve`` on a free loopback port with a temporary SQLite database,
and Debian's Chromium driven by Playwright (never a downloaded browser: ``playwright install`` is not
used)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
SERVING = re.compile(r"serving on (http://\S+?)/? ")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: end-to-end tests in a real browser against a real `rummy serve`")


def _rummy(*args: str) -> list[str]:
    return [sys.executable, "-m", "rummy", *args]


def _migrate(db: Path) -> None:
    """The schema in a new SQLite file, made in this process (``rummy migrate`` would start an interpreter and
    import the server: seconds for every module's server)."""
    from rummy.server.storage.database import migrate, normalize_db_url

    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API may hold this thread's event loop
        thread.submit(asyncio.run, migrate(normalize_db_url(str(db)))).result(timeout=60)


@contextmanager
def rummy_serve(work: Path, *, bot_delay: float = 0.15, round_pause: float = 6,
                rate_limit: float = 50) -> Iterator[str]:
    """A ``rummy serve`` in ``work`` (a fresh SQLite database there) with the given pacing and messages per second
    a client may send; its base URL."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    db = work / "rummy.db"
    _migrate(db)
    log_path = work / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            _rummy("serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0", "--bot-delay", str(bot_delay),
                   "--round-pause", str(round_pause), "--rate-limit", str(rate_limit), "--log-level", "warning"),
            stdout=log, stderr=subprocess.STDOUT, cwd=work, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        base = _wait_for_server(process, log_path)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        text = log_path.read_text(errors="replace")
        if "Traceback" in text:
            print("---- rummy serve log ----\n" + text)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    """The base URL of a running ``rummy serve`` of the test module's own (fast bots, short pause between rounds),
    paced by the module's ``SERVER_PACE`` where it has one (:func:`rummy_serve`'s keyword arguments)."""
    pace: dict[str, float] = getattr(request.module, "SERVER_PACE", {})
    with rummy_serve(tmp_path_factory.mktemp("e2e-server"), **pace) as base:
        yield base


def _wait_for_server(process: subprocess.Popen[Any], log_path: Path) -> str:
    deadline = time.monotonic() + 45
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"rummy serve exited with {process.returncode}:\n{log_path.read_text(errors='replace')}")
        match = SERVING.search(log_path.read_text(errors="replace"))
        if match:
            base = match.group(1).rstrip("/")
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return base
            except OSError:
                pass
        time.sleep(0.1)
    pytest.fail(f"rummy serve did not start in time:\n{log_path.read_text(errors='replace')}")


def page_errors(page: Any) -> list[str]:
    """The failures ``page`` will show from now on: script errors and every console error (among them
    whatever the server's Content-Security-Policy refuses, which Chromium reports there); every browser
    test asserts the list stays empty."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
            if message.type == "error" else None)
    return problems


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# a page predicate: it is my seat's turn in phase ``p`` (the state and the page render in one step)
MY_TURN = "p => { const s = window.rummy.state(); return s.view && s.view.active === s.seat && s.view.phase === p; }"


def new_page(browser: Any, viewport: dict[str, int] | None = None, *, touch: bool = False) -> tuple[Any, list[str]]:
    """A page in a fresh context (a touch phone with ``touch``), and the list its console errors and page
    errors go to: every test asserts it stays empty."""
    if touch:
        context = browser.new_context(has_touch=True, is_mobile=True, viewport=viewport or PHONE)
    else:
        context = browser.new_context(viewport=viewport or DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page, page_errors(page)


def press(page: Any, selector: str, *, touch: bool) -> None:
    """Tap on a touch context, click elsewhere."""
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


#: The longest claim window the create panel offers: a test that acts inside a window gets all of it, so a
#: slow machine does not see the window close before the test's tap lands.
LONG_CLAIM_SECONDS = "15"


def start_bot_table(page: Any, server: str, variant: str, name: str = "Ann", *, touch: bool = False,
                    seats: int | None = None, options: dict[str, Any] | None = None,
                    long_claims: bool = False) -> None:
    """Name, a table of ``variant`` with easy computer players in every other seat, started."""
    page.goto(server + "/")
    page.wait_for_selector("#name-form, #create-form")
    if page.locator("#name-form").count():
        page.fill("#name", name)
        press(page, "#name-form button[type=submit]", touch=touch)
    page.wait_for_selector("#create-form")
    page.select_option("#variant", variant)
    if seats is not None:
        page.fill("#seats", str(seats))
        page.dispatch_event("#seats", "change")
    for select in page.locator("select.seat-kind").all():
        select.select_option("easy")
    if long_claims:
        page.select_option("#claim-seconds", LONG_CLAIM_SECONDS)
    press(page, "#create-table", touch=touch)
    page.wait_for_selector("#start-button:not([disabled])")
    press(page, "#start-button", touch=touch)
    page.wait_for_selector("#hand .card")


def wait_for_a_window(page: Any, touch: bool) -> None:
    """Play Ann's turns (draw, discard) until someone else's discard is offered to her and every other seat
    has answered: the window then waits for her alone, for its whole time (a computer player ahead of her
    that claims would close it under the test's finger)."""
    for _ in range(400):
        if page.locator("#claim:not([hidden]) #buy-button").count() and page.evaluate(
                "() => { const s = window.rummy.state(); return s.view.to_act.length === 1"
                " && s.view.to_act[0] === s.seat; }"):
            return
        current = page.evaluate("window.rummy.state()")
        view = current["view"]
        if page.locator("#claim:not([hidden]) #take-back-button").count():  # her own discard: let it go
            try:
                press(page, "#pass-button", touch=touch)
            except Exception:  # noqa: BLE001 - the window closed under the finger: nothing to answer
                continue
            page.wait_for_function("s => window.rummy.state().seq > s", arg=current["seq"])
        elif view["active"] == current["seat"] and view["phase"] in ("draw", "play"):
            legal = [a.split(" ", 1)[1] for a in view["legal_actions"]]
            if "draw" in legal:
                press(page, "#stock", touch=touch)
            else:
                card = next(b.split()[1] for b in legal if b.startswith("discard "))
                press(page, f'#hand .card[data-card="{card}"]', touch=touch)
                press(page, "#discard-button", touch=touch)
            page.wait_for_function("s => window.rummy.state().seq > s", arg=current["seq"])
        else:
            page.wait_for_timeout(100)
    pytest.fail("no claim window was offered")
