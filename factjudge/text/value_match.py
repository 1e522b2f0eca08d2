"""Is the value read from the passages the value the item states? confirmed, contradicted, or not stated.

Compared by kind (``text.values``): numbers by their amount, signed ("-40 °C" is not "40 °C"), scale
words and units applied (°F and K to °C; lengths, masses, areas to one unit each), fractions ("1/2", "1
1/2") and numbers in words in en, es and fr ("one hundred", "cent", "dos mil", "un demi", "un kilómetro
y medio": ``text.number_words``) included; within a relative tolerance for rounding ("about 384,000 km"
is 384,400 km; wider after "about") or the step a writer rounded to ("2 million" holds 2.4 million), and
a figure too long for a float only ever equal to the same digits. Dates and years by the fields both
give (a year is confirmed by a full date of that year, a century by a year in it). Names by their words
with case, accents and joining words ignored, a shorter or longer form of the same name agreeing
("Hugo", "Victor Hugo"), and a spelling that differs by a letter or two agreeing too ("Moscou",
"Moscow"; "Múnich", "Munich"), but never a word that only begins like another or is two letters longer
("Paris" is not "Parish", "Austria" not "Australia"). A reply that is not a value of the kind asked for
(a day of the month for a year, a description for a name) is no answer: not stated, never a
contradiction.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from factjudge.grounds import Outcome
from factjudge.text.fold import words
from factjudge.text.language import guess_language
from factjudge.text.normalize import normalized
from factjudge.text.number_words import HALF_AFTER, minus_start, spelled_numbers
from factjudge.text.places import is_place, same_place
from factjudge.text.segmenter import split_sentences
from factjudge.text.values import (
    CENTURY_PATTERN,
    DATE_PATTERNS,
    DAY_MONTH_PATTERNS,
    DECADE_PATTERN,
    ERA,
    JOINERS,
    MONTHS,
    NUMBER_PATTERN,
    RATE_WORDS,
    SCALES,
    UNITS,
    YEAR_PATTERN,
    Kind,
    fold,
    unit_end,
)

# Relative difference two amounts may have and still be one value (rounding); after "about", more.
TOLERANCE = 0.05
HEDGED = 0.10
# Temperatures, in degrees Celsius apart: rounding a Fahrenheit figure moves it by 0.56.
DEGREES = 0.6
HEDGED_DEGREES = 3.0
# Temperature units to degrees Celsius: (the offset taken off, then the factor).
_TEMPERATURES = {"°f": (32.0, 5 / 9), "k": (273.15, 1.0)}
# Past this many significant digits a float no longer holds a figure exactly.
_FLOAT_DIGITS = 15
# Words that make a place of a name ("Ciudad de México", "Mexico City"), folded.
_PLACE_WORDS = frozenset({"city", "ciudad", "ville", "cite", "state", "estado", "etat", "province",
                          "provincia", "district", "distrito"})
# How alike two spellings of one name word must be (difflib's ratio), how long they must be, and
# the longest word compared by spelling (longer ones only by equality: bounded time).
SPELLING = 0.8
MIN_FUZZY = 5
MAX_FUZZY = 40
# Words that widen the tolerance when they stand just before a value ("about 4,200 metres").
_HEDGE = re.compile(r"\b(about|around|approximately|roughly|nearly|almost|some|circa|ca\.|c\.|over|"
                    r"more than|less than|under|environ|près de|presque|quelque|plus de|moins de|"
                    r"aproximadamente|alrededor de|unos|unas|cerca de|casi|más de|menos de)\s*$",
                    re.IGNORECASE)
_WORD_RUN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_ARTICLES = frozenset("un une una".split())  # noqa: SIM905 - a lone article is no number
_MAX_WORDS = 40  # number words are looked for in a reply's first words only (bounded time)
# Replies that say the passages do not give the value (the contract's own word comes first).
NOT_STATED = re.compile(r"^\W*(not stated|not mentioned|not specified|not given|unknown|none|n/?a|"
                        r"the (passages?|text) (do|does)(n['’]t| not) (say|state|mention|give)|"
                        r"no (se|lo) (menciona|indica)|"
                        r"non (mentionné|précisé|indiqué)|no especificado|no mencionado|inconnu|"
                        r"desconocido)\b", re.IGNORECASE)
# A value read by alignment: this many of the item's words before it, at most this many words long.
ALIGNED_BEFORE = 3
ALIGNED_AFTER = 2
ALIGNED_WORDS = 6
# With only the sentence's end after it, fewer: "mesure 200 m." is not aligned with "mesure cent mètres de
# haut.", whose last words are no part of the value.
ALIGNED_CLOSING = 3
_SENTENCE_BREAK = re.compile(r"[.!?]\s+")
# A sentence's end, after any closing bracket or quote ("Anthills of the Savannah (1987).").
_CLOSES = re.compile(r"[\s)\]»”’\"']*(?:[.!?]\W*)?$")
# What a compound adds to a name it describes by ("Polish-born", "London-based", "French-speaking").
_COMPOUND_TAIL = re.compile(r"(?<=[^\W\d_])-(?:born|based|speaking|led|owned|made)\b")
# Single letters joined by dots, an initialism ("U.S.", "U.K"): one word, as "US" writes it.
_INITIALISM = re.compile(r"(?<![^\W_])(?:[^\W\d_]\.)+[^\W\d_](?![^\W_])\.?")
_NAME_STOP = JOINERS | frozenset("a an el los las un une the city of town river mount saint st".split())  # noqa: SIM905


def compare_values(stated: str, read: str | None, kind: Kind, before: str = "", passage: str = "") -> Outcome:
    """The outcome of reading ``read`` from the passages where the item states ``stated``; ``before``
    is the item's text before the value ("about" before a number widens the tolerance), ``passage``
    the passage it was read from (a bare figure read there is in the unit the passage gives it)."""
    if read is None or not read.strip() or NOT_STATED.match(read):
        return "not_stated"
    same = same_value(stated, read, kind, hedged=bool(_HEDGE.search(before[-40:])), passage=passage)
    if same is None:
        return "not_stated"
    return "confirmed" if same else "contradicted"


# The place a person's name says they are of: the words after its last particle ("Ignacio de Loyola").
_OF_A_PLACE = re.compile(r"\s(?:de|da|di|of|von|d['’])\s*([A-ZÀ-Ý][^\s,]*)$")


def echoes_other(read: str, kind: Kind, others: Sequence[str]) -> bool:
    """Whether ``read`` is another value the item itself states: the model filled the blank from the
    wrong slot ("from ___ to 1527" read as 1527), which contradicts nothing. A place named after one is
    another thing ("Ciudad de México" for "La capital de México es ___")."""
    words = _words(read)
    return any((same_value(other, read, kind) or (bool(words) and _contains(_words(other), words)))
               and not place_named_after(read, other) and not _two_places(read, other) for other in others)


def _two_places(one: str, other: str) -> bool:
    """Whether GeoNames knows ``one`` and ``other`` as two places ("San Salvador", the capital of "El
    Salvador"): the one read is no echo of the other."""
    return is_place(one) and is_place(other) and not same_place(one, other)


def place_in_a_name(read: str, others: Sequence[str], passage: str) -> bool:
    """Whether ``read`` is the place a name among ``others`` says its bearer is of ("Loiola" of "Ignacio de
    Loyola", "Vinci" of "Leonardo da Vinci") and ``passage`` writes it as a place ("né en 1491 à Loiola"):
    the birthplace a person is named after, not the name echoed."""
    where = re.search(rf"\b(?:à|a|en|in|at|au)\s+{re.escape(read)}(?!\w)", passage)
    tails = (m.group(1) for other in others if (m := _OF_A_PLACE.search(other)))
    return where is not None and any(_same_name(tail, read) for tail in tails)


def place_named_after(read: str, name: str) -> bool:
    """Whether ``read`` is ``name``'s words with a word for a city or a region: another place named after it
    ("Ciudad de México" of "México", "Mexico City", "Quebec City")."""
    return bool(set(_words(read)) - set(_words(name)) & _PLACE_WORDS)


def _contains(words: list[str], part: list[str]) -> bool:
    """Whether ``part`` is a run of whole ``words`` ("Paris" of "Paris, France"; never of "Parish")."""
    return any(words[i:i + len(part)] == part for i in range(len(words) - len(part) + 1))


def same_value(stated: str, read: str, kind: Kind, hedged: bool = False, passage: str = "") -> bool | None:
    """Whether ``read`` is the value ``stated`` is; None when ``read`` is no value of that kind;
    ``hedged`` when the item said "about" the number; ``passage`` the text it was read from."""
    if kind in ("date", "year", "century", "decade"):
        return _same_time(stated, read)
    if kind == "number":
        return _same_amount(stated, read, hedged, passage)
    same = _same_name(stated, read)
    # A place each language spells its own way ("London", "Londres"): one place where GeoNames says so; its
    # not knowing two names as one place says nothing.
    return True if same is False and kind != "person" and same_place(stated, read) else same


def _same_time(stated: str, read: str) -> bool | None:
    """Dates compared on the fields both give; a century against the years it holds."""
    said, got = times(stated), times(read)
    if not said or not got:
        return None
    return any(_agree(a, b) for a in said for b in got)


Time = tuple[int, int, int | None, int | None]  # (first year, last year, month, day)


def times(text: str) -> list[Time]:
    """The dates, years, decades and centuries ``text`` names, as (first year, last year, month, day)."""
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
    for match in DECADE_PATTERN.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        digits = match.group("en") or match.group("fr") or match.group("es")
        first = int(digits)
        # "the 1800s" is a century in English; "les années 1900" is a decade.
        found.append((first, first + (99 if match.group("en") and first % 100 == 0 else 9), None, None))
        taken.append(match.span())
    for match in YEAR_PATTERN.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        digits = int(re.match(r"\d+", match.group("year")).group())  # type: ignore[union-attr]
        year = -digits if re.search(r"BC|av\.|a\. ?C", match.group("year")) else digits
        found.append((year, year, None, None))
    return found


def with_its_year(read: str, passage: str) -> str:
    """``read``, a day and month with no year ("15 April"), as ``passage`` writes that day with a year
    ("15 April 1912"), when every date it gives of that day has the same year; else ``read`` as it is.
    The model copies the day from the sentence that omits the year the lead gave first ("She sank …
    on 15 April"), which no year stated can be compared with."""
    match = next((m for m in (p.match(read) for p in DAY_MONTH_PATTERNS) if m), None)
    month = MONTHS.get(fold(match.group("month").rstrip("."))) if match else None
    if match is None or month is None:
        return read
    day = int(re.sub(r"\D", "", match.group("day")))
    written = {t[0]: passage[m.start():m.end()] for p in DATE_PATTERNS[1:3] for m in p.finditer(passage)
               for t in times(m.group()) if t[2:] == (month, day)}
    return next(iter(written.values())) if len(written) == 1 else read


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


def _same_amount(stated: str, read: str, hedged: bool = False, passage: str = "") -> bool | None:
    said, got = _amounts(stated), _amounts(read)
    if not said or not got:
        return None
    first = said[0]
    if passage:
        got = _signed_as_written(got, passage)
    if first.unit and passage and not any(a.unit for a in got):
        # A bare figure read where the passage writes it with a unit ("100" of "100 °C"): in that unit.
        written = [unit for unit, bare in zip(_amounts(passage), _amounts(passage, units=False), strict=True)
                   if unit.unit == first.unit and any(_same(bare, a) for a in got)]
        if written:
            return any(_same(first, a, hedged) for a in written)
    comparable = [a for a in got if not first.unit or not a.unit or a.unit == first.unit]
    if not comparable:
        return None  # a length read for a mass: no answer to this question
    if first.unit and passage and _a_calendar_year(read, passage):
        return None  # "2600" of "c. 2600 BC" read for "more than 3,800 years": a date, not a count
    if any(_same(first, a, hedged) for a in comparable):
        return True
    # A bare number read for "90,000 years" is the figure in the unit the blank asked for.
    bare = _amounts(stated, units=False)[0]
    if first.unit and any(not a.unit and _same(bare, a, hedged) for a in comparable):
        return True
    # A bare number read for "35 millions" is the same figure with its scale word left off.
    figure = NUMBER_PATTERN.search(normalized(stated).text)
    if figure and _has_scale(stated) and not _has_scale(read):
        plain = _Amount(*_number(figure.group("num")))
        return any(_same(plain, a, hedged) for a in comparable)
    return False


def _a_calendar_year(read: str, passage: str) -> bool:
    """Whether ``passage`` writes the figure ``read`` as a year of an era ("2600 BC", "1500 av. J.-C.")."""
    figure = read.strip()
    if not re.fullmatch(r"\d{1,4}", figure):
        return False
    return re.search(rf"(?<![\d,.]){figure}\s?{ERA}", passage) is not None


def _signed_as_written(got: list[_Amount], passage: str) -> list[_Amount]:
    """The amounts read, each with the sign the passage writes it with: a model copying "−40 °C" (a
    minus sign it rarely sees) often drops it, and "40 °C" read there is the passage's −40 °C."""
    written = [*_amounts(passage), *_amounts(passage, units=False)]
    signed = []
    for amount in got:
        negative = dataclasses.replace(amount, value=-amount.value,
                                       digits="-" + amount.digits if amount.digits else "")
        if amount.value > 0 and any(_same(negative, w) for w in written) \
                and not any(_same(amount, w) for w in written):
            amount = negative
        signed.append(amount)
    return signed


def _has_scale(text: str) -> bool:
    return any(word.strip(",.;:()") in SCALES for word in text.lower().split())


@dataclass(frozen=True)
class _Amount:
    """An amount as compared: its value (in the canonical unit), that unit, the step its writer rounded
    to (a tenth for "4.2", a million for "2 million"), and, for a figure too long for a float to hold,
    its digits: such a figure is only ever the same as the same digits."""

    value: float
    step: float = 0.0
    digits: str = ""
    unit: str = ""


def amounts(text: str, units: bool = True) -> list[tuple[float, str]]:
    """The amounts ``text`` states, in a canonical unit where it names one: ("4,200 m" → (4200, "m"));
    with ``units`` false, as written (scale words applied, units not)."""
    return [(a.value, a.unit) for a in _amounts(text, units)]


def _amounts(text: str, units: bool = True) -> list[_Amount]:
    folded = normalized(text).text  # "½" as "1/2", full-width digits as digits
    found: list[_Amount] = []
    for match in NUMBER_PATTERN.finditer(folded):
        value, step, digits = _number(match.group("num"))
        if minus_start(folded, match.start()) < match.start() and value > 0:  # "minus 40", "moins 40"
            value, digits = -value, "-" + digits if digits else ""
        found.append(_with_unit(_Amount(value, step, digits), folded[match.end():], units))
    if not found:  # "cent mètres", "one hundred", "dos mil", "menos cuarenta": numbers in words
        found = [_with_unit(_Amount(n.value, n.step), folded[n.end:], units)
                 for n in spelled_numbers(folded, max_words=_MAX_WORDS)
                 if folded[n.start:n.end].lower() not in _ARTICLES or unit_end(folded, n.end) > n.end]
    return found


def _per_time(words: list[str]) -> float | None:
    """The seconds of the time ``words`` open with after "per", "a", "por", "par" ("per second": 1, "an
    hour": 3600); None when they do not say a rate."""
    if len(words) < 2 or words[0] not in RATE_WORDS:
        return None
    time = UNITS.get(words[1].strip(",.;:()"))
    return time[1] if time is not None and time[0] == "s" else None


def _with_unit(amount: _Amount, after: str, units: bool = True) -> _Amount:
    """``amount`` times the scale word after it, in the unit after that (canonical when ``units``), if any."""
    value, step = amount.value, amount.step
    if HALF_AFTER.search(after[:unit_end(after, 0)]):  # "un kilómetro y medio": the half after the unit
        value, step = value + (0.5 if value >= 0 else -0.5), min(step, 0.5)  # written to the half
    words = after.lower().split()[:5]
    unit = ""
    for i, word in enumerate(words[:3]):
        word = word.strip(",.;:()")
        pair = " ".join(words[i:i + 2]).strip(",.;:()")
        if pair in SCALES or word in SCALES:
            scale = SCALES.get(pair, SCALES.get(word, 1.0))
            value, step = value * scale, step * scale
            continue
        if word in ("de", "of", "d'"):
            continue
        spelled = pair if pair in UNITS else word
        if spelled in UNITS and units:
            unit, factor = UNITS[spelled]
            value, step = value * factor, step * factor
            per = _per_time(words[i + len(spelled.split()):]) if unit not in ("s", "m/s") else None
            if per is not None:  # "kilometres per second", "miles an hour": a speed, in metres a second
                unit, value, step = f"{unit}/s", value / per, step / per
        break
    if unit in _TEMPERATURES:  # to degrees Celsius: a temperature is not a multiple of another
        offset, factor = _TEMPERATURES[unit]
        value, step, unit = (value - offset) * factor, step * factor, "°c"
    return _Amount(value, step, amount.digits, unit)


def _number(text: str) -> tuple[float, float, str]:
    """A written number as a float, the step it was written to, and its digits when a float cannot
    hold them: thousands separators dropped, a decimal comma read as a point, a fraction divided."""
    text = re.sub(r"[\u00a0\u202f ]+", " ", text.strip()).replace("\u2212", "-")
    sign = -1.0 if text.startswith("-") else 1.0
    text = text.lstrip("-")
    fraction = re.fullmatch(r"(?:(\d+) )?(\d+)/(\d+)", text)
    if fraction:
        whole, top, bottom = (int(g) if g else 0 for g in fraction.groups())
        return sign * (whole + top / bottom), 0.0, ""
    text = text.replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text):
        text = text.replace(",", "")
    elif re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", text):
        text = text.replace(".", "").replace(",", ".")
    else:
        text = text.replace(",", ".")
    decimals = len(text.partition(".")[2])
    significant = text.replace(".", "").lstrip("0")
    digits = ("-" if sign < 0 else "") + text.lstrip("0") if len(significant) > _FLOAT_DIGITS else ""
    return sign * float(text), 10.0 ** -decimals, digits


