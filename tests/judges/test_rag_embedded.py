"""Issue 43 with the embedded judge: a sentence copied from a 2,000-word context is supported, and a fact
a six-sentence RAG answer adds is flagged by its added words (the scripted logic: test_verbatim.py)."""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.config import CheckConfig
from factjudge.records import CheckResult
from tests.judges.test_verbatim import PASSAGE, SIX, long_context

QUESTION = "When did the Golden Gate Bridge open, and how long is it?"


def _verify(question: str, answer: str, context: list[str]) -> CheckResult:
    pytest.importorskip("llama_cpp")
    from factjudge import Verifier

    return Verifier(CheckConfig(deadline=1800)).verify(question, answer, context=context)


@pytest.mark.local_model
def test_a_sentence_copied_from_a_long_context_is_supported() -> None:
    result = _verify(QUESTION, "Its main span is 1,280 metres long.", long_context())
    [verdict] = result.segment_verdicts
    assert verdict.grounds.windows > 1  # read in windows of 200 tokens
    assert verdict.label == "true", explain.why(verdict)
    # Values are read only where the judge doubts it: then its value is confirmed, and the rule says so.
    outcomes = [v.outcome for v in verdict.grounds.values]
    assert outcomes == (["confirmed"] if verdict.grounds.rule in ("verbatim", "context_words") else [])


@pytest.mark.local_model
def test_an_added_fact_in_a_six_sentence_rag_answer_is_flagged_with_its_words() -> None:
    result = _verify("What changed at the Riverside Library?", SIX, [PASSAGE])
    verdicts = result.segment_verdicts
    assert len(verdicts) == 6
    added = verdicts[4]
    assert added.label == "false", explain.why(added)
    assert any("Hartley Foundation" in s.text for s in added.spans)
    assert all(SIX[s.start:s.end] == s.text for s in added.spans)
    assert "not supported" in explain.reason(result)
