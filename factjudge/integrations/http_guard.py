"""ASGI guard in front of the API routes: API-key auth, a request-body size limit, JSON only.

It runs before FastAPI parses anything, so an unauthenticated or oversized request is
refused without its body being read into a model (and a chunked body is cut off at
the limit rather than trusted to declare its length). A body must be declared JSON and
be UTF-8: FastAPI would otherwise read an undeclared body as text and guess at UTF-16.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
ASGIMessage = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[ASGIMessage]]
Send = Callable[[ASGIMessage], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_KEY_HEADER = "x-api-key"


def error_payload(status: int, code: str, message: str) -> dict[str, Any]:
    """The one JSON shape of every error the service returns."""
    return {"error": {"status": status, "code": code, "message": message}}


async def send_error(send: Send, status: int, code: str, message: str,
                     headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send a complete JSON error response straight from ASGI."""
    body = json.dumps(error_payload(status, code, message)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


def presented_key(headers: dict[bytes, bytes]) -> str | None:
    """The key a client sent, as ``X-API-Key: KEY`` or ``Authorization: Bearer KEY``."""
    if API_KEY_HEADER.encode() in headers:
        return headers[API_KEY_HEADER.encode()].decode("latin-1")
    auth = headers.get(b"authorization", b"").decode("latin-1")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class Guard:
    """Checks the API key and the body size of requests under ``prefix``."""

    def __init__(self, app: ASGIApp, *, api_key: str | None, max_body: int, prefix: str = "/v1/") -> None:
        self.app = app
        self.api_key = api_key
        self.max_body = max_body
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        if self.api_key is not None:
            key = presented_key(headers)
            if key is None or not hmac.compare_digest(key.encode(), self.api_key.encode()):
                message = ("missing API key: send it in the X-API-Key header" if key is None
                           else "invalid API key")
                await send_error(send, 401, "unauthorized", message,
                                 ((b"www-authenticate", b'Bearer realm="factjudge"'),))
                return
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._too_large(send)
            return
        body, complete = await self._read_body(receive)
        if not complete:
            await self._too_large(send)
            return
        refusal = _not_json(headers, body)
        if refusal is not None:
            await send_error(send, *refusal)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, receive: Receive) -> tuple[bytes, bool]:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks), True  # disconnect: let the app see an empty body
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return b"", False
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), True

    async def _too_large(self, send: Send) -> None:
        await send_error(send, 413, "payload_too_large",
                         f"the request body is larger than the limit of {self.max_body:,} bytes")


def _not_json(headers: dict[bytes, bytes], body: bytes) -> tuple[int, str, str] | None:
    """Status, code and message refusing a body that is not declared JSON or not UTF-8; else None."""
    if not body:
        return None
    media = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
    if media != b"application/json" and not media.endswith(b"+json"):
        shown = media.decode("latin-1") or "none"
        return (415, "unsupported_media_type",
                f"send the request body as JSON with Content-Type: application/json (got {shown})")
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return 400, "invalid_input", f"the request body is not UTF-8 (undecodable byte at offset {exc.start})"
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the buffered body to the app once, then defers to the server."""
    sent = False

    async def replay() -> ASGIMessage:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
