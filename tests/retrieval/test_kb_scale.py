"""KnowledgeBase at scale: FTS5 query pruning and rescoring, bulk adds, the bm25s engine, fast tokenising."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import factjudge.retrieval.kb as kb_module
from factjudge.retrieval.chunker import chunk
from factjudge.retrieval.kb import KnowledgeBase
from factjudge.text.tokenize import _word_pattern, normalize, tokenize
from tests.retrieval.test_kb import CASES, DOCS, QUERIES, TEXT

# Every passage holds the common words; one rare word (zebraN) tells them apart.
COMMON = "alpha beta gamma delta"
SYNTHETIC = [
    {"title": f"Doc {i}", "text": f"{COMMON} {'alpha ' * (i % 3)}zebra{i} epsilon{i % 7}.", "lang": "en"}
    for i in range(120)
]


@pytest.fixture()
def synthetic(tmp_path: Path) -> Iterator[KnowledgeBase]:
    with KnowledgeBase(tmp_path / "kb.sqlite", engine="fts5") as base:
        base.add_documents(SYNTHETIC)
        yield base


def _fts5_scores(kb: KnowledgeBase, query: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, float]]:
    """Unpruned FTS5 ranking: a budget no query reaches."""
    with monkeypatch.context() as m:
        m.setattr(kb_module, "POSTINGS_BUDGET", 10**9)
        return kb.bm25_ids(query, 10)


def _fts5_terms(kb: KnowledgeBase, query: str, budget: int) -> list[str]:
    """The query terms FTS5 matches: the indexed ones, rarest first, within ``budget``."""
    terms = kb_module.query_tokens(query)
    return kb_module._within_budget(terms, kb._document_frequencies(terms), budget)


def test_pruning_keeps_the_rare_term(synthetic: KnowledgeBase) -> None:
    # epsilon3 is in 17 passages, alpha/beta/gamma in all 120: only the rare ones fit.
    assert _fts5_terms(synthetic, "alpha beta zebra42 gamma epsilon3", 50) == ["zebra42", "epsilon3"]
    # The rarest term is kept even alone over the budget, so common words still find something.
    assert _fts5_terms(synthetic, "alpha beta", 50) in (["alpha"], ["beta"])
    assert _fts5_terms(synthetic, "unknownword", 50) == []


def test_rare_word_ranks_first_among_common_words(
    synthetic: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "alpha beta gamma delta zebra42"
    exact = _fts5_scores(synthetic, query, monkeypatch)
    monkeypatch.setattr(kb_module, "POSTINGS_BUDGET", 50)
    monkeypatch.setattr(kb_module, "RESCORE_CANDIDATES", 5)
    pruned = synthetic.bm25_ids(query, 10)
    assert "zebra42" in synthetic.get_passages([pruned[0][0]])[pruned[0][0]].text
    # Rescoring with every term reproduces FTS5's own bm25() for the passages it ranks.
    assert pruned[0][0] == exact[0][0]
    assert pruned[0][1] == pytest.approx(exact[0][1], rel=1e-9)


def test_rescoring_reproduces_fts5_bm25(synthetic: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    query = "alpha gamma epsilon3 zebra7"
    exact = dict(_fts5_scores(synthetic, query, monkeypatch))
    terms = kb_module.query_tokens(query)
    df = synthetic._document_frequencies(terms)
    rescored = dict(synthetic._rescore(list(exact), terms, df))
    assert rescored == pytest.approx(exact, rel=1e-9)


def test_title_filter_finds_passages_with_only_pruned_terms(
    synthetic: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(kb_module, "POSTINGS_BUDGET", 50)
    # zebra1 is not in Doc 5; only the common words the budget drops are.
    hits = synthetic.search_bm25("gamma delta zebra1", k=3, title="Doc 5")
    assert [h.title for h in hits] == ["Doc 5"]
    assert hits[0].score is not None and hits[0].score > 0


def _add_row_by_row(path: Path, docs: list[dict[str, Any]], passage_tokens: int = 256) -> None:
    """The original one-INSERT-per-row add_documents, as the reference for the bulk path."""
    conn = sqlite3.connect(str(path))
    with conn:
        for doc in docs:
            title, text = str(doc.get("title") or ""), str(doc.get("text") or "")
            if not text.strip():
                continue
            cur = conn.execute(
                "INSERT INTO documents(title, lang, source, text) VALUES (?, ?, ?, ?)",
                (title, str(doc.get("lang") or ""), str(doc.get("source") or ""), text),
            )
            for ord_, piece in enumerate(chunk(text, max_tokens=passage_tokens)):
                pcur = conn.execute(
                    "INSERT INTO passages(doc_id, ord, text) VALUES (?, ?, ?)", (cur.lastrowid, ord_, piece)
                )
                tokens = " ".join(tokenize(f"{title}\n{piece}"))
                conn.execute(
                    "INSERT INTO passages_fts(rowid, tokens) VALUES (?, ?)", (pcur.lastrowid, tokens)
                )
    conn.close()


def _contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row, the FTS5 index term by term, and the term statistics."""
    conn = sqlite3.connect(str(path))
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, passages_fts, 'instance')")
    out = {
        "documents": conn.execute("SELECT * FROM documents ORDER BY id").fetchall(),
        "passages": conn.execute("SELECT * FROM passages ORDER BY id").fetchall(),
        "index": conn.execute("SELECT * FROM temp.v ORDER BY term, doc, offset").fetchall(),
        "term_df": conn.execute("SELECT * FROM term_df ORDER BY term").fetchall(),
        "kb_stats": conn.execute("SELECT * FROM kb_stats ORDER BY name").fetchall(),
    }
    conn.close()
    return out


