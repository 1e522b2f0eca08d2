"""Evidence for one item from the sources a config names: ``kb``, ``web`` and ``llm``.

This module wires retrieval (knowledge bases, search providers) to the agents that ask
a model (search agent, knowledge generator, translator), so it sits above both. The
options are validated once, by CheckConfig. Translation to English can run before
retrieval (the claim becomes the English query) or after it (the passages found are
translated).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from factjudge.agents.knowledge import generate_knowledge
from factjudge.agents.search_agent import search_web
from factjudge.agents.translate import is_english, translate_evidence, translate_texts
from factjudge.config import CheckConfig, TranslateMode
from factjudge.llm.base import ChatModel
from factjudge.records import Evidence
from factjudge.retrieval.sources import Retriever, shared_retriever
from factjudge.retrieval.web_search import SearchProvider, make_search_provider
from factjudge.retrieval.wiki import WikiSource, open_wiki
from factjudge.retrieval.wiki.base import excerpt
from factjudge.retrieval.wiki.reading import Reading
from factjudge.retrieval.wiki.topic import Subjects

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
    wiki: WikiSource | None = None
    subjects: Subjects | None = None  # what the answer is about (found once a check): what wiki reads
    # What wiki read for each item, in order: its subject, the subject's article (coverage).
    readings: list[Reading] = field(default_factory=list)

    @classmethod
    def from_config(cls, config: CheckConfig, model: ChatModel, sources: Sequence[str] | None = None,
                    wiki: str | None = None, subjects: Subjects | None = None) -> Gatherer:
        """The ``sources`` (the config's by default) opened; knowledge bases and Wikipedia once a process."""
        sources = tuple(dict.fromkeys(config.evidence if sources is None else sources))
        kb = (shared_retriever(config.kb, config.retriever, config.embedder)
              if "kb" in sources and config.kb else None)
        web = (make_search_provider(config.search_provider)
               if "web" in sources and config.search_provider else None)
        wiki_source = (open_wiki(wiki, allow_private=config.allow_private_links)
                       if "wiki" in sources and wiki else None)
        return cls(sources, model, kb, web, config.k, config.translate, config.language, wiki=wiki_source,
                   subjects=subjects)

    def gather(self, text: str, topics: Sequence[str] = ()) -> Gathered:
        """Evidence for ``text`` from each source in turn; ``topics`` (the question's) name what the
        answer is about where the gatherer was given no subjects. A source with nothing to give may say
        why (no article about the subject, or generated knowledge: the model knew nothing), in the
        result's ``note``.

        A failed translation falls back to the original text (the transcript records the failure);
        a failed search raises RetrievalError.
        """
        if not self.sources:
            return Gathered(())
        # Passages can be in any language whatever the claim's is, so "after" always translates.
        query = text
        if self.translate == "before" and not is_english(self.language):
            assert self.model is not None
            translated = translate_texts([text], model=self.model, language=self.language)
            if translated is None:
                log.warning("gather: searching with the untranslated claim %r", text)
            else:
                query = translated[0]
        found = [_FROM[name](self, query, topics) for name in self.sources]
        evidence = [ev for got in found for ev in got.evidence]
        if self.translate == "after" and evidence:
            assert self.model is not None
            english = translate_evidence(evidence, model=self.model)
            if english is None:
                log.warning("gather: keeping %d passages untranslated", len(evidence))
            else:
                evidence = english
        return Gathered(tuple(evidence), "; ".join(got.note for got in found if got.note) or None)


@dataclass(frozen=True)
class Gathered:
    """What the sources gave for one item, and why one gave nothing when it said (an item's
    ``evidence_note``)."""

    evidence: tuple[Evidence, ...]
    note: str | None = None


def _from_kb(gatherer: Gatherer, query: str, topics: Sequence[str]) -> Gathered:
    assert gatherer.kb_retriever is not None
    return Gathered(tuple(gatherer.kb_retriever.search(query, gatherer.k)))


def _from_wiki(gatherer: Gatherer, query: str, topics: Sequence[str]) -> Gathered:
    assert gatherer.wiki is not None
    # The item is read in its subject's article only ("She was born in Paris" in Marie Curie's);
    # a subject without one leaves it without evidence, and the reading says so.
    reading = gatherer.wiki.read(query, gatherer.k, subjects=gatherer.subjects or Subjects.named(topics),
                                 language=gatherer.language)
    gatherer.readings.append(reading)
    # The sentences that bear on the item: a small model reads short passages better, and faster.
    return Gathered(tuple(dataclasses.replace(ev, text=excerpt(ev.text, query)) for ev in reading.evidence),
                    reading.note)


def _from_web(gatherer: Gatherer, query: str, topics: Sequence[str]) -> Gathered:
    assert gatherer.model is not None and gatherer.search_provider is not None
    found = search_web(query, model=gatherer.model, provider=gatherer.search_provider,
                       k=gatherer.k, max_steps=gatherer.max_steps)
    return Gathered(tuple(found.evidence))


def _from_llm(gatherer: Gatherer, query: str, topics: Sequence[str]) -> Gathered:
    assert gatherer.model is not None
    knowledge = generate_knowledge(query, model=gatherer.model)
    # A note is said in every verdict on the item, not only in a log.
    return Gathered(tuple(knowledge.passages), knowledge.note)


# Keyed by config.EVIDENCE_SOURCES, the names CheckConfig accepts.
_FROM: dict[str, Callable[[Gatherer, str, Sequence[str]], Gathered]] = {
    "kb": _from_kb,
    "wiki": _from_wiki,
    "web": _from_web,
    "llm": _from_llm,
}
