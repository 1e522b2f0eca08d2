"""A scripted model for tests and benchmarks: returns given replies, records prompts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from factjudge.errors import ModelError
from factjudge.llm.base import Completion, GenerationParams, Message

Reply = str | Completion | Exception
Responder = Callable[[list[Message]], Reply]


class ScriptedChatModel:
    """Replies from a list (in order) or a function of the messages.

    Every call is recorded in ``calls`` so tests can assert on the exact prompt.
    An Exception in the script is raised at that call, to simulate failures.
    """

    def __init__(
        self,
        replies: Iterable[Reply] | Responder,
        *,
        name: str = "scripted",
        delay: float = 0.0,
    ) -> None:
        self.name = name
        self.delay = delay
        self.calls: list[list[Message]] = []
        self.params: list[GenerationParams] = []
        self._lock = threading.Lock()
        if callable(replies):
            self._responder: Responder | None = replies
            self._queue: list[Reply] = []
        else:
            self._responder = None
            self._queue = list(replies)

    def _next(self, messages: list[Message]) -> Completion:
        with self._lock:
            self.calls.append(messages)
            if self._responder is not None:
                reply = self._responder(messages)
            elif self._queue:
                reply = self._queue.pop(0)
            else:
                raise ModelError(f"{self.name}: script ran out of replies after {len(self.calls) - 1} calls")
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, Completion):
            return reply
        prompt_tokens = sum(len(m["content"].split()) for m in messages)
        return Completion(text=reply, prompt_tokens=prompt_tokens,
                          completion_tokens=len(reply.split()), model=self.name)

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Return the next scripted reply."""
        self.params.append(params)
        if self.delay:
            import time

            time.sleep(self.delay)
        return self._next(messages)
