"""The pooled HTTP client under the openai backend: connection reuse, size cap, proxies, headers."""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from factjudge.errors import InputError, ModelError
from factjudge.llm.base import GenerationParams
from factjudge.llm.deadline import deadline
from factjudge.llm.endpoint import ConnectFailed, EndpointClient, StatusError, TimedOut, TooLarge
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.retry import RetryPolicy


@contextmanager
def running(server: ThreadingHTTPServer) -> Iterator[int]:
    """``server`` serving on a thread until the block ends; yields its port."""
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serve(reply: bytes = b'{"ok": true}', *, close_after: bool = False, chunked: bool = False,
          status: int = 200, tls: tuple[Path, Path] | None = None,
          delay: float = 0.0) -> Iterator[tuple[str, dict[str, Any]]]:
    """A keep-alive HTTP/1.1 server; ``seen`` records connections, request lines and headers."""
    seen: dict[str, Any] = {"connections": set(), "lines": [], "headers": []}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            seen["connections"].add(self.client_address)
            seen["lines"].append(self.requestline)
            seen["headers"].append(dict(self.headers))
            time.sleep(delay)
            self.send_response(status)
            if chunked:
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for start in range(0, len(reply), 1000):
                    part = reply[start:start + 1000]
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)
            # Closing without saying so is what a server's keep-alive timeout does to an idle connection.
            self.close_connection = close_after

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with running(server) as port:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{port}/v1", seen


def test_calls_reuse_one_kept_alive_connection() -> None:
    with serve() as (url, seen):
        client = EndpointClient(url, "k", 5.0)
        replies = [client.post("/chat/completions", {"n": i}) for i in range(5)]
    assert replies == [b'{"ok": true}'] * 5
    assert len(seen["connections"]) == 1
    assert seen["lines"][0] == "POST /v1/chat/completions HTTP/1.1"


def test_a_connection_the_server_closed_while_idle_is_replaced_not_failed() -> None:
    with serve(close_after=True) as (url, seen):
        client = EndpointClient(url, None, 5.0)
        for i in range(3):
            assert client.post("/chat/completions", {"n": i}) == b'{"ok": true}'  # no ConnectFailed
            time.sleep(0.05)  # the server's close reaches the idle connection
    assert len(seen["connections"]) == 3


def test_key_and_json_headers_are_sent_and_no_key_means_no_authorization() -> None:
    with serve() as (url, seen):
        EndpointClient(url, "sk-secret", 5.0).post("/embeddings", {"input": ["é"]})
        EndpointClient(url, None, 5.0).post("/embeddings", {"input": ["x"]})
    first, second = seen["headers"]
    assert first["Authorization"] == "Bearer sk-secret" and first["Content-Type"] == "application/json"
    assert "Authorization" not in second


@pytest.mark.parametrize("chunked", [False, True])
def test_a_reply_over_the_cap_is_refused_before_it_is_read_whole(chunked: bool) -> None:
    with serve(reply=b"x" * 50_000, chunked=chunked) as (url, _):
        client = EndpointClient(url, None, 5.0)
        with pytest.raises(TooLarge, match="more than 10,000 bytes" if chunked else "50,000 bytes"):
            client.post("/chat/completions", {}, max_bytes=10_000)
        assert client.post("/chat/completions", {}, max_bytes=60_000) == b"x" * 50_000


def test_a_call_may_shorten_the_timeout_of_a_kept_alive_connection() -> None:
    with serve(delay=0.5) as (url, _):
        client = EndpointClient(url, None, 5.0)
        assert client.post("/chat/completions", {}) == b'{"ok": true}'  # opens the connection
        # The reply comes after 0.5 s: a call that kept the connection's 5 s would get it.
        with pytest.raises(TimedOut, match=r"timed out after 0\.1 s"):
            client.post("/chat/completions", {}, timeout=0.1)
        assert client.post("/chat/completions", {}) == b'{"ok": true}'  # the client's own timeout again