def _same(a: _Amount, b: _Amount, hedged: bool = False) -> bool:
    """Whether two amounts are one value: within what either writer rounded to, within ``TOLERANCE``
    (``HEDGED`` after "about"), never across signs; a temperature within a degree or so."""
    if a.digits or b.digits:  # a figure too long to round: the same digits, or another figure
        return a.digits == b.digits and a.unit == b.unit
    if a.value == b.value:
        return True
    if (a.value < 0) != (b.value < 0) and a.value and b.value:
        return False  # -40 °C is not 40 °C, however near zero either is
    rounding = max(a.step, b.step) / 2
    if "°c" in (a.unit, b.unit):  # a relative tolerance means nothing for a scale with an arbitrary zero
        return abs(a.value - b.value) <= max(rounding, HEDGED_DEGREES if hedged else DEGREES)
    relative = (HEDGED if hedged else TOLERANCE) * max(abs(a.value), abs(b.value))
    return abs(a.value - b.value) <= max(relative, rounding)


def _same_name(stated: str, read: str) -> bool | None:
    if not any(c.isupper() for c in read) and not any(c.isdigit() for c in read):
        return None  # a description ("the largest city"), not a name: it answers nothing
    if read.strip()[:1].isdigit() and not any(c.isdigit() for c in stated):
        return None  # a figure ("2850 km") read for a name: read from another slot, it answers nothing
    said, got = name_words(stated), name_words(read)
    if not said or not got:
        return None
    if said <= got or got <= said:
        # "Louis" read for "Louis XV": the name without the numeral that tells its bearers apart says neither.
        return None if any(_NUMERAL.fullmatch(w) for w in said ^ got) else True
    small, large = (said, got) if len(said) <= len(got) else (got, said)
    return all(any(_spelled_alike(a, b) for b in large) for a in small)


