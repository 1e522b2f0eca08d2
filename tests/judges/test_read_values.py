"""Read the value, then compare: a value the passages contradict makes an item false and is its span."""

from __future__ import annotations

import math

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

CANADA = Evidence("context", "Canada is a country in North America. Its capital is Ottawa, and its "
                             "largest city is Toronto.")
QUESTION = "What is the capital of Canada?"


def reader(blank: str, p_no: float = 0.1) -> ScriptedChatModel:
    """Says Yes to the support question (P(No) ``p_no``: word overlap), fills a cloze blank with ``blank``."""

    def reply(messages: list[Message]) -> Completion | str:
        prompt = messages[-1]["content"]
        if "___" in prompt.rsplit("<statement>", 1)[-1]:
            return blank
        top = {"Yes": math.log(1 - p_no), "No": math.log(p_no)}
        word = "No" if p_no >= 0.5 else "Yes"
        return Completion(word, logprobs=(TokenLogprob(word, top[word], top),), model=LOCAL_DEFAULT)

    return ScriptedChatModel(reply, name=LOCAL_DEFAULT)


def check(answer: str, model: ScriptedChatModel, **settings: object) -> object:
    config = CheckConfig(strategy="supported", **settings)  # type: ignore[arg-type]
    return Checker(config, model).check(QUESTION, answer, context=[CANADA])


def test_a_value_the_passage_contradicts_makes_the_item_false_and_is_its_span() -> None:
    answer = "The capital of Canada is Toronto."
    result = check(answer, reader("Ottawa"))
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "false" and verdict.grounds.rule == "values"
    assert verdict.error_score == 0.55  # above every doubt that did not decide, in its order
    [value] = verdict.grounds.values
    assert (value.stated, value.read, value.outcome) == ("Toronto", "Ottawa", "contradicted")
    assert value.question == "The capital of Canada is ___ (a name)."
    assert value.passage == "Its capital is Ottawa, and its largest city is Toronto."
    assert [(s.text, answer[s.start:s.end]) for s in verdict.spans] == [("Toronto", "Toronto")]
    assert explain.why(verdict) == ("the context says Ottawa; the answer says Toronto; "
                           "asked “The capital of Canada is ___ (a name).”")
    assert "the context says Ottawa; the answer says Toronto" in explain.reason(result)


def test_a_confirmed_or_unstated_value_leaves_the_decision_to_the_doubt() -> None:
    for read, outcome in (("Ottawa", "confirmed"), ("NOT STATED", "not_stated")):
        result = check("The capital of Canada is Ottawa.", reader(read))
        [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
        assert verdict.label == "true" and verdict.grounds.rule == "cut"
        assert [v.outcome for v in verdict.grounds.values] == [outcome]


def test_a_value_the_model_read_but_no_passage_holds_contradicts_nothing() -> None:
    # "Vancouver" is not in the passage: it came from the model's own belief, not from reading.
    result = check("The capital of Canada is Toronto.", reader("Vancouver"))
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "true" and [v.outcome for v in verdict.grounds.values] == ["not_stated"]


def test_no_values_asked_for_is_one_question_an_item() -> None:
    model = reader("Ottawa")
    result = check("The capital of Canada is Toronto.", model, values=0)
    assert result.segment_verdicts[0].label == "true" and len(model.calls) == 1  # type: ignore[attr-defined]
    model = reader("Ottawa")
    check("The capital of Canada is Toronto.", model)
    assert len(model.calls) == 2


def test_with_no_passage_nothing_is_read() -> None:
    model = reader("Ottawa")
    judge = STRATEGIES["evidence"].judge(model, CheckConfig())
    [verdict] = judge.judge(JudgeInput(QUESTION, (Item("segment", 0, "The capital is Toronto.", 0),)))
    assert verdict.label == "unverified" and verdict.grounds.rule == "no_evidence" and model.calls == []
