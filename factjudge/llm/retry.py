"""Retries for model endpoints: back off on 429, 5xx, timeouts and dropped connections.

Client errors (400, 401, 404 …) fail at once; Retry-After is honoured (capped); a 200
whose body is not a usable reply (``BadReply``) is retried like a 5xx, because proxies and
overloaded servers send those too; after the last attempt one clear ModelError says what
failed and how often it was tried.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from factjudge.errors import ModelError
from factjudge.llm.deadline import StopAtDeadline, past_deadline, remaining
from factjudge.llm.endpoint import ConnectFailed, StatusError, TimedOut, TransportError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts, and how long to wait between them."""

    max_attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 60.0


class BadReply(Exception):
    """A 200 reply that cannot be used (not a chat completion, or far too large): worth another try."""


def is_retryable(exc: BaseException) -> bool:
    """Rate limits, server errors, timeouts, dropped connections and bad replies are worth another try."""
    if isinstance(exc, (ConnectFailed, BadReply)):  # ConnectFailed includes TimedOut
        return True
    if isinstance(exc, StatusError):
        return exc.status == 429 or exc.status >= 500
    return False


def retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait, if it said so in a Retry-After header."""
    value = exc.headers.get("retry-after") if isinstance(exc, StatusError) else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to our own back-off


def describe(exc: BaseException, endpoint: str, attempts: int, timeout: float) -> str:
    """One line saying what failed, for the CLI and result files."""
    if isinstance(exc, TimedOut):
        what = f"timed out after {timeout:g} s"
    elif isinstance(exc, ConnectFailed):
        what = f"could not connect ({exc})"
    elif isinstance(exc, StatusError):
        what = f"HTTP {exc.status}: {exc.message()}"
    else:
        what = str(exc)
    tries = f" after {attempts} attempt{'s' if attempts != 1 else ''}"
    return f"{endpoint} {what}{tries}"


def failure_kind(exc: BaseException) -> str:
    """What failed in a few words, naming no endpoint and quoting none of its reply."""
    if isinstance(exc, TimedOut):
        return "timed out"
    if isinstance(exc, ConnectFailed):
        return "could not connect"
    if isinstance(exc, StatusError):
        return f"HTTP {exc.status}"
    if isinstance(exc, BadReply):
        return "not a usable reply"
    return "error"


class Retrier:
    """Runs a call under a retry policy and turns the final failure into a ModelError."""

    def __init__(self, policy: RetryPolicy, endpoint: str, timeout: float) -> None:
        self.policy = policy
        self.endpoint = endpoint
        self.timeout = timeout

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        asked = retry_after(exc) if exc else None
        if asked is not None:
            return min(asked, self.policy.max_retry_after)
        ceiling = min(self.policy.max_delay, self.policy.base_delay * 2 ** (state.attempt_number - 1))
        return random.uniform(ceiling / 2, ceiling)  # jitter spreads out concurrent retries

    def _options(self) -> dict[str, object]:
        return {
            "stop": stop_after_attempt(self.policy.max_attempts) | StopAtDeadline(),
            "wait": self._wait,
            "retry": retry_if_exception(is_retryable),
            "reraise": True,
        }

    def _fail(self, exc: Exception, attempts: int) -> ModelError:
        what = describe(exc, self.endpoint, attempts, self.timeout)
        cut_short = is_retryable(exc) and attempts < self.policy.max_attempts
        if remaining() is not None and (cut_short or remaining() == 0):  # the deadline ended it
            return past_deadline(f"last: {what}")
        return ModelError(what, failure_kind(exc))

    def call(self, fn: Callable[[], T]) -> T:
        """Call ``fn`` with retries."""
        retrying = Retrying(**self._options())  # type: ignore[arg-type]
        try:
            return retrying(fn)
        except (TransportError, BadReply) as exc:
            raise self._fail(exc, retrying.statistics.get("attempt_number", 1)) from exc
