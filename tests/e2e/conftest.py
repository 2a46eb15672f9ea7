"""End-to-end fixtures: a real ``rummy serve`` on a free loopback port with a temporary SQLite database,
and Debian's Chromium driven by Playwright (never a downloaded browser: ``playwright install`` is not
used)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``rummy serve`` (fast bots, short pause between rounds)."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    work = tmp_path_factory.mktemp("e2e-server")
    db = work / "rummy.db"
    migrated = subprocess.run(_rummy("migrate", "--db", str(db)), capture_output=True, text=True, timeout=60)
    assert migrated.returncode == 0, migrated.stderr + migrated.stdout
    log_path = work / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            _rummy("serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0", "--bot-delay", "0.15",
                   "--round-pause", "6", "--rate-limit", "50", "--log-level", "warning"),
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
    """The failures ``page`` will show from now on: script errors, and whatever the server's
    Content-Security-Policy refuses (Chromium reports that on the console)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", console)
    return errors


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
