"""Reply readers behind the contracts: each returns what the reply says or raises ParseError, never a guess.

The contract tokens (the answer marker, the Thought marker, the all-correct token, the two
decision words) come in as arguments from ``factjudge.prompts.contracts``, which alone names
them; these functions only read replies, so they are tested on real bad replies without a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from factjudge.errors import ParseError


@dataclass(frozen=True)
class IdListReply:
    """A FELM-style verdict: the 1-based ids of the wrong items, or all correct."""

    wrong_ids: tuple[int, ...]
    all_correct: bool
    thought: str = ""
    answer_line: str = ""
    quotes: dict[int, str] = field(default_factory=dict)


_EMPHASIS = re.compile(r"\*\*|__|\*|`")
# A quote in double quotes (any style) or corner brackets, optionally inside [ ].
_QUOTE = re.compile(r"\[?\s*(?:\"([^\"]+)\"|“([^”]+)”|«([^»]+)»|「([^」]+)」)\s*\]?")
_QUOTE_LINE = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:(?:segment|claim|item)\s*)?#?(\d{1,9})\s*[:：\-–—]\s*\[?\s*"
    r"(?:\"([^\"]+)\"|“([^”]+)”|«([^»]+)»|「([^」]+)」)\s*\]?\s*[.,;]?\s*$",
    re.IGNORECASE,
)
_ID_TOKENS = re.compile(r"\d+|[^\W\d_]+(?:[_'][^\W\d_]+)*|\S")
# Words that may surround ids in an answer line without changing its meaning.
_FILLER_WORDS = """
    segment segments claim claims item items sentence sentences statement statements
    id ids number numbers no nos and the are is wrong incorrect false inaccurate
    contain contains error errors with have has
