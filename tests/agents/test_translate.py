"""Translation to English: no-op for English, strict numbered contract, retries, failures reported."""

from __future__ import annotations

import pytest

from factjudge.agents.translate import (
    is_english,
    parse_numbered,
    translate_evidence,
    translate_texts,
)
from factjudge.errors import ParseError
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.transcript import Transcript

FRENCH = ["Le Nil est le plus long fleuve d'Afrique.", "Marie Curie est née\nà Varsovie en 1867."]
ENGLISH = ["The Nile is the longest river in Africa.", "Marie Curie was born in Warsaw in 1867."]


def test_english_is_passed_through_without_a_call(transcript: Transcript) -> None:
    model = ScriptedChatModel([])
    traces = transcript.traces
    assert translate_texts(ENGLISH, model=model, language="en-GB") == ENGLISH
    assert translate_texts([], model=model, language="fr") == []
    assert model.calls == [] and traces == []
    assert is_english("English") and is_english("en_US") and not is_english("es") and not is_english(None)


def test_texts_are_numbered_one_per_line_and_read_back(transcript: Transcript) -> None:
    traces = transcript.traces
    model = ScriptedChatModel(["1. The Nile is the longest river in Africa.\n"
                               "2. Marie Curie was born in Warsaw in 1867."])
    assert translate_texts(FRENCH, model=model, language="fr") == ENGLISH
    prompt = model.calls[0][0]["content"]
    assert "Now translate these 2 texts from French." in prompt
    # The newline inside text 2 is flattened so that every text stays on its numbered line.
    assert (f"<texts>\n1. {FRENCH[0]}\n2. Marie Curie est née à Varsovie en 1867.\n</texts>") in prompt
    assert traces[0].step == "translate" and traces[0].error is None


def test_without_a_language_the_model_is_asked_anyway() -> None:
    model = ScriptedChatModel(["1. The Nile is the longest river in Africa."])
    assert translate_texts(FRENCH[:1], model=model) == ENGLISH[:1]
    assert "Now translate these 1 texts.\n" in model.calls[0][0]["content"]


def test_bad_replies_are_retried_then_reported_as_none(transcript: Transcript) -> None:
    traces = transcript.traces
    replies = ["Here are the translations:\n1. The Nile.\n2. Curie.", "1. The Nile is long.",
               "1. The Nile is the longest river in Africa.\n2. Marie Curie was born in Warsaw in 1867."]
    model = ScriptedChatModel(replies)
    assert translate_texts(FRENCH, model=model, language="fr") == ENGLISH
    assert [t.attempt for t in traces] == [1, 2, 3]
    assert "not numbered" in (traces[0].error or "") and "expected 2 translations" in (traces[1].error or "")
    traces.clear()
    model = ScriptedChatModel(["The Nile.", "2. Curie\n1. Nile", ""])
    assert translate_texts(FRENCH, model=model, language="fr") is None
    assert len(traces) == 3 and all(t.error for t in traces)


def test_evidence_keeps_its_fields_and_gets_english_text() -> None:
    evidence = [Evidence(source="kb", text=FRENCH[0], url="https://fr.wikipedia.org/wiki/Nil", score=2.5)]
    model = ScriptedChatModel([f"1. {ENGLISH[0]}"])
    (english,) = translate_evidence(evidence, model=model, language="fr") or []
    assert english == Evidence(source="kb", text=ENGLISH[0], url=evidence[0].url, score=2.5)
    assert translate_evidence(evidence, model=ScriptedChatModel(["nope"] * 3)) is None


@pytest.mark.parametrize(("reply", "reason"), [
    ("", "empty"),
    ("1. a\n3. c", "expected text 2 next"),
    ("1. a\n2. b\n3. c", "expected 2 translations"),
    ("1. a\n2.", "translation 2 is empty"),
    ("1. a\nand more", "not numbered"),
])
def test_parse_numbered_rejects_real_bad_replies(reply: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_numbered(reply, count=2)


def test_parse_numbered_accepts_parentheses_and_blank_lines() -> None:
    assert parse_numbered("1) a\n\n2) b\n", count=2) == ["a", "b"]
