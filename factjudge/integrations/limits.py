"""The HTTP service's default limits and API-key variable: shown by ``serve --help`` without FastAPI."""

from __future__ import annotations

API_KEY_ENV = "FACTJUDGE_API_KEY"
DEFAULT_MAX_BODY = 2_000_000
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_CONCURRENCY = 4