"""
_FILLERS = frozenset(_FILLER_WORDS.split())
_PUNCT = frozenset(",;:.[](){}#&/+")
_AMBIGUOUS = re.compile(
    r"\b(?:none|n/?a|nothing|unknown|unclear|unsure|not\s+sure|cannot|can't|unable|undetermined|"
    r"uncertain|depends|maybe|perhaps|possibly)\b",
    re.IGNORECASE,
)


def word_of(marker: str) -> str:
    """The word of a marker, without its colon."""
    return marker.rstrip(":：").strip()


@cache
def _answer_pattern(marker: str) -> re.Pattern[str]:
    """The answer marker as models write it: any case, ``Final`` before, ``:`` ``-`` ``=`` or ``is`` after."""
    word = re.escape(word_of(marker))
    return re.compile(rf"\b(?:final[ \t]+)?{word}\b[ \t]*(?:[:：=\-–—]|is\b)[ \t]*", re.IGNORECASE)


@cache
def _thought_pattern(marker: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(word_of(marker))}s?\s*[:：]\s*", re.IGNORECASE)


@cache
def _all_correct_pattern(token: str, *, bare: bool) -> re.Pattern[str]:
    """The all-correct ``token`` in any case, its words joined by space, ``_`` or ``-`` (``all are correct``).

    ``bare``: the whole text is the token (a reply without an answer marker), no ``are``/``is``.
    """
    words = [re.escape(w) for w in token.lower().split("_")]
    if bare:
        return re.compile(r"\s*" + r"[\s_\-]*".join(words) + r"\s*[.!]?\s*", re.IGNORECASE)
    return re.compile(r"\b" + r"[\s_\-]*(?:are\s+|is\s+)?".join(words) + r"\b", re.IGNORECASE)


def id_number(digits: str) -> int:
    """A number written in a reply; one longer than nine digits is no id (and int() refuses thousands)."""
    if len(digits) > 9:
        raise ParseError(f"the number {digits[:9]}… is too long to be an id")
    return int(digits)


def plain(text: str) -> str:
    """Drop markdown emphasis and code marks, which models sprinkle over the contract words."""
    return _EMPHASIS.sub("", text)


def _take_quotes(text: str) -> tuple[str, dict[int, str]]:
    """Remove quoted spans from an answer line; return the rest and quotes keyed by the id before them."""
    quotes: dict[int, str] = {}
    rest: list[str] = []
    last = 0
    for match in _QUOTE.finditer(text):
        before = text[last : match.start()]
        rest.append(before)
        owner = re.search(r"(\d+)\s*[:：\-–—]?\s*$", before)
        quote = next(g for g in match.groups() if g is not None).strip()
        if owner and quote:
            quotes.setdefault(id_number(owner.group(1)), quote)
        rest.append(" ")
        last = match.end()
    rest.append(text[last:])
    return "".join(rest), quotes


def _read_ids(content: str, *, strict: bool) -> tuple[list[int], str]:
    """Ids at the start of ``content`` and the text left after them.

    With ``strict`` the whole content must be ids and filler words (used when there
    is no answer marker, where an explanation would make the reading a guess).
    """
    if re.search(r"\d\s*(?:-|–|—|to)\s*\d", content):
        raise ParseError("a range of ids (such as 1-3) is ambiguous; list every id")
    ids: list[int] = []
    tokens = list(_ID_TOKENS.finditer(content))
    stop = len(content)
    for token in tokens:
        word = token.group().lower()
        if word.isdecimal():  # not isdigit(): superscripts such as ² are digits int() refuses
            ids.append(id_number(word))
        elif word in _FILLERS or word in _PUNCT or word in "-–—":
            continue
        else:
            stop = token.start()
            break
    rest = content[stop:]
    if strict and rest.strip():
        return [], rest
    return ids, rest


def _answer_content(plain_text: str, marker: str) -> tuple[str, str, int] | None:
    """The text after the last answer marker (or on the next line), its raw line, and the marker offset."""
    matches = list(_answer_pattern(marker).finditer(plain_text))
    if not matches:
        return None
    last = matches[-1]
    line_end = plain_text.find("\n", last.end())
    line_end = len(plain_text) if line_end < 0 else line_end
    content = plain_text[last.end() : line_end]
    line_start = plain_text.rfind("\n", 0, last.start()) + 1
    answer_line = plain_text[line_start:line_end].strip()
    if not content.strip(" \t.:"):
        # The marker alone on its line: the answer is the next non-empty line.
        for line in plain_text[line_end:].splitlines():
            if line.strip():
                content = line
                answer_line = f"{answer_line} {line.strip()}"
                break
    return content, answer_line, last.start()


def _decide(content: str, n_items: int, all_correct: str, *,
            strict: bool) -> tuple[tuple[int, ...], bool, dict[int, str]]:
    """Read ids / the all-correct token out of an answer's content, or raise ParseError."""
    text, quotes = _take_quotes(content)
    ids, rest = _read_ids(text, strict=strict)
    says_all = bool(_all_correct_pattern(all_correct, bare=False).search(text))
    if says_all and re.search(r"\d", text):
        raise ParseError(f"the answer lists ids and says {all_correct}")
    if ids and re.match(r"\s*or\b", rest, re.IGNORECASE):
        raise ParseError("the answer hedges between ids ('or')")
    if ids and re.search(r"\d", rest):
        raise ParseError("numbers after the id list make the answer ambiguous")
    if not ids and not says_all:
        if _AMBIGUOUS.search(text):
            raise ParseError(f"the answer is 'none', 'N/A' or undecided, not ids or {all_correct}")
        raise ParseError(f"the answer has neither ids nor {all_correct}")
    if says_all:
        if re.search(r"\b(?:not|except|but)\b", text, re.IGNORECASE):
            raise ParseError(f"the answer qualifies {all_correct}")
        return (), True, {}
    bad = [i for i in ids if not 1 <= i <= n_items]
    if bad:
        raise ParseError(f"id {bad[0]} is out of range 1..{n_items}")
    unique = tuple(dict.fromkeys(ids))
    return unique, False, {i: q for i, q in quotes.items() if i in unique}


