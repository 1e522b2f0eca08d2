"""An overall deadline for one check, across every model call and retry it makes.

A per-call timeout alone lets a hanging endpoint hold a check for retries × timeout
× calls (311 s once, with the defaults); the pipeline sets a deadline around a check and
network backends shorten their timeouts and stop retrying when it is near.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from factjudge.errors import ModelError

# (monotonic end, the seconds it was set to); a context variable, so each thread's check has its own.
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("factjudge_deadline", default=None)


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Calls made inside must finish within ``seconds`` in all (None: no deadline)."""
    token = _DEADLINE.set(None if seconds is None else (time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left before the current deadline (never below zero), or None without one."""
    current = _DEADLINE.get()
    return None if current is None else max(0.0, current[0] - time.monotonic())


def call_timeout(timeout: float) -> float:
    """The timeout for the next call: ``timeout``, cut to what is left; ModelError when nothing is."""
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:
        raise past_deadline("no time was left for another model call")
    return min(timeout, left)


class DeadlinePassed(ModelError):
    """A check ran out of its time (the HTTP service answers it as a timeout, not an upstream failure)."""


def past_deadline(detail: str) -> DeadlinePassed:
    """The one error of a check that ran out of time, saying what was going on."""
    current = _DEADLINE.get()
    seconds = f"{current[1]:g} s" if current else "its time"
    return DeadlinePassed(f"the check's deadline of {seconds} passed ({detail}); raise it with --deadline",
                          f"the check's deadline of {seconds} passed")
