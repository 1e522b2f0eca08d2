"""FActScore's Wikipedia: the SQLite file ``enwiki-20230401.db`` its retrieval reads.

The file has one table, ``documents(title PRIMARY KEY, text)``, whose ``text`` holds an
article's passages (at most 256 RoBERTa tokens each) joined by ``SEPARATOR``. FActScore
reads the passages of its topic's article and ranks them with BM25; so does this backend,
each stored passage an article of its own for ``rank_articles`` (a 256-RoBERTa-token
passage fits the 256 cl100k tokens it cuts at, so passages stay as stored). The file has
no full-text index and no redirects: an article is found by its title only (as written, first
letter up, every word up), the subject's (``reading.TopicReader``); with no title found there is
no evidence. A row that is not valid UTF-8, or a BLOB, is read with U+FFFD for its bad bytes.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from factjudge.errors import RetrievalError, SourceUnusable
from factjudge.records import Evidence
from factjudge.retrieval.wiki.base import ARTICLES, Article, WikiSpec, article_url, rank_articles
from factjudge.retrieval.wiki.names import title_candidates
from factjudge.retrieval.wiki.reading import TopicReader

SEPARATOR = "####SPECIAL####SEPARATOR####"


def _title_variants(title: str) -> list[str]:
    """Spellings an exact-match lookup tries: as given, first letter up, every word up.

    The primary key compares bytes, so a case-insensitive scan of six million titles
    would be slow; Wikipedia titles start with a capital, which covers most misses.
    """
    title = " ".join(title.replace("_", " ").split())
    variants = [title, title[:1].upper() + title[1:], " ".join(w[:1].upper() + w[1:] for w in title.split())]
    return list(dict.fromkeys(v for v in variants if v))


def _text(value: object) -> str:
    """A stored value as text: TEXT with bad UTF-8 and BLOBs are decoded with U+FFFD where a byte is bad,
    so one broken article reads as an odd passage, never as ``b'…'`` or a failed check."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


class FactScoreWiki(TopicReader):
    """Passages of FActScore's ``enwiki-20230401.db``, looked up by article title."""

    def __init__(self, path: str | Path) -> None:
        """Open ``path`` read-only; SourceUnusable (an InputError) if it is missing or not of that schema."""
        super().__init__()
        self.path = Path(path)
        self.spec = WikiSpec("factscore", str(path))
        self.name = self.path.name
        if not self.path.is_file():
            raise SourceUnusable(f"no FActScore wiki database at {self.path}")
        try:
            self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                       check_same_thread=False)
            # Bytes, decoded here: SQLite hands back whatever a row holds, and Python's own
            # decoding fails the whole query on one row of bad UTF-8.
            self._db.text_factory = bytes
            self._db.execute("SELECT title, text FROM documents LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            raise SourceUnusable(f"{self.path} is not a FActScore wiki database (SQLite with a table "
                             f"documents(title, text)): {exc}") from exc
        # One connection shared by every thread, one query at a time.
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the database connection (after a query under way)."""
        with self._lock:
            self._db.close()

    def _article(self, title: str) -> tuple[str, str] | None:
        """The stored (title, text) of the first spelling of ``title`` in the file."""
        for variant in _title_variants(title):
            try:
                with self._lock:
                    row = self._db.execute("SELECT title, text FROM documents WHERE title = ?",
                                           (variant,)).fetchone()
            except sqlite3.Error as exc:
                raise RetrievalError(f"reading {self.path} failed: {exc}") from exc
            if row is not None:
                return _text(row[0]), _text(row[1])
        return None

    def _articles(self, titles: Sequence[str]) -> list[tuple[str, str]]:
        """The articles of the first ``ARTICLES`` of ``titles`` found in the file."""
        found: dict[str, str] = {}
        for title in titles:
            row = self._article(title)
            if row is not None:
                found.setdefault(*row)
            if len(found) >= ARTICLES:
                break
        return list(found.items())

    def find_article(self, title: str, language: str | None) -> Article | None:
        """The stored article titled ``title`` (as given, first letter up, every word up)."""
        row = self._article(title)
        return None if row is None else Article(row[0], row[1], "en", article_url(row[0], "en"))

    def article_passages(self, article: Article, query: str, k: int,
                         language: str | None) -> list[Evidence]:
        """The ``k`` stored passages of ``article`` BM25 ranks best for ``query``, as FActScore does."""
        return rank_articles(query, _passages(article.title, article.text), k, topics=[article.title],
                             language=language, source="wikipedia")

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` stored passages for ``query``: the topics' articles, else the query's names'."""
        articles = self._articles(topics)
        # Titles met in the query are no topic: BM25 alone ranks their passages.
        named = articles or self._articles(title_candidates([query]))
        passages = [p for title, whole in named for p in _passages(title, whole)]
        # A stored title that matched only by a variant is still the topic's article.
        return rank_articles(query, passages, k, topics=[*topics, *(t for t, _ in articles)],
                             language=language, source="wikipedia")


def _passages(title: str, text: str) -> list[Article]:
    """An article's stored passages, each an article of its own for ``rank_articles`` (kept as stored)."""
    return [Article(title, part.strip(), "en", article_url(title, "en"))
            for part in text.split(SEPARATOR) if part.strip()]