def read_id_list(reply: str, n_items: int, *, answer: str, thought: str, all_correct: str,
                 require_thought: bool = False) -> IdListReply:
    """Read a FELM verdict: the ids after the ``answer`` marker, or the ``all_correct`` token.

    The last answer marker wins (models restate); its ids are 1-based, deduplicated and
    must lie in 1..n_items. Tolerated: prose around the answer, markdown, the marker in
    any case or followed by ``-``, ``=`` or ``is``, ``[1, 3]``, ``Segments 1 and 3``,
    ``#2``, a trailing explanation without numbers, the answer on the line after the
    marker, the token with spaces or ``-`` for ``_``. Without any marker the whole
    reply, or its last line, must be nothing but an id list or the token.

    Quotes (optional): after an id, the exact wrong words in double quotes, inside
    square brackets: ``2 ["born in 1879"], 3 ["Paris"]``; equally read are lines after
    the answer line such as ``2: "born in 1879"``. They land in ``quotes`` keyed by id
    (only ids that are listed wrong); digits inside quotes are never read as ids.

    ``thought`` is the marker of the reasoning, read up to the answer. With
    ``require_thought`` (CoT) a missing Thought is accepted (``thought == ""``), but
    the answer marker itself is mandatory. A Thought with no answer, ids out of
    range, ids together with the token, ranges ("1-3"), hedges ("1 or 3"), and
    "none" / "N/A" / "cannot determine" answers raise ParseError.
    """
    text = plain(reply or "").strip()
    if not text:  # also a reply of nothing but markdown marks
        raise ParseError("empty reply")
    found = _answer_content(text, answer)
    thought_match = list(_thought_pattern(thought).finditer(text))
    if found is None:
        if thought_match:
            raise ParseError(f"a {word_of(thought)} with no {word_of(answer)} line")
        if require_thought:
            raise ParseError(f"no '{answer}' line")
        return _without_marker(text, n_items, answer, all_correct)
    content, answer_line, marker_at = found
    reasoning = ""
    before = [m for m in thought_match if m.end() <= marker_at]
    if before:
        reasoning = text[before[-1].end() : marker_at].strip()
    ids, says_all, quotes = _decide(content, n_items, all_correct, strict=False)
    if ids:
        for line in text[marker_at:].splitlines()[1:]:
            match = _QUOTE_LINE.match(line)
            if match and int(match.group(1)) in ids:
                quote = next(g for g in match.groups()[1:] if g is not None).strip()
                quotes.setdefault(int(match.group(1)), quote)
    return IdListReply(ids, says_all, reasoning, answer_line, quotes)


def _without_marker(text: str, n_items: int, answer: str, all_correct: str) -> IdListReply:
    """Accept a reply with no answer marker only when it, or its last line, is a bare answer."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for candidate in dict.fromkeys([text if len(lines) == 1 else "", lines[-1]]):
        if not candidate:
            continue
        rest_of, _ = _take_quotes(candidate)
        bare_all = _all_correct_pattern(all_correct, bare=True).fullmatch(rest_of)
        ids, rest = _read_ids(rest_of, strict=True)
        if bare_all or (ids and not rest.strip()):
            ids_, says_all, quotes = _decide(candidate, n_items, all_correct, strict=True)
            return IdListReply(ids_, says_all, "", candidate, quotes)
    raise ParseError(f"no '{answer}' line and no bare id list")


def read_decision(reply: str, words: tuple[str, str], *, answer: str) -> bool:
    """Read a two-word verdict, ``words`` = (yes, no): ``True.`` after the marker, ``**No**``, ``yes, as``."""
    if not reply or not reply.strip():
        raise ParseError("empty reply")
    yes, no = (w.lower() for w in words)
    pair = f"{yes}|{no}"
    text = plain(reply)
    text = re.sub(rf"\b{yes}\s+or\s+{no}\b\s*[?:]?", " ", text, flags=re.IGNORECASE)
    found = _answer_content(text, answer)
    region = found[0] if found and found[0].strip() else text
    region = region.strip()
    first = re.match(rf"[^\w]*({pair})\b", region, re.IGNORECASE)
    if first:
        return first.group(1).lower() == yes
    if re.search(rf"\bnot\s+(?:{pair})\b", region, re.IGNORECASE):
        raise ParseError(f"a negated {words[0]}/{words[1]} is ambiguous")
    said = {m.group(1).lower() for m in re.finditer(rf"\b({pair})\b", region, re.IGNORECASE)}
    if len(said) != 1:
        raise ParseError(f"neither {words[0]} nor {words[1]}" if not said
                         else f"both {words[0]} and {words[1]}")
    return said.pop() == yes
