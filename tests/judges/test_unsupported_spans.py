"""Judges that decide by the caller's passages alone point a false item at the words they lack."""

from __future__ import annotations

from factjudge import CheckConfig, Verifier, explain
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

QUESTION = "When did the Golden Gate Bridge open, and how long is it?"
ANSWER = "The Golden Gate Bridge opened in 1937. Its main span is about 4,200 metres long."
CONTEXT = ["The Golden Gate Bridge opened to traffic in May 1937. Its main span is 1,280 metres long."]


def test_supported_fills_the_spans_of_a_false_sentence_with_its_unsupported_words() -> None:
    model = ScriptedChatModel(["Yes", "No"], name=LOCAL_DEFAULT)
    # Values not read: a contradicted value would be the span (tests/judges/test_read_values.py).
    result = Verifier(CheckConfig(values=0), model=model).verify(QUESTION, ANSWER, context=CONTEXT)
    assert result.strategy == "supported"
    true, false = result.segment_verdicts
    assert true.spans == () and [s.text for s in false.spans] == ["4,200"]
    span = false.spans[0]
    assert span.located and ANSWER[span.start : span.end] == "4,200"
    assert result.spans == false.spans  # the terminal underlines them
    assert "flagged: '4,200'" in explain.reason(result)


def test_grounded_keeps_the_judges_quote_and_fills_in_when_there_is_none() -> None:
    quoted = Verifier(model=ScriptedChatModel(['Answer: 2 ["about 4,200 metres"]'], name="scripted:judge"))
    [span] = quoted.verify(QUESTION, ANSWER, context=CONTEXT).segment_verdicts[1].spans
    assert span.text == "about 4,200 metres"
    bare = Verifier(model=ScriptedChatModel(["Answer: 2"], name="scripted:judge"))
    result = bare.verify(QUESTION, ANSWER, context=CONTEXT)
    assert result.strategy == "grounded"
    assert [s.text for s in result.segment_verdicts[1].spans] == ["4,200"]


def test_open_judges_and_judges_without_passages_quote_nothing_of_their_own() -> None:
    doc = Verifier(model=ScriptedChatModel(["Answer: 2"], name="scripted:judge"), grounded=False)
    result = doc.verify(QUESTION, ANSWER, context=CONTEXT)
    assert result.strategy == "doc" and result.segment_verdicts[1].spans == ()
    fact = Verifier(CheckConfig(strategy="fact", wiki="none"), model=ScriptedChatModel(["True", "False"]))
    assert fact.verify(QUESTION, ANSWER).segment_verdicts[1].spans == ()


def test_the_evidence_judge_without_a_contradicted_value_keeps_whole_segments() -> None:
    passage = Evidence("wikipedia", CONTEXT[0], title="Golden Gate Bridge")
    start = ANSWER.index("Its")
    item = Item("segment", 2, ANSWER[start:], 2, start, len(ANSWER), evidence=(passage,))
    for silence, label in (("false", "false"), ("unverified", "unverified")):
        model = ScriptedChatModel(["No", "NOT STATED", "NOT STATED"], name="local:scripted")
        judge = STRATEGIES["evidence"].judge(model, CheckConfig(silence=silence))  # type: ignore[arg-type]
        [verdict] = judge.judge(JudgeInput(QUESTION, (item,), answer=ANSWER))
        assert verdict.label == label and verdict.spans == ()
