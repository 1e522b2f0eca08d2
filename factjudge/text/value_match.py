"""Is the value read from the passages the value the item states? confirmed, contradicted, or not stated.

Compared by kind (``text.values``): numbers by their amount (scale words and units applied, a
relative tolerance for rounding: "about 384,000 km" is 384,400 km), dates and years by the fields
both give (a year is confirmed by a full date of that year, a century by a year in it), names by
their words with case, accents and joining words ignored, a shorter or longer form of the same
name agreeing ("Hugo", "Victor Hugo"), and a spelling that differs by a few letters agreeing too
("Moscou", "Moscow"; "Múnich", "Munich"). A reply that is not a value of the kind asked for (a
day of the month for a year, a description for a name) is no answer: not stated, never a
contradiction.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher

from factjudge.grounds import Outcome
from factjudge.text.segmenter import split_sentences
from factjudge.text.values import (
    CENTURY_PATTERN,
    DATE_PATTERNS,
    JOINERS,
    MONTHS,
    NUMBER_PATTERN,
    SCALES,
    UNITS,
    YEAR_PATTERN,
    Kind,
    fold,
)

# Relative difference two amounts may have and still be one value (rounding, "about").
TOLERANCE = 0.05
# How alike two spellings of one name word must be (difflib's ratio), and how long they must be.
SPELLING = 0.8
MIN_FUZZY = 5
# Replies that say the passages do not give the value (the contract's own word comes first).
NOT_STATED = re.compile(r"^\W*(not stated|not mentioned|not specified|not given|unknown|none|n/?a|"
                        r"the (passages?|text) (do|does)(n['’]t| not) (say|state|mention|give)|"
                        r"no (se|lo) (menciona|indica)|"
                        r"non (mentionné|précisé|indiqué)|no especificado|no mencionado|inconnu|"
                        r"desconocido)\b", re.IGNORECASE)
_NUMBER_WORDS = {w: n for n, words in enumerate((
    "zero cero zéro", "one", "two dos deux", "three tres trois", "four cuatro quatre",
    "five cinco cinq", "six seis", "seven siete sept", "eight ocho huit", "nine nueve neuf", "ten diez dix",
    "eleven once onze", "twelve doce douze")) for w in words.split()}
_NAME_STOP = JOINERS | frozenset("a an el los las un une the city of town river mount saint st".split())  # noqa: SIM905


def compare_values(stated: str, read: str | None, kind: Kind) -> Outcome:
    """The outcome of reading ``read`` from the passages where the item states ``stated``."""
    if read is None or not read.strip() or NOT_STATED.match(read):
        return "not_stated"
    same = same_value(stated, read, kind)
    if same is None:
        return "not_stated"
    return "confirmed" if same else "contradicted"


def echoes_other(read: str, kind: Kind, others: Sequence[str]) -> bool:
    """Whether ``read`` is another value the item itself states: the model filled the blank from the
    wrong slot ("from ___ to 1527" read as 1527), which contradicts nothing."""
    folded = fold(read)
    return any(same_value(other, read, kind) or (folded and folded in fold(other)) for other in others)


def same_value(stated: str, read: str, kind: Kind) -> bool | None:
    """Whether ``read`` is the value ``stated`` is; None when ``read`` is no value of that kind."""
    if kind in ("date", "year", "century"):
        return _same_time(stated, read)
    if kind == "number":
        return _same_amount(stated, read)
    return _same_name(stated, read)


def _same_time(stated: str, read: str) -> bool | None:
    """Dates compared on the fields both give; a century against the years it holds."""
    said, got = times(stated), times(read)
    if not said or not got:
        return None
    return any(_agree(a, b) for a in said for b in got)


Time = tuple[int, int, int | None, int | None]  # (first year, last year, month, day)


def times(text: str) -> list[Time]:
    """The dates, years and centuries ``text`` names, as (first year, last year, month, day)."""
    found: list[Time] = []
    taken: list[tuple[int, int]] = []
    for pattern in DATE_PATTERNS:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            groups = match.groupdict()
            if groups.get("iso"):
                year, month, day = map(int, groups["iso"].split("-"))
                found.append((year, year, month, day))
            else:
                named = MONTHS.get(fold(groups["month"].rstrip(".")))
                if named is None or not groups.get("year"):
                    continue
                on = int(re.sub(r"\D", "", groups["day"])) if groups.get("day") else None
                found.append((int(groups["year"]), int(groups["year"]), named, on))
            taken.append(match.span())
    for match in CENTURY_PATTERN.finditer(text):
        number = match.group("ord") or match.group("es") or match.group("fr")
        century = int(number) if number.isdigit() else _roman(number)
        if century:
            found.append(((century - 1) * 100 + 1, century * 100, None, None))
        taken.append(match.span())
    for match in YEAR_PATTERN.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        digits = int(re.match(r"\d+", match.group("year")).group())  # type: ignore[union-attr]
        year = -digits if re.search(r"BC|av\.|a\. ?C", match.group("year")) else digits
        found.append((year, year, None, None))
    return found


def _agree(a: Time, b: Time) -> bool:
    if a[1] < b[0] or b[1] < a[0]:
        return False
    return all(x is None or y is None or x == y for x, y in ((a[2], b[2]), (a[3], b[3])))


def _roman(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for char, after in zip(text, [*text[1:], ""], strict=True):
        value = values.get(char.upper(), 0)
        total += -value if after and values.get(after.upper(), 0) > value else value
    return total


def _same_amount(stated: str, read: str) -> bool | None:
    said, got = amounts(stated), amounts(read)
    if not said or not got:
        return None
    value, unit = said[0]
    comparable = [(v, u) for v, u in got if not unit or not u or u == unit]
    if not comparable:
        return None  # a length read for a mass: no answer to this question
    if any(_close(value, v) for v, _ in comparable):
        return True
    # A bare number read for "90,000 years" is the figure in the unit the blank asked for.
    bare = amounts(stated, units=False)[0][0]
    if unit and any(not u and _close(bare, v) for v, u in comparable):
        return True
    # A bare number read for "35 millions" is the same figure with its scale word left off.
    figure = NUMBER_PATTERN.search(unicodedata.normalize("NFKC", stated))
    if figure and _has_scale(stated) and not _has_scale(read):
        return any(_close(_number(figure.group("num")), v) for v, _ in comparable)
    return False


def _has_scale(text: str) -> bool:
    return any(word.strip(",.;:()") in SCALES for word in text.lower().split())


def amounts(text: str, units: bool = True) -> list[tuple[float, str]]:
    """The amounts ``text`` states, in a canonical unit where it names one: ("4,200 m" → (4200, "m"));
    with ``units`` false, as written (scale words applied, units not)."""
    found: list[tuple[float, str]] = []
    folded = unicodedata.normalize("NFKC", text)
    for match in NUMBER_PATTERN.finditer(folded):
        found.append(_with_unit(_number(match.group("num")), folded[match.end():], units))
    words = re.findall(r"[^\W\d_]+", folded.lower())
    if not found and words and words[0] in _NUMBER_WORDS:  # "three km", never the "two" of "seventy-two"
        found.append(_with_unit(float(_NUMBER_WORDS[words[0]]), folded.lower().split(words[0], 1)[1], units))
    return found


def _with_unit(value: float, after: str, units: bool = True) -> tuple[float, str]:
    """``value`` times the scale word after it, in the unit after that (canonical, when ``units``), if any."""
    words = after.lower().split()[:3]
    unit = ""
    for i, word in enumerate(words):
        word = word.strip(",.;:()")
        pair = " ".join(words[i:i + 2]).strip(",.;:()")
        if pair in SCALES or word in SCALES:
            value *= SCALES.get(pair, SCALES.get(word, 1.0))
            continue
        if word in ("de", "of", "d'"):
            continue
        spelled = pair if pair in UNITS else word
        if spelled in UNITS and units:
            unit, factor = UNITS[spelled]
            value *= factor
        break
    return value, unit


def _number(text: str) -> float:
    """A written number as a float: thousands separators dropped, a decimal comma read as a point."""
    text = re.sub(r"[\u00a0\u202f ]", "", text)
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        return float(text.replace(",", ""))
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", text):
        return float(text.replace(".", "").replace(",", "."))
    return float(text.replace(",", "."))


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b)) or a == b


def _same_name(stated: str, read: str) -> bool | None:
    if not any(c.isupper() for c in read) and not any(c.isdigit() for c in read):
        return None  # a description ("the largest city"), not a name: it answers nothing
    said, got = name_words(stated), name_words(read)
    if not said or not got:
        return None
    if said <= got or got <= said:
        return True
    small, large = (said, got) if len(said) <= len(got) else (got, said)
    return all(any(_spelled_alike(a, b) for b in large) for a in small)


def name_words(text: str) -> set[str]:
    """A name's words as compared: case and accents folded, joining words and articles left out."""
    return {w for w in re.findall(r"[^\W_]+", fold(text)) if w not in _NAME_STOP}


