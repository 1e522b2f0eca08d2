"""An overall deadline and a call budget for one check, across every model call, retry and fetch.

A per-call timeout alone lets a hanging endpoint hold a check for retries × timeout
× calls (311 s once, with the defaults); the pipeline sets a deadline around a check and
network backends shorten their timeouts and stop retrying when it is near, the local model
stops between evaluation batches and generated tokens, and fetches and searches get only
the time left. The call budget bounds the model calls one check may make, whatever the
model: an answer of many sentences against a long context cannot cost hundreds of calls.
Both are context variables set around a check, so each thread's check has its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from tenacity import RetryCallState
from tenacity.stop import stop_base

from factjudge.errors import ModelError, TooMuchWork

# (monotonic end, the seconds it was set to); a context variable, so each thread's check has its own.
_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("factjudge_deadline", default=None)
# [calls made, the most allowed]: a list, so the calls of one check add up in place.
_BUDGET: ContextVar[list[int] | None] = ContextVar("factjudge_call_budget", default=None)


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


def stop_if_past(doing: str) -> None:
    """Raise the deadline error when the check's time is up; ``doing`` says what it interrupts."""
    left = remaining()
    if left is not None and left <= 0:
        raise past_deadline(doing)


def call_timeout(timeout: float) -> float:
    """The timeout for the next call: ``timeout``, cut to what is left; ModelError when nothing is."""
    left = remaining()
    if left is None:
        return timeout
    if left <= 0:
        raise past_deadline("no time was left for another model call")
    return min(timeout, left)


class StopAtDeadline(stop_base):
    """A tenacity stop condition: no retry whose back-off would end after the check's deadline."""

    def __call__(self, retry_state: RetryCallState) -> bool:
        left = remaining()
        return left is not None and left <= retry_state.upcoming_sleep


class DeadlinePassed(ModelError):
    """A check ran out of its time (the HTTP service answers it as a timeout, not an upstream failure)."""


def past_deadline(detail: str) -> DeadlinePassed:
    """The one error of a check that ran out of time, saying what was going on."""
    current = _DEADLINE.get()
    seconds = f"{current[1]:g} s" if current else "its time"
    return DeadlinePassed(f"the check's deadline of {seconds} passed ({detail}); raise it with --deadline",
                          f"the check's deadline of {seconds} passed")


@contextmanager
def call_budget(calls: int | None) -> Iterator[None]:
    """Model calls made inside may number at most ``calls`` in all (None: no budget)."""
    token = _BUDGET.set(None if calls is None else [0, calls])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def calls_made() -> int | None:
    """The model calls counted against the current budget so far (None without one)."""
    budget = _BUDGET.get()
    return None if budget is None else budget[0]


def admit_call() -> None:
    """Let one more model call of the current check go ahead, or say why it may not.

    Every model call passes here (``agents.calling.ask``), so the deadline stops a check
    between calls with any model, and the budget counts every call, cached ones too: a
    request is within its caps or not whatever the cache holds.
    """
    stop_if_past("before a model call")
    budget = _BUDGET.get()
    if budget is None:
        return
    if budget[0] >= budget[1]:
        raise TooMuchWork(f"the check needs more than {budget[1]} model calls, the most one check may "
                          "make; check a shorter answer or context, or raise max_calls (--max-calls)")
    budget[0] += 1
