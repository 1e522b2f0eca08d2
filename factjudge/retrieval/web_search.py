"""Web search providers behind one interface: ``search(query, k) -> list[SearchHit]``.

Serper, Brave Search, Google Programmable Search and a self-hosted SearXNG. Each
request waits for its provider's rate limiter, and 429/5xx replies, timeouts and
dropped connections are retried with back-off (honouring ``Retry-After``) before a
``RetrievalError`` with one clear line is raised. Keys come from the environment.
"""

from __future__ import annotations

import email.utils
import html
import os
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from factjudge.errors import InputError, RetrievalError

Sleep = Callable[[float], None]


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


class RateLimiter:
    """Minimum interval between request starts, shared by every thread that holds it."""

    def __init__(self, per_second: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep = time.sleep) -> None:
        if per_second <= 0:
            raise InputError(f"rate limit must be positive, got {per_second}")
        self.interval = 1.0 / per_second
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        """Block until this caller's slot comes."""
        # Reserve the slot under the lock but sleep outside it, so waiters queue in order
        # without holding each other up for longer than their own slot.
        with self._lock:
            now = self._clock()
            slot = max(now, self._next)
            self._next = slot + self.interval
        if slot > now:
            self._sleep(slot - now)

    def defer(self, seconds: float) -> None:
        """Push every later slot back, e.g. after the server said ``Retry-After``."""
        with self._lock:
            self._next = max(self._next, self._clock() + seconds)


_SHARED_LIMITERS: dict[tuple[str, str], RateLimiter] = {}
_SHARED_LOCK = threading.Lock()


def shared_limiter(name: str, endpoint: str, per_second: float) -> RateLimiter:
    """The process-wide limiter of one provider endpoint, so parallel instances share its budget."""
    with _SHARED_LOCK:
        key = (name, endpoint)
        if key not in _SHARED_LIMITERS:
            _SHARED_LIMITERS[key] = RateLimiter(per_second)
        return _SHARED_LIMITERS[key]


