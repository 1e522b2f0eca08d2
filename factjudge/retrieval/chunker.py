"""Token-bounded chunks of a document that break at sentence ends where they can.

Sentences come from the one splitter (``factjudge.text.segmenter``); tokens are
counted with the offline cl100k_base encoding (FELM's 512-token chunks). Chunks are
exact slices of the input, so offsets and spacing (none between Chinese sentences)
survive; every chunk is re-counted as a whole, because BPE may merge across the join
of two sentences.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from factjudge.errors import InputError
from factjudge.llm.tokens import get_encoding
from factjudge.text.segmenter import sentence_spans

if TYPE_CHECKING:
    import tiktoken

# Scripts written without spaces; an overlap may start anywhere inside their runs.
_CJK = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u3000-\u303f\uff00-\uffef]"
)


def _char_offsets(enc: tiktoken.Encoding, tokens: list[int]) -> list[int]:
    """Start character of each token; a token starting inside a character maps to that character."""
    return enc.decode_with_offsets(tokens)[1]


def _split_long(
    text: str, start: int, end: int, budget: int, enc: tiktoken.Encoding
) -> list[tuple[int, int]]:
    """Cut one over-long sentence into pieces of at most ``budget`` tokens at character boundaries."""
    pieces: list[tuple[int, int]] = []
    while start < end:
        tokens = enc.encode_ordinary(text[start:end])
        if len(tokens) <= budget:
            pieces.append((start, end))
            break
        offsets = _char_offsets(enc, tokens)
        cut = budget
        # Re-encoding a slice can tokenise differently; step back until the piece fits.
        while cut > 0 and (
            offsets[cut] == 0 or len(enc.encode_ordinary(text[start : start + offsets[cut]])) > budget
        ):
            cut -= 1
        # A budget smaller than one character's tokens still has to make progress.
        stop = start + (offsets[cut] if cut > 0 else 1)
        pieces.append((start, len(text[:stop].rstrip()) if text[start:stop].strip() else stop))
        start = _skip_space(text, stop, end)
    return pieces


def _skip_space(text: str, pos: int, limit: int) -> int:
    """First non-space position at or after ``pos`` (at most ``limit``)."""
    while pos < limit and text[pos].isspace():
        pos += 1
    return pos


def _in_word(text: str, pos: int) -> bool:
    """True if ``pos`` falls inside a space-delimited word (CJK has no such words)."""
    if pos == 0 or pos >= len(text):
        return False
    before, after = text[pos - 1], text[pos]
    return not (before.isspace() or after.isspace() or _CJK.match(before) or _CJK.match(after))


def chunk(text: str, max_tokens: int = 512, overlap: int = 0) -> list[str]:
    """Split ``text`` into chunks of at most ``max_tokens`` cl100k tokens, packing whole sentences.

    A sentence longer than the budget is cut by tokens. With ``overlap`` > 0 each chunk
    after the first begins with (about) the last ``overlap`` tokens of the previous one.
    """
    if max_tokens < 1:
        raise InputError(f"max_tokens must be at least 1, got {max_tokens}")
    if not 0 <= overlap < max_tokens:
        raise InputError(f"overlap must be in [0, max_tokens), got {overlap}")
    # A token is at least one byte (as tiktoken sees the text: surrogates become U+FFFD,
    # three bytes like surrogatepass), so a text this short is one unsplit chunk: skip BPE.
    if len(text.encode("utf-8", "surrogatepass")) <= max_tokens - overlap:
        stripped = text.strip()
        return [stripped] if stripped else []
    enc = get_encoding("cl100k_base")

    def count(a: int, b: int) -> int:
        return len(enc.encode_ordinary(text[a:b]))

    # Each unit leaves room for the overlap, so a chunk always takes at least one new unit.
    units: list[tuple[int, int]] = []
    for a, b in sentence_spans(text):
        units.extend(_split_long(text, a, b, max_tokens - overlap, enc))

    chunks: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        start = units[i][0]
        if chunks and overlap:
            tail = _overlap_start(text, chunks[-1], overlap, enc)
            # The tail reaches the previous end only when the overlap fell inside its last word.
            if tail < chunks[-1][1]:
                start = tail
        end = units[i][1]
        # Boundary merges could push overlap + first unit past the budget: shed overlap.
        # The cheap test first: without overlap start is the unit's start and no count is needed.
        while start < units[i][0] and count(start, end) > max_tokens:
            start = _next_token_start(text, start, units[i][0], enc)
        i += 1
        while i < len(units) and count(start, units[i][1]) <= max_tokens:
            end = units[i][1]
            i += 1
        chunks.append((start, end))
    return [text[a:b] for a, b in chunks]


def _overlap_start(text: str, previous: tuple[int, int], overlap: int, enc: tiktoken.Encoding) -> int:
    """Where the last ``overlap`` tokens of the previous chunk begin (skipping leading spaces)."""
    a, b = previous
    tokens = enc.encode_ordinary(text[a:b])
    if overlap >= len(tokens):
        return a
    start = a + _char_offsets(enc, tokens)[len(tokens) - overlap]
    # Start on a word rather than inside one; this trims the overlap by under a word.
    while start < b and _in_word(text, start):
        start += 1
    return _skip_space(text, start, b)


def _next_token_start(text: str, start: int, limit: int, enc: tiktoken.Encoding) -> int:
    """The start of the second token after ``start``, never past ``limit``."""
    tokens = enc.encode_ordinary(text[start:limit])
    offsets = _char_offsets(enc, tokens)
    step = next((o for o in offsets[1:] if o > 0), limit - start)
    return _skip_space(text, start + step, limit)
