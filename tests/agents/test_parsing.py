"""Reply parsers on real-looking bad and odd replies: parsed right, or ParseError, never a guess."""

from __future__ import annotations

import pytest

from factjudge.agents.parsing import IdListReply, parse_claims, parse_decision, parse_id_list
from factjudge.errors import ParseError

ERR = "error"
ALL = "all_correct"

# (reply, expected wrong ids | ALL | ERR); three items unless the id says otherwise.
ID_LIST_CASES = [
    ("Answer: 1,3", (1, 3)),
    ("**Answer:** 1, 3", (1, 3)),
    ("**Answer**: 2", (2,)),
    ("Answer - 1 and 3", (1, 3)),
    ("answer: [1, 3]", (1, 3)),
    ("Answer: Segments 1 and 3", (1, 3)),
    ("Answer: #2", (2,)),
    ("Answer: 2.", (2,)),
    ("Answer: 2, 2, 3", (2, 3)),
    ("Answer: The wrong segments are 1 and 3.", (1, 3)),
    ("Answer: 2 (the area is wrong)", (2,)),
    ("Answer: ALL_CORRECT", ALL),
    ("Answer: ALL CORRECT", ALL),
    ("Answer: all_correct", ALL),
    ("Answer: All correct.", ALL),
    ("Final answer: 2", (2,)),
    ("Answer: 1\nWait, let me re-check segment 3.\nAnswer: 3", (3,)),
    ("Answer:\n1, 3", (1, 3)),
    ("Looking at each segment carefully.\n\nAnswer: 2\n\nThe rest are fine.", (2,)),
    ("1, 3", (1, 3)),
    ("[2]", (2,)),
    ("ALL_CORRECT", ALL),
    ("Segment 2 is wrong.", (2,)),
    ("Let me check each one.\nSegments 1 and 3", (1, 3)),
    ("", ERR),
    ("   \n ", ERR),
    ("Answer: 0", ERR),
    ("Answer: 5", ERR),
    ("Answer: 1, 4", ERR),
    ("Answer: ALL_CORRECT, 2", ERR),
    ("Answer: 2, ALL_CORRECT", ERR),
    ("Answer: ALL_CORRECT except 2", ERR),
    ("Answer: Not all correct", ERR),
    ("Answer: None", ERR),
    ("Answer: N/A", ERR),
    ("Answer: none of them", ERR),
    ("Answer: 1-3", ERR),
    ("Answer: 1 or 3", ERR),
    ("Answer: 2 because it is 14 million, not 30", ERR),
    ("Answer: two", ERR),
    ("Answer: 2\nAnswer: I am not sure.", ERR),
    ("Thought: segment 2 seems wrong.", ERR),
    ("I cannot determine whether these are correct.", ERR),
    ("I think it is mostly fine.", ERR),
    ("Sure!", ERR),
    ("Segments look good", ERR),
    ("The second segment has a problem with 30 million.", ERR),
    # Found by the property tests: each raised ValueError or IndexError, not ParseError.
    ("²", ERR),
    ("Answer: ²", ERR),
    ("**", ERR),
    ("Answer: " + "9" * 5000, ERR),
    ('Answer: 2 ["x"]\n' + "9" * 5000 + ': "y"', (2,)),
    ("Answer: ٢", (2,)),  # an Arabic-Indic two is a decimal digit
]


@pytest.mark.parametrize(("reply", "expected"), ID_LIST_CASES)
def test_parse_id_list_table(reply: str, expected: object) -> None:
    if expected == ERR:
        with pytest.raises(ParseError):
            parse_id_list(reply, 3)
        return
    parsed = parse_id_list(reply, 3)
    if expected == ALL:
        assert parsed.all_correct and parsed.wrong_ids == ()
    else:
        assert parsed.wrong_ids == expected and not parsed.all_correct


def test_cot_thought_is_kept() -> None:
    reply = "Thought: Segment 1 is right. Segment 2 says 30 million; it is 14 million.\nAnswer: 2"
    parsed = parse_id_list(reply, 2, require_thought=True)
    assert parsed == IdListReply(
        (2,), False, "Segment 1 is right. Segment 2 says 30 million; it is 14 million.", "Answer: 2", {}
    )


def test_cot_missing_thought_is_accepted_but_empty() -> None:
    parsed = parse_id_list("Answer: ALL_CORRECT", 2, require_thought=True)
    assert parsed.all_correct and parsed.thought == ""


