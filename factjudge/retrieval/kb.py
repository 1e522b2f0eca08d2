"""A local knowledge base in one SQLite file: documents, their passages and a BM25 index.

Passages are indexed as our own ``tokenize()`` output joined by spaces, so every
language gets the same normalisation (Devanagari/Bengali marks kept inside words,
CJK bigrams, Arabic tashkeel dropped) that the in-memory BM25 uses. The FTS5 table
uses the ``ascii`` tokenizer: it treats every non-ASCII character as part of a token
and only ASCII punctuation/space as a separator, and our tokens contain no ASCII
punctuation, so each stored token survives as exactly one FTS term.

Two engines answer ``bm25_ids``, chosen by measurement (benchmarks/retrieval.py). FTS5
runs inside the file and sees documents as soon as they are added, but scores every
row that matches any query term, so a query keeps only its rarest terms within a
posting budget and the best candidates are rescored with every term. From
``BM25S_FROM`` passages, where that pruning starts to cost ranking quality, a bm25s
index saved beside the file (kb_bm25s.py) scores every term of every query instead.

Adding a document that is already stored (same title, source and text) does nothing, so
building again from the same sources adds nothing twice. Writers take turns: each ``ingest``
takes SQLite's write lock before it reads the ids and documents already stored (BEGIN
IMMEDIATE), and another writer waits for it. The lock is the database file's own, so
every process that writes the file waits its turn, whatever opened it, and a killed
writer's lock goes with its process; no lock file can be left behind.

A file that is not a knowledge base, or is damaged, is an input error in one line, never
a traceback, and never gets the knowledge base's tables added to it.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from factjudge.errors import InputError, RetrievalError, SourceUnusable
from factjudge.records import Evidence
from factjudge.retrieval.chunker import chunk
from factjudge.retrieval.regular import not_regular, read_head
from factjudge.text.tokenize import tokenize

if TYPE_CHECKING:
    from factjudge.retrieval.kb_bm25s import Bm25sIndex

P = ParamSpec("P")
R = TypeVar("R")

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
-- Passages containing each indexed term, and the passage and token totals, kept in step
-- with passages_fts: planning and rescoring a query need them in microseconds, and
-- FTS5's own count (fts5vocab) walks a term's whole posting list.
CREATE TABLE IF NOT EXISTS term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS kb_stats (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
"""
# What makes an SQLite file a knowledge base; any other file with tables is refused.
KB_TABLES = frozenset({"documents", "passages", "passages_fts"})
ENGINES = ("auto", "fts5", "bm25s")
# Measured at 1M passages: FTS5 met 50 ms p95 only by pruning (hit@1 0.840 against
# 0.900 for exact BM25), bm25s scored every term at 16 ms p95. At 100k pruned FTS5
# still ranked like exact BM25, and it needs no rebuild when documents are added.
BM25S_FROM = 100_000
# FTS5 costs a few microseconds per matching row (its bm25() also walks every query
# term's posting list to count it), so the rarest query terms are kept while their
# passages add up to this many: 32-44 ms p95 at 1M passages on 2 shared cores.
POSTINGS_BUDGET = 10_000
# After pruning, this many FTS5 candidates are rescored with every query term.
RESCORE_CANDIDATES = 100
# FTS5's bm25() constants.
_K1 = 1.2
_B = 0.75
# Rows per executemany while adding documents: enough to amortise the calls, few enough
# that a batch of long documents stays a few megabytes.
_BATCH_ROWS = 2000
# How long a writer waits for another to finish: as long as building from a large dump takes.
_WRITER_WAIT_MS = 24 * 3600 * 1000


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


def query_tokens(text: str) -> list[str]:
    """The distinct tokens a query searches with: stop words dropped unless nothing else is left."""
    return list(dict.fromkeys(tokenize(text, stopwords=True) or tokenize(text)))


def fts_match(terms: Iterable[str]) -> str:
    """An FTS5 MATCH expression: each term double-quoted, joined by OR (no user syntax)."""
    # Quoting makes every token a string literal, so AND/OR/NOT/*/( in user text are just words.
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def _within_budget(terms: list[str], df: Mapping[str, int], budget: int) -> list[str]:
    """The indexed ``terms``, rarest first, while their document frequencies add up to ``budget``.

    The rarest term is kept whatever its frequency, so a query of common words still
    finds something.
    """
    kept: list[str] = []
    total = 0
    for term in sorted((t for t in terms if df.get(t)), key=lambda t: df[t]):
        if kept and total + df[term] > budget:
            break
        kept.append(term)
        total += df[term]
    return kept


