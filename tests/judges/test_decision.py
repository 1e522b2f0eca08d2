"""Per-item decision judges: Yes/No words, graded scores from the decision token, calibrated labels."""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.agents.parsing import parse_decision
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.errors import ParseError
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.decision import Band, DecisionJudge
from factjudge.judges.strategies import SUPPORTED_THRESHOLD, strategy_named
from factjudge.llm.registry import LOCAL_DEFAULT, model_info
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.transcript import Transcript
from tests.judges.test_evidence_judge import yes_no

YES_NO = ("Yes", "No")


@pytest.mark.parametrize(("reply", "expected"), [
    ("Yes", True), ("No", False), ("**No**", False), ("Answer: yes.", True),
    ("no, the passage says Paris", False),
    ("Yes or No: No", False),
])
def test_parse_yes_no(reply: str, expected: bool) -> None:
    assert parse_decision(reply, YES_NO) is expected


@pytest.mark.parametrize("reply", ["", "Maybe", "Both are possible", "It is not yes"])
def test_parse_yes_no_refuses_what_it_cannot_read(reply: str) -> None:
    with pytest.raises(ParseError):
        parse_decision(reply, YES_NO)


def _job() -> JudgeInput:
    context = (Evidence("context", "The museum opened in 1998 on the south bank."),)
    items = (Item("segment", 1, "The museum opened in 1998.", 1),
             Item("segment", 2, "It is on the north bank.", 2))
    return JudgeInput("When did it open?", items, context)


def test_the_calibrated_threshold_decides_the_label_and_says_so(transcript: Transcript) -> None:
    model = ScriptedChatModel([yes_no(0.3, "m"), yes_no(0.45, "m")], name="m")
    judge = DecisionJudge(model, "supported", prompt="judge_supported", max_tokens=2, band=Band(0.4, 0.4))
    traces = transcript.traces
    first, second = judge.judge(_job())
    assert (first.label, second.label) == ("true", "false")  # the model said Yes both times
    assert second.error_score == pytest.approx(0.45)
    assert (second.grounds.rule, second.grounds.false_from, second.grounds.word) == ("cut", 0.4, "Yes")
    assert explain.why(second) == "the context does not support it" and second.cut == 0.4
    assert "south bank" in model.calls[0][0]["content"] and "north bank" in model.calls[1][0]["content"]
    assert [t.prompt_name for t in traces] == ["judge_supported"] * 2


def test_without_a_threshold_or_logprobs_the_word_is_the_label() -> None:
    model = ScriptedChatModel(["No", "Yes"], name="m")
    verdicts = list(DecisionJudge(model, "supported", prompt="judge_supported", max_tokens=2,
                                  band=Band(0.4, 0.4)).judge(_job()))
    assert [(v.label, v.error_score) for v in verdicts] == [("false", 1.0), ("true", 0.0)]
    assert [(v.grounds.rule, v.grounds.word, explain.why(v)) for v in verdicts] == [
        ("word", "No", "the model answered No"), ("word", "Yes", "the model answered Yes")]
    assert [p.choices for p in model.params] == [YES_NO, YES_NO]  # one forward pass where the backend can


def test_the_embedded_model_defaults_to_per_item_decisions_and_reads_a_context() -> None:
    assert model_info("local").default_strategy == model_info("local:smollm2").default_strategy == "fact"
    assert model_info("openai:gpt-4o-mini").default_strategy == "vanilla"
    assert strategy_named("fact").with_context == "supported"
    model = ScriptedChatModel([yes_no(0.1, "m"), yes_no(0.9, "m")], name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(values=0), model).check(
        "When did it open?", "The museum opened in 1998. It is on the north bank.",
        context=[Evidence("context", "The museum opened in 1998 on the south bank.")])
    assert result.strategy == "supported" and [v.label for v in result.segment_verdicts] == ["true", "false"]
    assert result.segment_verdicts[1].error_score == pytest.approx(0.9)
    assert 0.1 < SUPPORTED_THRESHOLD < 0.9
