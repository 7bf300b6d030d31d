"""A deadline for the head of each request: the request line and headers.

uvicorn waits for a request's head as long as the client cares to take: a connection that
opens and sends nothing, or a header a byte a minute, holds a socket and its buffers for ever,
and a few thousand of them (slowloris) hold them all. ``BodyLimit`` (``security``) bounds the
body; this bounds what comes before it, where no ASGI middleware can see. A head not complete
``HEAD_TIMEOUT_SECONDS`` after the connection opened (or, on a kept-alive connection, after
the previous answer) gets 408 and the connection is closed.

It is uvicorn's own HTTP protocol (httptools, what ``uvicorn[standard]`` serves with) with a
timer around the parts it already has. ``app.serve`` passes it to uvicorn, and any uvicorn
command line can: ``uvicorn app.main:app --http app.web.core.protocol:HeadDeadlineProtocol``. A
reverse proxy in front (``deploy/pyramid.conf.template``) does the same with its
``client_header_timeout``.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings


class HeadDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose request head is late."""

    _head_timer: asyncio.TimerHandle | None = None

    # uvicorn's own signature (asyncio's Protocol takes any BaseTransport; uvicorn narrows it to
    # the Transport a TCP connection has, and ignores the override as we do).
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()  # the next request on this connection has the same time

    def on_headers_complete(self) -> None:
        self._cancel_head_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(get_settings().head_timeout_seconds,
                                                self._head_too_late)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered: its own body deadline applies
        body = b"The request did not arrive in time."
        self.transport.write(b"HTTP/1.1 408 Request Timeout\r\n"
                             b"content-type: text/plain; charset=utf-8\r\n"
                             b"content-length: " + str(len(body)).encode() + b"\r\n"
                             b"connection: close\r\n\r\n" + body)
        self.transport.close()

