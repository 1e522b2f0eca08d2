"""A Kiwix ZIM file (an offline Wikipedia) read with libzim.

An item is read in its subject's whole article (``reading.TopicReader``): the entry titled
like the subject, by path, by title, or by a title suggestion that folds equal (accents),
its redirect followed. Only an answer that names nothing is searched for in full text.
libzim's full-text search ANDs every term, has no OR and no scores, so a claim's sentence
rarely matches as a whole. The search is relaxed instead: stop words are left out, terms no
article holds are dropped, and the rest are tried rarest first, the commonest dropped one
by one until some article matches. Articles named by the item's topics are looked up by
title first. libzim's searchers are not thread-safe: every call into it holds one lock.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from factjudge.errors import RetrievalError, SourceUnusable
from factjudge.records import Evidence
from factjudge.retrieval.links import html_to_text
from factjudge.retrieval.wiki.base import ARTICLES, Article, WikiSpec, article_url, rank_articles
from factjudge.retrieval.wiki.names import fold
from factjudge.retrieval.wiki.reading import TopicReader
from factjudge.text.tokenize import tokenize

if TYPE_CHECKING:
    from libzim.reader import Archive, Entry
    from libzim.search import Query

# Terms of a query tried at most (one count per term, then one search per relaxation step).
MAX_TERMS = 12
# ZIM metadata names languages in ISO 639-3; Wikipedia's addresses use ISO 639-1.
_ISO_639_1 = {"eng": "en", "fra": "fr", "spa": "es", "deu": "de", "ita": "it", "por": "pt",
              "rus": "ru", "zho": "zh", "jpn": "ja", "kor": "ko", "vie": "vi", "ara": "ar",
              "hin": "hi", "ben": "bn", "nld": "nl", "pol": "pl", "swe": "sv", "ukr": "uk",
              "tur": "tr", "fas": "fa", "heb": "he", "ind": "id", "cat": "ca", "ces": "cs"}


class ZimWiki(TopicReader):
    """Passages of the articles of one ZIM file: the subject's whole article, else a full-text search."""

    def __init__(self, path: str | Path) -> None:
        """Open ``path``; SourceUnusable (an InputError) without libzim or a ZIM with a full-text index."""
        super().__init__()
        try:
            from libzim.reader import Archive
            from libzim.search import Query, Searcher
            from libzim.suggestion import SuggestionSearcher
        except ImportError as exc:
            raise SourceUnusable("reading a ZIM file needs libzim: pip install 'factjudge[zim]'") from exc
        self._query: type[Query] = Query
        self.path = Path(path)
        self.spec = WikiSpec("zim", str(path))
        self.name = self.path.name
        if not self.path.is_file():
            raise SourceUnusable(f"no ZIM file at {self.path}")
        try:
            self._zim: Archive = Archive(self.path)
        except RuntimeError as exc:
            raise SourceUnusable(f"{self.path} is not a readable ZIM file: {exc}") from exc
        if not self._zim.has_fulltext_index:
            raise SourceUnusable(f"{self.path} has no full-text index: use a ZIM built with one "
                             "(Kiwix's Wikipedia files have it)")
        self._searcher = Searcher(self._zim)
        self._suggester = SuggestionSearcher(self._zim)
        self._lock = threading.Lock()
        self.lang, self._wikipedia = self._edition()

    def _edition(self) -> tuple[str, bool]:
        """The file's language (ISO 639-1 when known) and whether it mirrors a Wikipedia."""
        def meta(name: str) -> str:
            keys = self._zim.metadata_keys
            return self._zim.get_metadata(name).decode("utf-8", "replace") if name in keys else ""

        name, language = meta("Name"), meta("Language").split(",")[0].strip()
        kiwix = re.match(r"wikipedia_([a-z]{2,3}(?:-[a-z]+)?)_", name)
        lang = kiwix.group(1) if kiwix else _ISO_639_1.get(language, language if len(language) == 2 else "")
        return lang, bool(kiwix) or "wikipedia.org" in meta("Source")

    def _count(self, query: str) -> int:
        return int(self._searcher.search(self._query().set_query(query)).getEstimatedMatches())

    def _found(self, query: str, count: int) -> list[str]:
        return list(self._searcher.search(self._query().set_query(query)).getResults(0, count))

    def _relaxed_search(self, query: str, language: str | None) -> list[str]:
        """Paths of the best articles for the largest set of the query's rarest terms that matches."""
        # Words only, lower-cased: no quote, sign or capital AND/OR of the user's text is an operator.
        terms = list(dict.fromkeys(tokenize(query, stopwords=True, lang=language)))[:MAX_TERMS]
        held = {term: self._count(term) for term in terms}
        ranked = sorted((t for t in terms if held[t]), key=lambda t: held[t])
        for size in range(len(ranked), 0, -1):
            paths = self._found(" ".join(ranked[:size]), ARTICLES)
            if paths:
                return paths
        return []

    def _entry(self, topic: str) -> Entry | None:
        """The entry titled ``topic``: by path, by title, else by a title suggestion that folds equal."""
        underscored = topic.replace(" ", "_")
        # Kiwix's files name articles "Title_with_underscores"; files made before 2021 put them under "A/".
        for path in (underscored, topic, f"A/{underscored}"):
            if self._zim.has_entry_by_path(path):
                return self._zim.get_entry_by_path(path)
        if self._zim.has_entry_by_title(topic):
            return self._zim.get_entry_by_title(topic)
        for path in self._suggester.suggest(topic).getResults(0, 5):
            entry = self._zim.get_entry_by_path(path)
            if fold(entry.title) == fold(topic):
                return entry
        return None

    def _html(self, entry: Entry) -> tuple[str, str] | None:
        """(title, HTML) of the article ``entry`` leads to, redirects followed; None if not HTML."""
        item = entry.get_item()
        if "html" not in item.mimetype:
            return None
        return item.title or entry.title, bytes(item.content).decode("utf-8", "replace")

    def find_article(self, title: str, language: str | None) -> Article | None:
        """The whole article titled ``title`` (a redirect followed, accents ignored), as text."""
        try:
            with self._lock:
                entry = self._entry(title)
                page = self._html(entry) if entry is not None else None
        except RuntimeError as exc:
            raise RetrievalError(f"reading {self.path} failed: {exc}") from exc
        if page is None:
            return None
        found, html = page
        return Article(found, html_to_text(html)[0], self.lang,
                       article_url(found, self.lang) if self._wikipedia else None)

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` passages for ``query`` from the topics' articles and the search's best."""
        pages: dict[str, str] = {}
        titled: list[str] = []
        try:
            with self._lock:
                for topic in topics:
                    entry = self._entry(topic)
                    page = self._html(entry) if entry is not None else None
                    if page is not None:
                        titled.append(page[0])
                        pages.setdefault(*page)
                    if len(titled) >= ARTICLES:
                        break
                for path in self._relaxed_search(query, language):
                    page = self._html(self._zim.get_entry_by_path(path))
                    if page is not None:
                        pages.setdefault(*page)
        except RuntimeError as exc:
            raise RetrievalError(f"reading {self.path} failed: {exc}") from exc
        articles = [Article(title, html_to_text(html)[0], self.lang,
                            article_url(title, self.lang) if self._wikipedia else None)
                    for title, html in pages.items()]
        # A topic reached through a redirect ("Spanish capital" -> Madrid) still counts as one.
        return rank_articles(query, articles, k, topics=[*topics, *titled], language=language,
                             source="wikipedia")
