"""One model call with parsing and correction retries, traced: the pattern every agent uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from factjudge.errors import ParseError
from factjudge.llm.base import ChatModel, Completion, GenerationParams, Message
from factjudge.llm.deadline import admit_call
from factjudge.llm.usage import usage_of
from factjudge.prompts import Prompt
from factjudge.records import Trace
from factjudge.transcript import record

T = TypeVar("T")

CORRECTION = (
    "Your reply could not be read ({reason}). Reply again, following the output format "
    "exactly, with nothing before or after it."
)


@dataclass
class Asked(Generic[T]):
    """What one ``ask`` produced: the parsed value (None when every attempt failed), the last reply,
    and where its attempts are in the check's transcript."""

    value: T | None
    completion: Completion | None
    reply: str = ""  # the last attempt's raw reply: the one the value came from, or the last unreadable one
    trace_ids: list[int | None] = field(default_factory=list)

    @property
    def trace(self) -> int | None:
        """Index of the last attempt's trace in the check's transcript (None outside a check)."""
        return self.trace_ids[-1] if self.trace_ids else None


def ask(
    model: ChatModel,
    prompt: Prompt,
    values: dict[str, str],
    params: GenerationParams,
    parse: Callable[[str], T],
    *,
    step: str,
    max_attempts: int = 3,
) -> Asked[T]:
    """Render ``prompt``, call ``model`` and parse the reply; on a parse error ask again.

    A retry repeats the conversation with the bad reply and a correction, so that a
    deterministic model (and the cache) do not just return the same reply. Every
    attempt is recorded in the check's transcript; when all fail, ``value`` is None, never a guess.
    """
    messages: list[Message] = [{"role": "user", "content": prompt.render(**values)}]
    asked: Asked[T] = Asked(None, None)
    for attempt in range(1, max_attempts + 1):
        admit_call()  # the check's deadline and call budget, whatever the model
        completion = model.complete(messages, params)
        error: str | None = None
        try:
            value = parse(completion.text)
        except ParseError as exc:
            error = str(exc)
        index = record(
            Trace(
                step=step,
                prompt_name=prompt.name,
                prompt_hash=prompt.hash,
                messages=tuple(dict(m) for m in messages),
                reply=completion.text,
                usage=usage_of(model.name, completion),
                cached=completion.cached,
                attempt=attempt,
                error=error,
            )
        )
        asked.trace_ids.append(index)
        asked.reply = completion.text
        if error is None:
            asked.value = value
            asked.completion = completion
            return asked
        messages = [
            *messages,
            {"role": "assistant", "content": completion.text},
            {"role": "user", "content": CORRECTION.format(reason=error)},
        ]
    return asked
