"""LLM-generated knowledge: a question, then a passage, as unverified evidence."""

from __future__ import annotations

import pytest

from factjudge.agents.knowledge import generate_knowledge, parse_passage, parse_question
from factjudge.errors import ParseError
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.transcript import Transcript

CLAIM = "Rabindranath Tagore won the Nobel Prize in Literature in 1921."
QUESTION = "In which year did Rabindranath Tagore receive the Nobel Prize in Literature?"
PASSAGE = ("Rabindranath Tagore was a Bengali poet, writer and composer. In 1913 he became the first "
           "non-European to be awarded the Nobel Prize in Literature, largely for Gitanjali.")


def test_a_question_then_a_passage_become_unverified_evidence(transcript: Transcript) -> None:
    traces = transcript.traces
    model = ScriptedChatModel([f"Question: {QUESTION}", f"Passage: {PASSAGE}"])
    evidence = generate_knowledge(CLAIM, model=model).passages
    assert evidence == [Evidence(source="llm", text=PASSAGE, title=QUESTION, verified=False)]
    asked_question, asked_passage = (call[0]["content"] for call in model.calls)
    assert f"<statement>\n{CLAIM}\n</statement>" in asked_question
    assert f"<question>\n{QUESTION}\n</question>" in asked_passage
    assert "Write it in the same language as the question." in asked_passage
    assert [(t.step, t.prompt_name) for t in traces] == [
        ("knowledge_question", "knowledge_question"), ("knowledge_passage", "knowledge_passage")]


def test_the_passage_language_can_be_chosen() -> None:
    model = ScriptedChatModel([f"Question: {QUESTION}", f"Passage: {PASSAGE}"])
    generate_knowledge(CLAIM, model=model, language="English")
    assert "Write it in English." in model.calls[1][0]["content"]


def test_a_bad_question_is_retried(transcript: Transcript) -> None:
    traces = transcript.traces
    replies = [f"Good idea! Here is a question.\nQuestion: {QUESTION}", f"Question: {QUESTION}",
               f"Passage: {PASSAGE}"]
    model = ScriptedChatModel(replies)
    assert len(generate_knowledge(CLAIM, model=model).passages) == 1
    assert "could not be read" in model.calls[1][-1]["content"]
    assert [t.error is None for t in traces] == [False, True, True]


def test_unknown_gives_no_evidence_and_no_error(transcript: Transcript) -> None:
    traces = transcript.traces
    model = ScriptedChatModel([f"Question: {QUESTION}", "UNKNOWN"])
    assert generate_knowledge(CLAIM, model=model).passages == []
    assert [t.error for t in traces] == [None, None]


def test_unreadable_replies_give_no_evidence_and_are_traced(transcript: Transcript) -> None:
    traces = transcript.traces
    model = ScriptedChatModel([f"Question: {QUESTION}", PASSAGE, "Tagore won in 1913.", "Passage: 1913."])
    assert generate_knowledge(CLAIM, model=model).passages == []
    assert [t.error is None for t in traces] == [True, False, False, False]
    traces.clear()
    model = ScriptedChatModel(["", "What year?", "Q: What year?"])
    assert generate_knowledge(CLAIM, model=model).passages == []
    assert len(model.calls) == 3 and all(t.error for t in traces)


def test_parse_passage_joins_lines_and_rejects_bad_replies() -> None:
    assert parse_passage("Passage: Line one of it\nand line two here.") == "Line one of it and line two here."
    assert parse_passage("unknown.") == ""
    chinese = "泰戈尔于1913年获得诺贝尔文学奖。"  # no spaces, yet a whole sentence
    assert parse_passage(f"Passage: {chinese}") == chinese
    for bad, reason in [("", "empty"), ("Here it is: a passage of many words.", "start with"),
                        ("Passage: too short", "fewer than")]:
        with pytest.raises(ParseError, match=reason):
            parse_passage(bad)


def test_parse_question_rejects_prose_and_empty_questions() -> None:
    assert parse_question(f"  question: {QUESTION} ") == QUESTION
    for bad in ["", "Question:", f"{QUESTION}", f"Question: {QUESTION}\nQuestion: another?"]:
        with pytest.raises(ParseError):
            parse_question(bad)
