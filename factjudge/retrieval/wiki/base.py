"""What every Wikipedia backend shares: the spec that names one, articles, and passage ranking.

A backend finds articles its own way (an index, a title lookup, a search API); then every
backend cuts the articles it found into passages and ranks them for the item with the same
BM25, articles named in the item's topics first, as FActScore does with its topic title. How an
item is read (its subject's article, or none) is ``reading``'s.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from factjudge.errors import InputError
from factjudge.records import Evidence
from factjudge.retrieval.bm25 import BM25Index
from factjudge.retrieval.chunker import chunk
from factjudge.retrieval.wiki.names import fold
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import stems

# The names ``--wiki`` takes: packaged, zim:PATH, factscore:PATH, api[:LANG or api.php URL].
WIKI_KINDS = ("packaged", "zim", "factscore", "api")
# Passages of an article: FActScore's passages are at most 256 RoBERTa tokens.
PASSAGE_TOKENS = 256
# Words are compared by their first letters when a passage's sentences are chosen: "discovered" and
# "discovery" meet.
_STEM = 6
# How many articles a backend reads before ranking their passages.
ARTICLES = 4


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
    if kind == "api" and arg.startswith(("http://", "https://")):
        _check_address(arg)
    return WikiSpec(kind, arg)


def _check_address(url: str) -> None:
    """An InputError in one line when ``url`` cannot be an api.php address ("http://[::1")."""
    try:
        parts = urlsplit(url)
        host, _ = parts.hostname, parts.port  # both raise ValueError on a malformed address
    except ValueError as exc:
        raise InputError(f"bad MediaWiki address {url!r} in --wiki api:{url}: {exc}") from None
    if not host:
        raise InputError(f"bad MediaWiki address {url!r} in --wiki api:{url}: it names no host")


@dataclass(frozen=True)
class Article:
    """One article a backend found: its title, text, language and where it lives."""

    title: str
    text: str
    lang: str = ""
    url: str | None = None


def article_url(title: str, lang: str = "en") -> str:
    """The address of ``title`` on Wikipedia in ``lang`` (what a person follows to check it)."""
    return f"https://{lang or 'en'}.wikipedia.org/wiki/{quote(title.replace(' ', '_'))}"


def excerpt(text: str, query: str, sentences: int = 3) -> str:
    """The sentences of a passage that bear on ``query``: its first (which names the subject) and
    those sharing most words with the query (a number twice: the sentence stating the item's value
    decides it), in their order, gaps marked "…". A word counts less the more of the passage's sentences
    say it: the subject's name is in most of them ("Japan" of "The capital of Japan is Osaka"), the word
    for what is asked in few ("Tokyo is the country's capital and largest city")."""
    parts = split_sentences(text)
    if len(parts) <= sentences:
        return text
    wanted = stems(query, _STEM)
    said = [wanted & stems(part, _STEM) for part in parts]
    spread = Counter(word for words in said for word in words)

    def shared(i: int) -> float:
        return sum((2 if word.isdigit() else 1) / spread[word] for word in said[i])

    best = sorted(range(1, len(parts)), key=lambda i: -shared(i))
    kept = sorted({0, *best[: sentences - 1]})
    out = parts[kept[0]]
    for before, i in itertools.pairwise(kept):
        out += (" " if i == before + 1 else " … ") + parts[i]
    return out


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
