"""One owner of what a process holds for its checks, and the one scope each check runs in.

A ``Session`` holds the chat models its checks name (``model_pool.ModelPool``, built once per
config) and the resources they open (``resources.Resources``: Wikipedia, knowledge bases,
embedders, rate limiters). ``close`` closes both, and never while a check runs: a session
closed during a check closes when the last one ends. Every check runs in ``check_scope``: its
deadline, its call budget, its transcript and the resources it is held by (what it uses is not
closed before it ends). A Verifier and the HTTP service have a session of their own; the CLI
and bench check in the process's resources.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from factjudge.checking.model_pool import ModelPool
from factjudge.config import CheckConfig
from factjudge.llm.base import ChatModel
from factjudge.llm.deadline import call_budget, deadline
from factjudge.resources import Resources, current, held_by
from factjudge.transcript import Transcript, recording


@contextmanager
def check_scope(config: CheckConfig, resources: Resources | None = None) -> Iterator[Transcript]:
    """One check's state: its deadline and call budget (``config``'s), a new transcript, and
    ``resources`` (the current holder's by default) holding what it opens, kept open until it ends."""
    held = resources or current()
    limit = None if math.isinf(config.deadline) else config.deadline  # inf: none (the terminal's default)
    with held_by(held), held.in_use(), deadline(limit), call_budget(config.max_calls), \
            recording() as transcript:
        yield transcript


class Session:
    """Chat models and opened resources, owned and closed together; thread-safe."""

    def __init__(self, *, model_factory: Callable[[CheckConfig], ChatModel] | None = None,
                 resources: Resources | None = None) -> None:
        self.models = ModelPool(model_factory)
        self.resources = resources or Resources()
        self._lock = threading.Lock()
        self._running = 0
        self._closing = False

    def model_for(self, config: CheckConfig) -> ChatModel:
        """The model ``config`` names, built on first use."""
        return self.models.get(config)

    @contextmanager
    def check_scope(self, config: CheckConfig) -> Iterator[Transcript]:
        """``check_scope`` in this session's resources; the session stays open until the check ends."""
        with self._lock:
            self._running += 1
        try:
            with check_scope(config, self.resources) as transcript:
                yield transcript
        finally:
            with self._lock:
                self._running -= 1
                last = self._closing and not self._running
            if last:
                self._close()

    def close(self) -> None:
        """Close the models and resources now, or when the checks running end."""
        with self._lock:
            self._closing = True
            running = self._running
        if not running:
            self._close()

    def _close(self) -> None:
        self.models.close()
        self.resources.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