# A regnal or ordinal numeral as ``name_words`` gives it, folded ("xv", "ii").
_NUMERAL = re.compile(r"(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})")


def name_words(text: str) -> set[str]:
    """A name's words as compared: case and accents folded, joining words and articles left out, the word a
    compound adds to a nationality left out ("Polish-born" is "Polish"); an initialism's letters are also
    one word ("U.S." holds "us" as "US" does)."""
    folded = fold(_COMPOUND_TAIL.sub("", text))
    joined = [m.group().replace(".", "") for m in _INITIALISM.finditer(folded)]
    return {w for w in [*re.findall(r"[^\W_]+", folded), *joined] if w not in _NAME_STOP}


def _spelled_alike(a: str, b: str) -> bool:
    """One name word spelled two ways ("moscou", "moscow"): never a word that begins another ("paris",
    "parish") or is two letters longer ("austria", "australia")."""
    if a == b:
        return True
    if min(len(a), len(b)) < MIN_FUZZY or max(len(a), len(b)) > MAX_FUZZY or a[0] != b[0]:
        return False
    if a + "s" == b or b + "s" == a:  # a plural of the name ("the Clintons" of "Clinton")
        return True
    if a.startswith(b) or b.startswith(a) or abs(len(a) - len(b)) > 1:
        return False
    return SequenceMatcher(None, a, b).ratio() >= SPELLING


