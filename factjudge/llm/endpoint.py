"""A small JSON-over-HTTP client for OpenAI-compatible endpoints, with pooled keep-alive connections.

Built on ``http.client`` because a model call's own CPU is what a 32-way bench waits on under
the GIL: the ``openai`` SDK took about 1.3 ms of CPU per call at that concurrency (its request
transform, httpx's models and connection-pool lock), ``http.client`` about 0.25 ms. Retries are
not done here (``factjudge.llm.retry`` does them); this module turns every way a request can
fail into one of the ``TransportError`` classes below.

A call's timeout, cut to what is left of the check's deadline, bounds the whole call: the
connect, the request and every read of the headers and body get only the time left, so an
endpoint that trickles its reply a byte at a time cannot hold a check past its deadline.
"""

from __future__ import annotations

import base64
import http.client
import io
import json
import os
import select
import socket
import ssl
import threading
import time
import urllib.request
from email.message import Message as Headers
from typing import Any

import httpx

from factjudge.environment import openai_api_key, openai_base_url, openai_org_headers
from factjudge.errors import InputError
from factjudge.llm.deadline import remaining
from factjudge.version import package_version

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# Sent as the openai SDK sends them, when these variables are set.
# Idle connections kept per endpoint: more than any --concurrency in use, so none is reopened.
MAX_IDLE = 128


class TransportError(Exception):
    """A request that got no usable HTTP reply, or a reply with an error status."""


class ConnectFailed(TransportError):
    """No reply: the connection could not be made, or it broke before the reply was read."""


class TimedOut(ConnectFailed):
    """The endpoint did not connect and send its whole reply within the call's timeout."""


class TooLarge(TransportError):
    """A reply body larger than the caller allows; it is not read to its end."""


class StatusError(TransportError):
    """A reply with a status other than 2xx; ``body`` holds at most its first 64 KB."""

    def __init__(self, status: int, headers: Headers, body: bytes) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.headers = headers
        self.body = body

    def message(self) -> str:
        """The endpoint's own error message (OpenAI's ``error.message``), else the body's start."""
        try:
            data = json.loads(self.body)
        except ValueError:
            data = None
        error = data.get("error", data) if isinstance(data, dict) else None
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:200]
        text = self.body.decode("utf-8", "replace").strip()
        return text[:200] or http.client.responses.get(self.status, "no message")


def normalised_base_url(base_url: str | None) -> str:
    """The base URL as the openai SDK spelled it (lower-case scheme and host), without a trailing slash.

    It is part of every cache key, so it must not change when the client does.
    """
    url = base_url or openai_base_url() or DEFAULT_BASE_URL
    try:
        parts = httpx.URL(url)
        usable = parts.scheme in ("http", "https") and bool(parts.host) and parts.port != 0
    except (httpx.InvalidURL, ValueError, TypeError):  # a malformed IPv6 literal or port
        usable = False
    if not usable:
        raise InputError(f"base URL {url!r} is not an http(s) URL, e.g. http://localhost:8000/v1")
    return str(parts).rstrip("/")


def _proxy_for(url: httpx.URL) -> httpx.URL | None:
    """The proxy ``HTTP(S)_PROXY``/``ALL_PROXY`` names for ``url``, unless ``NO_PROXY`` exempts it."""
    if urllib.request.proxy_bypass(url.host):
        return None
    proxies = urllib.request.getproxies()
    proxy = proxies.get(url.scheme) or proxies.get("all")
    return httpx.URL(proxy if "://" in proxy else f"http://{proxy}") if proxy else None


def _tls_context() -> ssl.SSLContext:
    """certifi's roots, as httpx uses, unless SSL_CERT_FILE or SSL_CERT_DIR names others."""
    if os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context()
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def _time_left(end: float) -> float:
    """Seconds until ``end`` for the next socket operation; TimeoutError when none are left."""
    left = end - time.monotonic()
    if left <= 0:
        raise TimeoutError("the call's time ran out")
    return left


class _ReadsBeforeEnd(io.RawIOBase):
    """A socket's reads, each allowed only the time left before the call's end."""

    def __init__(self, sock: socket.socket, end: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)
        self._end = end

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        self._sock.settimeout(_time_left(self._end))
        return self._raw.readinto(buffer)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _SocketBeforeEnd:
    """The socket as HTTPResponse sees it: its file reads headers and body by the call's end."""

    def __init__(self, sock: socket.socket, end: float) -> None:
        self._sock = sock
        self._end = end

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_ReadsBeforeEnd(self._sock, self._end))


def _response_by(end: float) -> Any:
    """An HTTPResponse factory whose every read ends by ``end`` (a connection's ``response_class``)."""
    def response(sock: socket.socket, *args: Any, **kwargs: Any) -> http.client.HTTPResponse:
        return http.client.HTTPResponse(_SocketBeforeEnd(sock, end), *args, **kwargs)  # type: ignore[arg-type]

    return response


def _stale(conn: http.client.HTTPConnection) -> bool:
    """True when an idle connection was closed by the server (readable at EOF) or never opened."""
    sock = conn.sock
    if sock is None:
        return True
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([sock], [], [], 0)[0])
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


