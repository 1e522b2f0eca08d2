"""Numbers written in words, in en, es and fr: "one hundred", "cien", "trente-deux", "moins quarante".

Whole numbers are read by text2num (a small Rust extension, no data to fetch) in the language given,
or in each of en, fr and es when none is ("once" is eleven only in Spanish). Fractions are read here,
as each language says them: a half ("half a", "medio", "media", "un demi-"), a whole and a half
("two and a half", "dos y medio", "deux et demi"), a count of parts ("three quarters", "tres cuartos",
"deux tiers"). A minus word before a number is its sign ("minus 40", "moins quarante", "menos 40").
A half said after the unit ("un kilómetro y medio", "deux kilomètres et demi") follows the unit, so the
value finder and the comparison add it after reading the unit (``HALF_AFTER``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

try:
    from text_to_num import text2num
except ImportError:  # pragma: no cover - an install without it reads zero to twelve from a table
    text2num = None

LANGUAGES = ("en", "fr", "es")
# A word run: letters, hyphens inside ("quatre-vingt-dix", "twenty-nine").
_WORD_RUN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
MAX_NUMBER_WORDS = 8  # "deux cent quatre-vingt-dix-neuf mille trois cent douze": a long number in words
# Words that are a number as often as an article or a pronoun ("one of them", "un libro"): a number
# only with a unit or a fraction after them.
ARTICLES = frozenset("a an one un une uno una".split())  # noqa: SIM905
# The parts a whole is cut into, by the word for one of them (singular and plural).
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
          "medio": 2, "media": 2, "medios": 2, "medias": 2, "tercio": 3, "tercios": 3, "cuarto": 4,
          "cuartos": 4, "demi": 2, "demie": 2, "demis": 2, "tiers": 3, "quart": 4, "quarts": 4}
# "two and a half", "dos y medio", "deux et demi": a whole, then a half or a quarter more.
_AND_A_PART = re.compile(r"\s+(?:and\s+a\s+(half|quarter)|y\s+(medio|media|cuarto)|et\s+(demie?|quart))\b",
                         re.IGNORECASE)
# The same after the unit: "un kilómetro y medio", "deux heures et demie", "a mile and a half".
HALF_AFTER = re.compile(r"[ \u00a0]+(?:and\s+a\s+half|y\s+medi[oa]|et\s+demie?)\b", re.IGNORECASE)
# "half a mile", "half an hour": the half before the article.
_HALF_A = re.compile(r"half\s+an?\b", re.IGNORECASE)
# "un demi-kilomètre", "une demi-heure": a half joined to its unit by a hyphen.
_DEMI_PREFIX = re.compile(r"(?:(?:un|une)\s+)?demi-", re.IGNORECASE)
# A minus word just before a number is its sign ("minus 40", "moins quarante").
_MINUS_BEFORE = re.compile(r"\b(?:minus|moins|menos)\s+$", re.IGNORECASE)
_NUMBER_TABLE = {w: n for n, words in enumerate((
    "zero cero zéro", "one", "two dos deux", "three tres trois", "four cuatro quatre",
    "five cinco cinq", "six seis", "seven siete sept", "eight ocho huit", "nine nueve neuf", "ten diez dix",
    "eleven once onze", "twelve doce douze")) for w in words.split()}


@dataclass(frozen=True)
class SpelledNumber:
    """A number written in words: its value, where it is (``text[start:end]``), and the step its writer
    rounded to (1 for a whole number, 0 for a fraction: "a half" is exactly one half)."""

    value: float
    start: int
    end: int
    step: float = 1.0
    # "one", "un", "una" alone, or a part with no whole ("medio", "demi-", "a quarter"): as often an
    # article or another word ("en medio de", "demi-finale"), a number only with a unit after it.
    needs_unit: bool = False


# Spanish "some", "about" ("unos 100.000 habitantes"): no number one.
_SOME = frozenset({"unos", "unas"})


def spelled_numbers(text: str, lang: str | None = None, max_words: int | None = None) -> list[SpelledNumber]:
    """The numbers ``text`` writes in words, left to right, in ``lang`` (en, es or fr; each of them
    when None), a minus word before one taken as its sign; among the first ``max_words`` words only
    when given (bounded time on a long reply)."""
    langs = _languages(lang)
    if not langs:
        return []
    words = list(itertools.islice(_WORD_RUN.finditer(text), max_words))
    found: list[SpelledNumber] = []
    i = 0
    while i < len(words):
        number, i = _number_at(text, words, i, langs)
        if number is not None:
            found.append(_signed(text, number))
    return found


def _languages(lang: str | None) -> tuple[str, ...]:
    if lang is None:
        return LANGUAGES
    code = lang.split("-")[0].lower()
    return (code,) if code in LANGUAGES else ()


def _number_at(text: str, words: list[re.Match[str]], i: int,
               langs: tuple[str, ...]) -> tuple[SpelledNumber | None, int]:
    """The number in words starting at word ``i`` and the index of the word after it (None, ``i + 1``
    when none starts there)."""
    start = words[i].start()
    word = words[i].group().lower()
    if word in _SOME:
        return None, i + 1
    half_a = _HALF_A.match(text, start) if "en" in langs else None
    if half_a:  # "half a mile"
        return SpelledNumber(0.5, start, half_a.end(), 0.0, True), _index_after(words, half_a.end(), i)
    demi = _DEMI_PREFIX.match(text, start) if "fr" in langs else None
    if demi:  # "un demi-kilomètre": the number ends at the hyphen, the unit follows it
        return SpelledNumber(0.5, start, demi.end(), 0.0, True), _index_after(words, demi.end(), i)
    if _in_words(word, langs) is None:  # most words: one look, no phrase tried from them
        alone = _part_alone(words, i, langs)
        return alone, _index_after(words, alone.end, i) if alone else i + 1
    last = i + 1  # a number's words stand apart by spaces only: "cent, un" is two numbers
    while last < min(len(words), i + MAX_NUMBER_WORDS) and _spaced(text, words[last - 1], words[last]):
        last += 1
    for j in range(last, i, -1):
        phrase = " ".join(w.group().lower() for w in words[i:j])
        value = _in_words(phrase, langs)
        if value is None:
            continue
        end, step = words[j - 1].end(), 1.0
        parts = _PARTS.get(words[j].group().lower()) if j < len(words) else None
        more = _AND_A_PART.match(text, end)
        if parts and _spaced(text, words[j - 1], words[j]):  # "three quarters", "un tiers", "one half"
            return SpelledNumber(value / parts, start, words[j].end(), 0.0, phrase in ARTICLES), j + 1
        if more:  # "two and a half"
            cut = _PARTS[next(g for g in more.groups() if g).lower()]
            after = _index_after(words, more.end(), j)
            return SpelledNumber(value + 1 / cut, start, more.end(), step=0.0), after
        return SpelledNumber(value, start, end, step, needs_unit=j == i + 1 and phrase in ARTICLES), j
    return None, i + 1


def _part_alone(words: list[re.Match[str]], i: int, langs: tuple[str, ...]) -> SpelledNumber | None:
    """A part with no whole before it: "a quarter", "a third" (en), "medio kilómetro" (es)."""
    word, start = words[i].group().lower(), words[i].start()
    after = words[i + 1].group().lower() if i + 1 < len(words) else ""
    joined = i + 1 < len(words) and words[i + 1].start() - words[i].end() <= 1
    if word in ("a", "an") and "en" in langs and after in _PARTS and joined:
        return SpelledNumber(1 / _PARTS[after], start, words[i + 1].end(), 0.0, True)
    if word in ("medio", "media") and "es" in langs:  # "medio kilómetro": a half before its noun
        return SpelledNumber(0.5, start, words[i].end(), 0.0, True)
    return None


def _spaced(text: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Whether only spaces stand between two words."""
    return not text[before.end():after.start()].strip()


def _index_after(words: list[re.Match[str]], end: int, at: int) -> int:
    """The index of the first word starting at or after ``end`` (from ``at`` on)."""
    return next((k for k in range(at, len(words)) if words[k].start() >= end), len(words))


def _signed(text: str, number: SpelledNumber) -> SpelledNumber:
    """``number`` negative, from its minus word on, when one stands just before it."""
    start = minus_start(text, number.start)
    if start == number.start or number.value <= 0:
        return number
    return SpelledNumber(-number.value, start, number.end, number.step, number.needs_unit)


def minus_start(text: str, start: int) -> int:
    """Where the minus word before ``text[start:]`` begins ("minus 40 °C"), else ``start``."""
    minus = _MINUS_BEFORE.search(text, max(0, start - 8), start)
    return minus.start() if minus else start


def _in_words(phrase: str, langs: tuple[str, ...]) -> int | None:
    if text2num is None:
        return _NUMBER_TABLE.get(phrase)
    for lang in langs:
        try:
            return int(text2num(phrase, lang))
        except ValueError:
            continue
    return None
