"""Parsers for model replies: each returns the reply's contract or raises ParseError, never a guess.

Prompting lives in ``factjudge/prompts``; these functions only read replies, so
they can be tested on real bad replies without a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
_ANSWER = re.compile(r"\b(?:final[ \t]+)?answer\b[ \t]*(?:[:：=\-–—]|is\b)[ \t]*", re.IGNORECASE)
_THOUGHT = re.compile(r"\bthoughts?\s*[:：]\s*", re.IGNORECASE)
_ALL_CORRECT = re.compile(r"\ball[\s_\-]*(?:are\s+|is\s+)?correct\b", re.IGNORECASE)
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


def _number(digits: str) -> int:
    """A number written in a reply; one longer than nine digits is no id (and int() refuses thousands)."""
    if len(digits) > 9:
        raise ParseError(f"the number {digits[:9]}… is too long to be an id")
    return int(digits)


def _plain(text: str) -> str:
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
            quotes.setdefault(_number(owner.group(1)), quote)
        rest.append(" ")
        last = match.end()
    rest.append(text[last:])
    return "".join(rest), quotes


def _read_ids(content: str, *, strict: bool) -> tuple[list[int], str]:
    """Ids at the start of ``content`` and the text left after them.

    With ``strict`` the whole content must be ids and filler words (used when there
    is no ``Answer:`` marker, where an explanation would make the reading a guess).
    """
    if re.search(r"\d\s*(?:-|–|—|to)\s*\d", content):
        raise ParseError("a range of ids (such as 1-3) is ambiguous; list every id")
    ids: list[int] = []
    tokens = list(_ID_TOKENS.finditer(content))
    stop = len(content)
    for token in tokens:
        word = token.group().lower()
        if word.isdecimal():  # not isdigit(): superscripts such as ² are digits int() refuses
            ids.append(_number(word))
        elif word in _FILLERS or word in _PUNCT or word in "-–—":
            continue
        else:
            stop = token.start()
            break
    rest = content[stop:]
    if strict and rest.strip():
        return [], rest
    return ids, rest


def _answer_content(plain: str) -> tuple[str, str, int] | None:
    """The text after the last Answer marker (or on the next line), its raw line, and the marker offset."""
    matches = list(_ANSWER.finditer(plain))
    if not matches:
        return None
    marker = matches[-1]
    line_end = plain.find("\n", marker.end())
    line_end = len(plain) if line_end < 0 else line_end
    content = plain[marker.end() : line_end]
    line_start = plain.rfind("\n", 0, marker.start()) + 1
    answer_line = plain[line_start:line_end].strip()
    if not content.strip(" \t.:"):
        # "Answer:" alone on its line: the answer is the next non-empty line.
        for line in plain[line_end:].splitlines():
            if line.strip():
                content = line
                answer_line = f"{answer_line} {line.strip()}"
                break
    return content, answer_line, marker.start()


def _decide(content: str, n_items: int, *, strict: bool) -> tuple[tuple[int, ...], bool, dict[int, str]]:
    """Read ids / ALL_CORRECT out of an answer's content, or raise ParseError."""
    text, quotes = _take_quotes(content)
    ids, rest = _read_ids(text, strict=strict)
    all_correct = bool(_ALL_CORRECT.search(text))
    if all_correct and re.search(r"\d", text):
        raise ParseError("the answer lists ids and says ALL_CORRECT")
    if ids and re.match(r"\s*or\b", rest, re.IGNORECASE):
        raise ParseError("the answer hedges between ids ('or')")
    if ids and re.search(r"\d", rest):
        raise ParseError("numbers after the id list make the answer ambiguous")
    if not ids and not all_correct:
        if _AMBIGUOUS.search(text):
            raise ParseError("the answer is 'none', 'N/A' or undecided, not ids or ALL_CORRECT")
        raise ParseError("the answer has neither ids nor ALL_CORRECT")
    if all_correct:
        if re.search(r"\b(?:not|except|but)\b", text, re.IGNORECASE):
            raise ParseError("the answer qualifies ALL_CORRECT")
        return (), True, {}
    bad = [i for i in ids if not 1 <= i <= n_items]
    if bad:
        raise ParseError(f"id {bad[0]} is out of range 1..{n_items}")
    unique = tuple(dict.fromkeys(ids))
    return unique, False, {i: q for i, q in quotes.items() if i in unique}


def parse_id_list(reply: str, n_items: int, *, require_thought: bool = False) -> IdListReply:
    """Parse a FELM verdict ``Answer: 1,3`` / ``Answer: ALL_CORRECT`` (with an optional ``Thought:``).

    The last ``Answer`` marker wins (models restate); its ids are 1-based, deduplicated
    and must lie in 1..n_items. Tolerated: prose around the answer, markdown,
    ``Answer - 1 and 3``, ``[1, 3]``, ``Segments 1 and 3``, ``#2``, a trailing
    explanation without numbers, the answer on the line after ``Answer:``. Without
    any marker the whole reply, or its last line, must be nothing but an id list or
    ALL_CORRECT.

    Quotes (optional): after an id, the exact wrong words in double quotes, inside
    square brackets: ``Answer: 2 ["born in 1879"], 3 ["Paris"]``; equally read are
    lines after the answer line such as ``2: "born in 1879"``. They land in
    ``quotes`` keyed by id (only ids that are listed wrong); digits inside quotes are
    never read as ids.

    ``thought`` is the text after ``Thought:`` up to the answer. With
    ``require_thought`` (CoT) a missing Thought is accepted (``thought == ""``), but
    the ``Answer`` marker itself is mandatory. A Thought with no Answer, ids out of
    range, ids together with ALL_CORRECT, ranges ("1-3"), hedges ("1 or 3"), and
    "none" / "N/A" / "cannot determine" answers raise ParseError.
    """
    plain = _plain(reply or "").strip()
    if not plain:  # also a reply of nothing but markdown marks
        raise ParseError("empty reply")
    found = _answer_content(plain)
    thought_match = list(_THOUGHT.finditer(plain))
    if found is None:
        if thought_match:
            raise ParseError("a Thought with no Answer line")
        if require_thought:
            raise ParseError("no 'Answer:' line")
        return _without_marker(plain, n_items)
    content, answer_line, marker_at = found
    thought = ""
    before = [m for m in thought_match if m.end() <= marker_at]
    if before:
        thought = plain[before[-1].end() : marker_at].strip()
    ids, all_correct, quotes = _decide(content, n_items, strict=False)
    if ids:
        for line in plain[marker_at:].splitlines()[1:]:
            match = _QUOTE_LINE.match(line)
            if match and int(match.group(1)) in ids:
                quote = next(g for g in match.groups()[1:] if g is not None).strip()
                quotes.setdefault(int(match.group(1)), quote)
    return IdListReply(ids, all_correct, thought, answer_line, quotes)