@contextmanager
def trickling(what: str, every: float = 0.2) -> Iterator[str]:
    """A server on 127.0.0.1 that sends its reply's headers, or its body, a byte every ``every`` s."""
    listener = socket.create_server(("127.0.0.1", 0))
    body = b'{"ok": true}' + b" " * 200
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body)

    def answer(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            fast, slow = (b"", head + body) if what == "headers" else (head, body)
            try:
                conn.sendall(fast)
                for byte in slow:
                    conn.sendall(bytes([byte]))
                    time.sleep(every)
            except OSError:
                pass  # the client gave up

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        listener.close()


@pytest.mark.parametrize("what", ["headers", "body"])
def test_a_trickled_reply_times_out_with_the_whole_call(what: str) -> None:
    with trickling(what) as url:
        client = EndpointClient(url, None, 1.0)  # a byte every 0.2 s: no single read waits 1 s
        started = time.monotonic()
        with pytest.raises(TimedOut, match=r"timed out after 1 s"):
            client.post("/chat/completions", {})
    # Not before its timeout; the trickle would take 42 s, so the error itself shows it was cut.
    assert time.monotonic() - started > 0.9


def test_the_check_deadline_bounds_every_call_even_without_a_timeout_of_its_own() -> None:
    # The trickle takes 42 s, within the call's own 60 s: only the deadline can end it with an error.
    with trickling("body") as url:
        client = EndpointClient(url, None, 60.0)
        with deadline(0.8), pytest.raises(TimedOut):
            client.post("/embeddings", {})


def test_an_error_status_carries_the_endpoint_message_and_headers() -> None:
    body = json.dumps({"error": {"message": "model not found"}}).encode()
    with serve(reply=body, status=404) as (url, _), pytest.raises(StatusError) as info:
        EndpointClient(url, None, 5.0).post("/chat/completions", {})
    assert info.value.status == 404 and info.value.message() == "model not found"


def test_an_http_proxy_from_the_environment_gets_the_absolute_url(monkeypatch: pytest.MonkeyPatch) -> None:
    with serve() as (proxy, via_proxy), serve() as (url, direct):
        monkeypatch.setenv("HTTP_PROXY", proxy.removesuffix("/v1"))
        monkeypatch.setenv("NO_PROXY", "")
        EndpointClient(url, None, 5.0).post("/chat/completions", {})
        assert via_proxy["lines"] == [f"POST {url}/chat/completions HTTP/1.1"] and not direct["lines"]
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")
        EndpointClient(url, None, 5.0).post("/chat/completions", {})
        assert direct["lines"] == ["POST /v1/chat/completions HTTP/1.1"] and len(via_proxy["lines"]) == 1


def test_openai_needs_a_key_only_without_a_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(InputError, match="OPENAI_API_KEY"):
        OpenAIChatModel("gpt-4o-mini")
    assert OpenAIChatModel("m", base_url="http://127.0.0.1:9/v1").endpoint == "http://127.0.0.1:9/v1"
    # The endpoint is part of every cache key: spelled as the openai SDK spelled it.
    assert OpenAIChatModel("m", base_url="HTTP://LocalHost:8000/v1/").endpoint == "http://localhost:8000/v1"
    assert OpenAIChatModel("m", api_key="k").endpoint == "https://api.openai.com/v1"


def test_a_failure_message_never_holds_the_key() -> None:
    dead = OpenAIChatModel("m", base_url="http://127.0.0.1:9/v1", api_key="sk-secret",
                           retry=RetryPolicy(1, 0.01, 0.01))
    with pytest.raises(ModelError) as info:
        dead.complete([{"role": "user", "content": "x"}], GenerationParams())
    assert "could not connect" in str(info.value) and "sk-secret" not in str(info.value)


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 that no public root signed, and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def _relay(a: socket.socket, b: socket.socket) -> None:
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        b.close()


@contextmanager
def connect_proxy() -> Iterator[tuple[str, list[str]]]:
    """An HTTP proxy that only tunnels (CONNECT), recording each target."""
    targets: list[str] = []

    class Tunnel(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_CONNECT(self) -> None:
            targets.append(self.path)
            host, port = self.path.rsplit(":", 1)
            upstream = socket.create_connection((host, int(port)))
            self.send_response(200)
            self.end_headers()
            threading.Thread(target=_relay, args=(upstream, self.connection), daemon=True).start()
            _relay(self.connection, upstream)
            self.close_connection = True

    with running(ThreadingHTTPServer(("127.0.0.1", 0), Tunnel)) as port:
        yield f"http://127.0.0.1:{port}", targets


def test_https_trusts_ssl_cert_file_and_refuses_an_unknown_certificate(
        self_signed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with serve(tls=self_signed) as (url, seen):
        with pytest.raises(ConnectFailed, match=r"(?i)certificate verify failed"):
            EndpointClient(url, None, 5.0).post("/chat/completions", {})  # certifi's roots only
        monkeypatch.setenv("SSL_CERT_FILE", str(self_signed[0]))
        assert EndpointClient(url, None, 5.0).post("/chat/completions", {}) == b'{"ok": true}'
    assert seen["lines"] == ["POST /v1/chat/completions HTTP/1.1"]


def test_https_through_a_proxy_goes_through_a_connect_tunnel(self_signed: tuple[Path, Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(self_signed[0]))
    monkeypatch.setenv("NO_PROXY", "")
    with serve(tls=self_signed) as (url, seen), connect_proxy() as (proxy, targets):
        monkeypatch.setenv("HTTPS_PROXY", proxy)
        client = EndpointClient(url, "k", 5.0)
        assert [client.post("/chat/completions", {"n": i}) for i in range(2)] == [b'{"ok": true}'] * 2
    assert targets == [url.removeprefix("https://").removesuffix("/v1")]  # one tunnel, kept alive
    assert seen["lines"] == ["POST /v1/chat/completions HTTP/1.1"] * 2
