"""A Wikipedia edition's MediaWiki API (``api``, ``api:es``, ``api:https://host/w/api.php``).

One request asks which of the item's topics are articles (redirects followed) and searches
the query's words; a search that ANDs them all and finds nothing is asked again with OR.
Then each article's plain text comes in a request of its own (the API returns one whole
extract per request). Requests go through ``LinkFetcher``: its address checks, size cap and
deadline, a descriptive User-Agent as Wikimedia asks, one rate limit per endpoint shared by
every thread, and replies kept on disk so the same question sends no second request.
This sends the user's text to a third party: it is never on unless asked for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from factjudge.errors import RetrievalError
from factjudge.records import Evidence
from factjudge.retrieval.evidence import page_cache_dir
from factjudge.retrieval.links import LinkFetcher
from factjudge.retrieval.web_search.rate_limit import shared_limiter
from factjudge.retrieval.wiki.base import (
    ARTICLES,
    Article,
    WikiSpec,
    article_url,
    parse_wiki_spec,
    rank_articles,
)
from factjudge.text.tokenize import tokenize
from factjudge.version import package_version

# Wikimedia asks for serial, unhurried requests; a few a second is well inside that.
PER_SECOND = 3.0
# Titles the API takes in one request.
MAX_TITLES = 50


def user_agent() -> str:
    """The User-Agent sent: the tool, its version and what it does, as Wikimedia's policy asks."""
    return f"factjudge/{package_version()} (fact-checking tool; evidence from Wikipedia) httpx"


def endpoint(arg: str) -> tuple[str, str]:
    """The api.php address of a ``--wiki api`` argument and its edition's language ("" if unknown)."""
    if not arg.startswith(("http://", "https://")):
        lang = arg or "en"
        return f"https://{lang}.wikipedia.org/w/api.php", lang
    host = urlsplit(arg).hostname or ""
    wikipedia = re.fullmatch(r"([a-z]{2,3}(?:-[a-z]+)?)\.(?:m\.)?wikipedia\.org", host)
    return arg, wikipedia.group(1) if wikipedia else ""


class MediaWikiApi:
    """Passages of a MediaWiki's articles: the topics' first, then the search's best."""

    def __init__(self, spec_arg: str = "", *, cache_dir: Path | bool | None = True,
                 allow_private: bool = False, allow_loopback: bool = False,
                 timeout: float = 10.0, per_second: float = PER_SECOND) -> None:
        """Name the edition (``""``/``en``, ``es``, or an api.php address); InputError if malformed.

        ``cache_dir`` keeps replies (``page_cache_dir()`` when True; False or None: not kept).
        """
        self.spec: WikiSpec = parse_wiki_spec(f"api:{spec_arg}" if spec_arg else "api")
        self.endpoint, self.lang = endpoint(spec_arg)
        folder = page_cache_dir() if cache_dir is True else cache_dir or None
        self._fetcher = LinkFetcher(
            cache_dir=folder, timeout=timeout, allow_private=allow_private,
            allow_loopback=allow_loopback, user_agent=user_agent(),
            content_types=frozenset({"application/json"}),
            pace=shared_limiter("mediawiki", self.endpoint, per_second).wait)

    def _ask(self, **params: str) -> dict[str, Any]:
        """The ``query`` part of the API's reply to ``params``; RetrievalError on any failure."""
        fixed = {"action": "query", "format": "json", "formatversion": "2"}
        url = f"{self.endpoint}?{urlencode({**fixed, **params})}"
        try:
            reply = json.loads(self._fetcher.fetch(url).text)
        except RetrievalError as exc:
            raise RetrievalError(f"MediaWiki API {self.endpoint}: {exc}") from exc
        except ValueError as exc:
            self._fetcher.forget(url)
            raise RetrievalError(f"MediaWiki API {self.endpoint} did not answer JSON") from exc
        if not isinstance(reply, dict) or "error" in reply:
            self._fetcher.forget(url)  # an error (rate limited, bad request) must not be kept
            error = reply.get("error") if isinstance(reply, dict) else None
            info = (error.get("info") or error.get("code")) if isinstance(error, dict) else None
            shown = " ".join(str(info or "an unexpected reply").split())
            raise RetrievalError(f"MediaWiki API {self.endpoint}: {shown}")
        query = reply.get("query", {})
        return query if isinstance(query, dict) else {}

    def _titles_and_hits(self, topics: Sequence[str], terms: list[str]) -> tuple[list[str], list[str]]:
        """The topics that are articles (as titled there, topics' order) and the search's titles."""
        params: dict[str, str] = {}
        if topics:
            params |= {"titles": "|".join(t.replace("|", " ") for t in topics[:MAX_TITLES]),
                       "prop": "info", "redirects": "1"}
        if terms:
            params |= {"list": "search", "srsearch": " ".join(terms), "srlimit": str(ARTICLES),
                       "srnamespace": "0", "srprop": ""}
        query = self._ask(**params)
        moved = {m["from"]: m["to"] for key in ("normalized", "redirects") for m in query.get(key, [])}
        present = {p["title"] for p in query.get("pages", []) if "missing" not in p and "invalid" not in p}
        titled: list[str] = []
        for topic in topics[:MAX_TITLES]:
            title = moved.get(topic, topic)
            title = moved.get(title, title)  # a normalised title may itself redirect
            if title in present and title not in titled:
                titled.append(title)
        hits = [hit["title"] for hit in query.get("search", [])]
        if not hits and len(terms) > 1:
            retry = self._ask(list="search", srsearch=" OR ".join(terms), srlimit=str(ARTICLES),
                              srnamespace="0", srprop="")
            hits = [hit["title"] for hit in retry.get("search", [])]
        return titled[:ARTICLES], hits

    def _article(self, title: str) -> Article | None:
        """The plain text of the article ``title`` (None if it has none)."""
        pages = self._ask(prop="extracts|info", inprop="url", explaintext="1", exsectionformat="plain",
                          redirects="1", titles=title).get("pages", [])
        page = pages[0] if pages else {}
        text = str(page.get("extract") or "").strip()
        if not text:
            return None
        title = str(page.get("title") or title)
        url = page.get("fullurl") or (article_url(title, self.lang) if self.lang else None)
        return Article(title, text, self.lang, url)

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` passages for ``query``; RetrievalError when the API cannot be asked."""
        # Words only, lower-cased: quotes, signs, "intitle:" or a capital OR of the user's
        # text would be search syntax.
        terms = list(dict.fromkeys(tokenize(query, stopwords=True, lang=language)))
        if not topics and not terms:
            return []
        titled, hits = self._titles_and_hits(list(topics), terms)
        articles = [a for a in map(self._article, dict.fromkeys([*titled, *hits[:ARTICLES]])) if a]
        return rank_articles(query, articles, k, topics=[*topics, *titled], language=language,
                             source="wikipedia")
