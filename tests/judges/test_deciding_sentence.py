"""The passage sentence a verdict rests on is the one stating the item's figures, then the one sharing
most of its words: "opened in 1937" once rested on the sentence that repeats the bridge's name."""

from __future__ import annotations

from factjudge.judges.base import deciding_sentence
from factjudge.records import Evidence

CONTEXT = [Evidence("context", "The Golden Gate Bridge is a suspension bridge spanning the Golden Gate "
                               "strait at the entrance to San Francisco Bay. It opened to traffic in May "
                               "1937. Its main span is 1,280 metres long.")]


def test_the_sentence_stating_the_year_decides() -> None:
    assert deciding_sentence(CONTEXT, "The Golden Gate Bridge opened in 1937.") == (
        "It opened to traffic in May 1937.")


def test_without_a_shared_figure_the_most_shared_words_decide() -> None:
    assert deciding_sentence(CONTEXT, "Its main span is about 4,200 metres long.") == (
        "Its main span is 1,280 metres long.")
    assert deciding_sentence(CONTEXT, "The bridge spans the Golden Gate strait.") == (
        "The Golden Gate Bridge is a suspension bridge spanning the Golden Gate strait at the entrance to "
        "San Francisco Bay.")
    assert deciding_sentence([], "Anything.") is None