def _fts5_idf(passages: int, df: int) -> float:
    """FTS5's bm25() idf: terms in half the passages or more get a tiny positive value."""
    idf = math.log((passages - df + 0.5) / (df + 0.5))
    return idf if idf > 0 else 1e-6


@cache
def _bm25s_installed() -> bool:
    """Whether the optional bm25s package can be imported (looked up once)."""
    return importlib.util.find_spec("bm25s") is not None


@dataclass
class _Batch:
    """Rows waiting to be inserted by executemany."""

    documents: list[tuple[int, str, str, str, str]] = field(default_factory=list)
    passages: list[tuple[int, int, int, str]] = field(default_factory=list)
    fts: list[tuple[int, str]] = field(default_factory=list)

    def write(self, conn: sqlite3.Connection) -> None:
        """Insert and forget the waiting rows."""
        conn.executemany(
            "INSERT INTO documents(id, title, lang, source, text) VALUES (?, ?, ?, ?, ?)", self.documents
        )
        conn.executemany("INSERT INTO passages(id, doc_id, ord, text) VALUES (?, ?, ?, ?)", self.passages)
        conn.executemany("INSERT INTO passages_fts(rowid, tokens) VALUES (?, ?)", self.fts)
        self.documents.clear()
        self.passages.clear()
        self.fts.clear()


def _document_filter(titles: list[str] | None, lang: str | None) -> tuple[str, list[Any]]:
    """SQL conditions (to append after WHERE) restricting passages to some titles and/or a language."""
    sql, params = "", []
    if titles is not None:
        sql += f" AND d.title IN ({','.join('?' * len(titles))})" if titles else " AND 0"
        params.extend(titles)
    if lang is not None:
        sql += " AND d.lang = ?"
        params.append(lang)
    return sql, params