def _spelled_alike(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) < MIN_FUZZY or a[0] != b[0]:
        return False
    return SequenceMatcher(None, a, b).ratio() >= SPELLING


def passage_with(read: str, passages: Sequence[str]) -> int | None:
    """The index of the first passage that contains the value ``read`` (its words, folded), else None.

    A reply the passages do not contain came from the model's own belief, not from reading.
    """
    wanted = [w for w in re.findall(r"[^\W_]+", fold(read)) if w not in _NAME_STOP]
    if not wanted:
        return None
    for index, passage in enumerate(passages):
        words = set(re.findall(r"[^\W_]+", fold(passage)))
        digits = re.sub(r"[\s,.\u00a0\u202f]", "", fold(passage))
        if all(w in words or (w.isdigit() and w in digits) for w in wanted):
            return index
    return None


def stated_alike(item: str, start: int, end: int, passages: Sequence[str],
                 around: int = 2) -> tuple[int, str] | None:
    """The first passage, and its sentence, that states the value ``item[start:end]`` in the item's own
    words: the same ``around`` words before and after it (folded). Such a value needs no reading.

    "a 1967 novel by" in the passage confirms 1967 whatever else the passage dates; "Canada is
    Toronto" is in no passage that only lists Toronto among cities.
    """
    before, after = _words(item[:start])[-around:], _words(item[end:])[:around]
    if len(before) + len(after) < around:  # too few words around it to say it is the same statement
        return None
    wanted = " ".join(["", *before, *_words(item[start:end]), *after, ""])
    for index, passage in enumerate(passages):
        for sentence in split_sentences(passage):
            if wanted in " ".join(["", *_words(sentence), ""]):
                return index, " ".join(sentence.split())
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", fold(text))
