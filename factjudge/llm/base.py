"""The one model interface every backend implements and every agent calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from factjudge.errors import InputError
from factjudge.records import shallow_fields

Message = dict[str, str]

# A token is rarely more than 16 characters in any tokenizer, so this is far above what
# ``max_tokens`` allows and far below a runaway or hostile reply (a 20 MB reply once
# became a verdict and a cache entry).
REPLY_CHARS_PER_TOKEN = 32
MIN_REPLY_CHARS = 32_000


def not_utf8(exc: UnicodeEncodeError) -> InputError:
    """The input error for text that cannot be sent: undecodable argv bytes arrive as lone surrogates."""
    bad = exc.object[exc.start : exc.start + 1]
    return InputError(f"the text to check is not valid UTF-8 (undecodable character {bad!r}); "
                      "pass UTF-8 text")


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token, its log-probability and the top alternatives."""

    token: str
    logprob: float
    top: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class GenerationParams:
    """Decoding parameters; part of the cache key. Greedy by default (FELM)."""

    max_tokens: int = 256
    temperature: float = 0.0
    logprobs: bool = False
    top_logprobs: int = 5
    stop: tuple[str, ...] = ()
    seed: int | None = 0
    # A GBNF grammar of the output contract; backends that can constrain decoding
    # (llama.cpp) use it so a small model cannot wander off the format; others ignore it.
    grammar: str | None = None
    # The reply is exactly one of these words (a verdict). Backends that can score them in
    # one forward pass (llama.cpp) do; others generate and the caller parses the text.
    choices: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (part of every cache key: shallow, as asdict's deep copy costs)."""
        return shallow_fields(self)

    def reply_limit(self) -> int:
        """The most characters a reply under these parameters may sensibly hold."""
        return max(MIN_REPLY_CHARS, REPLY_CHARS_PER_TOKEN * self.max_tokens)


@dataclass(frozen=True)
class Completion:
    """A model's reply with its token usage and, where the backend gives them, logprobs."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    logprobs: tuple[TokenLogprob, ...] | None = None
    model: str = ""
    cached: bool = False
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        data = shallow_fields(self)
        if self.logprobs is not None:
            data["logprobs"] = [shallow_fields(t) for t in self.logprobs]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Completion:
        """Rebuild from ``to_dict`` output."""
        data = dict(data)
        if data.get("logprobs") is not None:
            data["logprobs"] = tuple(TokenLogprob(**t) for t in data["logprobs"])
        return cls(**data)


@runtime_checkable
class ChatModel(Protocol):
    """Messages in; text, usage and optional log-probabilities out.

    ``name`` identifies backend and model (``openai:gpt-4o-mini``, ``local:smollm2``)
    and is part of the cache key.
    """

    name: str

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Return the model's reply to ``messages``."""
        ...
