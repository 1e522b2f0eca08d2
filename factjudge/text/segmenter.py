"""The one sentence splitter, and the segmenter that numbers an answer's sentences.

``sentence_spans`` serves every caller that needs sentences: segments of an answer,
chunks of a document, candidates of a scorer. Hand-written rules (no model downloads):
blank lines, line breaks and list items are boundaries; inside a line, sentences end at
``. ! ?`` (Latin, and Arabic ``.``), ``。！？；`` (zh/ja), ``؟ ۔`` (ar/ur) and ``। ॥``
(hi/bn). A full stop does not end a sentence after a known abbreviation, an initial, or
before a lower-case word, and never inside a number, a version, a URL or an e-mail
address (those have no space after the dot).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from factjudge.errors import InputError
from factjudge.records import Segment
from factjudge.text.spans import find_passage


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Never end a sentence: they precede a name, a number or more of the sentence.
_STRONG_ABBREVIATIONS = _words(
    """
    mr mrs ms mx dr prof rev fr st mt gen col capt lt sgt gov sen pres hon
    fig figs vol vols ch chap eq eqs pp pg p approx ca cf vs viz al e.g i.e
    jan feb mar apr jun jul aug sep sept oct nov dec
    dept univ assn bros trans
    mme mlle sra srta dña bzw evtl ggf vgl z.b d.h u.a
    د أ م.د डॉ
    """
)
# May end a sentence; they do only before a word that typically starts one.
_WEAK_ABBREVIATIONS = _words(
    """
    inc ltd co corp llc plc jr sr no nos ed eds rep sec min max est ft hr hrs
    a.m p.m u.s u.k u.n e.u u.s.a d.c ph.d b.c a.d b.c.e c.e c
    """
)
# An era's first abbreviation ("44 av. J.-C.", "44 a. C.", "476 d. C."), before the era's second.
_ERA_OPENERS = frozenset({"av", "apr", "a", "d"})
_ERA_SECOND = re.compile(r"(?:J\.?\s?-?\s?C|C)\.")
# Like "etc.": end a sentence before any capitalised word.
_LIST_ENDINGS = frozenset({"etc", "usw"})
_SENTENCE_STARTERS = _words(
    """
    the a an this that these those it its he she they we i you his her their our my
    there here in on at for as if when while after before however but and so then
    also although though since because many most some one two both each all no not
    today yesterday now later finally first second third next meanwhile moreover
    furthermore additionally overall thus therefore hence what who why how where which
    """
)

_LATIN_END = ".!?…‽"
_ALWAYS_END = "。！？；؟۔।॥"  # end a sentence whether or not a space follows
_CLOSERS = "\"'”’»)]}*_」』）】〕》〉"
_LIST_MARKER = re.compile(
    r"[ \t]*(?:[-*•+▪◦‣][ \t]+|\(?\d{1,3}[.)][ \t]+|\(?[a-z][.)][ \t]+|\(?[A-Z]\)[ \t]+|#{1,6}[ \t]+)"
)
_MARKER_ONLY = re.compile(r"\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,5})[.)]")
_FENCE = re.compile(r"[ \t]*(```|~~~)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_MARK = re.compile(f"[{re.escape(_LATIN_END + _ALWAYS_END)}]")
# In pre-segmented input a gap may be any whitespace, or a literal "\n" left by a bad export.
_GAP = r"(?:\s|\\[nrt])+"
_NEXT_WORD = re.compile(r"\s*(\S*)")
_MARKER_CHARS = 7  # the longest inline list marker, "(xviii)"
# Georgian's everyday script (Mkhedruli) is lower-case in Unicode, but sentences start with it:
# read as lower case, no Georgian sentence would ever end.
_CASELESS_LOWER = re.compile("[\u10d0-\u10ff]")


def segment(answer: str, *, separator: str | None = None, segments: list[str] | None = None) -> list[Segment]:
    """Cut ``answer`` into segments numbered from 1, each with ``answer[start:end] == text``.

    With ``separator`` the answer is split on that string instead of into sentences.
    With ``segments`` (pre-segmented input, e.g. FELM's) every given string becomes
    one segment, in order, so ids line up with labels made for that list: each is
    located in the answer after the previous one, forgiving differences in
    whitespace, quotes, case and a few edited words (``spans.find_passage``) and
    taking the answer's own text; one that cannot be found (or is empty) keeps
    its given text, stripped, with ``start == end == -1``.
    """
    if not answer or not answer.strip():
        raise InputError("the answer is empty: nothing to segment")
    if separator is not None and segments is not None:
        raise InputError("give either a separator or pre-made segments, not both")
    if segments is not None:
        if not segments:
            raise InputError("the list of segments is empty")
        return _locate(answer, segments)
    if separator is not None:
        if not separator:
            raise InputError("the separator is empty")
        spans = list(_split_on(answer, separator))
    else:
        spans = sentence_spans(answer)
    return [Segment(i, answer[s:e], s, e) for i, (s, e) in enumerate(spans, start=1)]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, trimmed; a piece without a letter or digit is none."""
    return list(_sentence_spans(text))


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, in order (an empty list for blank text)."""
    return [text[start:end] for start, end in _sentence_spans(text)]


def _strip_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Shrink [start, end) past surrounding whitespace; None when nothing worth judging is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    # Rules such as "---", a lone "```" or "**" carry no statement.
    if not any(ch.isalnum() for ch in text[start:end]):
        return None
    return start, end


def _split_on(answer: str, separator: str) -> Iterator[tuple[int, int]]:
    start = 0
    while True:
        cut = answer.find(separator, start)
        span = _strip_span(answer, start, len(answer) if cut < 0 else cut)
        if span:
            yield span
        if cut < 0:
            return
        start = cut + len(separator)


def _locate(answer: str, given: list[str]) -> list[Segment]:
    found: list[Segment] = []
    pos = 0
    for number, text in enumerate(given, start=1):
        span = _find(answer, text, pos)
        if span is None:
            found.append(Segment(number, text.strip(), -1, -1, located=False))
            continue
        found.append(Segment(number, answer[span[0]:span[1]], *span))
        pos = max(pos, span[1])
    return found


def _find(answer: str, text: str, pos: int) -> tuple[int, int] | None:
    """Where ``text`` is in ``answer``, after ``pos`` first: verbatim, up to whitespace, then forgivingly."""
    exact = text.strip()
    if not exact:
        return None
    # Most given segments are verbatim: a plain find spares compiling a pattern per segment.
    at = answer.find(exact, pos)
    if at >= 0:
        return at, at + len(exact)
    pattern = re.compile(_GAP.join(re.escape(w) for w in exact.split()))
    # Search after the previous segment first so repeated sentences map in order.
    match = pattern.search(answer, pos) or pattern.search(answer)
    if match:
        return match.start(), match.end()
    return find_passage(exact, answer, pos)


def _lines(answer: str) -> Iterator[tuple[int, int]]:
    """Spans of the answer's lines, without their line breaks."""
    start = 0
    for match in re.finditer(r"\r\n|\n|\r|\u2028|\u2029", answer):
        yield start, match.start()
        start = match.end()
    yield start, len(answer)


def _blocks(answer: str) -> Iterator[tuple[int, int, bool]]:
    """Blocks that no sentence crosses: (start, end, split_inside).

    A list item and a fenced code block are one block each and are not split further;
    a line that starts with a lower-case letter continues hard-wrapped prose.
    """
    lines = list(_lines(answer))
    i = 0
    current: list[int] | None = None  # [start, end] of a prose block being extended
    while i < len(lines):
        start, end = lines[i]
        line = answer[start:end]
        if _FENCE.match(line):
            if current:
                yield current[0], current[1], True
                current = None
            j = i + 1
            while j < len(lines) and not _FENCE.match(answer[lines[j][0] : lines[j][1]]):
                j += 1
            last = lines[min(j, len(lines) - 1)][1]
            yield start, last, False
            i = j + 1
            continue
        stripped = line.strip()
        if not stripped:
            if current:
                yield current[0], current[1], True
                current = None
        elif (marker := _LIST_MARKER.match(line)) and marker.end() < len(line):
            if current:
                yield current[0], current[1], True
                current = None
            item_end = end
            # Hard-wrapped continuation lines of a list item belong to it.
            while i + 1 < len(lines) and _continues(answer, lines[i + 1], (start, item_end)):
                i += 1
                item_end = lines[i][1]
            yield start, item_end, False
        elif current and _continues(answer, lines[i], (current[0], current[1])):
            current[1] = end
        else:
            if current:
                yield current[0], current[1], True
            current = [start, end]
        i += 1
    if current:
        yield current[0], current[1], True


def _continues(answer: str, line: tuple[int, int], before: tuple[int, int]) -> bool:
    """True when ``line`` is the hard-wrapped rest of the text spanning ``before``."""
    text = answer[line[0] : line[1]]
    stripped = text.strip()
    if not stripped or _LIST_MARKER.match(text) or _FENCE.match(text):
        return False
    last = _last_char(answer, *before)
    return bool(last) and last not in ".!?:;。！？；؟۔।॥" and _lower(stripped[0])


def _last_char(text: str, start: int, end: int) -> str:
    """The last non-space character of text[start:end] ('' if none), without copying the span."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return text[end - 1] if end > start else ""


def _lower(ch: str) -> bool:
    """True for a lower-case letter of a script whose sentences start upper-case."""
    return ch.islower() and not _CASELESS_LOWER.match(ch)


def _sentence_spans(answer: str) -> Iterator[tuple[int, int]]:
    for start, end, split_inside in _blocks(answer):
        cuts = _sentence_ends(answer, start, end) if split_inside else []
        begin = start
        for cut in [*cuts, end]:
            span = _strip_span(answer, begin, cut)
            if span:
                yield span
            begin = cut


def _sentence_ends(text: str, start: int, end: int) -> list[int]:
    """Offsets just after each sentence end inside text[start:end]."""
    cuts: list[int] = []
    sentence_start = _skip_space(text, start, end)
    i = start
    while i < end:
        # Jump from mark to mark: documents the chunker splits are long.
        found = _MARK.search(text, i, end)
        if found is None:
            break
        i = j = found.start()
        while j < end and (text[j] in _LATIN_END or text[j] in _ALWAYS_END):
            j += 1
        while j < end and text[j] in _CLOSERS:
            j += 1
        if _is_boundary(text, sentence_start, i, j, end):
            cuts.append(j)
            # Past the spaces once per sentence: each mark then looks back only at its own word.
            sentence_start = _skip_space(text, j, end)
        i = j
    return cuts


def _skip_space(text: str, at: int, end: int) -> int:
    """The offset of the first non-space character of text[at:end] (``end`` if none)."""
    while at < end and text[at].isspace():
        at += 1
    return at


def _is_boundary(text: str, sentence_start: int, mark: int, after: int, end: int) -> bool:
    """Decide whether the punctuation run text[mark:after] ends a sentence.

    ``sentence_start`` is past any leading space. Only the words next to the mark are read,
    never the rest of the sentence or block, so a text of many marks splits in linear time.
    """
    run = text[mark:after]
    if any(ch in _ALWAYS_END for ch in run):
        return True
    if after >= end:
        return True
    nxt = text[after]
    if not nxt.isspace():
        # "3.14", "v2.0.1", "example.com", "a@b.org" have no space after the dot; CJK text has none at all.
        if not _CJK.match(nxt):
            return False
        return text[mark] != "." or bool(mark > 0 and _CJK.match(text[mark - 1]))
    next_word = _NEXT_WORD.match(text, after, end)  # a pattern of optional parts: always matches
    word_after = next_word.group(1) if next_word else ""
    if not word_after:
        return True
    first = word_after.lstrip("\"'“‘«(*[¿¡_")[:1]
    if _lower(first):
        return False  # "e.g. cats", "Wait... what", an unknown abbreviation
    if mark + 1 - sentence_start <= _MARKER_CHARS and _MARKER_ONLY.fullmatch(text, sentence_start, mark + 1):
        return False  # an inline list marker such as "2." is not a sentence of its own
    if text[mark] != "." or run.startswith("..") or run[0] == "…":
        return True
    token = _word_before(text, sentence_start, mark)
    word = token.lstrip("\"'“‘«(*[_").lower()
    if word in _STRONG_ABBREVIATIONS or word + "." in _STRONG_ABBREVIATIONS:
        return False
    if word in _ERA_OPENERS and _ERA_SECOND.match(word_after):
        return False
    starter = word_after.strip("\"'“‘«(*[_,.:;").lower() in _SENTENCE_STARTERS
    if token == "C" and _word_before(text, sentence_start, mark - 1) in ("a.", "d."):
        return True  # the era's end ("44 a. C. Era …")
    if word in _WEAK_ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
        return starter
    if word in _LIST_ENDINGS:
        return True
    # A single capital is an initial ("J. R. R. Tolkien") unless a sentence clearly follows ("vitamin C. It").
    if len(token) == 1 and token.isalpha() and token.isupper():
        return starter
    return True


def _word_before(text: str, start: int, mark: int) -> str:
    """The last whitespace-separated word of text[start:mark] ('' if none)."""
    end = mark
    while end > start and text[end - 1].isspace():
        end -= 1
    begin = end
    while begin > start and not text[begin - 1].isspace():
        begin -= 1
    return text[begin:end]