def passage_with(read: str, passages: Sequence[str]) -> int | None:
    """The index of the first passage that contains the value ``read`` (its words, folded), else None.

    A reply the passages do not contain came from the model's own belief, not from reading. A full
    date is found in whatever language a passage writes it: asked about a French passage, the model
    may answer "8 February 1587" for "8 février 1587".
    """
    wanted = [w for w in re.findall(r"[^\W_]+", fold(read)) if w not in _NAME_STOP]
    if not wanted:
        return None
    dated = [t for t in times(read) if t[3] is not None]  # a day, a month and a year: no mere figure
    figures = _figures(read)
    for index, passage in enumerate(passages):
        words = set(re.findall(r"[^\W_]+", fold(passage))) | set(_figures(passage))
        digits = re.sub(r"[\s,.\u00a0\u202f]", "", fold(passage))
        named = all(w in words or w.isdigit() for w in wanted)
        if named and all(_written(f, digits, words) for f in figures):
            return index
        if dated and any(_agree(a, b) for a in dated for b in times(passage) if b[3] is not None):
            return index
        if not all(_written(f, digits, words) for f in figures):  # "10" where it writes "diez provincias"
            spelled = {n.value for n in spelled_numbers(passage, guess_language(passage))}
            if named and all(_written(f, digits, words) or int(f) in spelled for f in figures):
                return index
    return None


