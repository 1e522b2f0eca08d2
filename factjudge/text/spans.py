"""Find text copied from an answer back in it: a judge's quoted error words, a dataset's segments.

Matching forgives case, whitespace, quote and punctuation differences (the judge may drop a
comma or fold a line break) and works in scripts without spaces (zh) or with marks
(hi, ar). A quote that cannot be found is recorded as unlocated, never guessed.
"""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher

from factjudge.records import ErrorSpan


def _normalise(text: str) -> tuple[str, list[int]]:
    """Case-folded letters, digits and marks only, with each kept character's original offset."""
    chars: list[str] = []
    offsets: list[int] = []
    for index, char in enumerate(text):
        # A literal "\\n" left by a bad export is a line break, not the letter n.
        if char in "nrt" and index and text[index - 1] == "\\":
            continue
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


# A passage whose words were edited (FELM's annotators dropped "markdown Copy code") is still
# the same passage when most of it matches in place; below these it is not found, not guessed.
_MIN_SHARED = 0.8
_MIN_BLOCK = 4
# Fuzzy matching costs about len(answer) x len(passage): past this (a 10k-character answer and a
# 2k-character passage) a passage not found exactly is left unlocated rather than stall a check.
_FUZZY_BUDGET = 20_000_000


def _fuzzy(haystack: str, needle: str) -> tuple[int, int] | None:
    """(first, last) index in ``haystack`` of the stretch that shares most of ``needle``, if any."""
    if len(haystack) * len(needle) > _FUZZY_BUDGET:
        return None
    matcher = SequenceMatcher(None, haystack, needle, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size >= min(_MIN_BLOCK, len(needle))]
    if not blocks or sum(b.size for b in blocks) < _MIN_SHARED * len(needle):
        return None
    first, last = blocks[0].a, blocks[-1].a + blocks[-1].size - 1
    if last - first + 1 > 1.5 * len(needle) + 20:  # scattered matches, not one passage
        return None
    return first, last


def find_passage(text: str, answer: str, pos: int = 0) -> tuple[int, int] | None:
    """Where ``text`` (given apart from ``answer``) sits in it, after ``pos`` first; None if nowhere.

    Forgives case, whitespace, quotes and punctuation, literal ``\\n`` escapes and a few
    edited words; the span is the answer's own characters, so ``answer[start:end]`` is it.
    """
    needle, _ = _normalise(text)
    haystack, offsets = _normalise(answer)
    if not needle:
        return None
    lo = next((i for i, off in enumerate(offsets) if off >= pos), len(offsets))
    found = haystack.find(needle, lo)
    found = haystack.find(needle) if found < 0 else found
    if found >= 0:
        first, last = found, found + len(needle) - 1
    else:
        # After ``pos`` first, then (when that was not the whole answer) anywhere.
        near = _fuzzy(haystack[lo:], needle)
        if near is not None:
            span: tuple[int, int] | None = (near[0] + lo, near[1] + lo)
        else:
            span = _fuzzy(haystack, needle) if lo else None
        if span is None:
            return None
        first, last = span
    start, end = offsets[first], offsets[last] + 1
    # Take in the punctuation around the passage's words (its full stop, its quotes) as far as the
    # passage has some there and the answer has punctuation in that place, in whatever style.
    stripped = text.strip()
    core = _core(stripped)
    at = stripped.index(core)
    for _ in stripped[:at]:
        if start == 0 or not _is_punctuation(answer[start - 1]):
            break
        start -= 1
    for _ in stripped[at + len(core) :]:
        if end == len(answer) or not _is_punctuation(answer[end]):
            break
        end += 1
    return start, end


def _is_punctuation(char: str) -> bool:
    return not char.isspace() and unicodedata.category(char)[0] not in "LNM"
