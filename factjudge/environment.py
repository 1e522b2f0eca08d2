"""The process environment, read here and nowhere else: factjudge's variables, OpenAI's, and where
files are kept (``$XDG_CACHE_HOME/factjudge``, else ``~/.cache/factjudge``, for every cache;
``$XDG_DATA_HOME/factjudge``, else ``~/.local/share/factjudge``, for downloaded Wikipedia editions).

Each function reads the environment when called, so a test or a long-running service that
changes a variable sees the change; nothing here is kept between calls.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "FACTJUDGE_CACHE"  # the call cache's SQLite file
PAGES_ENV = "FACTJUDGE_PAGES"  # fetched reference pages and MediaWiki replies
MODELS_ENV = "FACTJUDGE_MODELS"  # joined model files
THREADS_ENV = "FACTJUDGE_THREADS"  # llama.cpp's threads
API_KEY_ENV = "FACTJUDGE_API_KEY"  # the key the HTTP service requires
OPENAI_BASE_URL_ENV = "OPENAI_BASE_URL"
OPENAI_API_KEY_ENV = "OPENAI_API_KEY"
# Sent as headers to OpenAI's API when set, as its SDK does.
OPENAI_ORG_HEADERS = {"OPENAI_ORG_ID": "OpenAI-Organization", "OPENAI_PROJECT_ID": "OpenAI-Project"}


def _value(name: str) -> str | None:
    """The variable's value, or None when it is unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or None


def _xdg(name: str) -> str | None:
    """An XDG base folder's variable: None when unset, blank or relative (the XDG spec says a relative
    path is invalid and must be ignored: it would point somewhere else from every working folder)."""
    value = _value(name)
    return value if value and os.path.isabs(value) else None


def cache_home() -> Path:
    """factjudge's folder in the user cache: ``$XDG_CACHE_HOME/factjudge`` or ``~/.cache/factjudge``."""
    base = _xdg("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "factjudge"


def call_cache_path() -> Path:
    """The model-call cache: ``$FACTJUDGE_CACHE``, else ``calls.sqlite`` in the user cache."""
    configured = _value(CACHE_ENV)
    return Path(configured).expanduser() if configured else cache_home() / "calls.sqlite"


def pages_dir(call_cache: str | Path | None = None) -> Path:
    """Fetched pages: ``$FACTJUDGE_PAGES``, else ``pages/`` beside the call cache."""
    configured = _value(PAGES_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(call_cache or call_cache_path()).parent / "pages"


def models_dir() -> Path:
    """Joined model files: ``$FACTJUDGE_MODELS``, else ``models/`` in the user cache."""
    configured = _value(MODELS_ENV)
    return Path(configured).expanduser() if configured else cache_home() / "models"


def wiki_dir() -> Path:
    """Built Wikipedia indexes: ``wiki/`` in the user cache."""
    return cache_home() / "wiki"


def data_home() -> Path:
    """factjudge's folder in the user data: ``$XDG_DATA_HOME/factjudge`` or ``~/.local/share/factjudge``."""
    base = _xdg("XDG_DATA_HOME")
    return (Path(base) if base else Path.home() / ".local" / "share") / "factjudge"


def zim_dir() -> Path:
    """Wikipedia editions downloaded by ``factjudge wiki get`` (kept data, not a cache): ``wiki/`` there."""
    return data_home() / "wiki"


def ranks_dir() -> Path:
    """tiktoken's rank files as factjudge unpacks them: ``tiktoken/`` in the user cache."""
    return cache_home() / "tiktoken"


def threads_setting() -> str | None:
    """``$FACTJUDGE_THREADS`` as written (llm.local checks it), or None when unset."""
    return _value(THREADS_ENV)


def openai_base_url() -> str | None:
    """``$OPENAI_BASE_URL``: an OpenAI-compatible server to use when no base URL is given."""
    return _value(OPENAI_BASE_URL_ENV)


def openai_api_key() -> str | None:
    """``$OPENAI_API_KEY``."""
    return _value(OPENAI_API_KEY_ENV)


def openai_org_headers() -> dict[str, str]:
    """The organisation and project headers whose variables are set."""
    return {header: value for env, header in OPENAI_ORG_HEADERS.items() if (value := _value(env))}


def service_api_key(variable: str = API_KEY_ENV) -> str | None:
    """The key the HTTP service requires, from ``variable`` (``serve --api-key-env``)."""
    return _value(variable)
