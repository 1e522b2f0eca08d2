"""Segmenter: time linear in the answer, however many full stops it holds (a service slot each)."""

from __future__ import annotations

import time

import pytest

from factjudge.text.segmenter import segment, split_sentences

# A guard, not a measure: linear splitting takes well under a second for each of these on an idle
# core (1.5 s on a loaded two-core machine); the quadratic splitter took over two minutes for
# 22,000 repeats of "Dr. ".
SECONDS = 30.0


def _timed(text: str) -> tuple[list[str], float]:
    started = time.perf_counter()
    sentences = [s.text for s in segment(text)]
    return sentences, time.perf_counter() - started


def test_abbreviations_that_never_end_a_sentence_split_in_linear_time() -> None:
    text = "Dr. " * 40_000
    sentences, seconds = _timed(text)
    assert sentences == [text.strip()]  # "Dr." never ends a sentence, so it is all one
    assert seconds < SECONDS


def test_many_sentences_split_in_linear_time() -> None:
    sentences, seconds = _timed("Dr. Smith left. " * 40_000)
    assert sentences == ["Dr. Smith left."] * 40_000
    assert seconds < SECONDS


@pytest.mark.parametrize(
    "text",
    [
        "It rained" + " " * 200_000 + "Dr. " * 20_000,  # a long gap before the marks
        "\n".join(["the line goes on"] * 40_000),  # hard-wrapped prose: one long block
        "ii. " * 40_000,  # inline list markers
    ],
)
def test_adversarial_texts_split_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    sentences = split_sentences(text)
    assert time.perf_counter() - started < SECONDS
    assert "".join(sentences).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")
