"""Evidence for one item from the sources a plan reads (``factjudge.sources``), in order.

The gatherer opens each source through the registry (``sources.SOURCES``), asks it for every
item's passages about the answer's subjects, joins their notes and adds up their coverage. It
also translates, since that asks the model and spans every source: to English before retrieval
(the claim becomes the English query) or after it (the passages found are translated). The
options are validated once, by CheckConfig and each source's ``check``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from factjudge.agents.translate import is_english, translate_evidence, translate_texts
from factjudge.config import CheckConfig, TranslateMode
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.records import Coverage
from factjudge.resources import current
from factjudge.retrieval.sources import Retriever
from factjudge.retrieval.web_search import SearchProvider
from factjudge.retrieval.wiki import WikiSource
from factjudge.retrieval.wiki.reading import Reading
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources import SOURCES, Gathered, Source, added_up
from factjudge.sources.kb import KBSource
from factjudge.sources.llm import ModelKnowledgeSource
from factjudge.sources.web import WebSource
from factjudge.sources.wiki import WikipediaSource

__all__ = ["Gathered", "Gatherer"]

log = logging.getLogger(__name__)

# The sources by name: the registry's (kept under this name for older callers).
_FROM = SOURCES


class Gatherer:
    """Evidence per item from ``sources``, in order, translated as asked.

    ``opened`` holds the sources by name (``from_config`` opens them through the registry). The
    built-in ones can also be made here over backends already open (``kb_retriever``,
    ``search_provider``, ``wiki``; ``llm`` over ``model``), as tests and benchmarks do.
    """

    def __init__(
        self,
        sources: Sequence[str],
        model: ChatModel | None,  # the web agent, generated knowledge and translation ask it
        kb_retriever: Retriever | None = None,
        search_provider: SearchProvider | None = None,
        k: int = 5,
        translate: TranslateMode | None = None,
        language: str | None = None,  # the items' language ("before" skips English ones)
        max_steps: int = 3,
        wiki: WikiSource | None = None,
        subjects: Subjects | None = None,  # what the answer is about (found once a check)
        *,
        opened: Mapping[str, Source] | None = None,
    ) -> None:
        self.sources = tuple(sources)
        self.model = model
        self.k = k
        self.translate = translate
        self.language = language
        self.subjects = subjects
        given: dict[str, Source | None] = {
            "kb": KBSource(kb_retriever) if kb_retriever is not None else None,
            "web": (WebSource(model, search_provider, max_steps)
                    if model is not None and search_provider is not None else None),
            "wiki": WikipediaSource(wiki) if wiki is not None else None,
            "llm": ModelKnowledgeSource(model) if model is not None else None,
        }
        self.opened: dict[str, Source] = {}
        for name in self.sources:
            source = (opened or {}).get(name) or given.get(name)
            if source is None:
                raise InputError(f"the {name} source was not opened for this gatherer")
            self.opened[name] = source
        self._covered: dict[str, list[Coverage]] = {}

    @classmethod
    def from_config(cls, config: CheckConfig, model: ChatModel | None, sources: Sequence[str] | None = None,
                    wiki: str | None = None, subjects: Subjects | None = None) -> Gatherer:
        """The ``sources`` (the config's by default) opened by the registry, with the current check's
        resources (knowledge bases and Wikipedia are opened once a process); ``wiki`` is the Wikipedia
        the plan chose (the config's "auto" resolved)."""
        sources = tuple(dict.fromkeys(config.evidence if sources is None else sources))
        if wiki is not None and wiki != config.wiki:
            config = config.replace(wiki=wiki)
        held = current()
        opened: dict[str, Source] = {}
        try:
            for name in sources:
                opened[name] = SOURCES[name].open(config, held, model)
        except BaseException:
            for source in opened.values():
                source.close()
            raise
        return cls(sources, model, k=config.k, translate=config.translate, language=config.language,
                   subjects=subjects, opened=opened)

    @classmethod
    def for_answer(cls, config: CheckConfig, model: ChatModel, question: str, answer: str,
                   sources: Sequence[str], wiki: str | None) -> Gatherer:
        """The gatherer of one check: its sources opened, what the answer is about found once."""
        return cls.from_config(config, model, sources, wiki, Subjects.of(question, answer))

    def gather(self, text: str, topics: Sequence[str] = ()) -> Gathered:
        """Evidence for ``text`` from each source in turn; ``topics`` (the question's) name what the
        answer is about where the gatherer was given no subjects. A source with nothing to give may say
        why (no article about the subject, or generated knowledge: the model knew nothing), in the
        result's ``note``; what a source covered is added up in ``coverage()``.

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
        subjects = self.subjects or Subjects.named(topics)
        found = []
        for name in self.sources:
            got = self.opened[name].gather(query, subjects, self.k, self.language)
            if got.coverage is not None:
                self._covered.setdefault(name, []).append(got.coverage)
            found.append(got)
        evidence = [ev for got in found for ev in got.evidence]
        if self.translate == "after" and evidence:
            assert self.model is not None
            english = translate_evidence(evidence, model=self.model)
            if english is None:
                log.warning("gather: keeping %d passages untranslated", len(evidence))
            else:
                evidence = english
        return Gathered(tuple(evidence), "; ".join(got.note for got in found if got.note) or None)

    def coverage(self) -> Coverage | None:
        """What the first source that says so covered of the items gathered so far (the result's
        coverage line: Wikipedia's articles); None when no source says."""
        return next((added_up(self._covered[name]) for name in self.sources if name in self._covered), None)

    def close(self) -> None:
        """Close every source (each releases what it opened for itself)."""
        for source in self.opened.values():
            source.close()

    @property
    def kb_retriever(self) -> Retriever | None:
        """The knowledge base's retriever, when ``kb`` is read."""
        source = self.opened.get("kb")
        return source.retriever if isinstance(source, KBSource) else None

    @property
    def readings(self) -> list[Reading]:
        """What Wikipedia read for each item, in order: its subject, the subject's article."""
        source = self.opened.get("wiki")
        return list(source.readings) if isinstance(source, WikipediaSource) else []
