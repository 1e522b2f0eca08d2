"""Multilingual word tokens for lexical retrieval (BM25): en, fr, es, ru, vi, ar, hi, bn, zh and more.

Text is NFKC-normalised and case-folded; words are runs of letters, digits and combining
marks (so Devanagari and Bengali vowel signs stay inside their word); Arabic tashkeel and
tatweel are dropped; runs of Han, Hiragana, Katakana or Hangul become overlapping
character bigrams, because those scripts do not separate words with spaces.
"""

from __future__ import annotations

import re
import sys
import threading
import unicodedata
from functools import lru_cache

# Arabic harakat, Quranic annotation marks, superscript alef and tatweel: vocalisation
# is usually absent in web text, so keeping it would split one word into many spellings.
_TASHKEEL = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640]")
# Zero-width joiners and soft hyphens sit inside words; the zero-width space separates them.
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200c\u200d\u2060\ufeff"), None) | {0x200B: " "}

_CJK_RANGES = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # Han extension A
    "\u4e00-\u9fff"  # Han
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # Han compatibility
    "\U00020000-\U0003134f"  # Han extensions B-G
)
_CJK_RUN = re.compile(f"[{_CJK_RANGES}]+")


_PATTERN_LOCK = threading.Lock()


def _word_pattern() -> re.Pattern[str]:
    """The word pattern, built by the first caller while the others wait (not each their own)."""
    with _PATTERN_LOCK:
        return _build_word_pattern()


@lru_cache(maxsize=1)
def _build_word_pattern() -> re.Pattern[str]:
    """A word: a letter or digit (``[^\\W_]``), then letters, digits and combining marks.

    ``\\w`` leaves marks out, so they are added as a class of their own. Starting on a
    letter or digit drops marks stranded after punctuation or a space. Indexing tokenises
    every passage, so the pattern is shaped for speed: runs of the two disjoint classes
    instead of an alternation per character, and the marks above the BMP (which ``re``
    can only test range by range) behind a one-range guard, since most words end on a
    space or punctuation that would otherwise be checked against every one of them.
    """
    bmp: list[str] = []
    astral: list[str] = []
    start = None
    # Marks above the supplementary planes do not occur in text we handle; stopping early
    # keeps the one-off scan cheap.
    limit = min(sys.maxunicode, 0x2FFFF) + 1
    for code in range(limit + 1):
        is_mark = code < limit and unicodedata.category(chr(code)).startswith("M")
        if is_mark and start is None:
            start = code
        elif not is_mark and start is not None:
            span = f"{re.escape(chr(start))}-{re.escape(chr(code - 1))}"
            (bmp if code - 1 <= 0xFFFF else astral).append(span)
            start = None
    mark = f"(?:[{''.join(bmp)}]|(?=[\U00010000-\U0002ffff])[{''.join(astral)}])"
    return re.compile(f"[^\\W_]+(?:{mark}+[^\\W_]*)*")


# For ASCII text NFKC, the zero-width and tashkeel rules change nothing, case folding is
# lower-casing and a word is a run of [A-Za-z0-9]: one translate and split does it all,
# many times faster than the regex (English corpora are mostly ASCII passages).
_ASCII_WORDS = str.maketrans({chr(c): chr(c).lower() if chr(c).isalnum() else " " for c in range(128)})


# Whitespace-separated strings read better than long list literals for word lists.
_EN = """a an the and or but if then than of to in on at by for from with about into over after
before between under is are was were be been being am do does did has have had having it its
this that these those there here i you he she we they me him her us them my your his our their
what which who whom whose when where why how not no nor so as such too very can could would
should will shall just also only own same other some any each few more most all both s t""".split()  # noqa: SIM905
_FR = """le la les l un une des de du d et ou mais donc ni que qu qui quoi dont où au aux
ce cet cette ces c ça il elle ils elles on nous vous je j tu me m te se s lui leur leurs y en
ne n pas plus est sont été être avoir a ont avait était sur sous dans par pour avec sans entre
mon ma mes ta tes sa son notre nos votre vos ses""".split()  # noqa: SIM905
_ES = """el la los las lo un una unos unas de del al y e o u pero que qué quien cual como cómo
cuando donde dónde en por para con sobre entre hasta desde es son fue ser estar está están
ha han había se su sus le les me te nos mi mis tu tus este esta estos estas ese esa esos esas
muy más ya no ni""".split()  # noqa: SIM905
_RU = """и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по
только ее её мне было вот от меня еще ещё нет о из ему теперь когда даже ну ли если уже или
быть был была были него до вас нибудь опять уж вам ведь там потом себя ничего ей может они
тут где есть надо ней для мы тебя их чем сам чтобы без будто чего раз тоже себе под будет
ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем""".split()  # noqa: SIM905
_AR = """في من على إلى الى عن أن ان إن لا ما هذا هذه ذلك تلك التي الذي الذين هو هي هم مع كان
كانت قد ثم أو او و ف ب ل كل بعد قبل حتى إذا اذا لم لن بين عند""".split()  # noqa: SIM905
_HI = """का की के है हैं में और से को पर यह वह एक था थे थी ने भी तो ही इस उस कि जो हो
होता होती होते या लिए तक""".split()  # noqa: SIM905

STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(_EN),
    "fr": frozenset(_FR),
    "es": frozenset(_ES),
    "ru": frozenset(_RU),
    "ar": frozenset(_AR),
    "hi": frozenset(_HI),
}
# With no language given every list applies; the Latin-script lists leave out words that
# are content words in English (French "car", "ton"; Spanish "son", "era"), so the union stays safe.
_ALL_STOPWORDS: frozenset[str] = frozenset().union(*STOPWORDS.values())


def normalize(text: str) -> str:
    """NFKC, case folding and removal of Arabic tashkeel and zero-width characters."""
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).casefold()
    return _TASHKEEL.sub("", text)


def _split_cjk(word: str) -> list[str]:
    """Keep non-CJK parts of a word whole and turn each CJK run into character bigrams."""
    tokens: list[str] = []
    pos = 0
    for run in _CJK_RUN.finditer(word):
        if run.start() > pos:
            tokens.append(word[pos : run.start()])
        chars = run.group()
        if len(chars) == 1:
            tokens.append(chars)
        else:
            tokens.extend(chars[i : i + 2] for i in range(len(chars) - 1))
        pos = run.end()
    if pos < len(word):
        tokens.append(word[pos:])
    return tokens


def stopwords_for(lang: str | None) -> frozenset[str]:
    """The stop list of a language (``en``, ``en-US``…); every list when None; empty if unknown."""
    if lang is None:
        return _ALL_STOPWORDS
    return STOPWORDS.get(lang.replace("_", "-").split("-")[0].lower(), frozenset())


def tokenize(text: str, *, stopwords: bool = False, lang: str | None = None) -> list[str]:
    """Normalised word tokens of ``text``, with CJK bigrams and, if asked, stop words removed."""
    if text.isascii():
        tokens = text.translate(_ASCII_WORDS).split()
    else:
        text = normalize(text)
        tokens = _word_pattern().findall(text)
        if _CJK_RUN.search(text):
            tokens = [t for word in tokens for t in (_split_cjk(word) if _CJK_RUN.search(word) else (word,))]
    if stopwords:
        stop = stopwords_for(lang)
        tokens = [t for t in tokens if t not in stop]
    return tokens


def stems(text: str, letters: int) -> set[str]:
    """The content words of ``text`` (stop words left out), each by its first ``letters`` letters: a
    stem that meets "discovered" and "discovery"."""
    return {word[:letters] for word in tokenize(text, stopwords=True)}
