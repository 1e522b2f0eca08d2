"""Reading a value from the passages and comparing it: the prompt, the outcome, the guards."""

from __future__ import annotations

from factjudge.agents.read_value import check_values, read_value
from factjudge.grounds import ValueCheck
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.text.values import value_spans
from factjudge.transcript import Transcript

CANADA = Evidence("wikipedia", "Canada is a country in North America. Its capital is Ottawa, and its "
                  "largest city is Toronto.", title="Canada")
ITEM = "The capital of Canada is Toronto."
QUESTION = "What is the capital of Canada?"


def test_the_value_the_passage_gives_contradicts_the_stated_one(transcript: Transcript) -> None:
    model = ScriptedChatModel(["Ottawa"])
    traces = transcript.traces
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert (reading.check.stated, reading.check.read, reading.check.outcome, reading.passage) == \
        ("Toronto", "Ottawa", "contradicted", 0)
    assert ITEM[reading.check.start:reading.check.end] == "Toronto"
    assert reading.trace == 0 and len(traces) == 1
    assert reading.check.passage == "Its capital is Ottawa, and its largest city is Toronto."
    assert reading.check == ValueCheck("Toronto", "name", "The capital of Canada is ___ (a name).",
                                       "Ottawa", "contradicted", 25, 32, reading.check.passage)
    prompt = model.calls[0][0]["content"]
    assert "The capital of Canada is ___ (a name)." in prompt
    assert prompt.index("Its capital is Ottawa") < prompt.rindex("___ (a name)")  # passages first
    assert model.params[0].max_tokens <= 24 and model.params[0].temperature == 0


def test_the_right_value_is_confirmed_and_a_question_can_be_asked_instead() -> None:
    model = ScriptedChatModel(["Ottawa"])
    [reading] = check_values(model, "The capital of Canada is Ottawa.", [CANADA],
                             question=QUESTION, form="question")
    assert reading.check.outcome == "confirmed"
    assert reading.check.question == "The capital of Canada is what?"
    assert "<question>\nThe capital of Canada is what?\n</question>" in model.calls[0][0]["content"]


def test_a_value_no_passage_holds_came_from_belief_and_is_not_stated() -> None:
    model = ScriptedChatModel(["Vancouver"])
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert reading.check.read == "Vancouver" and reading.check.outcome == "not_stated"
    assert reading.passage is None


def test_passages_that_do_not_say_leave_it_not_stated() -> None:
    model = ScriptedChatModel(["NOT STATED"])
    [reading] = check_values(model, ITEM, [CANADA], question=QUESTION)
    assert reading.check.read is None and reading.check.outcome == "not_stated"


def test_an_unreadable_reply_is_asked_again_then_left_not_stated(transcript: Transcript) -> None:
    model = ScriptedChatModel(["", "Ottawa"])
    traces = transcript.traces
    span = value_spans(ITEM, question=QUESTION)[0]
    reading = read_value(model, [CANADA], ITEM, span)
    assert reading.check.outcome == "contradicted" and [t.error is None for t in traces] == [False, True]
    model = ScriptedChatModel(["", ""])
    assert read_value(model, [CANADA], ITEM, span).check.outcome == "not_stated"


def test_no_passage_no_call_and_at_most_limit_values() -> None:
    model = ScriptedChatModel([])
    assert check_values(model, ITEM, [], question=QUESTION) == []
    item = "Marie Curie was born in Warsaw in 1867 and died in 1934 in Passy."
    model = ScriptedChatModel(["Warsaw", "1867"])
    born = Evidence("wikipedia", "Curie's birthplace: Warsaw; her year of birth: 1867.")
    found = check_values(model, item, [born],
                         question="Tell me about Marie Curie.", limit=2)
    assert [r.check.outcome for r in found] == ["confirmed", "confirmed"] and len(model.calls) == 2


def test_a_value_the_item_states_in_another_slot_contradicts_nothing() -> None:
    # "from ___ to 1527": the model filled the blank with the item's other year.
    passages = [Evidence("wikipedia", "The dynasty ruled from 1428 to 1527 and from 1533 to 1789.")]
    item = "The dynasty ruled from 1430 to 1527."
    model = ScriptedChatModel(["1527", "1527"])
    first, second = check_values(model, item, passages, question="Tell me about the dynasty.")
    assert (first.check.stated, first.check.read, first.check.outcome) == ("1430", "1527", "not_stated")
    assert (second.check.stated, second.check.outcome) == ("1527", "confirmed")


def test_a_read_value_that_names_the_topic_was_read_into_the_wrong_slot() -> None:
    passages = [Evidence("wikipedia", "Arnold Palmer formed the Big Three with Jack Nicklaus and "
                                      "Gary Player.")]
    model = ScriptedChatModel(["Arnold Palmer"])
    [reading] = check_values(model, "He played golf with Jack Nicklaus.", passages,
                             question="Tell me about Arnold Palmer.", limit=1)
    assert (reading.check.stated, reading.check.read, reading.check.outcome) == (
        "Jack Nicklaus", "Arnold Palmer", "not_stated")


def test_a_value_the_passage_states_in_the_items_own_words_is_confirmed_without_a_call() -> None:
    novel = Evidence("wikipedia", "One Hundred Years of Solitude is a 1967 novel by Gabriel García Márquez. "
                     "It was recognized at a conference in 2007.", title="One Hundred Years of Solitude")
    item = "One Hundred Years of Solitude is a 1967 novel by Gabriel García Márquez."
    model = ScriptedChatModel([])  # a call would fail: there is nothing to read
    span = next(s for s in value_spans(item) if s.text == "1967")
    reading = read_value(model, [novel], item, span)
    assert (reading.check.outcome, reading.check.read) == ("confirmed", "1967")
    assert (reading.passage, reading.trace) == (0, None)
    assert reading.check.passage == ("One Hundred Years of Solitude is a 1967 novel by Gabriel García "
                                     "Márquez.")
    # Toronto is in the passage, but not where the item puts it: the model is asked.
    asked = read_value(ScriptedChatModel(["Ottawa"]), [CANADA], ITEM,
                       value_spans(ITEM, question=QUESTION)[0], question=QUESTION)
    assert (asked.check.outcome, asked.check.read) == ("contradicted", "Ottawa")
