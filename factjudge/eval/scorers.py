"""Model-free consistency scorers (TRUE's simple metrics): ``score(grounding, text) -> [0, 1]``.

Higher means more likely consistent/supported. They run offline in milliseconds, so
they are the honest default for grounded checks and a floor for every LLM judge.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable

from rank_bm25 import BM25Plus

Scorer = Callable[[str, str], float]

# Scripts written without spaces: each character is its own token, or a whole clause would be one.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\n+")

BM25_K1 = 1.5
BM25_B = 0.75
BM25_DELTA = 1.0


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens: runs of letters, digits and combining marks (so Devanagari words hold)."""
    tokens: list[str] = []
    current: list[str] = []
    for char in text.lower():
        if _UNSPACED.match(char):
            if current:
                tokens.append("".join(current))
                current = []
            tokens.append(char)
        elif unicodedata.category(char)[0] in "LNM":
            current.append(char)
        elif current:
            tokens.append("".join(current))
            current = []
    if current:
        tokens.append("".join(current))
    return tokens


def token_f1(grounding: str, text: str) -> float:
    """F1 of the word tokens shared by text and grounding (multiset overlap, as in SQuAD)."""
    text_tokens, ground_tokens = tokenize(text), tokenize(grounding)
    if not text_tokens or not ground_tokens:
        return 0.0
    overlap = sum((Counter(text_tokens) & Counter(ground_tokens)).values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(text_tokens)
    recall = overlap / len(ground_tokens)
    return 2 * precision * recall / (precision + recall)


def split_sentences(text: str) -> list[str]:
    """Split on sentence punctuation (Latin and CJK) and line breaks; no sentence is empty."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def bm25_score(grounding: str, text: str) -> float:
    """BM25+ of the text (as query) against the best grounding sentence, scaled to [0, 1].

    BM25+ (rank-bm25's ``BM25Plus``) because its idf stays positive when the grounding
    is a single sentence, where Okapi's goes negative. The best sentence's score is
    divided by the ceiling no sentence can reach: Σ idf·(δ + k1 + 1) over the query
    tokens, an unseen token counted with the highest idf. So the score is near 1 when one
    sentence holds every query token, and 0 when no query token is in the grounding.
    """
    query = tokenize(text)
    sentences = [tokenize(s) for s in split_sentences(grounding)]
    sentences = [s for s in sentences if s]
    if not query or not sentences:
        return 0.0
    index = BM25Plus(sentences, k1=BM25_K1, b=BM25_B, delta=BM25_DELTA)
    best = float(max(index.get_scores(query)))
    rarest = math.log(len(sentences) + 1)
    ceiling = sum(index.idf.get(q, rarest) for q in query) * (BM25_DELTA + BM25_K1 + 1)
    return min(1.0, max(0.0, best / ceiling)) if ceiling > 0 else 0.0


def always(value: float) -> Scorer:
    """A constant scorer: the floor any real checker must beat (ROC AUC 0.5)."""

    def score(grounding: str, text: str) -> float:
        return value

    score.__name__ = f"always_{value:g}"
    return score
