"""One check's transcript: every model call and failed fetch it made, recorded where it happens.

As inspect_ai's transcript records a run without threading a list through every call, a check
opens a transcript (``recording``) and each model call (``agents.calling.ask``) or failed fetch
adds itself to the current one. It is a context variable, so each thread's check has its own;
outside a check (a benchmark asking a judge directly) nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from factjudge.records import Trace, Usage

_CURRENT: ContextVar[Transcript | None] = ContextVar("factjudge_transcript", default=None)


@dataclass
class Transcript:
    """The traces of one check, in the order they happened; a verdict's ``trace`` indexes them."""

    traces: list[Trace] = field(default_factory=list)

    def add(self, trace: Trace) -> int:
        """Record ``trace``; its index, the one verdicts refer to."""
        self.traces.append(trace)
        return len(self.traces) - 1

    @property
    def usage(self) -> Usage:
        """The tokens, calls and cost of every call recorded."""
        return sum((t.usage for t in self.traces), Usage())


@contextmanager
def recording() -> Iterator[Transcript]:
    """Record the calls made inside into a new transcript (nested checks each get their own)."""
    transcript = Transcript()
    token = _CURRENT.set(transcript)
    try:
        yield transcript
    finally:
        _CURRENT.reset(token)


def record(trace: Trace) -> int | None:
    """Add ``trace`` to the current check's transcript; its index there, None outside a check."""
    transcript = _CURRENT.get()
    return None if transcript is None else transcript.add(trace)
