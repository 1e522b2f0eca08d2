"""ASGI guard in front of the service: the Host header, API-key auth, a body size limit, JSON only.

It runs before FastAPI parses anything, so an unauthenticated or oversized request is
refused without its body being read into a model (and a chunked body is cut off at
the limit rather than trusted to declare its length). A body must be declared JSON and
be UTF-8: FastAPI would otherwise read an undeclared body as text and guess at UTF-16.

Every request, the web page's included, must name this service in its Host header:
localhost, an IP address, or a name it was told to answer to. A page on another site
whose name an attacker re-points at 127.0.0.1 (DNS rebinding) sends its own name, so
it cannot use an open service on this machine; a literal IP address cannot be re-pointed.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping, Sequence
from typing import Any

Scope = MutableMapping[str, Any]
ASGIMessage = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[ASGIMessage]]
Send = Callable[[ASGIMessage], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

API_KEY_HEADER = "x-api-key"
LOCAL_NAMES = ("localhost",)


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


def presented_key(headers: dict[bytes, bytes]) -> bytes | None:
    """The key a client sent, as ``X-API-Key: KEY`` or ``Authorization: Bearer KEY``, as its bytes."""
    if API_KEY_HEADER.encode() in headers:
        return headers[API_KEY_HEADER.encode()]
    scheme, _, token = headers.get(b"authorization", b"").partition(b" ")
    return token.strip() if scheme.lower() == b"bearer" and token.strip() else None


def host_name(header: bytes) -> str:
    """The name in a Host header, lower-case, without its port, brackets or a final dot."""
    host = header.decode("latin-1").strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[1:].partition("]")[0]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def is_ip_address(name: str) -> bool:
    """Whether ``name`` is an IPv4 or IPv6 address rather than a name DNS could re-point."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def lone_surrogate(value: Any, path: str = "") -> str | None:
    """Where in a parsed JSON value a string holds a lone surrogate (``"\\ud800"``), else None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path or "the request"
        return None
    items: Iterable[tuple[Any, Any]] = ()
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    for key, item in items:
        found = lone_surrogate(item, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


class Guard:
    """Checks the Host header of every request, and the API key and body size of those under ``prefix``."""

    def __init__(self, app: ASGIApp, *, api_key: str | None, max_body: int, prefix: str = "/v1/",
                 allowed_hosts: Sequence[str] = ()) -> None:
        self.app = app
        # Compared as bytes: a client sends a non-ASCII key as UTF-8 (curl does).
        self.api_key = None if api_key is None else api_key.encode("utf-8", "surrogateescape")
        self.max_body = max_body
        self.prefix = prefix
        self.allowed_hosts = {host_name(h.encode("utf-8")) for h in allowed_hosts} | set(LOCAL_NAMES)

    def _host_allowed(self, headers: dict[bytes, bytes]) -> bool:
        header = headers.get(b"host")
        if header is None or "*" in self.allowed_hosts:  # HTTP/1.0 without Host names nothing to re-point
            return True
        name = host_name(header)
        return name in self.allowed_hosts or is_ip_address(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        if not self._host_allowed(headers):
            shown = headers[b"host"].decode("latin-1")[:100]
            await send_error(send, 400, "invalid_host",
                             f"this service does not answer to the host {shown!r}; "
                             f"start it with --allowed-hosts {host_name(headers[b'host'])[:100]} to allow it")
            return
        if not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        if self.api_key is not None:
            key = presented_key(headers)
            if key is None or not hmac.compare_digest(key, self.api_key):
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
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return 400, "invalid_input", f"the request body is not UTF-8 (undecodable byte at offset {exc.start})"
    try:
        json.loads(text, object_pairs_hook=_without_duplicates)
    except _DuplicateKey as exc:
        return (422, "invalid_request", f"the request body names {exc.args[0]!r} twice in one object; keep "
                "one (which to read would be a guess: a JSON parser keeps the last)")
    except (ValueError, RecursionError):
        return None  # not JSON at all: the service's validation says so
    return None


class _DuplicateKey(ValueError):
    """A JSON object of the body names one key twice."""


def _without_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object as a dict; ``_DuplicateKey`` when it names a key twice."""
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


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
