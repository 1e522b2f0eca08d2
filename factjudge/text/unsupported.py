"""The words of an item that its passages do not contain: where to look when a judge says "not supported".

A judge that answers Yes/No (``supported``) quotes nothing, so its false verdicts
would point at no words. This finds the content words and numbers of the item that no passage
contains: lexical, case-insensitive, stop words ignored, numbers compared whatever their
thousands separators, and a word counted as present when a passage has a form of it that
differs only in its ending ("opened", "opens"). It is a hint for a person, not a judgement: a
paraphrase ("km²" for "square kilometres") is flagged too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from factjudge.records import ErrorSpan
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import tokenize

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS = re.compile(r"[.,](?=\d{3}(?:\D|$))")
# What is left of English negative contractions ("isn't" -> "isn", "t"): no content of their own.
_CONTRACTED = frozenset(("isn", "aren", "wasn", "weren", "doesn", "don", "didn", "hasn", "haven", "hadn",
                         "wouldn", "couldn", "shouldn", "mustn", "needn", "ll", "ve", "re"))
# A sentence that denies something ("no WiFi", "does not", "isn't").
_DENIAL = re.compile(r"\b(?:no|not|never|without|none|nor|cannot)\b|n't\b", re.IGNORECASE)
# A clause that ends by denying what it names: a record's "outdoor seating: no", "garage no".
_DENIED = re.compile(r"\b(?:no|none|never|not given)\W*$", re.IGNORECASE)
_CLAUSE = re.compile(r",\s|;|\n")  # ", " not "," so that 1,000 stays one number
_MIN_STEM = 4  # words sharing this many first letters may be forms of one word
_ENDING = 3  # the letters an ending may change ("ed", "ing", "es")


def _number(text: str) -> str:
    """A number as compared: thousands separators dropped, a decimal comma read as a point."""
    return _THOUSANDS.sub("", text).replace(",", ".")


def _core(chunk: str) -> tuple[int, str]:
    """A whitespace-separated chunk without the punctuation around it, and where that core starts."""
    kept = [i for i, char in enumerate(chunk) if unicodedata.category(char)[0] in "LNM"]
    if not kept:
        return 0, ""
    return kept[0], chunk[kept[0] : kept[-1] + 1]


class _Vocabulary:
    """The words and numbers of the passages, indexed for the same-word test."""

    def __init__(self, passages: Iterable[str], lang: str | None) -> None:
        self.lang = lang
        self.numbers: set[str] = set()
        self.words: set[str] = set()
        self.by_stem: dict[str, set[str]] = {}
        for passage in passages:
            self.numbers.update(_number(n) for n in _NUMBER.findall(unicodedata.normalize("NFKC", passage)))
            self.words.update(tokenize(passage, lang=lang))
        for word in self.words:
            if word.isalpha() and len(word) >= _MIN_STEM:
                self.by_stem.setdefault(word[:_MIN_STEM], set()).add(word)

    def has_token(self, token: str) -> bool:
        if token in self.words:
            return True
        if not token.isalpha() or len(token) < _MIN_STEM:
            return False
        return any(_same_word(token, word) for word in self.by_stem.get(token[:_MIN_STEM], ()))

    def has(self, word: str) -> bool | None:
        """Whether the passages contain ``word``; None when it is only stop words."""
        if _NUMBER.fullmatch(word):
            return _number(word) in self.numbers
        tokens = [t for t in tokenize(word, stopwords=True, lang=self.lang) if t not in _CONTRACTED]
        if not tokens:
            return None
        return all(self.has_token(t) for t in tokens)


@lru_cache(maxsize=8)
def _vocabulary(passages: tuple[str, ...], lang: str | None) -> _Vocabulary:
    """The passages' vocabulary, built once for the sentences of an answer checked against one context
    (a string's hash is kept, so a long context costs its tokenizing once, not per sentence)."""
    return _Vocabulary(passages, lang)


def _same_word(a: str, b: str) -> bool:
    """Two forms of one word: the same first letters, different endings of at most a few letters."""
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return shared >= max(_MIN_STEM, max(len(a), len(b)) - _ENDING)


def unsupported_words(item: str, passages: Iterable[str], lang: str | None = None) -> list[tuple[int, str]]:
    """The item's content words and numbers that no passage contains, with their offsets in ``item``."""
    vocabulary = _vocabulary(tuple(passages), lang)
    return [(at, word) for at, word in _content_words(item) if vocabulary.has(word) is False]


def context_share(item: str, passages: Iterable[str], lang: str | None = None) -> float | None:
    """The share of the item's content words and numbers that the passages contain, pooled (a word of
    one passage and a number of another both count); None when the item has none."""
    vocabulary = _vocabulary(tuple(passages), lang)
    known = [k for k in (vocabulary.has(word) for _, word in _content_words(item)) if k is not None]
    return sum(known) / len(known) if known else None


def affirmed(item: str, passages: Iterable[str]) -> list[str]:
    """The passages as the clauses that can state ``item``'s words: a clause ending in a denial (a
    record's "outdoor seating: no") holds the words it denies, so it states them only to an item that
    denies something too; every passage whole for such an item."""
    texts = list(passages)
    if _DENIAL.search(item):
        return texts
    return [clause for text in texts for clause in _CLAUSE.split(text) if not _DENIED.search(clause)]


def _content_words(text: str) -> list[tuple[int, str]]:
    """The whitespace-separated words of ``text`` without their punctuation, with their offsets."""
    found = []
    for chunk in re.finditer(r"\S+", text):
        at, word = _core(chunk.group())
        if word:
            found.append((chunk.start() + at, word))
    return found


def _phrases(item: str, words: list[tuple[int, str]], vocabulary: _Vocabulary,
             join: int) -> list[tuple[int, str]]:
    """Flagged words joined into phrases where at most ``join`` words the passages contain lie between
    them: an added fact is a phrase ("in a hospital in Dallas"), and a reader is shown it whole."""
    phrases: list[tuple[int, int]] = []
    for at, word in words:
        if phrases:
            between = _content_words(item[phrases[-1][1] : at])
            if sum(bool(vocabulary.has(w)) for _, w in between) <= join:
                phrases[-1] = (phrases[-1][0], at + len(word))
                continue
        phrases.append((at, at + len(word)))
    return [(a, item[a:b]) for a, b in phrases]


def stated_share(item: str, passages: Iterable[str], lang: str | None = None) -> tuple[float, str | None]:
    """How nearly one sentence of the passages states ``item`` word for word: the largest share of the
    item's content words and numbers that one passage sentence (or line) contains, and that sentence."""
    words = [w for _, w in _content_words(item)]
    best, where = 0.0, None
    for passage in passages:
        for line in passage.splitlines():
            for sentence in split_sentences(line):
                vocabulary = _Vocabulary([sentence], lang)
                known = [k for k in (vocabulary.has(w) for w in words) if k is not None]
                share = sum(known) / len(known) if known else 0.0
                if share > best:
                    best, where = share, sentence.strip()
    return best, where


def unsupported_spans(item: str, passages: Iterable[str], answer: str, start: int = -1, end: int = -1,
                      lang: str | None = None, join: int | None = None) -> tuple[ErrorSpan, ...]:
    """``unsupported_words`` as spans of ``answer[start:end]``, the item's place (unlocated when unknown).

    ``join``: flagged words with at most this many words the passages contain between them are one span
    (None: each word its own). A claim reworded from its sentence is searched for word by word, in the
    sentence only.
    """
    texts = tuple(passages)
    words = unsupported_words(item, texts, lang)
    if join is not None and words:
        words = _phrases(item, words, _vocabulary(texts, lang), join)
    located = 0 <= start <= end <= len(answer)
    if located and answer[start:end] == item:
        return tuple(ErrorSpan(start + at, start + at + len(w), w) for at, w in words)
    spans = []
    cursor = start
    for _, word in words:
        match = None
        if located:
            pattern = re.compile(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", re.IGNORECASE)
            match = pattern.search(answer, cursor, end) or pattern.search(answer, start, end)
        if match is None:
            spans.append(ErrorSpan(-1, -1, word, located=False))
        else:
            spans.append(ErrorSpan(match.start(), match.end(), match.group()))
            cursor = match.end()
    return tuple(spans)