def _figures(text: str) -> list[str]:
    """The figures ``text`` writes, each with its separators taken out ("1,280" is "1280", "2.3" "23")."""
    return [re.sub(r"\D", "", f) for f in re.findall(r"\d+(?:[\s,.\u00a0\u202f]\d+)*", fold(text))]


def _written(figure: str, digits: str, words: set[str]) -> bool:
    """Whether a passage (its ``digits`` run together, its ``words`` and figures) writes ``figure``: a long
    one anywhere in its digits ("5 891,8" holds "58918"), a short one only as a number of its own or an
    ordinal ("29th"), not as part of another ("4" is not written in "the 40th president … 1974")."""
    if len(figure) >= _WHOLE_FIGURE:
        return figure in digits
    return figure in words or any(re.fullmatch(rf"{figure}[^\W\d_]{{1,3}}", w) is not None for w in words)


# Figures shorter than this are found in a passage only as numbers of their own.
_WHOLE_FIGURE = 3
# A name of capitalised words, joined by particles ("Republic of Genoa", "Boulogne-sur-Mer").
_NAME_RUN = re.compile(r"[A-ZÀ-Ý][\w'’-]*(?:\s+(?:(?:of|de|del|du|des|la|le)\s+)?[A-ZÀ-Ý][\w'’-]*)*")
# How many first letters two name words share when one may be the other in another language.
_ALIKE_PREFIX = 4


