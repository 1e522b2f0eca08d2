"""A source added the README's way ("Adding an evidence source"): a class and one registration.

The test registers a toy source, a dict of passages, and checks an answer against it through
the public API; the config, the gatherer and the coverage line find it in the registry.
"""

from __future__ import annotations

from typing import Any

import pytest

from factjudge import Verifier
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.explain import coverage
from factjudge.llm.base import ChatModel, Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Coverage, Evidence
from factjudge.resources import Resources
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources import SOURCES, Gathered, SourceType

FACTS = {
    "Eiffel Tower": "The Eiffel Tower is a wrought-iron tower in Paris, completed in 1889.",
    "Louvre": "The Louvre, in Paris, is the world's most-visited art museum.",
}
QUESTION = "Where is the Eiffel Tower, and when was it finished?"
ANSWER = "The Eiffel Tower is in Paris. The Eiffel Tower was finished in 1920. Big Ben is in London."


class FactsSource:
    """Evidence from a dict of passages by title: the passages whose title the item names."""

    name = "facts"

    def __init__(self, facts: dict[str, str]) -> None:
        self.facts = facts
        self.asked: list[tuple[str, int, str | None]] = []
        self.closed = False

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        self.asked.append((item, k, language))
        found = tuple(Evidence("facts", text, title=title) for title, text in self.facts.items()
                      if title in item)[:k]
        if not found:
            return Gathered((), "no passage names it in the test's facts",
                            Coverage("the test's facts", 1, 0, without=(item.split(" is ")[0],)))
        return Gathered(found, coverage=Coverage("the test's facts", 1, 1))

    def close(self) -> None:
        self.closed = True


def judge(messages: list[Message]) -> str:
    """The fact judge's reply: the statement is false when it says 1920, else true."""
    statement = messages[-1]["content"].rsplit("<statement>", 1)[-1]
    return "False" if "1920" in statement else "True"


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[FactsSource]:
    """The facts source registered as ``facts``, and every one opened since."""
    sources: list[FactsSource] = []

    def open_facts(config: Any, resources: Resources, model: ChatModel | None) -> FactsSource:
        sources.append(FactsSource(FACTS))
        return sources[-1]

    monkeypatch.setitem(SOURCES, "facts", SourceType(open_facts))
    return sources


def test_a_registered_source_is_read_by_a_check(opened: list[FactsSource]) -> None:
    config = CheckConfig(strategy="fact", evidence=("facts",), k=3, language="en")
    with Verifier(config, model=ScriptedChatModel(judge)) as verifier:
        result = verifier.verify(QUESTION, ANSWER)
    [source] = opened
    assert [v.label for v in result.segment_verdicts] == ["true", "false", "true"]
    assert result.segment_verdicts[1].evidence[0].title == "Eiffel Tower"
    assert result.segment_verdicts[2].evidence == ()
    assert result.segment_verdicts[2].evidence_note == "no passage names it in the test's facts"
    assert [asked[1:] for asked in source.asked] == [(3, "en")] * 3
    assert source.closed  # closed when the check has gathered
    assert result.coverage == Coverage("the test's facts", 3, 2, without=("Big Ben",))
    assert coverage(result.coverage) == ("read: the test's facts, an article for 2 of 3 items "
                                         "(none about Big Ben)")


def test_the_config_knows_a_source_once_it_is_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InputError, match="unknown evidence source 'facts'; choose from kb, wiki, web, llm"):
        CheckConfig(evidence=("facts",))

    def needs_a_language(config: Any, chosen: bool) -> None:
        if chosen and config.language != "en":
            raise InputError("evidence from facts is in English only")

    monkeypatch.setitem(SOURCES, "facts", SourceType(lambda *_: FactsSource(FACTS), needs_a_language))
    assert CheckConfig(evidence=("facts",)).evidence == ("facts",)
    assert CheckConfig(language="fr").language == "fr"  # its check only binds when it is read
    with pytest.raises(InputError, match="in English only"):
        CheckConfig(evidence=("facts",), language="fr")
