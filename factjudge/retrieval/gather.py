"""Evidence for one claim from knowledge sources chosen by name: ``kb``, ``web`` and ``llm``.

``links`` (the answer's reference links) is fetched by the link fetcher elsewhere and
skipped here. Translation to English can run before retrieval (the claim becomes the
English query) or after it (the passages found are translated).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from factjudge.agents.knowledge import generate_knowledge
from factjudge.agents.search_agent import search_web
from factjudge.agents.translate import is_english, translate_evidence, translate_texts
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.records import Evidence, Trace
from factjudge.retrieval.web_search import SearchProvider

log = logging.getLogger(__name__)

TranslateMode = Literal["before", "after"]


class Retriever(Protocol):
    """A knowledge-base retriever: the ``k`` passages most relevant to ``query``."""

    def search(self, query: str, k: int) -> list[Evidence]:
        """Return up to ``k`` passages, best first."""
        ...


@dataclass(frozen=True)
class _Job:
    query: str
    model: ChatModel | None
    traces: list[Trace]
    kb_retriever: Retriever | None
    search_provider: SearchProvider | None
    k: int
    max_steps: int


def _from_kb(job: _Job) -> list[Evidence]:
    assert job.kb_retriever is not None  # checked by gather_evidence before any call
    return list(job.kb_retriever.search(job.query, job.k))


def _from_web(job: _Job) -> list[Evidence]:
    assert job.model is not None and job.search_provider is not None
    found = search_web(job.query, model=job.model, provider=job.search_provider, traces=job.traces,
                       k=job.k, max_steps=job.max_steps)
    return list(found.evidence)


def _from_llm(job: _Job) -> list[Evidence]:
    assert job.model is not None
    return generate_knowledge(job.query, model=job.model, traces=job.traces)


EVIDENCE_SOURCES: dict[str, Callable[[_Job], list[Evidence]]] = {
    "kb": _from_kb,
    "web": _from_web,
    "llm": _from_llm,
}
HANDLED_ELSEWHERE = frozenset({"links"})


def _translate_mode(translate: bool | str | None) -> TranslateMode | None:
    if translate in (False, None, ""):
        return None
    if translate is True or translate == "before":
        return "before"
    if translate == "after":
        return "after"
    raise InputError(f"translate must be False, True, 'before' or 'after', not {translate!r}")


def _check(sources: Sequence[str], model: ChatModel | None, kb_retriever: Retriever | None,
           search_provider: SearchProvider | None, translating: bool) -> list[str]:
    """The sources to run, in order and once each; a bad set-up fails before any call is paid for."""
    known = {*EVIDENCE_SOURCES, *HANDLED_ELSEWHERE}
    unknown = [name for name in sources if name not in known]
    if unknown:
        raise InputError(f"unknown evidence source {unknown[0]!r}; choose from {', '.join(sorted(known))}")
    chosen = [name for name in dict.fromkeys(sources) if name in EVIDENCE_SOURCES]
    if "kb" in chosen and kb_retriever is None:
        raise InputError("evidence source 'kb' needs a knowledge-base retriever")
    if "web" in chosen and search_provider is None:
        raise InputError("evidence source 'web' needs a search provider")
    needs_model = [name for name in chosen if name in ("web", "llm")] + (["translate"] if translating else [])
    if needs_model and model is None:
        raise InputError(f"a chat model is needed for {' and '.join(needs_model)}")
    return chosen


def gather_evidence(
    claim_text: str,
    sources: list[str],
    *,
    model: ChatModel | None,
    traces: list[Trace],
    kb_retriever: Retriever | None = None,
    search_provider: SearchProvider | None = None,
    k: int = 5,
    translate: bool | str = False,
    language: str | None = None,
    max_steps: int = 3,
) -> list[Evidence]:
    """Evidence for ``claim_text`` from each named source, in the order given.

    ``translate``: True or "before" searches with the claim translated to English,
    "after" translates the passages found (the model copies English ones); ``language``
    is the claim's language (English skips "before"). A failed translation falls back to the original
    text, with the failure in ``traces``; a failed search raises RetrievalError.
    """
    mode = _translate_mode(translate)
    # Passages can be in any language whatever the claim's is, so "after" always translates.
    translating = mode == "after" or (mode == "before" and not is_english(language))
    chosen = _check(sources, model, kb_retriever, search_provider, translating)
    if not chosen:
        return []
    query = claim_text
    if mode == "before" and translating:
        assert model is not None
        translated = translate_texts([claim_text], model=model, traces=traces, language=language)
        if translated is None:
            log.warning("gather: searching with the untranslated claim %r", claim_text)
        else:
            query = translated[0]
    job = _Job(query, model, traces, kb_retriever, search_provider, k, max_steps)
    evidence = [ev for name in chosen for ev in EVIDENCE_SOURCES[name](job)]
    if mode == "after" and evidence:
        assert model is not None
        english = translate_evidence(evidence, model=model, traces=traces)
        if english is None:
            log.warning("gather: keeping %d passages untranslated", len(evidence))
        else:
            evidence = english
    return evidence
