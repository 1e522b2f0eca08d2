"""A superlative the passage ranks lower makes the item false, with the passage's words as its reason."""

from __future__ import annotations

import math

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

ATLANTICO = Evidence("wikipedia", "El océano Atlántico es la segunda más grande de las cinco divisiones "
                     "oceánicas del globo terráqueo.", title="Océano Atlántico")


def _believing(messages: list[Message]) -> Completion | str:
    """A judge that believes the item (P(No) 0.3) and reads nothing for its blank."""
    statement = next(m["content"] for m in messages if m["role"] == "user").rsplit("<statement>", 1)[-1]
    if "___" in statement or "<question>" in messages[-1]["content"]:
        return "NOT STATED"
    top = {"Yes": math.log(0.7), "No": math.log(0.3)}
    return Completion("Yes", logprobs=(TokenLogprob("Yes", top["Yes"], top),), model=LOCAL_DEFAULT)


def test_the_largest_named_where_its_own_lead_says_second_largest_is_false_with_that_reason() -> None:
    model = ScriptedChatModel(_believing, name=LOCAL_DEFAULT)
    answer = "El océano más grande es el Atlántico."
    result = Checker(CheckConfig(strategy="evidence"), model).check("¿Cuál es el océano más grande?", answer,
                                                                    context=[ATLANTICO])
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "values"
    [rank] = verdict.grounds.contradicted
    assert (rank.kind, rank.stated, rank.read) == ("rank", "más grande", "segunda más grande")
    assert [answer[s.start:s.end] for s in verdict.spans] == ["más grande"]
    assert "the passage says segunda más grande; the answer says más grande" in explain.why(verdict)


ARGENTINA = Evidence("wikipedia", "Argentina, officially the Argentine Republic, is a country in the "
                     "Southern Cone of South America. It covers an area of 2,780,085 km2, making it the "
                     "second-largest country in South America after Brazil, the fourth-largest in the "
                     "Americas, and the eighth-largest country in the world.", title="Argentina")


def test_an_item_opening_with_no_name_is_ranked_as_its_articles_subject_in_any_language() -> None:
    # "Es" names nothing: the rank is said of the article's subject, and "Sudamérica" is "South America".
    model = ScriptedChatModel(_believing, name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(strategy="evidence"), model).check(
        "¿Qué es Argentina?", "Es el país más grande de Sudamérica.", context=[ARGENTINA])
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "values"
    [rank] = verdict.grounds.contradicted
    assert (rank.stated, rank.read) == ("más grande", "second-largest")