def held_name(read: str, passages: Sequence[str], stated: str) -> str | None:
    """The first name of a reply the passages do not hold whole that they do hold, where the model put words
    of its own around it ("Longwood on the island of Sainte-Hélène" where the passage writes "à Longwood sur
    l'île de Sainte-Hélène"); None when no name of it is held, or when one held is written like ``stated``
    (in another language, perhaps: "Saint Helena"), which a name beside it must not be read against."""
    runs = [r for r in _NAME_RUN.findall(read) if r != read.strip() and passage_with(r, passages) is not None]
    said = {w[:_ALIKE_PREFIX] for w in words(stated) if w not in _NAME_STOP}
    if not runs or any(said & {w[:_ALIKE_PREFIX] for w in words(r)} for r in runs):
        return None
    return runs[0]


def passage_form(read: str, passages: Sequence[str], stated: str = "") -> str | None:
    """How the passages write the name ``read`` when it was read in another language ("Egypt"
    where a French passage writes "Égypte"): the one run of their words, opening with a capital, that
    spells it word for word alike (``_translated``); None when no run or several do, when ``read`` has a
    figure, or when ``read`` is the ``stated`` value itself (read from belief: nothing to map).
    """
    wanted = [w for w in _words(read) if w not in _NAME_STOP]
    if not wanted or any(c.isdigit() for c in read) or (stated and _same_name(stated, read)):
        return None
    found: set[str] = set()
    for passage in passages:
        words = list(_WORD_RUN.finditer(passage))
        for i in range(len(words) - len(wanted) + 1):
            run = words[i:i + len(wanted)]
            if run[0].group()[:1].isupper() and all(
                    _translated(w, fold(m.group())) for w, m in zip(wanted, run, strict=True)):
                found.add(passage[run[0].start():run[-1].end()])
    return found.pop() if len(found) == 1 else None