def _without_marker(plain: str, n_items: int) -> IdListReply:
    """Accept a reply with no Answer marker only when it, or its last line, is a bare answer."""
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    for candidate in dict.fromkeys([plain if len(lines) == 1 else "", lines[-1]]):
        if not candidate:
            continue
        text, _ = _take_quotes(candidate)
        bare_all = re.fullmatch(r"\s*all[\s_\-]*correct\s*[.!]?\s*", text, re.IGNORECASE)
        ids, rest = _read_ids(text, strict=True)
        if bare_all or (ids and not rest.strip()):
            ids_, all_correct, quotes = _decide(candidate, n_items, strict=True)
            return IdListReply(ids_, all_correct, "", candidate, quotes)
    raise ParseError("no 'Answer:' line and no bare id list")


_SEGMENT_HEADER = re.compile(
    r"^\s*(?:[#>\-*•]\s*)*(?:segment|seg\.?)\s*#?\s*(\d+)\s*(?:claims?)?\s*(?:[:：\-–—]\s*(.*)|[.)]?\s*)$",
    re.IGNORECASE,
)
_CLAIM_LINE = re.compile(
    r"^\s*(?:(?:claim|fact)\s*#?\d+\s*[.:)：\-–—]|\(?\d{1,3}[.)]|[-*•+▪])\s*(.+)$", re.IGNORECASE
)
_NO_CLAIMS = re.compile(
    r"^\s*[(\[]?\s*(?:no\s+(?:factual\s+|checkable\s+|atomic\s+)?claims?|none|n/?a|nothing|-)"
    r"(?:\s*(?:to\s+extract|found|made))?\s*[)\]]?\s*[.!]?\s*$",
    re.IGNORECASE,
)
_HEADER_ONLY = re.compile(r"^\s*(?:answer|claims?|output|result)s?\s*[:：]?\s*$", re.IGNORECASE)


def parse_claims(reply: str, n_segments: int) -> dict[int, list[str]]:
    """Parse extraction output ``Segment 1:`` + ``Claim 1. text`` lines into claims per segment id.

    Claim lines may be ``Claim 1. text``, ``1. text``, ``1) text`` or ``- text``; a
    block without such lines takes its plain lines as claims. ``No claims`` /
    ``None`` gives an empty list. Segments the reply does not mention are absent;
    a repeated segment block replaces the earlier one. With one segment a bare list
    of claims (no header) is read as that segment's. Raises ParseError on an empty
    reply, no segment block, or a segment id outside 1..n_segments.
    """
    if not reply or not reply.strip():
        raise ParseError("empty reply")
    blocks: dict[int, list[str]] = {}
    current: list[str] | None = None
    loose: list[str] = []
    for raw in _plain(reply).splitlines():
        line = raw.strip()
        if not line or _HEADER_ONLY.match(line):
            continue
        header = _SEGMENT_HEADER.match(line)
        if header:
            number = _number(header.group(1))
            if not 1 <= number <= n_segments:
                raise ParseError(f"segment {number} is out of range 1..{n_segments}")
            current = []
            blocks[number] = current
            if header.group(2) and header.group(2).strip():
                current.append(header.group(2).strip())
            continue
        (current if current is not None else loose).append(line)
    if not blocks:
        if n_segments == 1 and any(_CLAIM_LINE.match(line) for line in loose):
            blocks[1] = loose
        else:
            raise ParseError("no 'Segment <id>:' block")
    return {number: _claims_of(lines) for number, lines in blocks.items()}


def _claims_of(lines: list[str]) -> list[str]:
    """Claims of one block: its marked lines, else its plain lines; none for a 'No claims' block."""
    marked = [m.group(1).strip() for m in map(_CLAIM_LINE.match, lines) if m and m.group(1).strip()]
    marked = [c for c in marked if not _NO_CLAIMS.match(c)]
    if marked:
        return marked
    return [line for line in lines if not _NO_CLAIMS.match(line) and not _CLAIM_LINE.match(line)]


def parse_decision(reply: str, words: tuple[str, str] = ("True", "False")) -> bool:
    """Parse a two-word verdict, ``words`` = (yes, no): ``Answer: True.``, ``**No**``, ``yes — because``."""
    if not reply or not reply.strip():
        raise ParseError("empty reply")
    yes, no = (w.lower() for w in words)
    pair = f"{yes}|{no}"
    text = _plain(reply)
    text = re.sub(rf"\b{yes}\s+or\s+{no}\b\s*[?:]?", " ", text, flags=re.IGNORECASE)
    found = _answer_content(text)
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
