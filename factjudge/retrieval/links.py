"""Fetch the pages a reference list points to, safely, and pick each page's most relevant chunk.

``LinkFetcher`` refuses non-http(s) URLs and hosts that resolve to private, loopback,
link-local, multicast, reserved or unspecified addresses. Every address a name resolves
to is checked before any connection, on every redirect hop, and the connection is then
made to the checked address (so a second DNS answer cannot swap in an internal one).
One deadline bounds the whole fetch, every redirect, header line and body byte of it
(httpx's own timeout is per socket operation, so a server sending one header line a
second kept a 10 s fetch busy for minutes): the fetch's timeout, cut to what is left of
the check's deadline (``llm.deadline``), so slow servers cannot stretch a check past it.
Bodies are streamed under a byte cap; HTML becomes text with trafilatura, or a plain tag
stripper when trafilatura is missing or finds nothing. Successful fetches are kept as JSON
files under ``cache_dir`` so a rerun sends no request.
"""

from __future__ import annotations

import dataclasses
import hashlib
import ipaddress
import json
import os
import re
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypeAlias

import httpcore
import httpx

from factjudge.errors import FactJudgeError, RetrievalError
from factjudge.llm.deadline import DeadlinePassed, past_deadline, remaining
from factjudge.records import Evidence
from factjudge.retrieval.bm25 import best_chunk

DEFAULT_USER_AGENT = "factjudge/0.1 (fact-checking reference fetcher)"
TEXT_TYPES = frozenset({"text/html", "text/plain", "application/xhtml+xml"})
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class FetchedPage:
    """A fetched reference: where it ended up, what it was, and its readable text."""

    url: str
    final_url: str
    status: int
    content_type: str
    text: str
    title: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FetchedPage:
        """Rebuild from ``to_dict`` output."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


class AddressRefused(RetrievalError):
    """A fetch refused for where it leads: ``problem`` is "loopback", "private", "link-local" …"""

    def __init__(self, message: str, problem: str) -> None:
        super().__init__(message)
        self.problem = problem


def address_problem(
    ip: _IPAddress, *, allow_private: bool = False, allow_loopback: bool = False
) -> str | None:
    """Why connecting to ``ip`` is refused ("private", "loopback"…), or None if it is allowed.

    Link-local (cloud metadata at 169.254.169.254), multicast, reserved and unspecified
    addresses are refused even with ``allow_private``: nothing fetchable lives there.
    """
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:10.0.0.1 is 10.0.0.1 to the kernel
    if ip.is_loopback:
        return None if allow_loopback else "loopback"
    for name, flag in (
        ("unspecified", ip.is_unspecified),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return name
    # Not global covers RFC 1918, unique-local, shared (CGNAT) and documentation ranges.
    if not ip.is_global:
        return None if allow_private else "private"
    return None


class _PageParser(HTMLParser):
    """Collects the <title> and the visible text of an HTML page (the fallback extractor)."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "object"})
    _BLOCK = frozenset(
        """p div br li tr td th table h1 h2 h3 h4 h5 h6 section article header footer nav aside
        blockquote pre dd dt figcaption main form hr title""".split()  # noqa: SIM905
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self._parts: list[str] = []
        self._title_parts: list[str] | None = None
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and self.title is None:
            self._title_parts = []
        elif tag in self._SKIP:
            self._skipping += 1
        if tag in self._BLOCK:
            self._parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._title_parts is not None:
            self.title = " ".join("".join(self._title_parts).split()) or None
            self._title_parts = None
        elif tag in self._SKIP and self._skipping:
            self._skipping -= 1
        if tag in self._BLOCK:
            self._parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._title_parts is not None:
            self._title_parts.append(data)
        elif not self._skipping:
            self._parts.append(data)

    def text(self) -> str:
        """Visible text, one block per line, whitespace collapsed."""
        lines = (" ".join(line.split()) for line in "".join(self._parts).splitlines())
        return "\n".join(line for line in lines if line)


def _trafilatura_text(html: str, url: str) -> str | None:
    """Main text by trafilatura, or None when it is not installed or extracts nothing."""
    try:
        import trafilatura
    except ImportError:
        return None
    text = trafilatura.extract(html, url=url, include_comments=False, include_tables=True, favor_recall=True)
    return text or None


def html_to_text(html: str, url: str = "") -> tuple[str, str | None]:
    """Readable text and title of an HTML page."""
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    text = _trafilatura_text(html, url)
    return (text if text is not None else parser.text()), parser.title


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)


