"""Token-bounded, sentence-preferring chunks."""

from __future__ import annotations

import itertools

import pytest

from factjudge.errors import InputError
from factjudge.llm.tokens import get_encoding
from factjudge.retrieval.chunker import chunk
from factjudge.text.segmenter import split_sentences

ENC = get_encoding("cl100k_base")


def tokens(text: str) -> int:
    return len(ENC.encode_ordinary(text))


def squash(text: str) -> str:
    return "".join(text.split())


SENTENCES = [f"Sentence number {i} talks about topic {i % 7} in some detail." for i in range(60)]
TEXT = " ".join(SENTENCES)


def test_short_text_is_one_chunk_and_blank_text_none() -> None:
    assert chunk("Just one sentence.") == ["Just one sentence."]
    assert chunk("") == [] and chunk(" \n\t ") == []


def test_chunks_respect_the_budget_and_end_at_sentences() -> None:
    chunks = chunk(TEXT, max_tokens=40)
    assert len(chunks) > 5
    assert all(tokens(c) <= 40 for c in chunks)
    assert all(c.endswith(".") and c[0].isupper() for c in chunks)
    assert squash("".join(chunks)) == squash(TEXT)  # nothing lost, nothing repeated
    # Greedy packing: the next sentence would not have fitted.
    first_count = len(split_sentences(chunks[0]))
    assert tokens(" ".join(SENTENCES[: first_count + 1])) > 40


def test_default_budget_is_512() -> None:
    long_text = TEXT * 5
    chunks = chunk(long_text)
    assert all(tokens(c) <= 512 for c in chunks)
    assert max(tokens(c) for c in chunks) > 480


def test_a_sentence_longer_than_the_budget_is_split_by_tokens() -> None:
    # Capitalised: the one splitter reads a full stop before a lower-case word as an abbreviation's.
    sentence = " ".join(f"Word{i}" for i in range(400)) + "."
    chunks = chunk("Short opener. " + sentence + " Short closer.", max_tokens=50)
    assert chunks[0] == "Short opener."
    assert all(0 < tokens(c) <= 50 for c in chunks)
    assert squash("".join(chunks)) == squash("Short opener. " + sentence + " Short closer.")


def test_text_without_spaces_or_punctuation() -> None:
    for text in ["北京是中国的首都" * 200, "x" * 5000, "हिन्दी" * 300]:
        chunks = chunk(text, max_tokens=50)
        assert "".join(chunks) == text  # cut at character boundaries, never inside one
        assert all(tokens(c) <= 50 for c in chunks)


def test_chinese_sentences_pack_without_inserted_spaces() -> None:
    text = "北京是中国的首都。" * 40
    chunks = chunk(text, max_tokens=30)
    assert "".join(chunks) == text
    assert all(c.endswith("。") and tokens(c) <= 30 for c in chunks)


def test_overlap_repeats_the_tail_of_the_previous_chunk() -> None:
    chunks = chunk(TEXT, max_tokens=60, overlap=15)
    assert all(tokens(c) <= 60 for c in chunks)
    for previous, current in itertools.pairwise(chunks):
        shared = next(n for n in range(len(previous), 0, -1) if current.startswith(previous[-n:]))
        assert 8 <= tokens(previous[-shared:]) <= 15
        assert current[0].isalnum()  # starts on a word, not inside one
    no_overlap = chunk(TEXT, max_tokens=60)
    assert len(chunks) > len(no_overlap)


@pytest.mark.parametrize(("max_tokens", "overlap"), [(0, 0), (10, 10), (10, -1)])
def test_bad_arguments(max_tokens: int, overlap: int) -> None:
    with pytest.raises(InputError):
        chunk(TEXT, max_tokens=max_tokens, overlap=overlap)


def test_tiny_budgets_still_progress() -> None:
    text = "alpha beta. বাংলা হিন্দি. 北京"
    for max_tokens, overlap in [(1, 0), (3, 2), (5, 1)]:
        chunks = chunk(text, max_tokens=max_tokens, overlap=overlap)
        assert chunks and all(c and c == c.strip() and c in text for c in chunks)
