"""Property tests: on any reply every parser returns its contract or raises ParseError, nothing else."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from factjudge.agents.parsing import IdListReply, parse_claims, parse_decision, parse_id_list
from factjudge.errors import ParseError

# Replies built from the contract's own pieces find the corners that random text never reaches.
PIECES = ["Answer:", "answer is", "Final answer:", "Thought:", "ALL_CORRECT", "all correct", "1", "2", "3",
          "12", "0", "-", "–", " or ", " to ", ", ", " and ", "[", "]", '"', "“", "”", "«", "»", "「", "」",
          "Segment 1:", "Segment 2:", "Claim 1.", "1.", "- ", "None", "N/A", "No claims", "True", "False",
          "not", "**", "`", "\n", " ", "²", "٣", "9" * 5000, "1e5", "#"]
replies = st.text() | st.lists(st.sampled_from(PIECES) | st.text(max_size=5), max_size=12).map("".join)
SETTINGS = settings(max_examples=1000, deadline=None)


def is_parse_error_or(expected: type, call: object) -> None:
    assert callable(call)
    try:
        value = call()
    except ParseError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(value, expected)


@SETTINGS
@given(reply=replies, n=st.integers(1, 12), thought=st.booleans())
def test_parse_id_list(reply: str, n: int, thought: bool) -> None:
    def call() -> IdListReply:
        parsed = parse_id_list(reply, n, require_thought=thought)
        assert all(1 <= i <= n for i in parsed.wrong_ids) and parsed.all_correct != bool(parsed.wrong_ids)
        return parsed

    is_parse_error_or(IdListReply, call)


@SETTINGS
@given(reply=replies, n=st.integers(1, 12))
def test_parse_claims(reply: str, n: int) -> None:
    def call() -> dict[int, list[str]]:
        parsed = parse_claims(reply, n)
        assert all(1 <= k <= n for k in parsed)
        assert all(isinstance(claim, str) for claims in parsed.values() for claim in claims)
        return parsed

    is_parse_error_or(dict, call)


@SETTINGS
@given(reply=replies)
def test_parse_decision(reply: str) -> None:
    is_parse_error_or(bool, lambda: parse_decision(reply))
