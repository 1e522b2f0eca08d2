"""The installed factjudge version, recorded in every result and run manifest."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version


@cache
def package_version() -> str:
    """The installed factjudge version (read once: results ask for it on every check)."""
    try:
        return version("factjudge")
    except PackageNotFoundError:
        return "0+unknown"
