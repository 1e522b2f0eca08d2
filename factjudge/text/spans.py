"""Error spans: find the words a judge quoted as wrong in the original answer.

Matching forgives case, whitespace and punctuation differences (the judge may drop a
comma or fold a line break) and works in scripts without spaces (zh) or with marks
(hi, ar). A quote that cannot be found is recorded as unlocated, never guessed.
"""

from __future__ import annotations

import re
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


# Runs of letters, digits and marks; a literal "\\n" left by a bad export is a gap, not a word.
_WORD = re.compile(r"[^\W_]+")
_ESCAPE = re.compile(r"\\[nrt]")


def _words(text: str) -> list[tuple[str, int, int]]:
    """Case-folded words of ``text`` with their offsets."""
    masked = _ESCAPE.sub("  ", text)  # same length, so offsets stay the text's own
    return [(unicodedata.normalize("NFKC", m.group()).casefold(), m.start(), m.end())
            for m in _WORD.finditer(masked)]


def _align(wanted: list[str], words: list[tuple[str, int, int]], first: int, spare: int) -> int | None:
    """Index of the answer word that ends ``wanted`` when it starts at ``words[first]``, with at most
    ``spare`` answer words between its words; None when it does not fit there."""
    at = first
    for word in wanted[1:]:
        at += 1
        while at < len(words) and words[at][0] != word and spare > 0:
            at, spare = at + 1, spare - 1
        if at >= len(words) or words[at][0] != word:
            return None
    return at


def find_loosely(text: str, answer: str, pos: int = 0) -> tuple[int, int] | None:
    """Where the words of ``text`` stand in ``answer``, after ``pos`` first; None when they do not.

    Case, whitespace, quote styles and punctuation are forgiven, and so are a few answer
    words the text leaves out (one in eight, as FELM's segments drop a "Copy code" line).
    """
    wanted = [word for word, _, _ in _words(text)]
    if not wanted:
        return None
    words = _words(answer)
    spare = len(wanted) // 8
    starts = [i for i, (word, _, _) in enumerate(words) if word == wanted[0]]
    # Search after the previous segment first so repeated sentences map in order.
    for first in [i for i in starts if words[i][1] >= pos] + [i for i in starts if words[i][1] < pos]:
        last = _align(wanted, words, first, spare)
        if last is not None:
            return words[first][1], _close(answer, words[last][2], text)
    return None


def _close(answer: str, end: int, text: str) -> int:
    """``end`` moved past the marks that close the answer's words when ``text`` ends with marks too."""
    closing = text.rstrip()[-1:]
    if not closing or unicodedata.category(closing)[0] in "LNM":
        return end
    while end < len(answer) and not answer[end].isspace() and unicodedata.category(answer[end])[0] in "PS":
        end += 1
    return end
