"""--evidence llm: an item the model knew nothing about says so in every output, not silently."""

from __future__ import annotations

from rich.console import Console

from factjudge.agents.knowledge import NO_KNOWLEDGE, UNREADABLE_KNOWLEDGE, generate_knowledge
from factjudge.checking.checker import Checker
from factjudge.checking.render import print_result
from factjudge.config import CheckConfig
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Verdict

ANSWER = "Paris is the capital of France. Zorblat won the 1911 Glimmer Prize."
PASSAGE = "Passage: Paris is the capital and the largest city of France, on the river Seine."


def reply(messages: list[Message]) -> str:
    prompt = messages[0]["content"]
    if prompt.startswith("You help check"):
        return "Question: What is Zorblat?" if "Zorblat" in prompt else "Question: What is Paris?"
    if prompt.startswith("You write a short"):
        return "UNKNOWN" if "Zorblat" in prompt else PASSAGE
    return "True" if "Paris" in prompt.rsplit("<statement>", 1)[-1] else "False"


def test_generate_knowledge_says_why_there_is_no_passage() -> None:
    unknown = generate_knowledge("Zorblat won.", model=ScriptedChatModel(["Question: Who?", "UNKNOWN"]))
    assert unknown.passages == [] and unknown.note == NO_KNOWLEDGE
    unreadable = generate_knowledge("Zorblat won.", model=ScriptedChatModel(["", "", ""]),
                               max_attempts=3)
    assert unreadable.passages == [] and unreadable.note == UNREADABLE_KNOWLEDGE


def test_unknown_is_on_the_verdict_in_json_and_in_the_terminal() -> None:
    model = ScriptedChatModel(reply)
    result = Checker(CheckConfig(strategy="fact", evidence=("llm",)), model).check("q", ANSWER)
    known, unknown = result.segment_verdicts
    assert known.evidence and known.evidence_note is None
    assert not unknown.evidence
    assert unknown.evidence_note == "the model knew nothing to use as evidence (it replied UNKNOWN)"
    data = result.to_dict()
    assert data["segment_verdicts"][1]["evidence_note"] == unknown.evidence_note
    assert CheckResult.from_dict(data) == result
    console = Console(record=True, width=200)
    print_result(result, console)
    text = console.export_text()
    assert "evidence: the model knew nothing to use as evidence (it replied UNKNOWN)" in text
    assert text.count("knew nothing") == 1


def test_a_note_follows_the_item_through_translation() -> None:
    def translating(messages: list[Message]) -> str:
        prompt = messages[0]["content"]
        if prompt.startswith("You translate"):
            return "1. Zorblat won the 1911 Glimmer Prize."
        return reply(messages)

    model = ScriptedChatModel(translating)
    config = CheckConfig(strategy="fact", evidence=("llm",), translate="before", language="fr")
    result = Checker(config, model).check("q", "Zorblat a gagné le prix Glimmer en 1911.")
    assert result.segment_verdicts[0].evidence_note == NO_KNOWLEDGE


def test_old_verdicts_load_without_a_note() -> None:
    data = Verdict("segment", 1, "true", 0.1, "fact@m").to_dict()
    del data["evidence_note"]
    assert Verdict.from_dict(data).evidence_note is None
