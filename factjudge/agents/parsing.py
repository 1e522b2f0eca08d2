"""Parsers for model replies: each returns what the reply says or raises ParseError, never a guess.

Prompting lives in ``factjudge/prompts``; these functions only read replies, so they can be
tested on real bad replies without a model. A judge's verdict is read by its reply contract
(``factjudge.prompts.contracts``); ``parse_id_list`` and ``parse_decision`` are those contracts'
``parse`` under the names callers know.
"""

from __future__ import annotations

import re

from factjudge.errors import ParseError
from factjudge.prompts.contracts import ID_LIST, ID_LIST_COT, TRUE_FALSE, DecisionContract
from factjudge.prompts.replies import IdListReply, id_number, plain

__all__ = ["IdListReply", "parse_claims", "parse_decision", "parse_id_list"]


def parse_id_list(reply: str, n_items: int, *, require_thought: bool = False) -> IdListReply:
    """A FELM list verdict, read by the list contract (its CoT form with ``require_thought``)."""
    return (ID_LIST_COT if require_thought else ID_LIST).parse(reply, n_items)


def parse_decision(reply: str, words: tuple[str, str] = TRUE_FALSE.words) -> bool:
    """A two-word verdict, ``words`` = (yes, no), read by the decision contract of those words."""
    return DecisionContract(*words).parse(reply)


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
    for raw in plain(reply).splitlines():
        line = raw.strip()
        if not line or _HEADER_ONLY.match(line):
            continue
        header = _SEGMENT_HEADER.match(line)
        if header:
            number = id_number(header.group(1))
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
