"""``llm``: generated knowledge, a passage the judging model writes about each item (unverified)."""

from __future__ import annotations

from dataclasses import dataclass

from factjudge.agents.knowledge import generate_knowledge
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.resources import Resources
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources.base import Config, Gathered, SourceType


@dataclass(frozen=True)
class ModelKnowledgeSource:
    """The model's own passage about the item, marked unverified; a note when it knew nothing."""

    model: ChatModel
    name: str = "llm"

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        """The passage the model writes for ``item``, or why there is none."""
        knowledge = generate_knowledge(item, model=self.model)
        # A note is said in every verdict on the item, not only in a log.
        return Gathered(tuple(knowledge.passages), knowledge.note)

    def close(self) -> None:
        """Nothing: the model is the caller's."""


def _open(config: Config, resources: Resources, model: ChatModel | None) -> ModelKnowledgeSource:
    if model is None:
        raise InputError("evidence from llm needs a model to write the passages")
    return ModelKnowledgeSource(model)


SOURCE = SourceType(_open)
