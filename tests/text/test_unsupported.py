"""The words of an item its passages do not contain, as spans of the answer."""

from __future__ import annotations

from factjudge.records import ErrorSpan
from factjudge.text.unsupported import affirmed, context_share, unsupported_spans, unsupported_words

PASSAGE = ("The Golden Gate Bridge opened to traffic in May 1937. Its main span is 1,280 metres long, "
           "and it was the longest suspension bridge span in the world until 1964.")


def words(item: str, *passages: str) -> list[str]:
    return [w for _, w in unsupported_words(item, passages or (PASSAGE,))]


def test_numbers_and_content_words_missing_from_the_passages() -> None:
    assert words("It opened in 1950.") == ["1950"]
    assert words("Its main span is about 4,200 metres long.") == ["4,200"]
    assert words("The Golden Gate Bridge is painted blue.") == ["painted", "blue"]


def test_stop_words_case_and_punctuation_are_ignored() -> None:
    assert words("THE BRIDGE opened in 1937!") == []
    assert words("It is (1,280) metres long, isn't it? Don't they?") == []


def test_thousands_separators_and_word_endings_are_forgiven() -> None:
    assert words("The span is 1280 metres.") == []
    assert words("The span measures 1.280 metres.", "The span is 1,280 metres.") == ["measures"]
    assert words("The bridges open in May.") == []
    assert words("It was 3.5 km long.", "It was 35 km long.") == ["3.5"]


def test_other_languages_use_their_stop_words() -> None:
    assert words("La tour a été achevée en 1920.", "La tour a été achevée en 1889.") == ["1920"]
    assert words("El puente se abrió en 1950.", "El puente se abrió en 1937.") == ["1950"]


def test_spans_point_into_the_answer() -> None:
    answer = "The Golden Gate Bridge opened in 1937. It opened in 1950."
    start = answer.index("It opened")
    spans = unsupported_spans("It opened in 1950.", [PASSAGE], answer, start, len(answer))
    assert spans == (ErrorSpan(answer.index("1950"), answer.index("1950") + 4, "1950"),)
    assert answer[spans[0].start : spans[0].end] == "1950"


def test_a_claim_is_searched_for_word_by_word_in_its_sentence() -> None:
    answer = "Built in 1950, the bridge is blue."
    spans = unsupported_spans("The bridge was built in 1950.", [PASSAGE], answer, 0, len(answer))
    assert [(s.text, s.located) for s in spans] == [("Built", True), ("1950", True)]
    assert answer[spans[1].start : spans[1].end] == "1950"
    unplaced = unsupported_spans("It opened in 1950.", [PASSAGE], answer, -1, -1)
    assert unplaced == (ErrorSpan(-1, -1, "1950", located=False),)


def test_a_clause_that_denies_its_words_does_not_state_them() -> None:
    record = ["outdoor seating: no\nWiFi: free", "parking: garage yes, lot no", "Music: not given"]
    # For a sentence that denies nothing, the denied attributes are left out, clause by clause.
    assert affirmed("It offers outdoor seating and lot parking.", record) == [
        "WiFi: free", "parking: garage yes"]
    assert context_share("It offers outdoor seating.", affirmed("It offers outdoor seating.", record)) == 0
    # A sentence that denies something may rest on them; prose keeps its numbers whole, and a clause
    # that does not end in the denial.
    assert affirmed("It has no outdoor seating.", record) == record
    assert affirmed("It holds 1,000 books.", ["It holds 1,000 books, and no more than that."]) == [
        "It holds 1,000 books", "and no more than that."]
