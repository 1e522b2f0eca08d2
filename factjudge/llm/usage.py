"""Turn a completion's token counts into a Usage record with its estimated cost."""

from __future__ import annotations

from factjudge.llm.base import Completion
from factjudge.llm.cost import estimate_cost
from factjudge.records import Usage


def usage_of(model_name: str, completion: Completion) -> Usage:
    """Usage of one call; a reply served from the cache costs nothing now, so its cost is 0."""
    cost = 0.0 if completion.cached else estimate_cost(
        model_name, completion.prompt_tokens, completion.completion_tokens
    )
    return Usage(
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=completion.completion_tokens,
        calls=0 if completion.cached else 1,
        cached_calls=1 if completion.cached else 0,
        cost_usd=cost,
    )
