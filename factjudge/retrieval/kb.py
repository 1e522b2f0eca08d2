"""A local knowledge base in one SQLite file: documents, their passages and an FTS5 BM25 index.

Passages are indexed as our own ``tokenize()`` output joined by spaces, so every
language gets the same normalisation (Devanagari/Bengali marks kept inside words,
CJK bigrams, Arabic tashkeel dropped) that the in-memory BM25 uses. The FTS5 table
uses the ``ascii`` tokenizer: it treats every non-ASCII character as part of a token
and only ASCII punctuation/space as a separator, and our tokens contain no ASCII
punctuation, so each stored token survives as exactly one FTS term.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factjudge.errors import InputError, RetrievalError
from factjudge.records import Evidence
from factjudge.retrieval.chunker import chunk
from factjudge.retrieval.tokenize import tokenize

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    lang TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_title ON documents(title);
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(id),
    ord INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_doc ON passages(doc_id, ord);
-- Contentless: the tokens are only needed for matching, the text lives in passages.
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(tokens, tokenize='ascii', content='');
"""


@dataclass(frozen=True)
class Passage:
    """One stored passage with the document fields evidence needs."""

    id: int
    doc_id: int
    ord: int
    text: str
    title: str
    lang: str
    source: str

    def to_evidence(self, score: float | None) -> Evidence:
        """Evidence from the knowledge base for this passage."""
        url = self.source if self.source.startswith(("http://", "https://")) else None
        return Evidence(source="kb", text=self.text, url=url, title=self.title, score=score)


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression: each query token double-quoted, joined by OR (no user syntax)."""
    tokens = tokenize(text, stopwords=True) or tokenize(text)
    # Quoting makes every token a string literal, so AND/OR/NOT/*/( in user text are just words.
    unique = dict.fromkeys(tokens)
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in unique)


def _document_filter(title: str | None, lang: str | None) -> tuple[str, list[Any]]:
    """SQL conditions (to append after WHERE) restricting passages to a title and/or language."""
    sql, params = "", []
    if title is not None:
        sql += " AND d.title = ?"
        params.append(title)
    if lang is not None:
        sql += " AND d.lang = ?"
        params.append(lang)
    return sql, params


class KnowledgeBase:
    """Documents and passages in one SQLite file, searchable with FTS5 BM25."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating if needed) the knowledge base at ``path``."""
        self.path = Path(path)
        try:
            self._conn = sqlite3.connect(str(self.path))
            self._conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise RetrievalError(f"cannot open knowledge base {self.path}: {exc}") from exc

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_documents(self, docs: Iterable[Mapping[str, Any]], passage_tokens: int = 256) -> int:
        """Store documents (title, text, lang, source), chunked into passages; return how many."""
        count = 0
        with self._conn:  # one transaction: a failed batch leaves no half-indexed document
            for doc in docs:
                title = str(doc.get("title") or "")
                text = str(doc.get("text") or "")
                if not text.strip():
                    continue
                cur = self._conn.execute(
                    "INSERT INTO documents(title, lang, source, text) VALUES (?, ?, ?, ?)",
                    (title, str(doc.get("lang") or ""), str(doc.get("source") or ""), text),
                )
                doc_id = cur.lastrowid
                for ord_, piece in enumerate(chunk(text, max_tokens=passage_tokens)):
                    pcur = self._conn.execute(
                        "INSERT INTO passages(doc_id, ord, text) VALUES (?, ?, ?)", (doc_id, ord_, piece)
                    )
                    # The title is indexed with every passage because passages after the
                    # first often refer to their subject only by pronoun.
                    tokens = " ".join(tokenize(f"{title}\n{piece}"))
                    self._conn.execute(
                        "INSERT INTO passages_fts(rowid, tokens) VALUES (?, ?)", (pcur.lastrowid, tokens)
                    )
                count += 1
        return count

    def bm25_ids(
        self, query: str, k: int = 5, *, title: str | None = None, lang: str | None = None
    ) -> list[tuple[int, float]]:
        """Passage ids and BM25 scores (higher is better) of the best ``k`` matches."""
        if k <= 0:
            return []
        match = fts_query(query)
        if not match:
            return []
        sql = (
            "SELECT p.id, bm25(passages_fts) AS s FROM passages_fts "
            "JOIN passages p ON p.id = passages_fts.rowid JOIN documents d ON d.id = p.doc_id "
            "WHERE passages_fts MATCH ?"
        )
        where, params = _document_filter(title, lang)
        sql += where + " ORDER BY s LIMIT ?"
        params = [match, *params]
        params.append(k)
        try:
            rows = self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise RetrievalError(f"knowledge base search failed: {exc}") from exc
        # FTS5's bm25() is negated so that ascending order is best-first; flip it back.
        return [(int(pid), -float(score)) for pid, score in rows]

    def search_bm25(
        self, query: str, k: int = 5, title: str | None = None, lang: str | None = None
    ) -> list[Evidence]:
        """The ``k`` best passages for ``query`` by BM25, optionally within one document title or language."""
        hits = self.bm25_ids(query, k, title=title, lang=lang)
        passages = self.get_passages([pid for pid, _ in hits])
        return [passages[pid].to_evidence(score) for pid, score in hits if pid in passages]

    def get_passages(self, ids: Iterable[int]) -> dict[int, Passage]:
        """Passages by id (missing ids are left out)."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        found: dict[int, Passage] = {}
        # SQLite caps bound parameters per statement; 500 stays below every default.
        for start in range(0, len(wanted), 500):
            batch = wanted[start : start + 500]
            marks = ",".join("?" * len(batch))
            rows = self._conn.execute(
                "SELECT p.id, p.doc_id, p.ord, p.text, d.title, d.lang, d.source FROM passages p "
                f"JOIN documents d ON d.id = p.doc_id WHERE p.id IN ({marks})",
                batch,
            ).fetchall()
            for row in rows:
                found[row[0]] = Passage(*row)
        return found

    def passages_after(self, last_id: int = 0, limit: int = 1000) -> list[Passage]:
        """Up to ``limit`` passages with id above ``last_id``, in id order (for incremental indexing)."""
        rows = self._conn.execute(
            "SELECT p.id, p.doc_id, p.ord, p.text, d.title, d.lang, d.source FROM passages p "
            "JOIN documents d ON d.id = p.doc_id WHERE p.id > ? ORDER BY p.id LIMIT ?",
            (last_id, limit),
        ).fetchall()
        return [Passage(*row) for row in rows]

    def iter_passages(self, batch_size: int = 1000) -> Iterator[Passage]:
        """Every passage in id order, read in batches."""
        last = 0
        while batch := self.passages_after(last, batch_size):
            yield from batch
            last = batch[-1].id

    def passage_ids(self, *, title: str | None = None, lang: str | None = None) -> list[int]:
        """Ids of the passages of documents with this title and/or language."""
        if title is None and lang is None:
            raise InputError("passage_ids needs a title or a lang")
        where, params = _document_filter(title, lang)
        sql = "SELECT p.id FROM passages p JOIN documents d ON d.id = p.doc_id WHERE 1" + where
        return [row[0] for row in self._conn.execute(sql, params)]

    def info(self) -> dict[str, Any]:
        """Counts of documents and passages, and documents per language."""
        docs = self._conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        passages = self._conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        langs = dict(
            self._conn.execute("SELECT lang, COUNT(*) FROM documents GROUP BY lang ORDER BY lang").fetchall()
        )
        return {"path": str(self.path), "documents": docs, "passages": passages, "languages": langs}
