"""Serve an ASGI app (under a real uvicorn) or a plain request handler on a free loopback port, for
tests and benchmarks."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def loopback_socket(host: str = "127.0.0.1") -> socket.socket:
    """A listening-ready socket on a port the OS picked, so no two runs race for one port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    return sock


@contextmanager
def serve_in_thread(app: Any, *, host: str = "127.0.0.1", startup_timeout: float = 10.0,
                    **settings: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a background thread (``settings`` are uvicorn's, such as
    ``serve_cli.server_settings``); yields its base URL, stops on exit."""
    import uvicorn

    sock = loopback_socket(host)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, **settings))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def serve_handler(handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``handler`` from a thread on a port the OS picked; yields its base URL, stops on exit."""
    httpd = ThreadingHTTPServer((host, 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()
