"""What every Wikipedia backend shares: the interface, the spec that names one, and passage ranking.

A backend finds articles its own way (an index, a title lookup, a search API); then every
backend cuts the articles it found into passages and ranks them for the item with the same
BM25, articles named in the item's topics first, as FActScore does with its topic title.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import quote

from factjudge.errors import InputError
from factjudge.records import Evidence
from factjudge.retrieval.bm25 import BM25Index
from factjudge.retrieval.chunker import chunk

# The names ``--wiki`` takes: packaged, zim:PATH, factscore:PATH, api[:LANG or api.php URL].
WIKI_KINDS = ("packaged", "zim", "factscore", "api")
# Passages of an article: FActScore's passages are at most 256 RoBERTa tokens.
PASSAGE_TOKENS = 256
# How many articles a backend reads before ranking their passages.
ARTICLES = 4
# Lower-case words that may join the capitalised words of one name ("Statue of Liberty").
_NAME_JOINERS = frozenset({"of", "the", "de", "del", "la", "le", "les", "du", "des", "von", "van",
                           "da", "di", "y", "and", "et", "for", "on", "in", "upon", "a"})
_WORD = re.compile(r"[\w'’.-]+", re.UNICODE)


@dataclass(frozen=True)
class WikiSpec:
    """A parsed ``--wiki`` value: the backend's kind and its argument (a path or a language)."""

    kind: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg else self.kind


def parse_wiki_spec(value: str) -> WikiSpec:
    """``packaged``, ``zim:PATH``, ``factscore:PATH`` or ``api[:LANG|URL]``; an InputError otherwise."""
    kind, _, arg = value.strip().partition(":")
    if kind not in WIKI_KINDS:
        raise InputError(f"unknown wiki source {value!r}; choose packaged, zim:PATH, factscore:PATH "
                         "or api[:LANG]")
    if kind in ("zim", "factscore") and not arg:
        raise InputError(f"the {kind} wiki source needs a file: --wiki {kind}:PATH")
    if kind == "packaged" and arg:
        raise InputError("the packaged wiki source takes no argument: --wiki packaged")
    if kind == "api" and arg and not (re.fullmatch(r"[a-z]{2,3}(-[a-z]+)?", arg)
                                      or arg.startswith(("http://", "https://"))):
        raise InputError(f"bad Wikipedia language {arg!r} in --wiki api:{arg}: a language code "
                         "(api:en, api:es) or a MediaWiki api.php address (api:https://…/w/api.php)")
    return WikiSpec(kind, arg)


@dataclass(frozen=True)
class Article:
    """One article a backend found: its title, text, language and where it lives."""

    title: str
    text: str
    lang: str = ""
    url: str | None = None


class WikiSource(Protocol):
    """A Wikipedia backend: the passages that bear on a text, best first."""

    spec: WikiSpec

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` passages for ``query``; articles titled like one of ``topics`` first."""
        ...


def article_url(title: str, lang: str = "en") -> str:
    """The address of ``title`` on Wikipedia in ``lang`` (what a person follows to check it)."""
    return f"https://{lang or 'en'}.wikipedia.org/wiki/{quote(title.replace(' ', '_'))}"


def fold(text: str) -> str:
    """A title as compared: case, accents and underscores ignored."""
    decomposed = unicodedata.normalize("NFKD", text.replace("_", " "))
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def title_candidates(texts: Iterable[str], limit: int = 24) -> list[str]:
    """Names an article might be titled by: runs of capitalised words in ``texts``, longest first.

    "The capital of Australia is Sydney." gives "Australia", "Sydney"; "Where is the Statue
    of Liberty?" gives "Statue of Liberty", "Statue", "Liberty". A sentence's first word counts
    only inside a longer run, since every sentence starts with a capital.
    """
    found: dict[str, None] = {}
    for text in texts:
        for sentence in re.split(r"(?<=[.!?。！？])\s+|\n+", text):
            words = _WORD.findall(sentence)
            run: list[str] = []
            for i, word in enumerate([*words, ""]):
                word = word.strip(".'’-")
                if word[:1].isupper() or (word[:1].isdigit() and run):
                    run.append(word)
                    continue
                if run and word.lower() in _NAME_JOINERS and i + 1 < len(words) \
                        and words[i + 1][:1].isupper():
                    run.append(word)
                    continue
                _add_runs(found, run, first=words[:1] == run[:1] if run else False)
                run = []
    return sorted(found, key=lambda t: -len(t.split()))[:limit]


def _add_runs(found: dict[str, None], run: list[str], first: bool) -> None:
    """Add ``run`` and its contiguous sub-runs that start and end on a capitalised word."""
    if not run or (first and len(run) == 1):
        return
    for size in range(len(run), 0, -1):
        for start in range(len(run) - size + 1):
            part = run[start : start + size]
            if part[0].lower() in _NAME_JOINERS or part[-1].lower() in _NAME_JOINERS:
                continue
            if first and start == 0 and size == 1:
                continue  # a lone sentence-initial word ("The", "It") is not a name
            found.setdefault(" ".join(part), None)


def rank_articles(query: str, articles: Sequence[Article], k: int, *, topics: Sequence[str] = (),
                  language: str | None = None, source: str = "wikipedia") -> list[Evidence]:
    """The ``k`` best passages of ``articles`` for ``query``, as evidence.

    Articles are cut into passages of at most ``PASSAGE_TOKENS`` tokens and ranked with
    BM25 against the query. Passages of an article titled like one of ``topics`` come
    before the others, as FActScore retrieves within its topic's article first; among
    the rest, passages in ``language`` come first, then the others by score.
    """
    if k < 1 or not articles:
        return []
    wanted = {fold(t) for t in topics}
    passages: list[tuple[Article, str]] = [
        (article, text) for article in articles for text in chunk(article.text, PASSAGE_TOKENS)]
    if not passages:
        return []
    index = BM25Index([f"{article.title}. {text}" for article, text in passages])
    ceiling = index.ceiling(query) or 1.0
    scored = index.scores(query)

    def rank(i: int) -> tuple[int, int, float, int]:
        article = passages[i][0]
        on_topic = fold(article.title) in wanted
        in_language = not language or not article.lang or article.lang == language
        return (not on_topic, not in_language, -scored[i], i)

    best = sorted(range(len(passages)), key=rank)
    return [Evidence(source=source, text=passages[i][1], url=passages[i][0].url,
                     title=passages[i][0].title, score=round(scored[i] / ceiling, 4))
            for i in best[:k] if scored[i] > 0 or fold(passages[i][0].title) in wanted]
