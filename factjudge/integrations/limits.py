"""The HTTP service's default limits and API-key variable: shown by ``serve --help`` without FastAPI."""

from __future__ import annotations

from factjudge.environment import API_KEY_ENV

__all__ = ["API_KEY_ENV", "DEFAULT_MAX_BODY", "DEFAULT_MAX_CONCURRENCY", "DEFAULT_TIMEOUT"]
DEFAULT_MAX_BODY = 2_000_000
DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_CONCURRENCY = 4
