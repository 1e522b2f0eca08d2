"""The search interface (``SearchHit``, ``SearchProvider``) and ``HttpSearchProvider``, its retrying base.

A search shares the check's deadline (``llm.deadline``): each request gets only the time left
(its connect, write, header and body reads, and the body as a whole), a back-off or rate-limit
wait that would end past the deadline is not begun, and what the deadline cut short is the
deadline error, not the provider's.
"""

from __future__ import annotations

import html
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from factjudge.errors import InputError, RetrievalError
from factjudge.llm.deadline import StopAtDeadline, past_deadline, remaining
from factjudge.retrieval.web_search.rate_limit import RateLimiter, Sleep, parse_retry_after, shared_limiter

if TYPE_CHECKING:
    import httpx  # imported where a search is made: a check that searches nothing never loads it


@dataclass(frozen=True)
class SearchHit:
    """One organic search result."""

    title: str
    url: str
    snippet: str


class SearchProvider(Protocol):
    """Anything that turns a query into at most ``k`` hits, best first."""

    @property
    def name(self) -> str:
        """Short provider name, used in error messages."""
        ...

    def search(self, query: str, k: int) -> list[SearchHit]:
        """Return up to ``k`` hits for ``query``."""
        ...


_TRANSFER_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


class _Transient(Exception):
    """A failure worth retrying; ``retry_after`` is the server's own wait, when it gave one."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def _clean(text: Any) -> str:
    """Plain one-line text: Brave and others mark matches up with ``<strong>`` and entities."""
    if not isinstance(text, str):
        return ""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _error_message(response: httpx.Response) -> str:
    """The provider's own error text, wherever its JSON puts it, else the body's start."""
    try:
        data = response.json()
    except ValueError:
        return _one_line(response.text)
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict):
            for key in ("message", "detail", "code"):
                if isinstance(error.get(key), str):
                    return _one_line(error[key])
        for key in ("message", "detail", "error"):
            if isinstance(data.get(key), str):
                return _one_line(data[key])
    return _one_line(response.text)


class HttpSearchProvider:
    """Shared machinery: rate limit, retries, status and JSON checks. Subclasses build and read."""

    name: ClassVar[str]
    key_env: ClassVar[str] = ""
    default_rate: ClassVar[float] = 1.0
    max_k: ClassVar[int] = 10

    def __init__(
        self,
        endpoint: str,
        *,
        timeout: float = 10.0,
        max_attempts: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_retry_after: float = 60.0,
        rate: float | None = None,
        limiter: RateLimiter | None = None,
        extra_params: dict[str, Any] | None = None,
        client: httpx.Client | None = None,
        sleep: Sleep = time.sleep,
    ) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self.max_attempts = max_attempts
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.extra_params = dict(extra_params or {})
        if limiter is None:
            limiter = (RateLimiter(rate) if rate is not None
                       else shared_limiter(self.name, endpoint, self.default_rate))
        self.limiter = limiter
        import httpx

        self._client = client or httpx.Client(timeout=httpx.Timeout(timeout))
        self._sleep = sleep

    def _request(self, query: str, k: int) -> httpx.Request:
        raise NotImplementedError

    def _hits(self, data: dict[str, Any]) -> list[SearchHit]:
        raise NotImplementedError

    def _auth_hint(self) -> str:
        return f"check {self.key_env}" if self.key_env else "check the server's settings"

    def _retry_after(self, response: httpx.Response) -> float | None:
        return parse_retry_after(response.headers.get("Retry-After"))

    def search(self, query: str, k: int) -> list[SearchHit]:
        """Return up to ``k`` hits for ``query``; raises RetrievalError after the retries."""
        if not query.strip():
            raise InputError(f"{self.name}: empty search query")
        if k < 1:
            return []
        retrying = Retrying(
            stop=stop_after_attempt(self.max_attempts) | StopAtDeadline(),
            wait=self._wait,
            retry=retry_if_exception_type(_Transient),
            sleep=self._sleep,
            reraise=True,
        )
        try:
            data = retrying(self._fetch, query, min(k, self.max_k))
        except _Transient as exc:
            attempts = retrying.statistics.get("attempt_number", 1)
            if attempts < self.max_attempts and remaining() is not None:  # the deadline ended it
                raise past_deadline(f"{self.name}: {exc.reason}") from exc
            raise RetrievalError(
                f"{self.name}: {exc.reason} (gave up after {self.max_attempts} attempts)"
            ) from exc
        return self._hits(data)[:k]

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        if isinstance(exc, _Transient) and exc.retry_after is not None:
            return min(exc.retry_after, self.max_retry_after)
        # Full jitter, so parallel workers that failed together do not retry together.
        ceiling = min(self.max_backoff, self.backoff * 2 ** (state.attempt_number - 1))
        return ceiling * (0.5 + random.random() / 2)

    def _fetch(self, query: str, k: int) -> dict[str, Any]:
        import httpx

        self.limiter.wait()
        seconds = self.timeout
        left = remaining()
        if left is not None and left < seconds:
            if left <= 0:
                raise past_deadline(f"no time was left to search {self.name}")
            seconds = left
        request = self._request(query, k)
        request.extensions["timeout"] = httpx.Timeout(seconds).as_dict()
        try:
            response = self._send(request, time.monotonic() + seconds)
        except httpx.TimeoutException as exc:
            if seconds < self.timeout:  # the check's time ran out, not this provider's
                raise past_deadline(f"searching {self.name}") from exc
            raise _Transient(f"no reply within {self.timeout:g}s from {self.endpoint}") from exc
        except httpx.TransportError as exc:
            detail = _one_line(str(exc)) or type(exc).__name__
            raise _Transient(f"could not reach {self.endpoint}: {detail}") from exc
        status = response.status_code
        if status == 429:
            wait = self._retry_after(response)
            if wait is not None and wait > self.max_retry_after:
                raise RetrievalError(
                    f"{self.name}: rate limited (HTTP 429); the server asks to wait {wait:.0f}s, "
                    f"more than max_retry_after={self.max_retry_after:g}s"
                )
            if wait is not None:
                self.limiter.defer(wait)
            raise _Transient(f"rate limited (HTTP 429): {_error_message(response)}", wait)
        if status >= 500:
            raise _Transient(f"server error HTTP {status}: {_error_message(response)}",
                             self._retry_after(response))
        if status in (401, 403):
            raise RetrievalError(
                f"{self.name}: HTTP {status}, access refused ({self._auth_hint()}): "
                f"{_error_message(response)}"
            )
        if status >= 400:
            raise RetrievalError(f"{self.name}: HTTP {status}: {_error_message(response)}")
        try:
            data = response.json()
        except ValueError as exc:
            raise RetrievalError(
                f"{self.name}: reply is not JSON: {_one_line(response.text, 80)!r}"
            ) from exc
        if not isinstance(data, dict):
            raise RetrievalError(f"{self.name}: reply is JSON but not an object: {type(data).__name__}")
        return data

    def _send(self, request: httpx.Request, end: float) -> httpx.Response:
        """Send ``request`` and read its body by ``end`` (each read is bounded by the request's timeout,
        the body as a whole here: a server sending a byte at a time cannot outlast it)."""
        import httpx

        response = self._client.send(request, stream=True)
        try:
            body = bytearray()
            for piece in response.iter_bytes():
                body.extend(piece)
                if time.monotonic() > end:
                    raise httpx.ReadTimeout("the reply did not end in time", request=request)
        finally:
            response.close()
        # The body is decoded already: the headers that describe its transfer no longer apply.
        headers = [(key, value) for key, value in response.headers.multi_items()
                   if key.lower() not in _TRANSFER_HEADERS]
        return httpx.Response(response.status_code, headers=headers, content=bytes(body), request=request)

    def _list(self, data: dict[str, Any], *path: str) -> list[dict[str, Any]]:
        """The result list at ``path``; absent means no results (Google and Brave omit it then)."""
        node: Any = data
        for key in path:
            if not isinstance(node, dict):
                where = ".".join(path)
                raise RetrievalError(f"{self.name}: unexpected reply shape: {where} is not reachable")
            node = node.get(key)
            if node is None:
                return []
        if not isinstance(node, list):
            raise RetrievalError(f"{self.name}: unexpected reply shape: {'.'.join(path)} is not a list")
        return [item for item in node if isinstance(item, dict)]

    def _collect(self, items: list[dict[str, Any]], url: str, snippet: str) -> list[SearchHit]:
        # A result without a URL cannot be cited or deduplicated, so it is dropped.
        return [
            SearchHit(_clean(item.get("title")), item[url].strip(), _clean(item.get(snippet)))
            for item in items
            if isinstance(item.get(url), str) and item[url].strip()
        ]

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> HttpSearchProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
