"""Login CSRF replayed in Chromium: a page on another port of the server's host auto-submits a
``text/plain`` form to ``POST /api/session``.  Before the cross-site check the server answered with
a new session cookie and the player lost every seat; now the player keeps their session."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.e2e.conftest import page_errors

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def attack_page(target: str) -> bytes:
    """A form whose one field makes the body ``{"name":"=","name":"Mallory"}`` (text/plain puts an
    ``=`` between name and value; the duplicate key swallows it)."""
    field_name = html.escape('{"name":"')
    field_value = html.escape('","name":"Mallory"}')
    return (f'<!doctype html><form id="f" method="post" action="{target}/api/session" enctype="text/plain">'
            f'<input name="{field_name}" value="{field_value}"></form>'
            '<script>document.getElementById("f").submit()</script>').encode()


@pytest.fixture
def attacker(server: str) -> Iterator[str]:
    """A web server on another port of the same host, serving :func:`attack_page`."""
    body = attack_page(server)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_a_form_on_another_port_cannot_replace_the_session(server: str, browser: Any, attacker: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = page_errors(page)
    page.goto(server + "/")
    page.fill("#name", "Ann")
    page.click("#name-form button[type=submit]")
    page.wait_for_selector("#create-form")
    before = page.evaluate("() => fetch('/api/session').then((r) => r.json())")
    with page.expect_response(lambda response: response.url.endswith("/api/session")) as posted:
        page.goto(attacker)
    assert posted.value.status == 403
    page.goto(server + "/")
    page.wait_for_selector("#create-form")
    # The refused post and the error page it leaves log console errors of their own; from here on the
    # console is the front end's again, and it must stay clean.
    attack_noise = [e for e in errors if "403 (Forbidden)" in e or "404 (Not Found)" in e]
    assert attack_noise == errors, errors
    errors.clear()
    after = page.evaluate("() => fetch('/api/session').then((r) => r.json())")
    assert after == before and after["name"] == "Ann"
    assert not errors, errors
    context.close()
