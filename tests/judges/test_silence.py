"""False needs a reason in the passage: gathered passages that only fail to support an item leave it
unverified (rule ``silent``), unless silence is asked to count as false; a context is read as before."""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.records import Evidence
from tests.judges.test_read_values import reader

# A lead that says nothing about the Canadian capital's founding year.
CANADA = Evidence("wikipedia", "Canada is a country in North America. Its capital is Ottawa, and its largest "
                               "city is Toronto.", title="Canada")
QUESTION = "When was Ottawa founded?"


def _verdict(answer: str, blank: str, p_no: float, strategy: str = "evidence", question: str = QUESTION,
             **settings: object) -> object:
    config = CheckConfig(strategy=strategy, **settings)  # type: ignore[arg-type]
    result = Checker(config, reader(blank, p_no)).check(question, answer, context=[CANADA])
    [verdict] = result.segment_verdicts
    return verdict


def test_a_passage_that_only_fails_to_support_an_item_leaves_it_unverified_and_says_so() -> None:
    verdict = _verdict("The capital of Canada was founded in 1826.", "NOT STATED", p_no=0.8)
    assert verdict.label == "unverified" and verdict.grounds.rule == "silent"  # type: ignore[attr-defined]
    assert verdict.error_score == pytest.approx(0.8)  # the doubt still ranks it (ROC AUC)
    assert explain.why(verdict) == ("not enough evidence: the passage does not state it, and nothing in it "
                                    "says otherwise")


def test_silence_counts_as_false_only_when_asked() -> None:
    verdict = _verdict("The capital of Canada was founded in 1826.", "NOT STATED", p_no=0.8, silence="false")
    assert verdict.label == "false" and verdict.grounds.rule == "band"  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="silence"):
        CheckConfig(silence="maybe")  # type: ignore[arg-type]


def test_a_value_the_passage_contradicts_is_still_false_with_its_reason() -> None:
    verdict = _verdict("The capital of Canada is Toronto.", "Ottawa", p_no=0.8,
                       question="What is the capital of Canada?")
    assert verdict.label == "false" and verdict.grounds.rule == "values"  # type: ignore[attr-defined]
    assert explain.why(verdict).startswith("the passage says Ottawa; the answer says Toronto")


def test_a_context_that_does_not_state_an_item_still_does_not_support_it() -> None:
    # RAG: what the caller's context does not state is what is not supported by it.
    verdict = _verdict("The capital of Canada was founded in 1826.", "NOT STATED", p_no=0.8,
                       strategy="supported")
    assert verdict.label == "false" and verdict.grounds.rule == "cut"  # type: ignore[attr-defined]
