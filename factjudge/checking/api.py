"""Library entry point: check an answer with the model a config names, or the one given."""

from __future__ import annotations

from collections.abc import Sequence

from factjudge.checking.checker import run
from factjudge.checking.context import Context
from factjudge.checking.model_pool import build_model
from factjudge.checking.plan import plan_check
from factjudge.config import CheckConfig
from factjudge.llm.base import ChatModel
from factjudge.records import CheckResult


def check(
    question: str,
    answer: str,
    config: CheckConfig | None = None,
    *,
    model: ChatModel | None = None,
    refs: Sequence[str] = (),
    ref_texts: Sequence[str] = (),
    context: Context | None = None,
    grounded: bool | None = None,
    segments: Sequence[str] | None = None,
) -> CheckResult:
    """Check one answer; with a context (read by ``context.context_passages``), against it: only it
    when ``config.grounded``, which ``grounded`` overrides when given.

    The check is planned (and unusable input refused) before a model is built: the model's name,
    or else the config's model spec, decides the default strategy.
    """
    config = config or CheckConfig()
    if grounded is not None:
        config = config.replace(grounded=grounded)
    plan = plan_check(config, question, answer, context=context, refs=refs, ref_texts=ref_texts,
                      segments=segments, model_name=model.name if model else None)
    return run(plan, model or build_model(config))
