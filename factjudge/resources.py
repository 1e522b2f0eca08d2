"""What checks open once and reuse, held in one place with a size and a close.

Wikipedia sources (opening may build an index), knowledge-base retrievers (a dense index can be
gigabytes), sentence-transformer models, embedding scorers and rate limiters are opened on first
use and kept for the next check. Each kind keeps its ``size`` most recently used; ``close``
closes and forgets them all. A Verifier and the HTTP service hold their own ``Resources`` (and
close it with themselves); the CLI and bench use the process's. The holder is found through a
context variable, so the code that opens a resource needs no parameter for it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

# Kept per kind: a check names one of each, a service or a bench grid a few.
DEFAULT_SIZE = 4


class Resources:
    """Opened resources by kind and key, the ``size`` most recently used of each kind kept."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._kinds: dict[str, OrderedDict[Hashable, Any]] = {}
        # One opening at a time: two checks asking for the same index build it once.
        self._lock = threading.RLock()

    def get(self, kind: str, key: Hashable, opener: Callable[[], T]) -> T:
        """The ``kind`` resource for ``key``, opened with ``opener`` the first time it is asked for."""
        with self._lock:
            shelf = self._kinds.setdefault(kind, OrderedDict())
            if key in shelf:
                shelf.move_to_end(key)
                return shelf[key]  # type: ignore[no-any-return]
            opened = opener()
            shelf[key] = opened
            while len(shelf) > self.size:  # the least recently used goes; a check using it keeps it
                _, dropped = shelf.popitem(last=False)
                _close(dropped)
            return opened

    def held(self, kind: str) -> int:
        """How many ``kind`` resources are open."""
        with self._lock:
            return len(self._kinds.get(kind, ()))

    def close(self) -> None:
        """Close every resource held (those with a ``close``) and forget them."""
        with self._lock:
            kinds, self._kinds = self._kinds, {}
        for shelf in kinds.values():
            for opened in shelf.values():
                _close(opened)


def _close(opened: Any) -> None:
    close = getattr(opened, "close", None)
    if callable(close):
        close()


PROCESS = Resources()
_HOLDER: ContextVar[Resources | None] = ContextVar("factjudge_resources", default=None)


def current() -> Resources:
    """The resources of whoever runs the current check: a Verifier's or a service's, else the process's."""
    return _HOLDER.get() or PROCESS


@contextmanager
def held_by(resources: Resources) -> Iterator[Resources]:
    """Open (and find) resources in ``resources`` for the checks run inside."""
    token = _HOLDER.set(resources)
    try:
        yield resources
    finally:
        _HOLDER.reset(token)
