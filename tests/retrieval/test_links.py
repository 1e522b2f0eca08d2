"""LinkFetcher against a real threaded HTTP server on 127.0.0.1, and the doc-strategy evidence."""

from __future__ import annotations

import ipaddress
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from factjudge.errors import RetrievalError
from factjudge.retrieval import links
from factjudge.retrieval.evidence import page_cache_dir, reference_evidence
from factjudge.retrieval.links import (
    LinkFetcher,
    address_problem,
    doc_evidence,
    doc_evidence_from_texts,
    html_to_text,
)

FELM = Path("/work/shared/data/felm_all.jsonl")

TOPICS = {
    "volcano": "Mount Etna is an active stratovolcano on the east coast of Sicily. "
    "Its eruptions of lava and ash are monitored by volcanologists in Catania. ",
    "bread": "Sourdough bread rises because wild yeast and lactobacilli ferment the dough. "
    "Bakers feed the starter with flour and water every day. ",
    "chess": "Magnus Carlsen became world chess champion in 2013 by defeating Viswanathan Anand. "
    "He held the title until he declined to defend it in 2023. ",
}
ARTICLE = (
    "<!doctype html><html><head><title>Three Topics | Example</title>"
    "<script>var tracking = 'do not index me';</script><style>p {color: red}</style></head>"
    "<body><nav>Home | About</nav><article><h1>Three topics</h1>"
    + "".join(f"<p>{text * 6}</p>" for text in TOPICS.values())
    + "</article><footer>Copyright</footer></body></html>"
)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean

    def _send(self, status: int, body: bytes, content_type: str | None, **headers: str) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self._send(302, b"", "text/html", Location=location)

    def do_GET(self) -> None:
        self.server.seen.append((self.path, self.headers.get("Host", "")))
        path = self.path
        if path == "/page":
            self._send(200, ARTICLE.encode(), "text/html; charset=utf-8")
        elif path == "/tiny":
            html = "<html><head><title>Tiny</title></head><body><p>Short <b>bold</b> words.</p></body></html>"
            self._send(200, html.encode(), "text/html")
        elif path == "/plain":
            self._send(200, "Plain text, café.".encode(), "text/plain; charset=utf-8")
        elif path == "/latin1":
            self._send(200, "<p>Café crème</p>".encode("latin-1"), "text/html; charset=iso-8859-1")
        elif path == "/untyped":
            self._send(200, b"<html><body><p>No content type here.</p></body></html>", None)
        elif path.startswith("/hop/"):
            left = int(path.rsplit("/", 1)[1])
            self._redirect(f"/hop/{left - 1}" if left > 1 else "../page")  # the last hop is relative
        elif path == "/missing":
            self._send(404, b"<p>nothing here</p>", "text/html")
        elif path == "/broken":
            self._send(503, b"down", "text/plain")
        elif path == "/slow":
            time.sleep(1.5)
            self._send(200, b"<p>late</p>", "text/html")
        elif path == "/drip":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            for _ in range(30):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.1)
        elif path == "/drip-headers":
            # One header line every 0.2 s: each read is quick, the whole response is not.
            self.send_response(200)
            for i in range(30):
                self.send_header(f"X-Slow-{i}", "x")
                self.flush_headers()
                time.sleep(0.2)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "8")
            self.end_headers()
            self.wfile.write(b"too late")
        elif path == "/huge":
            self._send(200, b"<p>" + b"a" * 2_000_000 + b"</p>", "text/html")
        elif path == "/huge-stream":
            # No Content-Length: the body runs until the connection closes, so only counting stops it.
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(40):
                self.wfile.write(b"b" * 50_000)
        elif path == "/pdf":
            self._send(200, b"%PDF-1.7 binary", "application/pdf")
        elif path == "/to-private":
            self._redirect("http://192.168.1.1/admin")
        elif path == "/to-file":
            self._redirect("file:///etc/passwd")
        else:
            self._send(404, b"", "text/plain")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    seen: list[tuple[str, str]]

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that give up early (caps, timeouts) break the pipe on purpose


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.seen = []
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def base(server: _Server) -> str:
    server.seen.clear()
    return f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every address any socket in this process connects to during the test."""
    seen: list[Any] = []
    real = socket.socket.connect

    def spy(self: socket.socket, address: Any) -> None:
        seen.append(address)
        real(self, address)

    monkeypatch.setattr(socket.socket, "connect", spy)
    return seen


def fetcher(**kwargs: Any) -> LinkFetcher:
    kwargs.setdefault("allow_loopback", True)
    kwargs.setdefault("timeout", 5.0)
    return LinkFetcher(**kwargs)


def test_html_page_is_text_with_title(base: str) -> None:
    page = fetcher().fetch(f"{base}/page")
    assert (page.status, page.content_type, page.title) == (200, "text/html", "Three Topics | Example")
    assert page.final_url == page.url == f"{base}/page"
    assert "Mount Etna" in page.text and "Magnus Carlsen" in page.text
    assert "do not index me" not in page.text and "color: red" not in page.text


def test_fallback_stripper_when_trafilatura_finds_nothing(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "_trafilatura_text", lambda html, url: None)
    page = fetcher().fetch(f"{base}/page")
    assert "Sourdough bread" in page.text and "Home | About" in page.text
    assert "do not index me" not in page.text and "Three Topics" not in page.text
    assert page.title == "Three Topics | Example"
    assert fetcher().fetch(f"{base}/tiny").text == "Short bold words."


def test_plain_text_charsets_and_missing_content_type(base: str) -> None:
    plain = fetcher().fetch(f"{base}/plain")
    assert (plain.text, plain.title, plain.content_type) == ("Plain text, café.", None, "text/plain")
    assert fetcher().fetch(f"{base}/latin1").text == "Café crème"
    untyped = fetcher().fetch(f"{base}/untyped")
    assert (untyped.content_type, untyped.text) == ("text/html", "No content type here.")


def test_redirects_are_followed_hop_by_hop(base: str, server: _Server) -> None:
    page = fetcher(max_redirects=3).fetch(f"{base}/hop/3")
    assert page.final_url == f"{base}/page" and page.url == f"{base}/hop/3"
    assert [path for path, _ in server.seen] == ["/hop/3", "/hop/2", "/hop/1", "/page"]


def test_redirect_chain_longer_than_the_limit(base: str, server: _Server) -> None:
    with pytest.raises(RetrievalError, match=r"too many redirects \(more than 2\)"):
        fetcher(max_redirects=2).fetch(f"{base}/hop/5")
    assert len(server.seen) == 3


@pytest.mark.parametrize(("path", "status"), [("/missing", "HTTP 404 Not Found"), ("/broken", "HTTP 503")])
def test_error_status(base: str, path: str, status: str) -> None:
    with pytest.raises(RetrievalError, match=status):
        fetcher().fetch(base + path)


def test_timeout_when_server_sleeps(base: str) -> None:
    # The page comes after 1.5 s: a fetch that waited for it would have it, not this error.
    with pytest.raises(RetrievalError, match=r"^timed out after 0\.3 s$"):
        fetcher(timeout=0.3).fetch(f"{base}/slow")


def test_timeout_covers_a_dripping_body(base: str) -> None:
    # Each byte arrives within the per-read timeout; only the overall deadline stops it.
    with pytest.raises(RetrievalError, match=r"^timed out after 0\.5 s$"):
        fetcher(timeout=0.5).fetch(f"{base}/drip")


def test_timeout_covers_slow_response_headers(base: str) -> None:
    # The server takes 6 s to finish its headers, each line within the per-read timeout: only the
    # whole fetch's deadline can end it with this error.
    with pytest.raises(RetrievalError, match=r"^timed out after 0\.5 s$"):
        fetcher(timeout=0.5).fetch(f"{base}/drip-headers")


@pytest.mark.parametrize("path", ["/huge", "/huge-stream"])
def test_body_over_the_cap(base: str, path: str) -> None:
    with pytest.raises(RetrievalError, match="page larger than 100000 bytes"):
        fetcher(max_bytes=100_000).fetch(base + path)


def test_pdf_is_not_a_text_page(base: str) -> None:
    with pytest.raises(RetrievalError, match=r"^not a text page: application/pdf$"):
        fetcher().fetch(f"{base}/pdf")


def test_private_ip_literal_refused_before_connecting(connects: list[Any]) -> None:
    with pytest.raises(RetrievalError, match=r"refused private address 10\.0\.0\.1"):
        fetcher(timeout=30).fetch("http://10.0.0.1/")
    assert connects == []


def test_redirect_to_private_address_refused_before_connecting(base: str, connects: list[Any]) -> None:
    with pytest.raises(RetrievalError, match=r"refused private address 192\.168\.1\.1"):
        fetcher(timeout=30).fetch(f"{base}/to-private")
    assert connects and all(address[0] == "127.0.0.1" for address in connects)


def test_loopback_needs_its_own_permission(base: str, server: _Server, connects: list[Any]) -> None:
    with pytest.raises(RetrievalError, match=r"refused loopback address 127\.0\.0\.1"):
        LinkFetcher(allow_private=True).fetch(f"{base}/page")
    with pytest.raises(RetrievalError, match=r"refused loopback address ::1"):
        LinkFetcher().fetch("http://[::1]:9/")
    assert connects == [] and server.seen == []


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.org/file.txt", "gopher://127.0.0.1/", "javascript:alert(1)"]
)
def test_other_schemes_refused(url: str, connects: list[Any]) -> None:
    with pytest.raises(RetrievalError, match="refused scheme"):
        fetcher().fetch(url)
    assert connects == []


def test_redirect_to_file_scheme_refused(base: str) -> None:
    with pytest.raises(RetrievalError, match="refused scheme 'file'"):
        fetcher().fetch(f"{base}/to-file")


def test_every_resolved_address_is_checked(monkeypatch: pytest.MonkeyPatch, connects: list[Any]) -> None:
    def fake_getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        assert host == "mixed.example"
        public = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))
        private = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port))
        return [public, private]

    monkeypatch.setattr(links.socket, "getaddrinfo", fake_getaddrinfo)
    with pytest.raises(RetrievalError, match=r"refused private address mixed.example \(10.1.2.3\)"):
        fetcher().fetch("http://mixed.example/")
    assert connects == []


def test_connection_goes_to_the_checked_address(
    base: str, server: _Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The name is resolved once, checked, and then dialled by address with the name as Host.
    port = server.server_address[1]
    monkeypatch.setattr(
        links.socket,
        "getaddrinfo",
        lambda host, *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))],
    )
    page = fetcher().fetch(f"http://pinned.test:{port}/plain")
    assert page.final_url == f"http://pinned.test:{port}/plain"
    assert server.seen == [("/plain", f"pinned.test:{port}")]


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.1.1", "private"),
        ("100.64.0.1", "private"),
        ("fd00::1", "private"),
        ("::ffff:10.0.0.1", "private"),
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("240.0.0.1", "reserved"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
    ],
)
def test_address_problem(address: str, problem: str | None) -> None:
    assert address_problem(ipaddress.ip_address(address)) == problem


def test_allow_flags_are_separate() -> None:
    private, loopback = ipaddress.ip_address("10.0.0.1"), ipaddress.ip_address("127.0.0.1")
    assert address_problem(private, allow_loopback=True) == "private"
    assert address_problem(loopback, allow_private=True) == "loopback"
    assert address_problem(private, allow_private=True) is None
    assert address_problem(loopback, allow_loopback=True) is None
    # Cloud metadata stays out of reach even on a trusted network.
    assert address_problem(ipaddress.ip_address("169.254.169.254"), allow_private=True) == "link-local"


def test_cache_means_no_second_request(base: str, server: _Server, tmp_path: Path) -> None:
    first = fetcher(cache_dir=tmp_path).fetch(f"{base}/page")
    assert len(server.seen) == 1
    again = fetcher(cache_dir=tmp_path).fetch(f"{base}/page")
    assert again == first and len(server.seen) == 1
    [entry] = tmp_path.glob("*.json")
    assert json.loads(entry.read_text(encoding="utf-8"))["url"] == f"{base}/page"


def test_reference_pages_are_kept_beside_the_call_cache(
    base: str, server: _Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    monkeypatch.delenv("FACTJUDGE_PAGES", raising=False)
    assert page_cache_dir() == tmp_path / "pages"
    assert page_cache_dir(tmp_path / "elsewhere" / "c.sqlite") == tmp_path / "elsewhere" / "pages"
    fetcher(cache_dir=page_cache_dir()).fetch(f"{base}/page")  # as an earlier check left it
    # The check's own fetcher refuses loopback: only the cache can answer.
    found, failures = reference_evidence("Mount Etna volcano", [f"{base}/page"])
    assert failures == [] and "Etna" in found[0].text and len(server.seen) == 1
    _, failures = reference_evidence("Mount Etna volcano", [f"{base}/page"], cache_dir=False)
    assert "refused loopback" in failures[0]
    monkeypatch.setenv("FACTJUDGE_PAGES", str(tmp_path / "mine"))
    assert page_cache_dir() == tmp_path / "mine"


def test_failures_are_not_cached_and_damaged_entries_are_refetched(
    base: str, server: _Server, tmp_path: Path
) -> None:
    with pytest.raises(RetrievalError):
        fetcher(cache_dir=tmp_path).fetch(f"{base}/missing")
    assert list(tmp_path.glob("*.json")) == []
    fetcher(cache_dir=tmp_path).fetch(f"{base}/plain")
    [entry] = tmp_path.glob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert fetcher(cache_dir=tmp_path).fetch(f"{base}/plain").text == "Plain text, café."
    assert [path for path, _ in server.seen] == ["/missing", "/plain", "/plain"]


def test_other_accepted_types_are_kept_as_sent_paced_and_forgotten(
    base: str, server: _Server, tmp_path: Path
) -> None:
    paced: list[float] = []
    pdfs = fetcher(cache_dir=tmp_path, content_types=frozenset({"application/pdf"}),
                   pace=lambda: paced.append(time.monotonic()))
    assert pdfs.fetch(f"{base}/pdf").text == "%PDF-1.7 binary"  # not run through the HTML reader
    pdfs.fetch(f"{base}/pdf")
    assert len(paced) == len(server.seen) == 1  # the cache's answer waits for no slot
    pdfs.forget(f"{base}/pdf")
    pdfs.fetch(f"{base}/pdf")
    assert len(paced) == len(server.seen) == 2
    with pytest.raises(RetrievalError, match="not a text page: text/html"):
        pdfs.fetch(f"{base}/page")


def test_doc_evidence_picks_the_relevant_chunk_and_reports_failures(base: str) -> None:
    urls = [f"{base}/page", f"{base}/missing", "file:///etc/passwd", f"{base}/pdf"]
    evidence, failures = doc_evidence("When did Carlsen become chess champion?", urls, fetcher(), 64)
    assert len(evidence) == 1
    [found] = evidence
    assert (found.source, found.url, found.title) == ("link", urls[0], "Three Topics | Example")
    assert "Carlsen" in found.text and "Etna" not in found.text
    assert failures == [
        f"{base}/missing: HTTP 404 Not Found",
        "file:///etc/passwd: refused scheme 'file': only http and https",
        f"{base}/pdf: not a text page: application/pdf",
    ]


def test_doc_evidence_from_texts_skips_empty_and_maps_blank_url() -> None:
    texts = ["".join(TOPICS.values()) * 20, "", "Sourdough needs a starter."]
    evidence = doc_evidence_from_texts("sourdough starter yeast", texts, ["https://a.example/", "x", ""], 48)
    assert [e.url for e in evidence] == ["https://a.example/", None]
    assert all(e.source == "link" and "Sourdough" in e.text for e in evidence)


def test_html_to_text_keeps_block_breaks() -> None:
    text, title = html_to_text("<title> A  title </title><ul><li>one</li><li>two</li></ul>")
    assert title == "A title" and "one" in text and "two" in text


@pytest.mark.skipif(not FELM.is_file(), reason="FELM data not present")
def test_doc_evidence_from_texts_on_a_felm_row() -> None:
    from factjudge.llm.tokens import get_encoding
    from factjudge.retrieval.chunker import chunk

    # split("\n"), not splitlines(): the scraped texts contain U+2028 and other line breaks.
    lines = FELM.read_text(encoding="utf-8").split("\n")
    row = next(r for r in map(json.loads, filter(str.strip, lines)) if r["index"] == "701")
    assert row["prompt"].startswith("Named for a spring, this city in California")
    texts, urls = list(row["ref_contents"]), list(row["ref"])

    [found] = doc_evidence_from_texts(row["prompt"], texts, urls)
    chunks = chunk(texts[0], 512)
    assert len(chunks) == 3
    # The first chunk is 2010 census counts; the one naming the Hispanic population wins.
    assert found.text == chunks[1] and "Hispanic" in found.text
    assert found.url == "https://en.wikipedia.org/wiki/Los_Banos,_California"
    assert len(get_encoding().encode_ordinary(found.text)) <= 512