def spelled_out(read: str, passage: str) -> str:
    """The name an initialism ``read`` stands for where ``passage`` writes it before it in brackets
    ("International Olympic Committee (IOC)" for "IOC"); ``read`` itself otherwise."""
    letters = read.strip()
    if not re.fullmatch(r"[A-Z]{2,6}", letters):
        return read
    for found in re.finditer(rf"((?:[A-Z][\w'’-]*\s+(?:(?:of|for|and|the|on|de|des|du|del|la|le|y|et)\s+)*)+)"
                             rf"\(\s*{re.escape(letters)}\s*\)", passage):
        name = found.group(1).split()
        capitals = [w for w in name if w[0].isupper()]
        if "".join(w[0] for w in capitals).endswith(letters):
            return " ".join(name[name.index(capitals[-len(letters)]):])
    return read


def in_stated_unit(read: str, stated: str) -> str:
    """``read`` written as ``stated`` writes its figure, where the two are in one kind of unit but not the
    same ("2.7 million sq mi" for "1 million square kilometres" is "6.99 million square kilometres"): what
    the judge is asked then says one thing, not "2.7 million sq mi square kilometres"; ``read`` otherwise."""
    got, said = _amounts(read), _amounts(stated)
    figure = re.search(r"\d+(?:[.,]\d+)?", stated)
    if len(got) != 1 or len(said) != 1 or not got[0].unit or got[0].unit != said[0].unit or figure is None \
            or _same(got[0], said[0]):
        return read
    number = float(figure.group().replace(",", "."))
    if not number:
        return read
    scaled = got[0].value * number / said[0].value  # the stated unit and scale, as the stated figure's
    # Three figures that count, the rest zeros, with no separator a language would read otherwise.
    digits = len(str(int(abs(scaled))))
    shown = str(int(round(scaled, 3 - digits))) if digits >= 3 else f"{scaled:.3g}"
    return stated[:figure.start()] + shown + stated[figure.end():]


def place_form(read: str, passages: Sequence[str]) -> str | None:
    """How the passages write the place ``read`` where they name it in another language ("London" where a
    French passage writes "Londres"): the one run of their capitalised words that GeoNames knows as the same
    country or town (``same_place``), in a passage of any language, as no two places share a name there."""
    found = place_names(read, passages)
    return found.pop() if len(found) == 1 else None


def place_names(place: str, passages: Sequence[str]) -> set[str]:
    """The runs of capitalised words among ``passages`` that GeoNames knows as ``place`` ("Vienne" for
    "Vienna")."""
    return {run for passage in passages for run in _NAME_RUN.findall(passage) if same_place(place, run)}


