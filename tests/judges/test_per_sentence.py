"""`supported` judges a multi-sentence item sentence by sentence: the strictest sentence decides.

TRUE's finding: a small unsupported part inside a long response hides when the whole is asked
about at once; the minimum over parts catches it. A one-sentence item is asked exactly as before,
so its prompt (and the call cache's key) does not change.
"""

from __future__ import annotations

import math

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

CONTEXT = [Evidence("context", "The city museum opened in 1998 on the south bank of the river.")]
RESPONSE = "The museum opened in 1998. It is on the north bank."


def _yes_no(messages: list[Message]) -> Completion:
    """P(No) 0.9 for a statement about the north bank, 0.1 otherwise."""
    statement = messages[0]["content"].rsplit("<statement>", 1)[1]
    p_no = 0.9 if "north bank" in statement else 0.1
    top = {"Yes": math.log(1 - p_no), "No": math.log(p_no)}
    word = "No" if p_no > 0.5 else "Yes"
    return Completion(text=word, logprobs=(TokenLogprob(word, top[word], top),), model=LOCAL_DEFAULT)


def _check(per_sentence: bool) -> tuple[list[str], object]:
    model = ScriptedChatModel(_yes_no, name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(strategy="supported", per_sentence=per_sentence, values=0), model).check(
        "q", RESPONSE, context=CONTEXT, segments=[RESPONSE])  # judged as one item, as a TRUE pair is
    statements = [call[0]["content"].rsplit("<statement>", 1)[1] for call in model.calls]
    return statements, result


def test_the_strictest_sentence_decides_and_is_named() -> None:
    statements, result = _check(per_sentence=True)
    assert len(statements) == 2 and "north bank" in statements[1] and "north bank" not in statements[0]
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "false" and abs(verdict.error_score - 0.9) < 1e-6
    assert (verdict.grounds.part, verdict.grounds.parts) == ("It is on the north bank.", 2)
    assert explain.reading(verdict) == ("decided by its sentence “It is on the north bank.” "
                                        "(the strictest of 2)")
    assert result.plan.strategy == "supported"  # type: ignore[attr-defined]


def test_judged_whole_it_is_one_question_about_the_whole_text() -> None:
    statements, _ = _check(per_sentence=False)
    assert len(statements) == 1 and "opened in 1998. It is on the north bank" in statements[0]


def test_a_one_sentence_item_is_asked_exactly_as_before() -> None:
    prompts = []
    for per_sentence in (True, False):
        model = ScriptedChatModel(_yes_no, name=LOCAL_DEFAULT)
        Checker(CheckConfig(strategy="supported", per_sentence=per_sentence, values=0), model).check(
            "q", "The museum opened in 1998.", context=CONTEXT)
        prompts.append(model.calls)
    assert prompts[0] == prompts[1] and len(prompts[0]) == 1


def test_a_sentence_that_states_no_fact_is_not_a_part() -> None:
    model = ScriptedChatModel(_yes_no, name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(strategy="supported", values=0), model).check(
        "q", "Hi! Do you like museums? The museum opened in 1998.", context=CONTEXT,
        segments=["Hi! Do you like museums? The museum opened in 1998."])
    statements = [call[0]["content"].rsplit("<statement>", 1)[1] for call in model.calls]
    assert len(statements) == 1 and "opened in 1998" in statements[0] and "Hi!" not in statements[0]
    [verdict] = result.segment_verdicts
    assert verdict.label == "true" and verdict.grounds.part == "The museum opened in 1998."
    assert verdict.grounds.parts == 1
