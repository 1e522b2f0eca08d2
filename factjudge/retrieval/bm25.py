"""The one in-memory BM25 index over passages, and FELM's "most relevant chunk of a document".

Scoring is rank-bm25's BM25Plus, not BM25Okapi: Okapi's idf is zero or negative for a
term found in half the passages or more, so over the one or two chunks of a short page
every score can be 0 and the ranking says nothing. BM25Plus keeps idf positive
(log((N + 1) / df)) and adds a floor per matched term. Equal scores are broken by
passage order, so results are deterministic and a tie picks the first chunk.
"""

from __future__ import annotations

import math

from factjudge.errors import InputError
from factjudge.retrieval.chunker import chunk
from factjudge.text.tokenize import tokenize

K1 = 1.5
B = 0.75
DELTA = 1.0


class BM25Index:
    """BM25Plus over a fixed list of passages, tokenised with ``factjudge.text.tokenize``."""

    def __init__(self, passages: list[str], *, lang: str | None = None, stopwords: bool = True) -> None:
        """Index ``passages``; ``lang`` picks the stop list (every list when None)."""
        # rank-bm25 imports numpy (0.1 s): every check imports this module, few build an index.
        from rank_bm25 import BM25Plus

        self.passages = list(passages)
        self._lang = lang
        self._stopwords = stopwords
        corpus = [tokenize(p, stopwords=stopwords, lang=lang) for p in self.passages]
        # rank-bm25 divides by the corpus size and the mean passage length: with nothing
        # to index there is nothing to score, and every passage ties at 0.
        self._bm25 = BM25Plus(corpus, k1=K1, b=B, delta=DELTA) if any(corpus) else None

    def _terms(self, query: str) -> list[str]:
        return tokenize(query, stopwords=self._stopwords, lang=self._lang)

    def scores(self, query: str) -> list[float]:
        """The BM25Plus score of every passage for ``query``, in passage order."""
        terms = self._terms(query)
        if self._bm25 is None or not terms:
            return [0.0] * len(self.passages)
        return [float(s) for s in self._bm25.get_scores(terms)]

    def ceiling(self, query: str) -> float:
        """A score no passage reaches for ``query``: Σ idf·(δ + k1 + 1), unseen terms at the top idf.

        A term adds at most idf·(δ + k1 + 1) to a passage (its term-frequency factor
        stays under k1 + 1), so dividing by this puts a score in [0, 1).
        """
        if self._bm25 is None:
            return 0.0
        rarest = math.log(len(self.passages) + 1)  # BM25Plus's idf of a term in one passage
        return sum(self._bm25.idf.get(t, rarest) for t in self._terms(query)) * (DELTA + K1 + 1)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best (passage index, score) pairs, best first; ties keep passage order."""
        if k < 0:
            raise InputError(f"k must not be negative, got {k}")
        ranked = sorted(enumerate(self.scores(query)), key=lambda pair: (-pair[1], pair[0]))
        return ranked[:k]


def best_chunk(query: str, text: str, max_tokens: int = 512) -> str:
    """The ``max_tokens`` chunk of ``text`` that BM25 ranks highest for ``query`` ("" if no text)."""
    chunks = chunk(text, max_tokens)
    if len(chunks) <= 1:
        return chunks[0] if chunks else ""
    best, _ = BM25Index(chunks).search(query, 1)[0]
    return chunks[best]
