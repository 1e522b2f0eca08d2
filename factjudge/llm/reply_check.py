"""What a well-formed completion holds, checked before it is cached or scored.

A server may send log-probabilities that are strings, numbers beyond any probability or
tokens that are not text; read as numbers they crash the scorer, and cached they would
be served for ever, so a healthy server at the same URL would never be asked again.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from factjudge.llm.base import Completion, TokenLogprob

# A log-probability is at most 0; servers round, so a hair above it is still one.
MAX_LOGPROB = 1e-3
# Whole numbers beyond this cannot be made floats exactly, nor are they a log-probability.
MIN_INT_LOGPROB = -(2**53)


def valid_logprob(value: Any) -> bool:
    """True for a number that is a log-probability: at most 0 (-inf included), never NaN or a string."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return MIN_INT_LOGPROB <= value <= 0
    return isinstance(value, float) and not math.isnan(value) and value <= MAX_LOGPROB


def logprobs_problem(tokens: Any) -> str | None:
    """What is wrong with a completion's log-probabilities (None when they are usable or absent)."""
    if tokens is None:
        return None
    if not isinstance(tokens, tuple | list):
        return f"log-probabilities are a {type(tokens).__name__}, not a list"
    for n, token in enumerate(tokens, start=1):
        if not isinstance(token, TokenLogprob):
            return f"log-probability {n} is a {type(token).__name__}"
        if not isinstance(token.token, str) or not valid_logprob(token.logprob):
            return f"token {n} is {token.token!r:.40} with log-probability {token.logprob!r:.40}"
        if not isinstance(token.top, Mapping):
            return f"the alternatives of token {n} are a {type(token.top).__name__}"
        for text, logprob in token.top.items():
            if not isinstance(text, str) or not valid_logprob(logprob):
                return f"an alternative of token {n} is {text!r:.40} with log-probability {logprob!r:.40}"
    return None


def completion_problem(completion: Completion) -> str | None:
    """What makes ``completion`` unfit to cache or score (None when it is well formed)."""
    if not isinstance(completion.text, str):
        return f"its text is a {type(completion.text).__name__}"
    for name in ("prompt_tokens", "completion_tokens"):
        count = getattr(completion, name)
        if type(count) is not int or count < 0:
            return f"{name} is {count!r:.40}"
    if not isinstance(completion.model, str) or not isinstance(completion.finish_reason, str | None):
        return "its model or finish reason is not text"
    return logprobs_problem(completion.logprobs)
