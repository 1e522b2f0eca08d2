"""Slow clients under a real uvicorn with ``serve``'s settings (issue 44.3): headers and bodies are
timed out with a 408, the open connections are bounded, and ``/healthz`` answers through a flood."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress

import pytest

pytest.importorskip("uvicorn")
import httpx

from factjudge.integrations.http import create_app
from factjudge.integrations.serve_cli import server_settings
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.live import serve_in_thread
from tests.integrations.test_serve_cli import parse

PARTIAL = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # the headers never end


@contextmanager
def service(*flags: str) -> Iterator[tuple[str, int]]:
    """The service under uvicorn with the connection settings ``serve`` gives these flags."""
    app = create_app(ScriptedChatModel(lambda messages: "Answer: supported"))
    with serve_in_thread(app, **server_settings(parse(list(flags)))) as base:
        host, port = base.removeprefix("http://").split(":")
        yield host, int(port)


def reply(sock: socket.socket, seconds: float) -> bytes:
    """What the server sends before it closes ``sock`` (b"" if it closes without a word); fails if it
    keeps the connection open ``seconds``."""
    sock.settimeout(seconds)
    got = b""
    try:
        while piece := sock.recv(4096):
            got += piece
    except TimeoutError:
        pytest.fail(f"the connection is still open after {seconds:g} s")
    except ConnectionResetError:
        pass
    return got


def test_headers_that_do_not_all_arrive_in_time_get_a_408() -> None:
    with service("--header-timeout", "1") as (host, port), socket.create_connection((host, port)) as slow:
        started = time.monotonic()
        slow.sendall(PARTIAL)
        time.sleep(0.5)
        slow.sendall(b"still")  # a byte now and then does not extend the deadline
        said = reply(slow, 5)
        assert said.startswith(b"HTTP/1.1 408 ") and b"request_timeout" in said
        assert 0.9 < time.monotonic() - started < 3


def test_a_body_that_does_not_all_arrive_in_time_gets_a_408() -> None:
    with service("--body-timeout", "1") as (host, port), socket.create_connection((host, port)) as slow:
        slow.sendall(b"POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"answer\": ")
        said = reply(slow, 5)
        assert said.startswith(b"HTTP/1.1 408 ") and b"body did not all arrive within 1 s" in said


def test_a_flood_of_slow_clients_is_bounded_and_healthz_still_answers() -> None:
    with service("--max-connections", "20") as (host, port), ExitStack() as stack:
        flood = [stack.enter_context(socket.create_connection((host, port))) for _ in range(100)]
        for sock in flood:
            sock.sendall(PARTIAL)
        started = time.monotonic()
        assert httpx.get(f"http://{host}:{port}/healthz", timeout=5).status_code == 200
        assert time.monotonic() - started < 2
        # The oldest waiting ones were closed to make room: at most 20 are left open.
        closed = 0
        for sock in flood:
            sock.settimeout(0.2)
            with suppress(TimeoutError):
                closed += sock.recv(4096).startswith(b"HTTP/1.1 408 ")
        assert closed >= 100 - 20


def test_the_connection_bound_leaves_room_under_the_open_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from factjudge.integrations.serve_cli import connection_bound

    monkeypatch.setattr(resource, "getrlimit", lambda kind: (256, 256))  # macOS's default
    bound, backlog = connection_bound(200)
    assert bound + backlog + 64 <= 256  # a burst accepted whole still fits beside the service's own files
    monkeypatch.setattr(resource, "getrlimit", lambda kind: (20_000, 20_000))
    assert connection_bound(200) == (200, 2048)