class _Transient(Exception):
    """A failure worth retrying; ``retry_after`` is the server's own wait, when it gave one."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


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
            stop=stop_after_attempt(self.max_attempts),
            wait=self._wait,
            retry=retry_if_exception_type(_Transient),
            sleep=self._sleep,
            reraise=True,
        )
        try:
            data = retrying(self._fetch, query, min(k, self.max_k))
        except _Transient as exc:
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
        self.limiter.wait()
        try:
            response = self._client.send(self._request(query, k))
        except httpx.TimeoutException as exc:
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


def _env(name: str, provider: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise InputError(f"{provider} search needs the environment variable {name}")
    return value


class SerperSearch(HttpSearchProvider):
    """Google results through serper.dev: POST JSON, ``X-API-KEY``, ``organic[].title/link/snippet``."""

    name = "serper"
    key_env = "SERPER_API_KEY"
    default_rate = 5.0
    max_k = 100

    def __init__(self, *, api_key: str | None = None,
                 endpoint: str = "https://google.serper.dev/search", **kw: Any) -> None:
        self.api_key = api_key or _env(self.key_env, self.name)
        super().__init__(endpoint, **kw)

    def _request(self, query: str, k: int) -> httpx.Request:
        return self._client.build_request(
            "POST", self.endpoint, json={"q": query, "num": k, **self.extra_params},
            headers={"X-API-KEY": self.api_key, "Content-Type": "application/json"},
        )

    def _hits(self, data: dict[str, Any]) -> list[SearchHit]:
        return self._collect(self._list(data, "organic"), "link", "snippet")


class BraveSearch(HttpSearchProvider):
    """Brave Search API: GET, ``X-Subscription-Token``, ``web.results[].title/url/description``."""

    name = "brave"
    key_env = "BRAVE_API_KEY"
    default_rate = 1.0  # the free plan allows one request per second
    max_k = 20

    def __init__(self, *, api_key: str | None = None,
                 endpoint: str = "https://api.search.brave.com/res/v1/web/search", **kw: Any) -> None:
        self.api_key = api_key or _env(self.key_env, self.name)
        super().__init__(endpoint, **kw)

    def _retry_after(self, response: httpx.Response) -> float | None:
        # Brave sends no Retry-After but per-window pairs, e.g. Remaining "0, 950" and
        # Reset "1, 1419704" (per second, per month): wait for every exhausted window.
        explicit = super()._retry_after(response)
        remaining = response.headers.get("X-RateLimit-Remaining", "").split(",")
        reset = response.headers.get("X-RateLimit-Reset", "").split(",")
        waits = []
        for left, seconds in zip(remaining, reset, strict=False):
            try:
                if int(left.strip()) <= 0:
                    waits.append(float(seconds.strip()))
            except ValueError:
                continue
        return max(waits) if waits else explicit

    def _request(self, query: str, k: int) -> httpx.Request:
        return self._client.build_request(
            "GET", self.endpoint, params={"q": query, "count": k, **self.extra_params},
            headers={"X-Subscription-Token": self.api_key, "Accept": "application/json"},
        )

    def _hits(self, data: dict[str, Any]) -> list[SearchHit]:
        return self._collect(self._list(data, "web", "results"), "url", "description")


class GoogleSearch(HttpSearchProvider):
    """Google Programmable Search (Custom Search JSON API): ``key`` and ``cx``, ``items[]``."""

    name = "google"
    key_env = "GOOGLE_API_KEY"
    default_rate = 1.0
    max_k = 10  # the API's ``num`` is 1..10

    def __init__(self, *, api_key: str | None = None, cse_id: str | None = None,
                 endpoint: str = "https://www.googleapis.com/customsearch/v1", **kw: Any) -> None:
        self.api_key = api_key or _env(self.key_env, self.name)
        self.cse_id = cse_id or _env("GOOGLE_CSE_ID", self.name)
        super().__init__(endpoint, **kw)

    def _auth_hint(self) -> str:
        return "check GOOGLE_API_KEY, GOOGLE_CSE_ID and the project's quota"

    def _request(self, query: str, k: int) -> httpx.Request:
        params = {"key": self.api_key, "cx": self.cse_id, "q": query, "num": k, **self.extra_params}
        return self._client.build_request("GET", self.endpoint, params=params)

    def _hits(self, data: dict[str, Any]) -> list[SearchHit]:
        return self._collect(self._list(data, "items"), "link", "snippet")


class SearxngSearch(HttpSearchProvider):
    """A self-hosted SearXNG: GET ``{base}/search?format=json``, ``results[].title/url/content``."""

    name = "searxng"
    key_env = "SEARXNG_URL"
    default_rate = 1.0  # SearXNG's own limiter and its upstream engines dislike bursts
    max_k = 100

    def __init__(self, *, base_url: str | None = None, **kw: Any) -> None:
        base = (base_url or _env(self.key_env, self.name)).rstrip("/")
        super().__init__(f"{base}/search", **kw)

    def _auth_hint(self) -> str:
        return "SearXNG answers 403 when 'json' is missing from search.formats in its settings.yml"

    def _request(self, query: str, k: int) -> httpx.Request:
        # SearXNG has no result-count parameter; one page (about ten results) is cut to k.
        params = {"q": query, "format": "json", **self.extra_params}
        return self._client.build_request("GET", self.endpoint, params=params,
                                          headers={"Accept": "application/json"})

    def _hits(self, data: dict[str, Any]) -> list[SearchHit]:
        return self._collect(self._list(data, "results"), "url", "content")


SEARCH_PROVIDERS: dict[str, type[HttpSearchProvider]] = {
    "serper": SerperSearch,
    "brave": BraveSearch,
    "google": GoogleSearch,
    "searxng": SearxngSearch,
}


def make_search_provider(name: str, **kw: Any) -> HttpSearchProvider:
    """Build the provider registered under ``name``; ``kw`` go to its constructor."""
    try:
        cls = SEARCH_PROVIDERS[name]
    except KeyError:
        raise InputError(
            f"unknown search provider {name!r}; choose one of {', '.join(SEARCH_PROVIDERS)}"
        ) from None
    return cls(**kw)
