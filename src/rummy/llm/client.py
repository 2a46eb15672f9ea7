"""A client for any OpenAI-compatible chat endpoint (``POST {base_url}/chat/completions``), with httpx.

The base URL comes from the bot's ``base_url`` option, else ``RUMMY_LLM_BASE_URL``, else ``OPENAI_BASE_URL``;
the key from ``RUMMY_LLM_API_KEY``, else ``OPENAI_API_KEY`` (never from the command line, where it would
land in shell histories and records).  A server on the loopback interface (a local model) may go without
a key.  Every failure of a request — a timeout, a refused connection, an HTTP error status, a body that
is not the expected JSON — raises :class:`LlmError` with one line saying what happened.

httpx is imported when a client is made, so ``import rummy.bots`` works without the ``llm`` extra.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rummy.engine import BotError, RummyError

if TYPE_CHECKING:
    import httpx

BASE_URL_VARIABLES = ("RUMMY_LLM_BASE_URL", "OPENAI_BASE_URL")
API_KEY_VARIABLES = ("RUMMY_LLM_API_KEY", "OPENAI_API_KEY")


class LlmError(RummyError):
    """A chat request that gave no answer (network, timeout, HTTP status, malformed reply)."""


@dataclass(frozen=True)
class Endpoint:
    """Where to send requests, and the key (None: none sent)."""

    base_url: str
    api_key: str | None


def _first_set(names: Sequence[str], environ: Mapping[str, str]) -> str | None:
    for name in names:
        value = environ.get(name, "").strip()
        if value:
            return value
    return None


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine (``localhost``, ``127.0.0.1``, ``::1`` …)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_endpoint(base_url: str | None, environ: Mapping[str, str] | None = None) -> Endpoint:
    """The endpoint from the option and the environment; a :class:`BotError` naming what is missing.

    >>> resolve_endpoint("http://127.0.0.1:8000/v1/", {}).base_url
    'http://127.0.0.1:8000/v1'
    >>> resolve_endpoint("https://llm.test/v1", {})
    Traceback (most recent call last):
    ...
    rummy.engine.errors.BotError: llm: no API key for https://llm.test/v1: set RUMMY_LLM_API_KEY or OPENAI_API_KEY
    """
    env = os.environ if environ is None else environ
    url = base_url or _first_set(BASE_URL_VARIABLES, env)
    if not url:
        raise BotError("llm: no endpoint: give base_url=URL or set RUMMY_LLM_BASE_URL or OPENAI_BASE_URL")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BotError(f"llm: base URL {url!r} must be an http:// or https:// URL such as http://127.0.0.1:8000/v1")
    key = _first_set(API_KEY_VARIABLES, env)
    if key is None and not is_loopback(url):
        raise BotError(f"llm: no API key for {url}: set {' or '.join(API_KEY_VARIABLES)}")
    return Endpoint(url.rstrip("/"), key)


def answer_text(body: Any) -> str:
    """The first choice's message content of a chat-completions reply, or :class:`LlmError`."""
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise LlmError("the reply has no choices[0].message.content") from None
    if not isinstance(content, str):
        raise LlmError(f"the reply's message content is {type(content).__name__}, not text")
    return content


class ChatClient:
    """Sends chat requests for one model; :meth:`complete` returns the answer's text."""

    def __init__(self, endpoint: Endpoint, model: str, *, temperature: float, timeout: float,
                 max_tokens: int | None = None) -> None:
        import httpx  # the optional ``llm`` extra

        headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
        self.endpoint = endpoint
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.prompt_tokens = 0  # as the endpoint reports them (``usage``); 0 where it does not
        self.completion_tokens = 0
        self._httpx = httpx
        self._client: httpx.Client = httpx.Client(base_url=endpoint.base_url, headers=headers,
                                                  timeout=httpx.Timeout(timeout))

    def request_body(self, messages: Sequence[Mapping[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def complete(self, messages: Sequence[Mapping[str, str]]) -> str:
        """The model's answer to ``messages``; :class:`LlmError` on any failure."""
        httpx = self._httpx
        try:
            response = self._client.post("/chat/completions", json=self.request_body(messages))
        except httpx.TimeoutException:
            raise LlmError(f"no answer within {self._client.timeout.read} s") from None
        except httpx.HTTPError as error:
            raise LlmError(f"request failed: {type(error).__name__}: {error}") from None
        if response.status_code >= 400:
            text = " ".join(response.text.split())[:200]
            raise LlmError(f"HTTP {response.status_code}: {text}")
        try:
            body = response.json()
        except ValueError:
            raise LlmError("the reply is not JSON") from None
        self._count_tokens(body)
        return answer_text(body)

    def _count_tokens(self, body: Any) -> None:
        """Add the reply's ``usage`` (OpenAI's ``prompt_tokens`` and ``completion_tokens``) where it has one."""
        usage = body.get("usage") if isinstance(body, dict) else None
        if not isinstance(usage, dict):
            return
        for key in ("prompt_tokens", "completion_tokens"):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(self, key, getattr(self, key) + value)

    def close(self) -> None:
        self._client.close()