def test_cot_requires_the_answer_marker() -> None:
    with pytest.raises(ParseError):
        parse_id_list("Everything checks out.\n2", 2, require_thought=True)
    assert parse_id_list("Everything checks out.\n2", 2).wrong_ids == (2,)


def test_inline_quotes_and_digits_inside_them_are_not_ids() -> None:
    parsed = parse_id_list('Answer: 2 ["30 million square kilometres"], 3 ["born in 1879"]', 3)
    assert parsed.wrong_ids == (2, 3)
    assert parsed.quotes == {2: "30 million square kilometres", 3: "born in 1879"}


def test_quote_lines_after_the_answer() -> None:
    reply = 'Answer: 2, 3\n2: "30 million"\n- 3: “born in 1879”\n1: "not listed"'
    parsed = parse_id_list(reply, 3)
    assert parsed.quotes == {2: "30 million", 3: "born in 1879"}


def test_quotes_are_optional_and_empty_for_all_correct() -> None:
    assert parse_id_list("Answer: 2", 3).quotes == {}
    assert parse_id_list("Answer: ALL_CORRECT", 3).quotes == {}


def test_answer_line_is_recorded() -> None:
    assert parse_id_list("blah\n**Answer:** 1, 3\nbye", 3).answer_line == "Answer: 1, 3"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("True", True),
        ("false", False),
        ("Answer: True.", True),
        ("**False**", False),
        ("true —because the passage says so", True),
        ("The statement is true.", True),
        ("True or False? False", False),
        ("False. The passage does not say it is true.", False),
        ("The answer is False", False),
    ],
)
def test_parse_decision(reply: str, expected: bool) -> None:
    assert parse_decision(reply) is expected


@pytest.mark.parametrize("reply", ["", "Maybe", "Not true", "It is true that the claim is false", "Yes"])
def test_parse_decision_errors(reply: str) -> None:
    with pytest.raises(ParseError):
        parse_decision(reply)


def test_parse_claims_contract_format() -> None:
    reply = (
        "Segment 1:\nClaim 1. The Great Barrier Reef is the world's largest coral reef system.\n"
        "Claim 2. The Great Barrier Reef lies off the coast of Queensland, Australia.\n"
        "Segment 2:\nNo claims\n"
    )
    assert parse_claims(reply, 2) == {
        1: [
            "The Great Barrier Reef is the world's largest coral reef system.",
            "The Great Barrier Reef lies off the coast of Queensland, Australia.",
        ],
        2: [],
    }


def test_parse_claims_tolerates_markdown_bullets_and_headers() -> None:
    reply = (
        "Answer:\nHere are the claims.\n\n**Segment 1 claims:**\n\n"
        "1. Paris is in France.\n- Paris is a city.\n\n"
        "### Segment 3\n* None\n\nSegment 2: The Seine flows through Paris.\nI hope this helps!"
    )
    assert parse_claims(reply, 3) == {
        1: ["Paris is in France.", "Paris is a city."],
        3: [],
        2: ["The Seine flows through Paris.", "I hope this helps!"],
    }


def test_parse_claims_plain_lines_and_multilingual_claims() -> None:
    reply = (
        "Segment 1:\nLa Mona Lisa fue pintada por Leonardo da Vinci.\nSegment 2:\nClaim 1. 北京是中国的首都。"
    )
    assert parse_claims(reply, 2) == {
        1: ["La Mona Lisa fue pintada por Leonardo da Vinci."],
        2: ["北京是中国的首都。"],
    }


def test_parse_claims_unmentioned_segments_are_absent() -> None:
    assert parse_claims("Segment 2:\n- A fact.", 3) == {2: ["A fact."]}


def test_parse_claims_bullet_starting_with_segment_is_a_claim() -> None:
    assert parse_claims("Segment 1:\n- Segment 2 of the bridge opened in 1990.", 1) == {
        1: ["Segment 2 of the bridge opened in 1990."]
    }


def test_parse_claims_bare_list_only_for_one_segment() -> None:
    assert parse_claims("1. A fact.\n2. Another.", 1) == {1: ["A fact.", "Another."]}
    with pytest.raises(ParseError):
        parse_claims("1. A fact.\n2. Another.", 2)


@pytest.mark.parametrize(
    "reply", ["", "  ", "I cannot help with that.", "Segment 4:\n- x", "Segment 0:\n- x"]
)
def test_parse_claims_errors(reply: str) -> None:
    with pytest.raises(ParseError):
        parse_claims(reply, 3)
