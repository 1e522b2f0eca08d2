"""Error spans: the judge's quotes found in the original answer, or recorded as unlocated."""

from __future__ import annotations

import pytest

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.text.spans import find_passage, locate

ANSWER = "The Arctic Ocean covers about 30 million km², the Pacific is larger. The Arctic is cold."


@pytest.mark.parametrize(
    ("quote", "expected"),
    [
        ("30 million km²", "30 million km²"),
        ("30 MILLION  km", "30 million km"),  # case and whitespace
        ("the pacific, is larger", "the Pacific is larger"),  # punctuation the judge added
        ("km² the Pacific", "km², the Pacific"),  # punctuation the judge dropped
        ('"the Pacific is larger."', "the Pacific is larger"),  # verbatim inside quotes and a full stop
    ],
)
def test_tolerant_matching_returns_the_answers_own_words(quote: str, expected: str) -> None:
    span = locate(quote, ANSWER)
    assert span.located and ANSWER[span.start : span.end] == expected == span.text


@pytest.mark.parametrize(
    ("answer", "quote", "expected"),
    [
        ("长城位于中国北方。长城建于公元前七世纪。", "公元前 七世纪", "公元前七世纪"),
        ("برج إيفل يقع في لندن.", "في لندن", "في لندن"),
        ("ताजमहल आगरा में है। इसे शाहजहाँ ने बनवाया।", "शाहजहाँ", "शाहजहाँ"),
    ],
)
def test_scripts_without_spaces_or_with_marks(answer: str, quote: str, expected: str) -> None:
    span = locate(quote, answer)
    assert span.located and answer[span.start : span.end] == expected


def test_the_quoted_segment_is_searched_first() -> None:
    answer = "The Arctic is cold. The Antarctic is cold."
    assert locate("is cold", answer, start=20, end=len(answer)).start == 34
    assert locate("is cold", answer).start == 11


def test_a_quote_found_only_in_another_item_is_not_located() -> None:
    answer = "Paris is the capital of France. The Seine flows through Berlin. It is long."
    second = answer.index("The Seine")
    assert locate("Berlin", answer, second, answer.index(" It is")).located
    wrong_item = locate("Berlin", answer, answer.index("It is"), len(answer))  # quoted for item 3
    assert not wrong_item.located and wrong_item.start == -1
    assert not locate("Paris", answer, -1, -1).located  # the item's place in the answer is unknown


def test_a_quote_not_in_the_answer_is_unlocated_never_guessed() -> None:
    span = locate("the Indian Ocean", ANSWER)
    assert not span.located and (span.start, span.end) == (-1, -1) and span.text == "the Indian Ocean"
    assert not locate("...", ANSWER).located


def test_pipeline_attaches_located_and_unlocated_spans_to_false_verdicts() -> None:
    model = ScriptedChatModel(['Answer: 1 ["30 million km²"], 2 ["freezing hot"]'])
    result = Checker(CheckConfig(), model).check("How big is the Arctic Ocean?", ANSWER)
    first, second = result.segment_verdicts
    assert first.spans[0].located and ANSWER[first.spans[0].start : first.spans[0].end] == "30 million km²"
    assert not second.spans[0].located
    assert [s.text for s in result.spans] == ["30 million km²"]  # only located spans are highlighted
    assert "exact wrong words" in model.calls[0][0]["content"]


PASSAGE_ANSWER = 'He said “It\'s   late.”\nThe BRIDGE opened in 1932. It cost $5m.'


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("The bridge opened in 1932.", "The BRIDGE opened in 1932."),  # case
        ('He said "It\'s late."', "He said “It\'s   late.”"),  # quote styles and a whitespace run
        ("* It cost 5m.", "It cost $5m."),  # a bullet added, a sign dropped
        ("The bridge opened\\nin 1932.", "The BRIDGE opened in 1932."),  # a literal escape
    ],
)
def test_passages_are_found_forgivingly_as_the_answers_own_text(given: str, expected: str) -> None:
    span = find_passage(given, PASSAGE_ANSWER)
    assert span is not None and PASSAGE_ANSWER[span[0] : span[1]] == expected


def test_a_repeated_passage_is_found_after_pos_first() -> None:
    answer = "It is cold. It is warm. it is COLD."
    assert find_passage("it is cold", answer, pos=12) == (24, 34)
    assert find_passage("it is cold", answer) == (0, 10)


@pytest.mark.parametrize("given", ["The tower fell in 1850.", "", "***", "bridge 1932 cost opened said late"])
def test_a_passage_that_is_not_there_is_not_found(given: str) -> None:
    assert find_passage(given, PASSAGE_ANSWER) is None


def test_edited_passages_are_fuzzy_matched_only_in_answers_of_bounded_size() -> None:
    steps = " ".join(f"Step {i} gives {3 * i}." for i in range(40))
    answer = f"Multiply as follows: markdown Copy code {steps} Done."
    edited = f"Multiply as follows: {steps}"
    assert find_passage(edited, answer) == (0, answer.index(" Done"))
    long = answer + " The river runs north." * 4000  # fuzzy matching would cost seconds here
    assert find_passage(edited, long) is None
    at = len(answer) + 1
    assert find_passage("the RIVER runs north", long, pos=at) == (at, at + 20)  # exact matches still work
