"""uvicorn's h11 connection with deadlines on a request's headers and body, and a bound on connections.

uvicorn times out only an idle keep-alive connection: a client that sends a header line now and
then, or a body a byte at a time, holds its connection (a file descriptor) for as long as it likes,
and a few hundred such clients leave none for anyone else (``/healthz`` stops answering). Here:

- a request's line and headers must all arrive within ``header_timeout`` seconds of the connection
  opening (or of the previous response), else it gets a 408 and is closed;
- its body must all arrive within ``body_timeout`` seconds of its headers, else the same;
- at most ``max_connections`` are open: one more closes the oldest connection still waiting for
  headers (idle keep-alive ones included) with a 408, or, when every one is busy with a request,
  is itself answered 503 with ``Retry-After``.

A request whose body has arrived is bounded by the service's own request timeout (504), not here.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from factjudge.integrations.http_guard import error_payload

HEADERS, BODY = "headers", "body"


def raw_error(status: int, reason: str, code: str, message: str, *extra: str) -> bytes:
    """A whole HTTP/1.1 error response, JSON as the service's others, closing the connection."""
    body = json.dumps(error_payload(status, code, message)).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json", f"content-length: {len(body)}",
            "connection: close", *extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


def bounded_h11(header_timeout: float, body_timeout: float, max_connections: int) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol class with these bounds (``uvicorn.run(app, http=…)``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class BoundedH11Protocol(H11Protocol):
        """H11Protocol that times out slow headers and bodies and bounds the open connections."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._phase: str | None = None  # HEADERS or BODY while a deadline runs
            self._since = 0.0  # when the phase began (the oldest waiting connection goes first)
            self._timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._watch()
            if sum(not c.transport.is_closing() for c in self.connections) > max_connections \
                    and not self._make_room():
                self._close(raw_error(503, "Service Unavailable", "busy",
                                      f"the service has its {max_connections} connections open; retry later",
                                      "retry-after: 1"))

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop()
            super().connection_lost(exc)

        def _watch(self) -> None:
            """Start or stop the deadline of the part of a request the connection is waiting for."""
            if self.transport.is_closing():
                self._stop()
                return
            state = self.conn.their_state
            phase = HEADERS if state is h11.IDLE else BODY if state is h11.SEND_BODY else None
            if phase == self._phase:
                return
            self._stop()
            if phase is not None:
                self._phase, self._since = phase, time.monotonic()
                seconds = header_timeout if phase == HEADERS else body_timeout
                self._timer = self.loop.call_later(seconds, self._late, phase, seconds)

        def _stop(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._phase = None, None

        def _late(self, phase: str, seconds: float) -> None:
            """The request's headers or body did not all arrive in time."""
            self._timer = None
            if self.cycle is not None and self.cycle.response_started:
                self._close(b"")  # answered already (without reading the body): just close
                return
            self._close(raw_error(408, "Request Timeout", "request_timeout",
                                  f"the request's {phase} did not all arrive within {seconds:g} s"))

        def _make_room(self) -> bool:
            """Close the connection waiting longest for a request's headers; False if none is."""
            waiting = [c for c in self.connections if c is not self and isinstance(c, BoundedH11Protocol)
                       and c._phase == HEADERS and not c.transport.is_closing()]
            if not waiting:
                return False
            oldest = min(waiting, key=lambda c: c._since)
            oldest._close(raw_error(408, "Request Timeout", "request_timeout",
                                    "closed to make room for another connection: send a request's headers "
                                    "at once"))
            return True

        def _close(self, reply: bytes) -> None:
            self._stop()
            if not self.transport.is_closing():
                if reply:
                    self.transport.write(reply)
                self.transport.close()

    return BoundedH11Protocol