def _decode(body: bytes, charset: str | None) -> str:
    """Body text in the declared charset, else a <meta> charset, else UTF-8 (bad bytes replaced)."""
    if not charset:
        found = _META_CHARSET.search(body[:4096])
        charset = found.group(1).decode("ascii") if found else "utf-8"
    try:
        return body.decode(charset, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


def _time_left(deadline: float, timeout: float | None, error: type[Exception]) -> float:
    """The timeout for one socket operation: httpx's own, cut to what is left before ``deadline``."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the fetch's deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read, write and TLS handshake ends by one deadline."""

    def __init__(self, stream: httpcore.NetworkStream, deadline: float) -> None:
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        """Read under the deadline."""
        return self._stream.read(max_bytes, _time_left(self._deadline, timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        """Write under the deadline."""
        self._stream.write(buffer, _time_left(self._deadline, timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        """Close the socket."""
        self._stream.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        """The TLS stream, under the same deadline."""
        timeout = _time_left(self._deadline, timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, timeout), self._deadline)

    def get_extra_info(self, info: str) -> Any:
        """What the underlying stream says."""
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's socket backend with every connection bound by one deadline."""

    def __init__(self, deadline: float) -> None:
        self._sockets = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options: Any = None) -> httpcore.NetworkStream:
        """Connect under the deadline."""
        timeout = _time_left(self._deadline, timeout, httpcore.ConnectTimeout)
        stream = self._sockets.connect_tcp(host, port, timeout, local_address, socket_options)
        return _DeadlineStream(stream, self._deadline)


class _DeadlineTransport(httpx.HTTPTransport):
    """httpx's transport over a connection pool whose sockets all end by ``deadline``."""

    def __init__(self, deadline: float) -> None:
        super().__init__(trust_env=False)
        # httpx takes no network backend, so its pool (unused yet) is swapped for one with ours.
        self._pool = httpcore.ConnectionPool(ssl_context=httpx.create_ssl_context(trust_env=False),
                                             network_backend=_DeadlineBackend(deadline))


class LinkFetcher:
    """Fetches web pages as text, refusing internal addresses, huge bodies and non-text types."""

    def __init__(
        self,
        cache_dir: Path | None = None,
        timeout: float = 10.0,
        max_bytes: int = 5_000_000,
        max_redirects: int = 5,
        allow_private: bool = False,
        allow_loopback: bool = False,
        user_agent: str = DEFAULT_USER_AGENT,
        content_types: frozenset[str] = TEXT_TYPES,
        pace: Callable[[], None] | None = None,
    ) -> None:
        """Configure limits; ``allow_loopback`` is separate so tests on 127.0.0.1 still refuse 10.x.

        ``content_types`` are the types accepted (HTML among them becomes text, the others are
        kept as sent, e.g. an API's JSON); ``pace`` is called before every fetch that goes out
        (a rate limiter's ``wait``), never for a page served from the cache.
        """
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.max_redirects = max_redirects
        self.allow_private = allow_private
        self.allow_loopback = allow_loopback
        self.user_agent = user_agent
        self.content_types = content_types
        self.pace = pace

    def fetch(self, url: str) -> FetchedPage:
        """The page at ``url`` as text, from the cache when present; RetrievalError on any failure."""
        url = url.strip()
        cached = self._read_cache(url)
        if cached is not None:
            return cached
        if self.pace is not None:
            self.pace()  # before the fetch's deadline starts: a wait in line is not the server's time
        seconds, cut = self.timeout, False
        left = remaining()
        if left is not None and left < seconds:
            seconds, cut = left, True
        if seconds <= 0:
            raise past_deadline(f"no time was left to fetch {_without_query(url)}")
        try:
            page = self._fetch(url, seconds)
        except httpx.TimeoutException as exc:
            if cut:  # the check's time ran out, not this server's
                raise past_deadline(f"fetching {_without_query(url)}") from exc
            raise RetrievalError(f"timed out after {self.timeout:g} s") from exc
        except httpx.HTTPError as exc:
            raise RetrievalError(f"request failed: {type(exc).__name__}: {exc}") from exc
        self._write_cache(url, page)
        return page

    def forget(self, url: str) -> None:
        """Drop the cached page of ``url``, e.g. an API's error reply that came with status 200."""
        path = self._cache_path(url.strip())
        if path is not None:
            path.unlink(missing_ok=True)

    def _fetch(self, url: str, seconds: float) -> FetchedPage:
        current = self._parse(url)
        with httpx.Client(
            transport=_DeadlineTransport(time.monotonic() + seconds),
            timeout=seconds,
            follow_redirects=False,  # each hop must pass the address check
            trust_env=False,  # a proxy would resolve names itself, past the check
            headers={"User-Agent": self.user_agent},
        ) as client:
            for _ in range(self.max_redirects + 1):
                with _open_checked(self, client, current, 0) as response:
                    location = response.headers.get("location")
                    if response.status_code in _REDIRECTS and location:
                        current = self._parse(str(current.join(location)))
                        continue
                    return self._read_page(url, current, response)
        raise RetrievalError(f"too many redirects (more than {self.max_redirects})")

    def _parse(self, url: str) -> httpx.URL:
        """A URL we are willing to request: http(s) with a host."""
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise RetrievalError(f"invalid URL: {exc}") from exc
        if parsed.scheme not in ("http", "https"):
            raise RetrievalError(f"refused scheme {parsed.scheme or '(none)'!r}: only http and https")
        if not parsed.host:
            raise RetrievalError("invalid URL: no host")
        return parsed

    def resolve(self, url: httpx.URL) -> list[_IPAddress]:
        """Every address of the URL's host, after checking that all of them are allowed."""
        host = url.raw_host.decode("ascii")
        try:
            addresses = [ipaddress.ip_address(host)]
        except ValueError:
            try:
                port = url.port or (443 if url.scheme == "https" else 80)
                infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            except (socket.gaierror, UnicodeError) as exc:
                raise RetrievalError(f"cannot resolve {host}: {exc}") from exc
            addresses = list(
                dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos)
            )
        for address in addresses:
            problem = address_problem(
                address, allow_private=self.allow_private, allow_loopback=self.allow_loopback
            )
            if problem:
                shown = host if str(address) == host else f"{host} ({address})"
                raise AddressRefused(f"refused {problem} address {shown}", problem)
        if not addresses:
            raise RetrievalError(f"cannot resolve {host}: no address")
        return addresses

    def _read_page(self, url: str, final: httpx.URL, response: httpx.Response) -> FetchedPage:
        """Check status and type, read the body under the caps, and turn it into text."""
        status = response.status_code
        if status >= 300:  # a redirect without Location ends here too
            raise RetrievalError(f"HTTP {status} {response.reason_phrase}".strip())
        content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type and content_type not in self.content_types:
            raise RetrievalError(f"not a text page: {content_type}")
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise RetrievalError(f"page larger than {self.max_bytes} bytes ({declared} declared)")
        body = bytearray()
        for piece in response.iter_bytes():
            body.extend(piece)
            if len(body) > self.max_bytes:
                raise RetrievalError(f"page larger than {self.max_bytes} bytes")
        text = _decode(bytes(body), response.charset_encoding)
        if not content_type:
            looks_html = re.search(r"<(!doctype html|html|body|p)\b", text[:2048], re.IGNORECASE)
            content_type = "text/html" if looks_html else "text/plain"
        title = None
        if content_type in HTML_TYPES:
            text, title = html_to_text(text, str(final))
        return FetchedPage(url, str(final), status, content_type, text.strip(), title)

    def _cache_path(self, url: str) -> Path | None:
        if self.cache_dir is None:
            return None
        return self.cache_dir / f"{hashlib.sha256(url.encode('utf-8')).hexdigest()}.json"

    def _read_cache(self, url: str) -> FetchedPage | None:
        path = self._cache_path(url)
        if path is None or not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return FetchedPage.from_dict(data) if data.get("url") == url else None
        except (OSError, ValueError, TypeError):
            return None  # a damaged entry is refetched and overwritten

    def _write_cache(self, url: str, page: FetchedPage) -> None:
        path = self._cache_path(url)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(page.to_dict(), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)  # readers never see half a file


def _without_query(url: str) -> str:
    """``url`` up to its path: an API's query holds the user's text, too long for a one-line error."""
    return url.split("?", 1)[0].split("#", 1)[0]


def _one_line(message: str) -> str:
    return " ".join(message.split())


def doc_evidence(
    query: str, urls: list[str], fetcher: LinkFetcher, max_tokens: int = 512
) -> tuple[list[Evidence], list[str]]:
    """Per URL the page's best BM25 chunk as Evidence, and a "URL: reason" line per URL that failed."""
    evidence: list[Evidence] = []
    failures: list[str] = []
    for url in urls:
        try:
            page = fetcher.fetch(url)
        except DeadlinePassed:
            raise  # the check is over: the other references would fail at once, and say less
        except FactJudgeError as exc:
            failures.append(_one_line(f"{url}: {exc}"))
            continue
        text = best_chunk(query, page.text, max_tokens)
        if not text:
            failures.append(_one_line(f"{url}: no text on the page"))
            continue
        evidence.append(Evidence(source="link", url=url, title=page.title, text=text))
    return evidence, failures


def doc_evidence_from_texts(
    query: str, texts: list[str], urls: list[str], max_tokens: int = 512
) -> list[Evidence]:
    """The same chunk choice over page texts already at hand; empty texts are skipped."""
    evidence: list[Evidence] = []
    for i, page_text in enumerate(texts):
        text = best_chunk(query, page_text or "", max_tokens)
        if text:
            url = urls[i] if i < len(urls) else ""
            evidence.append(Evidence(source="link", url=url or None, text=text))
    return evidence


@dataclass(frozen=True)
class Downloaded:
    """What ``download`` wrote: where the bytes came from, how many, and the file's whole size."""

    final_url: str
    written: int  # bytes written by this call
    total: int  # the whole file's size, as the server declared it
    resumed: bool  # the server sent the rest from ``offset`` (HTTP 206), not the whole file again


def download(
    url: str,
    out: Any,
    fetcher: LinkFetcher,
    *,
    offset: int = 0,
    deadline: float | None = None,
    max_bytes: int | None = None,
    before_body: Callable[[int, int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    sized: bool = True,
) -> Downloaded:
    """Stream the file at ``url`` into ``out`` (a binary file object), from byte ``offset`` on.

    Every byte passes ``fetcher``'s guards: http(s) only, every address of every redirect hop
    checked before connecting and the connection made to the checked address, its User-Agent,
    and one deadline (``deadline`` seconds for the whole download, ``fetcher.timeout`` for each
    socket operation, so a stalled server fails and a slow one does not) instead of its per-page
    one. ``max_bytes`` caps the whole file (``fetcher.max_bytes`` when None). With an ``offset``
    the rest is asked for (HTTP Range); a server that sends the whole file instead is written from
    the start (``out`` truncated), and one that has fewer bytes than ``offset`` (HTTP 416: what was
    kept is not the start of this file) is fetched again from the start. ``sized=False`` accepts a
    body of undeclared length (chunked, as autoindex servers send listings), within ``max_bytes``.
    ``before_body(offset, total)`` is called once the size is known
    and before the first byte is written (to refuse a file the disk cannot hold); ``progress`` gets
    each piece's length. RetrievalError in one line on every failure.
    """
    cap = fetcher.max_bytes if max_bytes is None else max_bytes
    ends = time.monotonic() + (deadline if deadline is not None else fetcher.timeout)
    try:
        with httpx.Client(transport=_DeadlineTransport(ends), timeout=fetcher.timeout,
                          follow_redirects=False, trust_env=False,
                          headers={"User-Agent": fetcher.user_agent}) as client:
            try:
                return _follow(client, fetcher, url, out, offset, cap, sized, before_body, progress)
            except _StartOver:  # what was kept is longer than the file: it is some other file's
                out.seek(0)
                out.truncate()
                return _follow(client, fetcher, url, out, 0, cap, sized, before_body, progress)
    except httpx.TimeoutException as exc:
        raise RetrievalError(f"{url}: timed out (no byte for {fetcher.timeout:g} s, or past the "
                             "download's deadline)") from exc
    except httpx.HTTPError as exc:
        raise RetrievalError(f"{url}: the download broke off: {type(exc).__name__}: {_one_line(str(exc))}") \
            from exc


class _StartOver(Exception):
    """The server has fewer bytes than were kept (HTTP 416): the download starts again from byte 0."""


def _follow(client: httpx.Client, fetcher: LinkFetcher, url: str, out: Any, offset: int, cap: int,
            sized: bool, before_body: Callable[[int, int], None] | None,
            progress: Callable[[int], None] | None) -> Downloaded:
    """GET ``url`` through its redirects, each hop checked, and write the body."""
    current = fetcher._parse(url.strip())
    for _ in range(fetcher.max_redirects + 1):
        if fetcher.pace is not None:
            fetcher.pace()
        with _open_checked(fetcher, client, current, offset) as response:
            location = response.headers.get("location")
            if response.status_code in _REDIRECTS and location:
                current = fetcher._parse(str(current.join(location)))
                continue
            return _write_body(response, current, out, offset, cap, sized, before_body, progress)
    raise RetrievalError(f"{url}: too many redirects (more than {fetcher.max_redirects})")


@contextmanager
def _open_checked(fetcher: LinkFetcher, client: httpx.Client, url: httpx.URL,
                  offset: int) -> Iterator[httpx.Response]:
    """GET ``url`` at its first reachable checked address, asking for the bytes from ``offset`` on."""
    addresses = fetcher.resolve(url)
    extensions = {"sni_hostname": url.raw_host.decode("ascii")} if url.scheme == "https" else {}
    headers = {"Host": url.netloc.decode("ascii")}
    if offset:
        headers["Range"] = f"bytes={offset}-"
    last: Exception | None = None
    for address in addresses:
        request = client.build_request("GET", url.copy_with(host=str(address)), headers=headers,
                                       extensions=extensions)
        try:
            response = client.send(request, stream=True)
        except httpx.ConnectError as exc:
            last = exc
            continue
        try:
            yield response
        finally:
            response.close()
        return
    raise RetrievalError(f"cannot connect to {url.host}: {last}")


_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


def _write_body(response: httpx.Response, url: httpx.URL, out: Any, offset: int, cap: int, sized: bool,
                before_body: Callable[[int, int], None] | None,
                progress: Callable[[int], None] | None) -> Downloaded:
    """Check the reply's status and size, then stream its body into ``out``."""
    status = response.status_code
    declared = response.headers.get("content-length", "")
    if status == 416 and offset:  # nothing left from offset: the file may be whole already
        found = re.fullmatch(r"bytes \*/(\d+)", response.headers.get("content-range", ""))
        if found and int(found.group(1)) == offset:
            return Downloaded(str(url), 0, offset, True)
        raise _StartOver  # fewer bytes than kept (or it will not say): what was kept is no part of this file
    if status == 206 and offset:
        found = _CONTENT_RANGE.fullmatch(response.headers.get("content-range", ""))
        if not found or int(found.group(1)) != offset or found.group(3) == "*":
            raise RetrievalError(f"{url}: the server sent another part than asked for "
                                 f"({response.headers.get('content-range') or 'no Content-Range'})")
        start, total = offset, int(found.group(3))
    elif status == 200:
        if not declared.isdigit() and sized:
            raise RetrievalError(f"{url}: the server did not say how large the file is (no Content-Length)")
        start, total = 0, int(declared) if declared.isdigit() else -1
        out.seek(0)
        out.truncate()  # the whole file again: a server without Range support starts over
    else:
        raise RetrievalError(f"{url}: HTTP {status} {response.reason_phrase}".strip())
    if total > cap:
        raise RetrievalError(f"{url}: the file has {total:,} bytes, more than the {cap:,} allowed")
    if before_body is not None and total >= 0:
        before_body(start, total)
    written = 0
    for piece in response.iter_bytes():
        written += len(piece)
        if total < 0 and written > cap:  # no declared size: the cap is counted as it comes
            raise RetrievalError(f"{url}: the file has more than the {cap:,} bytes allowed")
        if start + written > total >= 0:
            raise RetrievalError(f"{url}: the server sent more than the {total:,} bytes it declared")
        out.write(piece)
        if progress is not None:
            progress(len(piece))
    if total < 0:
        return Downloaded(str(url), written, written, False)
    if start + written != total:
        raise RetrievalError(f"{url}: the download broke off at {start + written:,} of {total:,} bytes")
    return Downloaded(str(url), written, total, start == offset and offset > 0)
