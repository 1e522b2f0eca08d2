"""Web search providers behind one interface: ``search(query, k) -> list[SearchHit]``.

Serper, Brave Search, Google Programmable Search and a self-hosted SearXNG. Each
request waits for its provider's rate limiter, and 429/5xx replies, timeouts and
dropped connections are retried with back-off (honouring ``Retry-After``) before a
``RetrievalError`` with one clear line is raised. Keys come from the environment.
"""

from __future__ import annotations

from factjudge.retrieval.web_search.base import HttpSearchProvider, SearchHit, SearchProvider
from factjudge.retrieval.web_search.providers import (
    SEARCH_PROVIDERS,
    BraveSearch,
    GoogleSearch,
    SearxngSearch,
    SerperSearch,
    make_search_provider,
)
from factjudge.retrieval.web_search.rate_limit import RateLimiter, Sleep, parse_retry_after, shared_limiter

__all__ = [
    "SEARCH_PROVIDERS",
    "BraveSearch",
    "GoogleSearch",
    "HttpSearchProvider",
    "RateLimiter",
    "SearchHit",
    "SearchProvider",
    "SearxngSearch",
    "SerperSearch",
    "Sleep",
    "make_search_provider",
    "parse_retry_after",
    "shared_limiter",
]
