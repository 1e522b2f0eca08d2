"""A JSON record (RAGTruth's data-to-text sources: a business with its attributes, hours and reviews)
as the passages a judge reads, worded the way a person would read them.

A small model reads ``attributes / BusinessParking / lot: no`` and ``Monday: 17:0-21:0`` badly; it
reads ``parking: garage yes, lot no`` and ``Monday: 5:00 PM to 9:00 PM (17:00-21:00)`` as an answer
says them. So: keys become plain words, true/false yes/no, strings holding a Python literal (RAGTruth's
own release stores ``"{'garage': False}"`` and ``"u'free'"``) are parsed, each nested object and each
item of a list of objects (a review) is a passage of its own, titled by what it is about, so that a
window of a long record never cuts a line or separates a review from its stars.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from typing import Any

from factjudge.records import Evidence

SOURCE = "context"
# Camel-case words ("GoodForGroups", "HasTV"): an upper-case run, or a capital and its lower-case tail.
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# Yelp names its attributes in namespaces a person reads past ("BusinessAcceptsCreditCards",
# "RestaurantsTakeOut"); other records' keys keep every word.
_NAMESPACES = ("Business", "Restaurants")
# "17:0-21:0": Yelp writes opening hours with unpadded minutes, which a model reads as 17:00 to 21:00
# only sometimes and a lexical rule never does.
_TIME_RANGE = re.compile(r"(\d{1,2}):(\d{1,2})\s*-\s*(\d{1,2}):(\d{1,2})")
# Bare keys of a dict-like string ("{dj: False, live: True}"), quoted before it is parsed.
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_]\w*)(\s*:)")
_LITERAL_WORDS = ("True", "False", "None")
# A string field of at least this many words in a list item is its body (a review's text).
_BODY_WORDS = 12


def record_passages(record: Mapping[str, Any]) -> list[Evidence]:
    """The record as titled passages: its plain fields, then each nested object and each item of a
    list of objects as a passage of its own."""
    name = _title(record)
    head: list[str] = []
    parts: list[Evidence] = []
    for key, raw in record.items():
        value, label = parsed(raw), key_words(str(key))
        items = [parsed(v) for v in value] if isinstance(value, list) else []
        if isinstance(value, Mapping) and any(v is not None for v in value.values()):
            parts.append(Evidence(SOURCE, "\n".join(_lines(value)), title=f"{name}: {label}"))
        elif items and all(isinstance(item, Mapping) for item in items):
            for number, item in enumerate(items, start=1):
                title = f"{name}: {_shared_word(item) or label} {number} of {len(items)}"
                parts.append(Evidence(SOURCE, _item_text(item), title=title))
        else:
            head.append(f"{label}: {value_words(value)}")
    return ([Evidence(SOURCE, "\n".join(head), title=name)] if head else []) + parts


def render_record(record: Mapping[str, Any]) -> str:
    """The record as one text: its passages, each under its title, a blank line between them."""
    return passages_text(record_passages(record))


def passages_text(passages: Iterable[Evidence]) -> str:
    """Passages as one text, each under its title (when it has one), a blank line between them."""
    return "\n\n".join(f"{ev.title}\n{ev.text}" if ev.title else ev.text for ev in passages)


def key_words(key: str) -> str:
    """A key as plain words: ``BusinessAcceptsCreditCards`` -> ``accepts credit cards``, ``review_stars``
    -> ``review stars``, ``WiFi`` -> ``WiFi``."""
    words: list[str] = []
    for part in key.replace("-", "_").split("_"):
        pieces = _CAMEL.findall(part) or [part]
        # Pieces of one or two letters are one word split by its capitals ("Wi", "Fi").
        joined: list[str] = []
        for piece in pieces:
            if joined and len(piece) <= 2 and len(joined[-1]) <= 2 and piece.isalpha():
                joined[-1] += piece
            else:
                joined.append(piece)
        if len(joined) == 1:  # one word ("Monday", "garage", "WiFi") keeps its case
            words += joined
            continue
        if joined[0] in _NAMESPACES:
            joined = joined[1:]
        words += [w if w.isupper() or not w[1:].islower() else w.lower() for w in joined]
    return " ".join(words) or key


def value_words(value: Any) -> str:
    """A value as words: yes/no, ``not given`` for null, a time range in both clocks, an object's
    fields as ``key value`` pairs."""
    value = parsed(value)
    if value is None:
        return "not given"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        pairs = [f"{key_words(str(k))} {value_words(v)}" for k, v in value.items() if parsed(v) is not None]
        return ", ".join(pairs) or "not given"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_words(v) for v in value)
    text = " ".join(str(value).split())  # a review's line breaks would split its line
    return _time_range(text) or text


def parsed(value: Any) -> Any:
    """A string holding a Python literal (``"{'garage': False}"``, ``"u'free'"``, ``"True"``) as its
    value; anything else as it is."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    literal = text[:1] in ("{", "[", "'", '"') or text[:2] in ("u'", 'u"') or text in _LITERAL_WORDS
    if not literal:
        return value
    for attempt in (text, _BARE_KEY.sub(r"\1'\2'\3", text)):
        try:
            found = ast.literal_eval(attempt)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        return {k: parsed(v) for k, v in found.items()} if isinstance(found, dict) else found
    return value


def _title(record: Mapping[str, Any]) -> str:
    for key in ("name", "title"):
        if isinstance(record.get(key), str) and record[key].strip():
            return " ".join(record[key].split())
    return "the record"


def _lines(fields: Mapping[str, Any]) -> Iterable[str]:
    """An object's fields, one a line; a run of keys sharing one time range is one line (Yelp's hours:
    "Tuesday to Saturday: 5:00 PM to 9:00 PM", as a person reads a week)."""
    rows = [(key_words(str(k)), parsed(v)) for k, v in fields.items()]
    start = 0
    while start < len(rows):
        end = start
        value = rows[start][1]
        if isinstance(value, str) and _time_range(" ".join(value.split())):
            while end + 1 < len(rows) and rows[end + 1][1] == value:
                end += 1
        keys = rows[start][0] if end == start else f"{rows[start][0]} to {rows[end][0]}"
        yield f"{keys}: {value_words(value)}"
        start = end + 1


def _shared_word(item: Mapping[str, Any]) -> str | None:
    """The first word every key of a list item shares (``review`` of ``review_stars``, ``review_text``)."""
    firsts = {key_words(str(k)).split(" ")[0] for k in item}
    return firsts.pop() if len(firsts) == 1 and len(item) > 1 else None


def _item_text(item: Mapping[str, Any]) -> str:
    """A list item's short fields one a line, its long text (a review's) last, as a paragraph. Keys keep
    every word: a review's "stars: 2.0" was read as the business's rating, "review stars: 2.0" is not."""
    lines, body = [], []
    for key, raw in item.items():
        value = parsed(raw)
        if isinstance(value, str) and len(value.split()) >= _BODY_WORDS:
            body.append(" ".join(value.split()))
            continue
        lines.append(f"{key_words(str(key))}: {value_words(value)}")
    return "\n".join(lines + body)


def _time_range(text: str) -> str | None:
    """``17:0-21:0`` as ``5:00 PM to 9:00 PM (17:00-21:00)``; None for anything else."""
    found = _TIME_RANGE.fullmatch(text)
    if found is None:
        return None
    h1, m1, h2, m2 = (int(g) for g in found.groups())
    if max(h1, h2) > 24 or max(m1, m2) > 59:
        return None
    plain = f"{h1}:{m1:02d}-{h2}:{m2:02d}"
    if (h1, m1) == (h2, m2):  # Yelp's 0:0-0:0: a day with no opening span given
        return f"{plain} (no hours given)"
    return f"{_clock(h1, m1)} to {_clock(h2, m2)} ({plain})"


def _clock(hour: int, minute: int) -> str:
    if hour % 24 == 0 and minute == 0:
        return "midnight, 12:00 AM"
    return f"{(hour % 12) or 12}:{minute:02d} {'AM' if hour % 24 < 12 else 'PM'}"
