"""``kb``: a knowledge base the user built (``factjudge index build``), searched for each item."""

from __future__ import annotations

from dataclasses import dataclass

from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.resources import Resources
from factjudge.retrieval.sources import RETRIEVERS, Retriever, shared_retriever
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources.base import Config, Gathered, SourceType


@dataclass(frozen=True)
class KBSource:
    """The ``k`` passages a retriever (BM25, dense or both) ranks best for the item."""

    retriever: Retriever
    name: str = "kb"

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        """The retriever's best passages for ``item``."""
        return Gathered(tuple(self.retriever.search(item, k)))

    def close(self) -> None:
        """Nothing: the retriever is the resources' (an index is loaded once a process)."""


def _open(config: Config, resources: Resources, model: ChatModel | None) -> KBSource:
    return KBSource(shared_retriever(config.kb, config.retriever, config.embedder, resources=resources))


def _check(config: Config, chosen: bool) -> None:
    if chosen and not config.kb:
        raise InputError("evidence from kb needs a knowledge base: --kb PATH")
    if config.retriever not in RETRIEVERS:
        raise InputError(f"unknown retriever {config.retriever!r}; choose from {', '.join(RETRIEVERS)}")


SOURCE = SourceType(_open, _check)
