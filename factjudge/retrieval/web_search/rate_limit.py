"""Request pacing: a thread-safe rate limiter, one shared per endpoint, and ``Retry-After`` parsing."""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable

from factjudge.errors import InputError
from factjudge.llm.deadline import past_deadline, remaining
from factjudge.resources import current

Sleep = Callable[[float], None]


class RateLimiter:
    """Minimum interval between request starts, shared by every thread that holds it."""

    def __init__(self, per_second: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Sleep = time.sleep) -> None:
        if per_second <= 0:
            raise InputError(f"rate limit must be positive, got {per_second}")
        self.interval = 1.0 / per_second
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        """Block until this caller's slot comes; the deadline error, at once, when it comes after the
        check's deadline (the slot is then left to others)."""
        # Reserve the slot under the lock but sleep outside it, so waiters queue in order
        # without holding each other up for longer than their own slot.
        with self._lock:
            now = self._clock()
            slot = max(now, self._next)
            left = remaining()
            if left is not None and slot - now > left:
                raise past_deadline(f"the next request allowed by the rate limit is {slot - now:.1f} s away")
            self._next = slot + self.interval
        if slot > now:
            self._sleep(slot - now)

    def defer(self, seconds: float) -> None:
        """Push every later slot back, e.g. after the server said ``Retry-After``."""
        with self._lock:
            self._next = max(self._next, self._clock() + seconds)


def shared_limiter(name: str, endpoint: str, per_second: float) -> RateLimiter:
    """The limiter of one provider endpoint, held by the current check's holder (``resources``), so
    parallel checks share its budget."""
    return current().get("limiter", (name, endpoint), lambda: RateLimiter(per_second))


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