def _translated(a: str, b: str) -> bool:
    """One name word as two languages spell it ("egypt", "egypte"; "mexico", "mexique"): the same first
    letters, at most two letters apart in length, one beginning the other or alike by difflib's ratio.
    Looser than ``_spelled_alike``: it only finds which passage words a reply stands for, and what it
    finds is then compared with the stated value strictly."""
    if a == b:
        return True
    if min(len(a), len(b)) < MIN_FUZZY - 1 or max(len(a), len(b)) > MAX_FUZZY or a[:2] != b[:2]:
        return False
    if abs(len(a) - len(b)) > 2:
        return False
    return a.startswith(b) or b.startswith(a) or SequenceMatcher(None, a, b).ratio() >= SPELLING


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
    wanted = " ".join(["", *before, *_signed_words(item[start:end]), *after, ""])
    for index, passage in enumerate(passages):
        for sentence in split_sentences(passage):
            if wanted in " ".join(["", *_signed_words(sentence), ""]):
                return index, " ".join(sentence.split())
    return None


def aligned_value(item: str, start: int, end: int, passages: Sequence[str]) -> tuple[int, str, str] | None:
    """The value a passage gives where the item states ``item[start:end]``: a passage sentence with the
    item's own words on both sides of the value (``ALIGNED_BEFORE`` words before it, ``ALIGNED_AFTER``
    after it, or as many as stand before the sentence's end and then its end) holds its own value
    between them. Returns the passage, the sentence and that value; None when none does, or when two
    sentences give two values.

    "an interregnum between 1592 and 1533" against "an interregnum between 1527 and 1533": 1527 fills
    the slot, read from the passage's words with no model call (the model is drawn to a value the
    same lead states elsewhere).
    """
    sentence_start = max([0, *(m.end() for m in _SENTENCE_BREAK.finditer(item, 0, start))])
    before = [fold(w) for w in _WORD.findall(item[sentence_start:start])][-ALIGNED_BEFORE:]
    rest = _SENTENCE_BREAK.split(item[end:], 1)[0]
    after = [fold(w) for w in _WORD.findall(rest)][:ALIGNED_AFTER]
    if len(before) < ALIGNED_BEFORE:
        return None
    found: dict[str, tuple[int, str, str]] = {}
    for index, passage in enumerate(passages):
        for sentence in split_sentences(passage):
            value = _between(sentence, before, after)
            if value is not None:
                found.setdefault(fold(value), (index, " ".join(sentence.split()), value))
    return next(iter(found.values())) if len(found) == 1 else None


def _between(sentence: str, before: list[str], after: list[str]) -> str | None:
    """The text of ``sentence`` between the words ``before`` and ``after``, at most ``ALIGNED_WORDS``
    words (``ALIGNED_CLOSING`` with no word after); fewer than ``ALIGNED_AFTER`` words ``after`` (the
    item's sentence ends) must end it here too.
    None when the sentence does not hold them so."""
    tokens = list(_WORD.finditer(sentence))
    folded = [fold(t.group()) for t in tokens]
    for i in range(len(before), len(tokens)):
        if folded[i - len(before):i] != before:
            continue
        for j in range(i + 1, min(len(tokens), i + ALIGNED_WORDS) + 1):
            if folded[j:j + len(after)] != after or (not after and j - i > ALIGNED_CLOSING):
                continue
            last = j + len(after)
            if len(after) < ALIGNED_AFTER and (last < len(tokens) or not _CLOSES.match(
                    sentence[tokens[last - 1].end():])):
                continue
            return sentence[tokens[i].start():tokens[j - 1].end()]
    return None


# A word; words a hyphen joins are one ("petit-fils" is no "fils": "le fils de Louis XV" is not stated by
# "petit-fils de Louis XV"), figures it joins are not ("1990-2000").
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+|[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


# A word, a figure with the minus sign before it ("−40"; never a range's hyphen, "1990-2000").
_SIGNED_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+|(?:(?<![^\W_])[-\u2212](?=\d))?[^\W_]+")


def _signed_words(text: str) -> list[str]:
    """``_words``, a figure keeping its minus sign: "falls to −40 °C" does not state "falls to 40 °C"."""
    return [w.replace("\u2212", "-") for w in _SIGNED_WORD.findall(fold(text))]
