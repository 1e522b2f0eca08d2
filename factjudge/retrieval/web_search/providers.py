"""Serper, Brave, Google and SearXNG providers, their name registry and ``make_search_provider``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from factjudge.errors import InputError
from factjudge.retrieval.web_search.base import HttpSearchProvider, SearchHit

if TYPE_CHECKING:
    import httpx


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