def test_bulk_add_equals_row_by_row_add(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = [*DOCS, {"title": "Empty", "text": "  "}, *SYNTHETIC[:30]]
    # Small batches, so several executemany rounds run.
    monkeypatch.setattr(kb_module, "_BATCH_ROWS", 7)
    with KnowledgeBase(tmp_path / "bulk.sqlite") as bulk:
        assert bulk.add_documents(docs[:10]) == 10
        bulk.add_documents(docs[10:], passage_tokens=40)
    reference = tmp_path / "rows.sqlite"
    KnowledgeBase(reference).close()
    _add_row_by_row(reference, docs[:10])
    _add_row_by_row(reference, docs[10:], passage_tokens=40)
    got, want = _contents(tmp_path / "bulk.sqlite"), _contents(reference)
    for table in ("documents", "passages", "index"):
        assert got[table] == want[table], table
    # The reference path keeps no statistics: they must equal what the index itself counts.
    vocab = sqlite3.connect(str(reference))
    vocab.execute("CREATE VIRTUAL TABLE temp.r USING fts5vocab(main, passages_fts, 'row')")
    assert got["term_df"] == vocab.execute("SELECT term, doc FROM temp.r ORDER BY term").fetchall()
    tokens = vocab.execute("SELECT SUM(cnt) FROM temp.r").fetchone()[0]
    assert got["kb_stats"] == [("passages", len(want["passages"])), ("tokens", tokens)]


def test_files_without_statistics_are_filled_from_the_index(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path) as base:
        base.add_documents(DOCS)
    before = _contents(path)
    conn = sqlite3.connect(str(path))
    conn.executescript("DROP TABLE term_df; DROP TABLE kb_stats;")  # a file from before they existed
    conn.close()
    KnowledgeBase(path).close()
    assert _contents(path) == before


def test_engine_names_are_checked(tmp_path: Path) -> None:
    with pytest.raises(kb_module.InputError):
        KnowledgeBase(tmp_path / "kb.sqlite", engine="lucene")


# bm25s: the engine large knowledge bases use.


@pytest.fixture(scope="module")
def bm25s_kb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeBase]:
    pytest.importorskip("bm25s")
    with KnowledgeBase(tmp_path_factory.mktemp("bm25s") / "kb.sqlite", engine="bm25s") as base:
        base.add_documents(DOCS)
        yield base


@pytest.mark.parametrize(("lang", "topic"), CASES)
def test_bm25s_finds_right_passage_in_each_language(bm25s_kb: KnowledgeBase, lang: str, topic: str) -> None:
    hits = bm25s_kb.search_bm25(QUERIES[lang][topic], k=3)
    assert hits and hits[0].text in TEXT[(lang, topic)]
    assert [h.score for h in hits] == sorted((h.score or 0.0 for h in hits), reverse=True)
    assert all((h.score or 0.0) > 0 for h in hits)


