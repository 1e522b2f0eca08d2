"""Evidence for one item from the sources a config names: ``kb``, ``web`` and ``llm``.

This module wires retrieval (knowledge bases, search providers) to the agents that ask
a model (search agent, knowledge generator, translator), so it sits above both. The
options are validated once, by CheckConfig. Translation to English can run before
retrieval (the claim becomes the English query) or after it (the passages found are
translated).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from factjudge.agents.knowledge import generate_knowledge
from factjudge.agents.search_agent import search_web
from factjudge.agents.translate import is_english, translate_evidence, translate_texts
from factjudge.config import CheckConfig, TranslateMode
from factjudge.llm.base import ChatModel
from factjudge.records import Evidence, Trace
from factjudge.retrieval.sources import Retriever, shared_retriever
from factjudge.retrieval.web_search import SearchProvider, make_search_provider

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Gatherer:
    """Evidence per item from ``sources``, in order, with what each source needs."""

    sources: tuple[str, ...]
    model: ChatModel | None  # the web agent, generated knowledge and translation ask it
    kb_retriever: Retriever | None = None
    search_provider: SearchProvider | None = None
    k: int = 5
    translate: TranslateMode | None = None
    language: str | None = None  # the items' language ("before" skips English ones)
    max_steps: int = 3

    @classmethod
    def from_config(cls, config: CheckConfig, model: ChatModel) -> Gatherer:
        """The sources a (validated) config names, opened: the knowledge base is shared per process."""
        kb = (shared_retriever(config.kb, config.retriever, config.embedder)
              if "kb" in config.evidence and config.kb else None)
        web = (make_search_provider(config.search_provider)
               if "web" in config.evidence and config.search_provider else None)
        return cls(tuple(dict.fromkeys(config.evidence)), model, kb, web, config.k, config.translate,
                   config.language)

    def gather(self, text: str, traces: list[Trace]) -> list[Evidence]:
        """Evidence for ``text`` from each source in turn.

        A failed translation falls back to the original text, with the failure in
        ``traces``; a failed search raises RetrievalError.
        """
        if not self.sources:
            return []
        # Passages can be in any language whatever the claim's is, so "after" always translates.
        query = text
        if self.translate == "before" and not is_english(self.language):
            assert self.model is not None
            translated = translate_texts([text], model=self.model, traces=traces, language=self.language)
            if translated is None:
                log.warning("gather: searching with the untranslated claim %r", text)
            else:
                query = translated[0]
        evidence = [ev for name in self.sources for ev in _FROM[name](self, query, traces)]
        if self.translate == "after" and evidence:
            assert self.model is not None
            english = translate_evidence(evidence, model=self.model, traces=traces)
            if english is None:
                log.warning("gather: keeping %d passages untranslated", len(evidence))
            else:
                evidence = english
        return evidence


def _from_kb(gatherer: Gatherer, query: str, traces: list[Trace]) -> list[Evidence]:
    assert gatherer.kb_retriever is not None
    return list(gatherer.kb_retriever.search(query, gatherer.k))


def _from_web(gatherer: Gatherer, query: str, traces: list[Trace]) -> list[Evidence]:
    assert gatherer.model is not None and gatherer.search_provider is not None
    found = search_web(query, model=gatherer.model, provider=gatherer.search_provider, traces=traces,
                       k=gatherer.k, max_steps=gatherer.max_steps)
    return list(found.evidence)


def _from_llm(gatherer: Gatherer, query: str, traces: list[Trace]) -> list[Evidence]:
    assert gatherer.model is not None
    return generate_knowledge(query, model=gatherer.model, traces=traces)


# Keyed by config.EVIDENCE_SOURCES, the names CheckConfig accepts.
_FROM: dict[str, Callable[[Gatherer, str, list[Trace]], list[Evidence]]] = {
    "kb": _from_kb,
    "web": _from_web,
    "llm": _from_llm,
}
