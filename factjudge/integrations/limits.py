"""The HTTP service's default limits and API-key variable: shown by ``serve --help`` without FastAPI."""

from __future__ import annotations

from factjudge.environment import API_KEY_ENV

__all__ = ["API_KEY_ENV", "DEFAULT_BODY_TIMEOUT", "DEFAULT_HEADER_TIMEOUT", "DEFAULT_KEEP_ALIVE",
           "DEFAULT_MAX_BODY", "DEFAULT_MAX_CONCURRENCY", "DEFAULT_MAX_CONNECTIONS", "DEFAULT_TIMEOUT"]
DEFAULT_MAX_BODY = 2_000_000
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_CONCURRENCY = 4
# A request's line and headers must arrive within this many seconds of the connection opening (or of
# the previous response), its body within this many of its headers: a slow client gets a 408.
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
# Connections open at once (each a file descriptor; the usual limit is 1,024 a process): one more closes
# the oldest still waiting for its headers, or is answered 503 when all are busy.
DEFAULT_MAX_CONNECTIONS = 200
# An idle keep-alive connection is closed after this many seconds (uvicorn's own default).
DEFAULT_KEEP_ALIVE = 5.0
