"""A fake OpenAI-compatible chat endpoint on 127.0.0.1, answering from a script.

Each request takes the next entry of ``endpoint.script`` (when it is empty, ``endpoint.default``); an entry
is one of the reply kinds below.  Every request body is kept in ``endpoint.requests``.

* ``line`` — a listed move as written; ``bare`` — a listed move without its seat, in a code fence, with prose;
  ``number`` — a listed move's number; ``word`` — BUY/PASS in a claim window, else a listed move;
* ``garbage`` — no move at all; ``illegal`` — a well-formed move that is not legal (``layoff 99 AS``);
  ``range`` — a move number past the list;
* ``500`` — HTTP 500; ``malformed`` — a 200 whose body is not JSON; ``nochoices`` — JSON without choices;
* ``slow`` — a listed move, after a pause longer than the tests' client timeout.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

SLOW_SECONDS = 1.0  # the tests that use ``slow`` give the bot a timeout well below this


def listed_moves(body: dict[str, Any]) -> list[str]:
    """The moves of the decision's first user message."""
    text = body["messages"][1]["content"]
    block = text.split("Legal moves:\n", 1)[1].split("\n\n", 1)[0]
    return [re.sub(r"^\d+\. ", "", line) for line in block.splitlines() if not line.startswith(" ")]


#: The ``usage`` every answer of the fake endpoint reports.
PROMPT_TOKENS, COMPLETION_TOKENS = 100, 7


class FakeEndpoint:
    def __init__(self) -> None:
        self.script: list[str] = []
        self.default = "line"
        self.requests: list[dict[str, Any]] = []
        self.rng = random.Random(0)
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _pick(self, moves: list[str]) -> int:
        """A listed move's index: a lay-down or book when there is one (so games move on), else at random."""
        for index, move in enumerate(moves):
            if move.split()[1] in ("down", "meld", "book"):
                return index
        return self.rng.randrange(len(moves))

    def reply(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        """(status, body, delay) for one request."""
        with self.lock:
            self.requests.append(body)
            kind = self.script.pop(0) if self.script else self.default
            moves = listed_moves(body)
            index = self._pick(moves)
        move = moves[index]
        if kind == "500":
            return 500, b'{"error": "overloaded"}', 0.0
        if kind == "malformed":
            return 200, b'{"choices": [', 0.0
        if kind == "nochoices":
            return 200, b'{"choices": []}', 0.0
        answers = {
            "line": move,
            "bare": f"Let me think.\n```\n{move.split(' ', 1)[1]}\n```",
            "number": str(index + 1),
            "word": move.split()[1].upper() if move.split()[1] in ("buy", "pass") else move,
            "garbage": "I would rather not say.",
            "illegal": "layoff 99 AS",
            "range": str(len(moves) + 5),
            "slow": move,
        }
        content = answers[kind]
        payload = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                   "usage": {"prompt_tokens": PROMPT_TOKENS, "completion_tokens": COMPLETION_TOKENS}}
        return 200, json.dumps(payload).encode(), SLOW_SECONDS if kind == "slow" else 0.0

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                if self.path != "/v1/chat/completions":
                    status, data, delay = 404, b"{}", 0.0
                else:
                    status, data, delay = endpoint.reply(body)
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    pass

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
                pass

        return Handler


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEndpoint]:
    for name in ("RUMMY_LLM_BASE_URL", "OPENAI_BASE_URL", "RUMMY_LLM_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    fake = FakeEndpoint()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()
