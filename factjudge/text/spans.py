"""Error spans: find the words a judge quoted as wrong in the original answer.

Matching forgives case, whitespace and punctuation differences (the judge may drop a
comma or fold a line break) and works in scripts without spaces (zh) or with marks
(hi, ar). A quote that cannot be found is recorded as unlocated, never guessed.
"""

from __future__ import annotations

import unicodedata

from factjudge.records import ErrorSpan


def _normalise(text: str) -> tuple[str, list[int]]:
    """Case-folded letters, digits and marks only, with each kept character's original offset."""
    chars: list[str] = []
    offsets: list[int] = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category[0] in "LNM":  # letters, numbers and combining marks (Devanagari, Arabic)
            for folded in unicodedata.normalize("NFKC", char).casefold():
                chars.append(folded)
                offsets.append(index)
    return "".join(chars), offsets


def _core(quote: str) -> str:
    """The quote without leading and trailing characters that matching ignores."""
    kept = [i for i, char in enumerate(quote) if unicodedata.category(char)[0] in "LNM"]
    return quote[kept[0] : kept[-1] + 1] if kept else ""


def locate(quote: str, answer: str, start: int = 0, end: int | None = None,
           probability: float | None = None) -> ErrorSpan:
    """The span of ``answer[start:end]`` (the item the quote was given for) that ``quote`` copies.

    Words found only elsewhere in the answer are not this item's error: the span is then
    unlocated, as it is when the item's place in the answer is unknown (``start`` < 0).
    """
    core = _core(quote)
    end = len(answer) if end is None or end < 0 else end
    if start < 0 or not core:
        return ErrorSpan(-1, -1, quote, probability, located=False)
    # Most quotes are verbatim: a plain find spares normalising the whole answer.
    exact = answer.find(core, start, end)
    if exact >= 0:
        return ErrorSpan(exact, exact + len(core), core, probability, located=True)
    needle, _ = _normalise(quote)
    haystack, offsets = _normalise(answer)
    lo = next((i for i, off in enumerate(offsets) if off >= start), len(offsets))
    found = haystack.find(needle, lo)
    if found == -1 or offsets[found + len(needle) - 1] >= end:
        return ErrorSpan(-1, -1, quote, probability, located=False)
    first = offsets[found]
    last = offsets[found + len(needle) - 1] + 1
    return ErrorSpan(first, last, answer[first:last], probability, located=True)
