"""A deadline for each HTTP request to arrive whole, so slow clients cannot hold connections open.

uvicorn closes a kept-alive connection that stays silent (``timeout_keep_alive``) but waits for ever
on a request that arrives a byte at a time, or whose headers or body never end (slowloris): a few
thousand such connections hold as many sockets and buffers.  :func:`request_deadline` makes uvicorn's
HTTP protocol give each request ``seconds`` from the connection (or the end of the previous response)
until its last body byte; past that the client gets ``408 Request Timeout`` and the connection closes.
A WebSocket upgrade ends the deadline: table connections have their own limits (docs/security.md).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_BODY = b'{"error": {"code": "request-timeout", "message": "the request did not arrive in time"}}'
TIMED_OUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
             b"content-length: " + str(len(_BODY)).encode() + b"\r\n\r\n" + _BODY)


def request_deadline(seconds: float) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a ``seconds`` deadline for every request to arrive whole."""

    class DeadlineProtocol(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            cycle = self.cycle  # the request being read, or the one answered before it
            if cycle is None or cycle.response_complete or not cycle.response_started:
                self.transport.write(TIMED_OUT)
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on a kept-alive connection

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return DeadlineProtocol
