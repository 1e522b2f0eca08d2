"""Library entry point: check an answer with the model a config names, or the one given."""

from __future__ import annotations

from collections.abc import Sequence

from factjudge.checking.checker import run
from factjudge.checking.context import Context
from factjudge.checking.model_pool import build_model
from factjudge.checking.plan import plan_check, validate_answer
from factjudge.checking.session import Session
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
    session: Session | None = None,
) -> CheckResult:
    """Check one answer; with a context (read by ``context.context_passages``), against it: only it
    when ``config.grounded``, which ``grounded`` overrides when given.

    The plan follows the model, whose name decides the default strategy; an unusable answer is
    refused before the model is built (building the embedded one may join its file first). A
    ``session`` builds the model once and holds what the check opens (else the process does).
    """
    config = config or CheckConfig()
    if grounded is not None:
        config = config.replace(grounded=grounded)
    validate_answer(answer)
    model = model or (session.model_for(config) if session is not None else build_model(config))
    plan = plan_check(config, question, answer, context=context, refs=refs, ref_texts=ref_texts,
                      segments=segments, model_name=model.name)
    return run(plan, model, session)
