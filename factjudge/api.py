"""Library entry points: build a model from a config and check an answer."""

from __future__ import annotations

from collections.abc import Sequence

from factjudge.config import CheckConfig
from factjudge.llm.base import ChatModel
from factjudge.llm.registry import make_model
from factjudge.pipeline import Checker
from factjudge.records import CheckResult, Evidence


def model_for(config: CheckConfig) -> ChatModel:
    """The (cached) chat model a config names."""
    return make_model(
        config.model,
        base_url=config.base_url,
        timeout=config.timeout,
        cache_path=config.cache if config.use_cache else False,
    )


def check(
    question: str,
    answer: str,
    config: CheckConfig | None = None,
    *,
    model: ChatModel | None = None,
    refs: Sequence[str] = (),
    ref_texts: Sequence[str] = (),
    context: Sequence[Evidence] = (),
    segments: Sequence[str] | None = None,
) -> CheckResult:
    """Check one answer; the CLI, the Verifier and the services all come through here."""
    config = config or CheckConfig()
    checker = Checker(config, model or model_for(config))
    return checker.check(question, answer, refs=refs, ref_texts=ref_texts, context=context,
                         segments=segments)
