"""The Verifier: a RAG app's question, answer and retrieved context in; a CheckResult out.

RAG mode starts when the caller gives a context: the passages become the judge's
evidence. ``grounded=True`` (the default) is consistency in TRUE's sense: only the
passages count, whatever the world says. ``grounded=False`` falls back to other
evidence: the reference links or texts given with ``refs``/``ref_texts`` and the
judge's well-established knowledge (FELM's ``doc`` prompt) where the passages are silent.
Every call goes through ``factjudge.checking.api.check``, the code path of ``factjudge check``, whose
planner (``plan.plan_check``) makes the switch to a passage-reading strategy.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from factjudge import explain
from factjudge.checking.api import check
from factjudge.checking.context import Context, context_passages
from factjudge.checking.session import Session
from factjudge.checking.verify_many import verify_rows
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.records import CheckResult, Evidence, Failure
from factjudge.resources import Resources
from factjudge.threshold import checked_threshold


class EmptyContextError(InputError):
    """A context was given and holds no passage: the retrieval came back empty."""


EMPTY_RETRIEVAL = ("the context is empty (no passage with text: an empty retrieval, such as "
                   "retrieved_contexts=[]): there is nothing to check the answer against, which is a finding "
                   "about the retriever; pass no context (None) to check the answer without one")


def given_passages(context: Context | None) -> tuple[Evidence, ...] | None:
    """A caller's context as passages; None when none was given.

    A context that was given and holds no passage with text is refused (``EmptyContextError``),
    never quietly checked as if there were no context (then against Wikipedia); so is a value
    that is no context at all (a number, a bool, bytes).
    """
    if context is None:
        return None
    if isinstance(context, (str, Evidence, Mapping)) or hasattr(context, "page_content"):
        items: list[Any] = [context]
    elif isinstance(context, Iterable) and not isinstance(context, bytes):
        items = list(context)
    else:
        shown = repr(context)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        raise InputError(f"the context is {shown} ({type(context).__name__}), not text or a list of passages")
    if all(isinstance(item, str) and not item.strip() for item in items):
        raise EmptyContextError(EMPTY_RETRIEVAL)
    return context_passages(items)


class Verifier:
    """Checks RAG answers against their context, sync or async, with one model and config.

    Give ``model`` to inject any ChatModel (a ScriptedChatModel in tests); otherwise
    the model each config names is built once and reused. Its ``session`` owns those models and
    what its checks open (Wikipedia, knowledge bases, embedders), and ``close`` closes them.
    ``threshold`` is the share of checked items shown true each result's ``successful`` asks for
    (``CheckResult.successful``); ``verify(threshold=...)`` sets it for one check.
    """

    def __init__(
        self,
        config: CheckConfig | None = None,
        *,
        model: ChatModel | None = None,
        grounded: bool | None = None,
        threshold: float = 0.5,
    ) -> None:
        config = config or CheckConfig()
        self.config = config if grounded is None else config.replace(grounded=grounded)
        self.threshold = checked_threshold(threshold)
        self._model = model
        self.session = Session()

    @property
    def resources(self) -> Resources:
        """What its checks open and reuse (Wikipedia, knowledge bases, embedders): held, and closed, here."""
        return self.session.resources

    def model_for(self, config: CheckConfig | None = None) -> ChatModel:
        """The injected model, or the (built once) model a config names."""
        if self._model is not None:
            return self._model
        return self.session.model_for(config or self.config)

    def verify(
        self,
        question: str,
        answer: str,
        *,
        context: Context | None = None,
        refs: Sequence[str] | None = None,
        ref_texts: Sequence[str] | None = None,
        config: CheckConfig | None = None,
        grounded: bool | None = None,
        threshold: float | None = None,
    ) -> CheckResult:
        """Check ``answer`` to ``question``; with a context, against that context.

        ``context=None`` checks without one; a context with no passage (``[]``) is an
        ``EmptyContextError``: an empty retrieval is reported, never judged against something else.
        ``threshold`` is this result's, instead of the Verifier's.
        """
        config = config or self.config
        wanted = self.threshold if threshold is None else checked_threshold(threshold)
        passages = given_passages(context)
        result = check(question, answer, config, model=self.model_for(config), refs=tuple(refs or ()),
                       ref_texts=tuple(ref_texts or ()), context=passages, grounded=grounded,
                       session=self.session)
        return dataclasses.replace(result, threshold=wanted)

    def close(self) -> None:
        """Close the models it built and what its checks opened (Wikipedia sources, knowledge bases,
        embedders), once the checks running end."""
        self.session.close()

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def verify_many(self, rows: Any, *, config: CheckConfig | None = None,
                    grounded: bool | None = None) -> list[CheckResult | Failure]:
        """Check every row of a list of dicts or a DataFrame; a row that fails is a Failure, not an exception.

        A row has ``question``, ``answer`` and ``context`` (or Ragas' ``user_input``, ``response``,
        ``retrieved_contexts``); only the answer is required. Rows are checked one after another.
        """
        return verify_rows(lambda question, answer, context: self.verify(
            question, answer, context=context, config=config, grounded=grounded), rows)

    async def averify(
        self,
        question: str,
        answer: str,
        *,
        context: Context | None = None,
        refs: Sequence[str] | None = None,
        ref_texts: Sequence[str] | None = None,
        config: CheckConfig | None = None,
        grounded: bool | None = None,
    ) -> CheckResult:
        """Async twin of ``verify``; the check runs in a worker thread."""
        return await asyncio.to_thread(self.verify, question, answer, context=context, refs=refs,
                                       ref_texts=ref_texts, config=config, grounded=grounded)


def unsupported(result: CheckResult) -> list[dict[str, Any]]:
    """The items judged false (``CheckResult.item_verdicts``: a segment's claims, else the segment),
    in answer order: what is not supported, and why."""
    return [
        {
            "target": v.target,
            "id": v.target_id,
            "text": text,
            "error_score": v.error_score,
            "why": explain.why(v),
            "evidence": [e.title or e.url or e.text[:200] for e in v.evidence],
        }
        for text, v in result.item_verdicts()
        if v.is_false
    ]


def summarize(result: CheckResult) -> dict[str, Any]:
    """A compact JSON-ready summary for tools and logs: label, faithfulness, reason, unsupported items."""
    return {
        "label": result.label,
        "score": result.score,
        "faithfulness": result.faithfulness,
        "threshold": result.threshold,
        "successful": result.successful,
        "reason": explain.reason(result),
        "error_score": result.error_score,
        "unsupported": unsupported(result),
        "unparseable": sum(v.label == "unparseable" for v in result.segment_verdicts),
        "strategy": result.strategy,
        "model": result.model,
        "model_note": result.model_note,
    }