class EndpointClient:
    """POSTs JSON to one base URL and returns the reply body; thread-safe, connections reused."""

    def __init__(self, base_url: str | None, api_key: str | None, timeout: float) -> None:
        self.base_url = normalised_base_url(base_url)
        self.timeout = timeout
        url = httpx.URL(self.base_url)
        self._url = url
        self._path = url.raw_path.split(b"?")[0].decode("ascii")
        self._proxy = _proxy_for(url)
        self._proxy_headers: dict[str, str] = {}
        if self._proxy is not None and self._proxy.username:
            login = f"{self._proxy.username}:{self._proxy.password}".encode()
            self._proxy_headers["Proxy-Authorization"] = f"Basic {base64.b64encode(login).decode()}"
        self._tls = _tls_context() if url.scheme == "https" else None
        self._headers = {"Content-Type": "application/json", "Accept": "application/json",
                         "User-Agent": f"factjudge/{package_version()}"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        if url.scheme == "http":  # a plain-HTTP proxy reads its credentials from every request
            self._headers.update(self._proxy_headers)
        self._headers.update(openai_org_headers())
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()

    @classmethod
    def for_openai(cls, name: str, base_url: str | None, api_key: str | None,
                   timeout: float) -> EndpointClient:
        """A client for ``base_url`` (else ``$OPENAI_BASE_URL``, else OpenAI's) with the key it needs."""
        base_url = base_url or openai_base_url()
        # Local servers (vLLM, llama.cpp, Ollama) take any key or none; OpenAI's own needs one.
        api_key = api_key or openai_api_key()
        if not api_key and not base_url:
            raise InputError(f"{name}: no API key: set OPENAI_API_KEY, or --base-url for a local server")
        return cls(base_url, api_key, timeout)

    def _connect(self) -> http.client.HTTPConnection:
        https = self._url.scheme == "https"
        target = (self._url.host, self._url.port or (443 if https else 80))
        host, port = (self._proxy.host, self._proxy.port or 80) if self._proxy else target
        if not https:
            return http.client.HTTPConnection(host, port, timeout=self.timeout)
        conn = http.client.HTTPSConnection(host, port, timeout=self.timeout, context=self._tls)
        if self._proxy is not None:  # TLS to the endpoint through a CONNECT tunnel
            conn.set_tunnel(*target, headers=self._proxy_headers)
        return conn

    def _checkout(self) -> http.client.HTTPConnection:
        while True:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                return self._connect()
            if not _stale(conn):
                return conn
            conn.close()

    def close(self) -> None:
        """Close the idle connections (one a call is using is closed when the call puts it back)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def _checkin(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < MAX_IDLE:
                self._idle.append(conn)
                return
        conn.close()

    def _target(self, path: str) -> str:
        # A plain-HTTP proxy takes the absolute URL; a tunnel or a direct connection the path.
        if self._proxy is not None and self._url.scheme == "http":
            return f"{self.base_url}{path}"
        return f"{self._path.rstrip('/')}{path}"

    def post(self, path: str, payload: dict[str, Any], max_bytes: int | None = None,
             timeout: float | None = None) -> bytes:
        """The body of a 2xx reply to ``payload`` POSTed at ``path`` (after the base URL).

        ``timeout`` (default: the client's), cut to what is left of the check's deadline,
        bounds the whole call: connect, request, headers and body.
        UnicodeEncodeError when ``payload`` holds text that is not valid UTF-8 (lone surrogates).
        """
        body = json.dumps(payload, ensure_ascii=False).encode()
        seconds = self.timeout if timeout is None else timeout
        left = remaining()
        if left is not None:
            seconds = min(seconds, left)
        end = time.monotonic() + seconds
        conn = self._checkout()
        conn.response_class = _response_by(end)
        try:
            if conn.sock is None:
                conn.timeout = _time_left(end)
                conn.connect()
            conn.sock.settimeout(_time_left(end))  # sendall's timeout bounds the whole request
            conn.request("POST", self._target(path), body, self._headers)
            response = conn.getresponse()
            data = self._read(response, max_bytes if 200 <= response.status < 300 else 65_536)
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            if isinstance(exc, TimeoutError):
                raise TimedOut(f"timed out after {seconds:g} s") from exc
            raise ConnectFailed(str(exc) or type(exc).__name__) from exc
        except TooLarge:
            conn.close()
            raise
        if response.will_close or not response.isclosed():
            conn.close()
        else:
            self._checkin(conn)
        if not 200 <= response.status < 300:
            raise StatusError(response.status, response.msg, data)
        return data

    @staticmethod
    def _read(response: http.client.HTTPResponse, max_bytes: int | None) -> bytes:
        """The whole body, or TooLarge before reading more than ``max_bytes`` of a 2xx reply."""
        if max_bytes is None:
            return response.read()
        declared = response.getheader("content-length")
        if declared is not None and declared.isdigit() and int(declared) > max_bytes:
            if 200 <= response.status < 300:
                raise TooLarge(f"sent a reply of {int(declared):,} bytes")
            return response.read(max_bytes)  # an error body: its start says enough
        data = response.read(max_bytes + 1)
        if len(data) > max_bytes:
            if 200 <= response.status < 300:
                raise TooLarge(f"sent a reply of more than {max_bytes:,} bytes")
            return data[:max_bytes]
        return data
