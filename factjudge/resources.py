"""What checks open once and reuse, held in one place with a size and a close.

Wikipedia sources (opening may build an index), knowledge-base retrievers (a dense index can be
gigabytes), sentence-transformer models, embedding scorers and rate limiters are opened on first
use and kept for the next check. Each kind keeps its ``size`` most recently used; ``close``
closes and forgets them all. A resource is never closed while a check uses it: what a check
asks for inside ``in_use`` is counted as used by it until the check ends, and one dropped or
closed meanwhile is closed when its last check ends. A Verifier and the HTTP service hold
their own ``Resources`` (their ``checking.session.Session``'s, closed with it); the CLI and
bench use the process's. The holder is found through a context variable, so the code that
opens a resource needs no parameter for it.
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
        # The checks using each resource (by id), and those dropped while used: closed at the last release.
        self._users: dict[int, int] = {}
        self._dropped: dict[int, Any] = {}

    def get(self, kind: str, key: Hashable, opener: Callable[[], T]) -> T:
        """The ``kind`` resource for ``key``, opened with ``opener`` the first time it is asked for."""
        with self._lock:
            shelf = self._kinds.setdefault(kind, OrderedDict())
            if key in shelf:
                shelf.move_to_end(key)
                return self._used(shelf[key])  # type: ignore[no-any-return]
            opened = self._used(opener())
            shelf[key] = opened
            while len(shelf) > self.size:  # the least recently used goes; a check using it keeps it
                _, dropped = shelf.popitem(last=False)
                self._drop(dropped)
            return opened

    @contextmanager
    def in_use(self) -> Iterator[None]:
        """Count what is asked for inside as used until the block ends (a check's ``check_scope``)."""
        used: list[Any] = []
        token = _USING.set((self, used))
        try:
            yield
        finally:
            _USING.reset(token)
            for opened in used:
                self._release(opened)

    def _used(self, opened: T) -> T:
        """``opened``, counted as used by the current ``in_use`` block of these resources (once)."""
        using = _USING.get()
        if using is not None and using[0] is self and not any(o is opened for o in using[1]):
            using[1].append(opened)
            self._users[id(opened)] = self._users.get(id(opened), 0) + 1
        return opened

    def _release(self, opened: Any) -> None:
        with self._lock:
            left = self._users.pop(id(opened), 1) - 1
            if left > 0:
                self._users[id(opened)] = left
                return
            dropped = self._dropped.pop(id(opened), None)
        if dropped is not None:
            _close(dropped)

    def _drop(self, opened: Any) -> None:
        """Close ``opened``, now or, while a check uses it, when the last one ends."""
        with self._lock:
            if self._users.get(id(opened)):
                self._dropped[id(opened)] = opened
                return
        _close(opened)

    def held(self, kind: str) -> int:
        """How many ``kind`` resources are open."""
        with self._lock:
            return len(self._kinds.get(kind, ()))

    def close(self) -> None:
        """Close every resource held (those with a ``close``) and forget them; one a check is using
        is closed when that check ends."""
        with self._lock:
            kinds, self._kinds = self._kinds, {}
        for shelf in kinds.values():
            for opened in shelf.values():
                self._drop(opened)


def _close(opened: Any) -> None:
    close = getattr(opened, "close", None)
    if callable(close):
        close()


PROCESS = Resources()
_HOLDER: ContextVar[Resources | None] = ContextVar("factjudge_resources", default=None)
# The resources whose ``in_use`` block the current check runs in, and what it has used of them.
_USING: ContextVar[tuple[Resources, list[Any]] | None] = ContextVar("factjudge_resources_in_use",
                                                                    default=None)


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
