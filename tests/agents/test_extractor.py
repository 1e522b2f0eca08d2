"""Extraction replies are bounded: claims per segment by the grammar, tokens by the answer's size."""

from __future__ import annotations

from factjudge.agents.extractor import MAX_CLAIMS_PER_SEGMENT, claims_grammar, completion_budget
from factjudge.text.segmenter import segment


def test_the_token_budget_grows_with_the_answer_and_stops_at_the_ceiling() -> None:
    short = segment("The Arctic Ocean is the smallest ocean.")
    long = segment(" ".join(f"Fact number {i} is about the Arctic Ocean." for i in range(100)))
    small = completion_budget(short, "gpt-4o-mini", 1500)
    assert 64 < small < 150  # room for a few claims of an 8-token sentence, not for 1500 tokens
    assert completion_budget(long, "gpt-4o-mini", 1500) == 1500


def test_the_grammar_caps_claims_per_segment() -> None:
    assert f"claim{{1,{MAX_CLAIMS_PER_SEGMENT}}}" in claims_grammar(2)
