"""A Wikipedia edition's MediaWiki API (``api``, ``api:es``, ``api:https://host/w/api.php``).

An item is read in its subject's whole article (``reading.TopicReader``): one request for the
article's plain text, its redirect followed. An answer that names nothing is searched for: one
request asks which of the item's names are articles (redirects followed) and searches
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar
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
from factjudge.retrieval.wiki.reading import TopicReader
from factjudge.text.tokenize import tokenize
from factjudge.version import package_version

# Wikimedia asks for serial, unhurried requests; a few a second is well inside that.
PER_SECOND = 3.0
# Titles the API takes in one request.
MAX_TITLES = 50

T = TypeVar("T")


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


class MalformedReply(ValueError):
    """A reply whose JSON is not shaped as the API documents it."""


def _entries(query: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The objects of ``query[key]``: a list (``formatversion=2``) or a dict by id (version 1)."""
    value = query.get(key, [])
    entries = list(value.values()) if isinstance(value, dict) else value
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise MalformedReply(f"query.{key} holds {_shown(value)}, not a list of objects")
    return entries


def _field(entry: dict[str, Any], name: str, where: str) -> str:
    """``entry[name]`` as a non-empty string, or MalformedReply naming what came instead."""
    value = entry.get(name)
    if not isinstance(value, str) or not value:
        raise MalformedReply(f"an entry of query.{where} has {name} {_shown(value)}")
    return value


def _shown(value: object) -> str:
    """A value of a bad reply as shown in one line: its start, never the whole reply."""
    try:
        text = " ".join(json.dumps(value, ensure_ascii=False, default=str).split())
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= 60 else text[:59] + "…"


class MediaWikiApi(TopicReader):
    """Passages of a MediaWiki's articles: the subject's whole article, else the search's best."""

    def __init__(self, spec_arg: str = "", *, cache_dir: Path | bool | None = True,
                 allow_private: bool = False, allow_loopback: bool = False,
                 timeout: float = 10.0, per_second: float = PER_SECOND) -> None:
        """Name the edition (``""``/``en``, ``es``, or an api.php address); InputError if malformed.

        ``cache_dir`` keeps replies (``page_cache_dir()`` when True; False or None: not kept).
        """
        super().__init__()
        self.spec: WikiSpec = parse_wiki_spec(f"api:{spec_arg}" if spec_arg else "api")
        self.endpoint, self.lang = endpoint(spec_arg)
        self.name = urlsplit(self.endpoint).hostname or self.endpoint
        folder = page_cache_dir() if cache_dir is True else cache_dir or None
        self._fetcher = LinkFetcher(
            cache_dir=folder, timeout=timeout, allow_private=allow_private,
            allow_loopback=allow_loopback, user_agent=user_agent(),
            content_types=frozenset({"application/json"}),
            pace=shared_limiter("mediawiki", self.endpoint, per_second).wait)

    def close(self) -> None:
        """Nothing to release: each fetch opens and closes its own connection (``links.LinkFetcher``)."""

    def _ask(self, read: Callable[[dict[str, Any]], T], **params: str) -> T:
        """What ``read`` takes from the ``query`` part of the API's reply to ``params``; RetrievalError
        in one line on any failure, a malformed reply's included (and such a reply is not kept)."""
        fixed = {"action": "query", "format": "json", "formatversion": "2"}
        url = f"{self.endpoint}?{urlencode({**fixed, **params})}"
        try:
            reply = json.loads(self._fetcher.fetch(url).text)
        except RetrievalError as exc:
            raise RetrievalError(f"MediaWiki API {self.endpoint}: {exc}") from exc
        except ValueError as exc:
            self._fetcher.forget(url)
            raise RetrievalError(f"MediaWiki API {self.endpoint} did not answer JSON") from exc
        except RecursionError:  # arrays in arrays deeper than Python's JSON reader recurses
            self._fetcher.forget(url)
            raise RetrievalError(f"MediaWiki API {self.endpoint}: a malformed reply (nested too deeply)") \
                from None
        if not isinstance(reply, dict) or "error" in reply:
            self._fetcher.forget(url)  # an error (rate limited, bad request) must not be kept
            error = reply.get("error") if isinstance(reply, dict) else None
            info = (error.get("info") or error.get("code")) if isinstance(error, dict) else None
            shown = " ".join(str(info or "an unexpected reply").split())
            raise RetrievalError(f"MediaWiki API {self.endpoint}: {shown}")
        query = reply.get("query", {})
        try:
            if not isinstance(query, dict):
                raise MalformedReply(f"query holds {_shown(query)}, not an object")
            return read(query)
        except MalformedReply as exc:
            self._fetcher.forget(url)
            raise RetrievalError(f"MediaWiki API {self.endpoint}: a malformed reply ({exc})") from None

    def _titles_and_hits(self, topics: Sequence[str], terms: list[str]) -> tuple[list[str], list[str]]:
        """The topics that are articles (as titled there, topics' order) and the search's titles."""
        params: dict[str, str] = {}
        if topics:
            params |= {"titles": "|".join(t.replace("|", " ") for t in topics[:MAX_TITLES]),
                       "prop": "info", "redirects": "1"}
        if terms:
            params |= {"list": "search", "srsearch": " ".join(terms), "srlimit": str(ARTICLES),
                       "srnamespace": "0", "srprop": ""}

        def read(query: dict[str, Any]) -> tuple[dict[str, str], set[str], list[str]]:
            moved = {_field(m, "from", key): _field(m, "to", key)
                     for key in ("normalized", "redirects") for m in _entries(query, key)}
            present = {_field(p, "title", "pages") for p in _entries(query, "pages")
                       if "missing" not in p and "invalid" not in p}
            return moved, present, _hits(query)

        moved, present, hits = self._ask(read, **params)
        titled: list[str] = []
        for topic in topics[:MAX_TITLES]:
            title = moved.get(topic, topic)
            title = moved.get(title, title)  # a normalised title may itself redirect
            if title in present and title not in titled:
                titled.append(title)
        if not hits and len(terms) > 1:
            hits = self._ask(_hits, list="search", srsearch=" OR ".join(terms), srlimit=str(ARTICLES),
                             srnamespace="0", srprop="")
        return titled[:ARTICLES], hits

    def _article(self, title: str) -> Article | None:
        """The plain text of the article ``title`` (None if it has none), its redirect followed."""
        def read(query: dict[str, Any]) -> dict[str, Any]:
            pages = _entries(query, "pages")
            return pages[0] if pages else {}

        page = self._ask(read, prop="extracts|info", inprop="url", explaintext="1", exsectionformat="plain",
                         redirects="1", titles=title)
        extract = page.get("extract")
        text = extract.strip() if isinstance(extract, str) else ""
        if not text:
            return None
        found = page.get("title")
        title = found if isinstance(found, str) and found else title
        url = page.get("fullurl")
        if not (isinstance(url, str) and url.startswith(("http://", "https://"))):
            url = article_url(title, self.lang) if self.lang else None
        return Article(title, text, self.lang, url)

    def find_article(self, title: str, language: str | None) -> Article | None:
        """The whole article titled ``title`` on the edition, its redirect followed."""
        return self._article(title)

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


def _hits(query: dict[str, Any]) -> list[str]:
    """The titles a ``list=search`` reply found."""
    return [_field(hit, "title", "search") for hit in _entries(query, "search")]