def _sqlite_errors(
    method: Callable[Concatenate[KnowledgeBase, P], R],
) -> Callable[Concatenate[KnowledgeBase, P], R]:
    """SQLite's errors as ours: a damaged file is the caller's input, a locked one a retrieval error."""

    @functools.wraps(method)
    def guarded(kb: KnowledgeBase, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(kb, *args, **kwargs)
        except sqlite3.OperationalError as exc:  # locked, unreadable, out of disk
            raise RetrievalError(f"knowledge base {kb.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:  # corrupt, or not an SQLite file at all
            raise SourceUnusable(f"{kb.path} is damaged or not a factjudge knowledge base ({exc})") from None

    return guarded


@dataclass(frozen=True)
class Ingested:
    """What ``ingest`` did: documents added, and documents skipped because they were stored already."""

    added: int = 0
    skipped: int = 0


class KnowledgeBase:
    """Documents and passages in one SQLite file, searchable with BM25 (FTS5, or bm25s when large)."""

    def __init__(self, path: str | Path, engine: str = "auto", *, shared: bool = False) -> None:
        """Open (creating if needed) the knowledge base at ``path``; ``engine`` is auto, fts5 or bm25s.

        ``shared`` lets other threads use the connection; its owner serialises them.
        """
        if engine not in ENGINES:
            raise InputError(f"unknown BM25 engine {engine!r}; known: {', '.join(ENGINES)}")
        if engine == "bm25s":
            from factjudge.retrieval.kb_bm25s import import_bm25s

            import_bm25s()  # fail now, with the install hint, rather than at the first search
        self.path = Path(path)
        self.engine = engine
        self.bm25s_path = self.path.with_name(self.path.name + ".bm25s")
        self._bm25s_index: Bm25sIndex | None = None
        if self.path.exists() and (problem := not_regular(self.path)) is not None:
            # SQLite would wait on a FIFO for good; a new file is made by connect below.
            raise SourceUnusable(f"cannot open knowledge base {self.path}: {problem}")
        try:
            self._conn = sqlite3.connect(str(self.path), check_same_thread=not shared)
        except sqlite3.Error as exc:
            raise RetrievalError(f"cannot open knowledge base {self.path}: {exc}") from exc
        self._prepare()

    @_sqlite_errors
    def _prepare(self) -> None:
        """Create the tables in a new file, bring an older knowledge base up to date, refuse other files."""
        tables = {row[0] for row in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and not tables >= KB_TABLES:
            self._conn.close()
            raise SourceUnusable(f"{self.path} is an SQLite file but not a factjudge knowledge base "
                             f"(its tables: {', '.join(sorted(tables)[:5])}); give a new file name")
        # One transaction: another process opening the file meanwhile sees no table or all of them, never
        # the first few (and would refuse the file as not a knowledge base).
        self._conn.executescript(f"BEGIN IMMEDIATE;\n{_SCHEMA}COMMIT;\n")
        if tables and not {"term_df", "kb_stats"} <= tables:
            self._count_terms_from_fts()

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _count_terms_from_fts(self) -> None:
        """Fill term_df and kb_stats of a file made before they existed, from the FTS5 index (once)."""
        self._conn.execute(
            "CREATE VIRTUAL TABLE temp.passages_vocab USING fts5vocab(main, passages_fts, 'row')"
        )
        with self._conn:
            self._conn.execute("DELETE FROM term_df")
            self._conn.execute("DELETE FROM kb_stats")
            self._conn.execute("INSERT INTO term_df(term, df) SELECT term, doc FROM temp.passages_vocab")
            tokens = self._conn.execute("SELECT COALESCE(SUM(cnt), 0) FROM temp.passages_vocab").fetchone()[0]
            passages = self._conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
            self._add_stats(passages, tokens)
        self._conn.execute("DROP TABLE temp.passages_vocab")

    def _add_stats(self, passages: int, tokens: int) -> None:
        """Add to the stored passage and token totals."""
        self._conn.executemany(
            "INSERT INTO kb_stats(name, value) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
            [("passages", passages), ("tokens", tokens)],
        )

    def add_documents(self, docs: Iterable[Mapping[str, Any]], passage_tokens: int = 256) -> int:
        """Store documents (title, text, lang, source), chunked into passages; return how many were new."""
        return self.ingest(docs, passage_tokens).added

    def _stored(self, document: tuple[str, str, str]) -> bool:
        """Whether a document with this title, source and text is stored (the title index finds it)."""
        found = self._conn.execute(
            "SELECT 1 FROM documents WHERE title = ? AND source = ? AND text = ? LIMIT 1", document
        ).fetchone()
        return found is not None

    @_sqlite_errors
    def ingest(self, docs: Iterable[Mapping[str, Any]], passage_tokens: int = 256) -> Ingested:
        """Store the documents not stored yet, chunked into passages; say how many were added and skipped.

        A document with the title, source and text of a stored one (or of one earlier in
        ``docs``) is skipped, so building again from the same sources adds nothing.
        """
        count = skipped = passages = tokens_total = 0
        df: Counter[str] = Counter()
        with self._conn:  # one transaction: a failed batch leaves no half-indexed document
            self._begin_writing()
            # Ids are assigned here as SQLite would (max + 1) so rows can go in by executemany.
            doc_id = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM documents").fetchone()[0]
            pid = self._latest_passage_id()
            batch = _Batch()
            pending: set[tuple[str, str, str]] = set()  # the batch's documents, not in the table yet
            for doc in docs:
                title = str(doc.get("title") or "")
                text = str(doc.get("text") or "")
                if not text.strip():
                    continue
                source = str(doc.get("source") or "")
                if (title, source, text) in pending or self._stored((title, source, text)):
                    skipped += 1
                    continue
                pending.add((title, source, text))
                doc_id += 1
                batch.documents.append((doc_id, title, str(doc.get("lang") or ""), source, text))
                for ord_, piece in enumerate(chunk(text, max_tokens=passage_tokens)):
                    pid += 1
                    # The title is indexed with every passage because passages after the
                    # first often refer to their subject only by pronoun.
                    tokens = tokenize(f"{title}\n{piece}")
                    df.update(set(tokens))
                    tokens_total += len(tokens)
                    passages += 1
                    batch.passages.append((pid, doc_id, ord_, piece))
                    batch.fts.append((pid, " ".join(tokens)))
                count += 1
                if len(batch.passages) >= _BATCH_ROWS:
                    batch.write(self._conn)
                    pending.clear()
            batch.write(self._conn)
            self._conn.executemany(
                "INSERT INTO term_df(term, df) VALUES (?, ?) "
                "ON CONFLICT(term) DO UPDATE SET df = df + excluded.df",
                df.items(),
            )
            self._add_stats(passages, tokens_total)
        return Ingested(count, skipped)

    def _begin_writing(self) -> None:
        """Take the file's write lock until the commit, waiting while another writer holds it."""
        (busy,) = self._conn.execute("PRAGMA busy_timeout").fetchone()
        self._conn.execute(f"PRAGMA busy_timeout = {_WRITER_WAIT_MS}")
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        finally:
            self._conn.execute(f"PRAGMA busy_timeout = {int(busy)}")

    def _latest_passage_id(self) -> int:
        """The highest passage id, 0 when empty (ids only grow, so it changes when passages are added)."""
        return int(self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM passages").fetchone()[0])

    def search_engine(self) -> str:
        """The engine ``bm25_ids`` uses now: fts5 or bm25s (auto picks bm25s from BM25S_FROM passages)."""
        if self.engine != "auto":
            return self.engine
        # Without deletions the newest id is the passage count, and costs one index lookup.
        return "bm25s" if self._latest_passage_id() >= BM25S_FROM and _bm25s_installed() else "fts5"

    def refresh_bm25s(self) -> Bm25sIndex | None:
        """The bm25s index, rebuilt first if passages were added since it was saved; None if none exist."""
        from factjudge.retrieval.kb_bm25s import Bm25sIndex

        latest = self._latest_passage_id()
        if not latest:
            return None
        index = self._bm25s_index
        if index is None or index.max_passage_id != latest:
            index = Bm25sIndex.load(self.bm25s_path)
            if index is None or index.max_passage_id != latest:
                rows = ((p.id, p.lang, tokenize(f"{p.title}\n{p.text}")) for p in self.iter_passages(10_000))
                index = Bm25sIndex.build(rows, self.bm25s_path)
            self._bm25s_index = index
        return index

    @_sqlite_errors
    def bm25_ids(
        self, query: str, k: int = 5, *, title: str | None = None, lang: str | None = None
    ) -> list[tuple[int, float]]:
        """Passage ids and BM25 scores (higher is better) of the best ``k`` matches."""
        if k <= 0:
            return []
        terms = query_tokens(query)
        if not terms:
            return []
        if self.search_engine() == "bm25s":
            index = self.refresh_bm25s()
            if index is None:
                return []
            if title is not None:  # a title names few passages: score those rather than mask every row
                return index.search(terms, k, passage_ids=self.passage_ids(title=title, lang=lang))
            return index.search(terms, k, lang=lang)
        return self._fts5_ids(terms, k, title=title, lang=lang)

    def _document_frequencies(self, terms: list[str]) -> dict[str, int]:
        """Stored document frequency of each term that is indexed."""
        found: dict[str, int] = {}
        for start in range(0, len(terms), 500):  # below every SQLite bound-parameter limit
            batch = terms[start : start + 500]
            marks = ",".join("?" * len(batch))
            found.update(self._conn.execute(f"SELECT term, df FROM term_df WHERE term IN ({marks})", batch))
        return found

    def _fts5_ids(
        self, terms: list[str], k: int, *, title: str | None, lang: str | None
    ) -> list[tuple[int, float]]:
        """Best ``k`` passages by FTS5 over the rarest terms, rescored with all if some were left out."""
        df = self._document_frequencies(terms)
        kept = _within_budget(terms, df, POSTINGS_BUDGET)
        if not kept:
            return []  # no query term occurs anywhere
        pruned = len(kept) < len(df)
        if pruned and title is not None:
            # A document's passages are few: score them all with every term, which also
            # finds passages that hold only the common terms the pruning left out.
            ids = self.passage_ids(title=title, lang=lang)
            if len(ids) <= RESCORE_CANDIDATES:
                return [hit for hit in self._rescore(ids, list(df), df) if hit[1] > 0][:k]
        where, params = _document_filter(self._titles(title), lang)
        if title is not None:
            # A title names few passages: test each match against them instead of joining it.
            sql = (
                "SELECT rowid, bm25(passages_fts) AS s FROM passages_fts WHERE passages_fts MATCH ? "
                "AND rowid IN (SELECT p.id FROM passages p JOIN documents d ON d.id = p.doc_id "
                f"WHERE 1{where})"
            )
        elif lang is not None:
            sql = (
                "SELECT p.id, bm25(passages_fts) AS s FROM passages_fts "
                "JOIN passages p ON p.id = passages_fts.rowid JOIN documents d ON d.id = p.doc_id "
                f"WHERE passages_fts MATCH ?{where}"
            )
        else:
            sql = "SELECT rowid, bm25(passages_fts) AS s FROM passages_fts WHERE passages_fts MATCH ?"
        limit = max(k, RESCORE_CANDIDATES) if pruned else k
        try:
            rows = self._conn.execute(
                sql + " ORDER BY s LIMIT ?", [fts_match(kept), *params, limit]
            ).fetchall()
        except sqlite3.Error as exc:
            raise RetrievalError(f"knowledge base search failed: {exc}") from exc
        if pruned:
            return self._rescore([int(pid) for pid, _ in rows], list(df), df)[:k]
        # FTS5's bm25() is negated so that ascending order is best-first; flip it back.
        return [(int(pid), -float(score)) for pid, score in rows]

    def _rescore(self, ids: list[int], terms: list[str], df: Mapping[str, int]) -> list[tuple[int, float]]:
        """``ids`` ranked by FTS5's bm25() formula over every term, best first (ties: older passage)."""
        stats = dict(self._conn.execute("SELECT name, value FROM kb_stats"))
        n = max(int(stats.get("passages", 0)), 1)
        avg_len = max(int(stats.get("tokens", 0)), 1) / n
        idf = {t: _fts5_idf(n, df[t]) for t in terms}
        scored = []
        for pid, passage in self.get_passages(ids).items():
            tokens = tokenize(f"{passage.title}\n{passage.text}")
            tf = Counter(tokens)
            norm = _K1 * (1 - _B + _B * len(tokens) / avg_len)
            score = sum(idf[t] * tf[t] * (_K1 + 1) / (tf[t] + norm) for t in terms if t in tf)
            scored.append((pid, score))
        return sorted(scored, key=lambda hit: (-hit[1], hit[0]))

    def search_bm25(
        self, query: str, k: int = 5, title: str | None = None, lang: str | None = None
    ) -> list[Evidence]:
        """The ``k`` best passages for ``query`` by BM25, optionally within one document title or language."""
        hits = self.bm25_ids(query, k, title=title, lang=lang)
        passages = self.get_passages([pid for pid, _ in hits])
        return [passages[pid].to_evidence(score) for pid, score in hits if pid in passages]

    @_sqlite_errors
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

    @_sqlite_errors
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

    @_sqlite_errors
    def titles(self) -> list[str]:
        """Every distinct stored title (read from the title index)."""
        return [t for (t,) in self._conn.execute("SELECT DISTINCT title FROM documents")]

    def _titles(self, title: str | None) -> list[str] | None:
        """The stored titles a ``title`` filter names, ignoring case; the exact one when it is stored."""
        if title is None:
            return None
        if self._conn.execute("SELECT 1 FROM documents WHERE title = ? LIMIT 1", (title,)).fetchone():
            return [title]
        # Only a miss reads every distinct title to compare them folded.
        folded = title.casefold()
        return [t for t in self.titles() if t.casefold() == folded]

    @_sqlite_errors
    def passage_ids(self, *, title: str | None = None, lang: str | None = None) -> list[int]:
        """Ids of the passages of documents with this title and/or language."""
        if title is None and lang is None:
            raise InputError("passage_ids needs a title or a lang")
        where, params = _document_filter(self._titles(title), lang)
        sql = "SELECT p.id FROM passages p JOIN documents d ON d.id = p.doc_id WHERE 1" + where
        return [row[0] for row in self._conn.execute(sql, params)]

    @_sqlite_errors
    def info(self) -> dict[str, Any]:
        """Counts of documents and passages, and documents per language."""
        docs = self._conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        passages = self._conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        langs = dict(
            self._conn.execute("SELECT lang, COUNT(*) FROM documents GROUP BY lang ORDER BY lang").fetchall()
        )
        return {"path": str(self.path), "documents": docs, "passages": passages, "languages": langs}


# The first 16 bytes of every SQLite database file.
_SQLITE_MAGIC = b"SQLite format 3\x00"


def file_damage(path: str | Path, *, thorough: bool = False) -> str | None:
    """Why the knowledge base at ``path`` cannot be whole ("empty", "truncated" …), None if it looks whole.

    Cheap enough to run on every open: the header's magic, its page count against the file's
    size (a cut copy or a killed writer's file is shorter), then the tables and one document.
    It does not read every page: damage inside a page shows at the first search, or with
    ``thorough`` (SQLite's ``PRAGMA quick_check``, which reads them all: run it after a read failed).
    """
    path = Path(path)
    if (problem := not_regular(path)) is not None:
        return problem
    try:
        header = read_head(path, 100)  # a FIFO or device is refused here, never waited on
        size = path.stat().st_size
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if size == 0:
        return "empty"
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        return "not an SQLite file"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The header's page count is valid when its change counter matches the one beside it.
    if pages and header[24:28] == header[92:96] and pages * page_size != size:
        return f"truncated ({size:,} bytes of {pages * page_size:,})"
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as conn:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables >= KB_TABLES:
                return "missing its tables"
            if conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is None:
                return "without documents"
            if thorough and (found := conn.execute("PRAGMA quick_check(1)").fetchone()) != ("ok",):
                return f"damaged inside its pages ({' '.join(str(found and found[0]).split())[:200]})"
    except sqlite3.Error as exc:
        return f"unreadable ({exc})"
    return None