def test_bm25s_filters_by_title_and_language(bm25s_kb: KnowledgeBase) -> None:
    hits = bm25s_kb.search_bm25("highest mountain river", k=5, title="Amazon River")
    assert hits and all(h.title == "Amazon River" for h in hits)
    assert bm25s_kb.search_bm25("polonium", k=5, title="Mount Everest") == []
    es = bm25s_kb.search_bm25("Marie Curie radio", k=5, title="Marie Curie", lang="es")
    assert [h.text for h in es] == [TEXT[("es", "curie")]]
    assert all(h.text in {TEXT[("es", t)] for t in ("everest", "curie", "amazon")}
               for h in bm25s_kb.search_bm25("Marie Curie Everest Amazon", k=10, lang="es"))
    assert bm25s_kb.search_bm25("polonium", k=5, lang="xx") == []
    assert bm25s_kb.search_bm25("", k=5) == [] and bm25s_kb.search_bm25("unknownword", k=5) == []


def test_bm25s_index_round_trips_on_disk_and_follows_additions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("bm25s")
    from factjudge.retrieval.kb_bm25s import Bm25sIndex

    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path, engine="bm25s") as base:
        assert base.bm25_ids("polonium", 3) == []  # no passages, no index
        base.add_documents(DOCS[:9])
        first = base.bm25_ids("Himalayas 珠穆朗玛峰", 3)
    assert json.loads((tmp_path / "kb.sqlite.bm25s" / "meta.json").read_text())["rows"] >= 9

    def no_rebuild(*args: object, **kwargs: object) -> None:
        raise AssertionError("the saved index should have been loaded")

    with monkeypatch.context() as m, KnowledgeBase(path, engine="bm25s") as base:
        m.setattr(Bm25sIndex, "build", no_rebuild)
        assert base.bm25_ids("Himalayas 珠穆朗玛峰", 3) == first
    # Documents added later: the index no longer reaches the newest passage and is rebuilt.
    with KnowledgeBase(path, engine="bm25s") as base:
        base.add_documents([{"title": "Nile", "text": "The Nile flows north into the Mediterranean Sea.",
                             "lang": "en"}])
        assert base.search_bm25("Where does the Nile reach the Mediterranean?", k=1)[0].title == "Nile"
        assert base.search_bm25("polonium", k=1)[0].title == "Marie Curie"
    assert json.loads((tmp_path / "kb.sqlite.bm25s" / "meta.json").read_text())["rows"] >= 10


def test_auto_engine_switches_to_bm25s_for_large_knowledge_bases(
    bm25s_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    auto = KnowledgeBase(bm25s_kb.path)
    assert auto.search_engine() == "fts5"
    monkeypatch.setattr(kb_module, "BM25S_FROM", 1)
    assert auto.search_engine() == "bm25s"
    fts5 = KnowledgeBase(bm25s_kb.path, engine="fts5")
    for lang, topic in CASES:
        query = QUERIES[lang][topic]
        assert auto.bm25_ids(query, 1)[0][0] == fts5.bm25_ids(query, 1)[0][0]
    auto.close()
    fts5.close()


# Tokenising and chunking, sped up for bulk indexing: same results as the general path.


def test_ascii_fast_path_tokenises_like_the_unicode_path() -> None:
    rng = random.Random(0)
    alphabet = [chr(c) for c in range(128)]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert tokenize(text) == _word_pattern().findall(normalize(text)), repr(text)


def test_words_start_on_a_letter_or_digit_and_keep_their_marks() -> None:
    # Leading combining marks (BMP and astral) belong to no word; inner ones stay.
    assert tokenize("\u0301abc \U0001d167x\u0301y _\u0301z") == ["abc", "x\u0301y", "z"]
    assert tokenize("a\U0001d167b") == ["a\U0001d167b"]


def test_short_texts_skip_bpe_but_chunk_the_same() -> None:
    # At most max_tokens bytes can never exceed max_tokens tokens: one stripped chunk.
    assert chunk("  Short. Text!  ", max_tokens=16) == ["Short. Text!"]
    assert chunk(" \n ", max_tokens=16) == []
