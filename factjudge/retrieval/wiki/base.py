"""What every Wikipedia backend shares: the interface, the spec that names one, and passage ranking.

A backend finds articles its own way (an index, a title lookup, a search API); then every
backend cuts the articles it found into passages and ranks them for the item with the same
BM25, articles named in the item's topics first, as FActScore does with its topic title.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import quote

from factjudge.errors import InputError
from factjudge.records import Evidence
from factjudge.retrieval.bm25 import BM25Index
from factjudge.retrieval.chunker import chunk
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import stopwords_for, tokenize

# The names ``--wiki`` takes: packaged, zim:PATH, factscore:PATH, api[:LANG or api.php URL].
WIKI_KINDS = ("packaged", "zim", "factscore", "api")
# Passages of an article: FActScore's passages are at most 256 RoBERTa tokens.
PASSAGE_TOKENS = 256
# How many articles a backend reads before ranking their passages.
ARTICLES = 4
# Lower-case words that may join the capitalised words of one name ("Statue of Liberty").
_NAME_JOINERS = frozenset({"of", "the", "de", "del", "la", "le", "les", "du", "des", "von", "van",
                           "da", "di", "y", "and", "et"})
# Words, and single punctuation marks, which end a name ("However, Paris" is two).
_WORD = re.compile(r"[\w'’.-]+|[^\w\s]", re.UNICODE)


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
    """Names an article might be titled by: whole runs of capitalised words in ``texts``.

    "The capital of Australia is Sydney." gives "Australia", "Sydney"; "Where is the Statue
    of Liberty?" gives "Statue of Liberty"; "Walt Disney's body" gives "Walt Disney". Every
    sentence starts with a capital, so a sentence's first word alone counts only when it is
    not a stop word ("Canberra was founded…", not "The…" or "It…").
    """
    found = dict.fromkeys(" ".join(run) for run in _runs(texts))
    return list(found)[:limit]


def name_parts(texts: Iterable[str], limit: int = 24) -> list[str]:
    """The parts of the longer names in ``texts``: "Nile" of "Nile River", "Disney" of "Walt Disney"."""
    whole = set(title_candidates(texts, limit=1000))
    found: dict[str, None] = {}
    for run in _runs(texts):
        for size in range(len(run) - 1, 0, -1):
            for start in range(len(run) - size + 1):
                part = run[start : start + size]
                if part[0].lower() not in _NAME_JOINERS and part[-1].lower() not in _NAME_JOINERS:
                    found.setdefault(" ".join(part), None)
    return [name for name in found if name not in whole][:limit]


def noun_titles(texts: Iterable[str], limit: int = 24) -> list[str]:
    """The lower-case words of ``texts`` as an encyclopedia titles them: "mammals" → "Mammal"."""
    found: dict[str, None] = {}
    for text in texts:
        for word in (w.strip(".'’-") for w in _WORD.findall(text)):
            if word.islower() and len(word) > 3 and word not in stopwords_for(None):
                singular = re.sub(r"(?<=[^s])s$", "", word)
                found.setdefault(singular[:1].upper() + singular[1:], None)
    return list(found)[:limit]


def _runs(texts: Iterable[str]) -> Iterator[list[str]]:
    """Runs of capitalised words (joined by "of", "de" …), without a leading stop word or a final 's."""
    for text in texts:
        for sentence in re.split(r"(?<=[.!?。！？])\s+|\n+", text):
            words = _WORD.findall(sentence)
            run: list[str] = []
            for i, word in enumerate([*words, ""]):
                word = re.sub(r"['’]s$", "", word.strip(".'’-"))
                if word[:1].isupper() or (word[:1].isdigit() and run):
                    run.append(word)
                    continue
                if run and word.lower() in _NAME_JOINERS and i + 1 < len(words) \
                        and words[i + 1][:1].isupper():
                    run.append(word)
                    continue
                if run and words[:1] and run[0] == words[0].strip(".'’-") \
                        and run[0].lower() in stopwords_for(None):
                    run = run[1:]  # "The Eiffel Tower" → "Eiffel Tower"; a lone "It" → nothing
                while run and run[-1].lower() in _NAME_JOINERS:
                    run.pop()
                if run:
                    yield run
                run = []


def excerpt(text: str, query: str, sentences: int = 3) -> str:
    """The sentences of a passage that bear on ``query``: its first (which names the subject) and
    those sharing most words with the query, in their order, gaps marked "…"."""
    parts = split_sentences(text)
    if len(parts) <= sentences:
        return text
    wanted = set(tokenize(query, stopwords=True))
    best = sorted(range(1, len(parts)), key=lambda i: -len(wanted & set(tokenize(parts[i], stopwords=True))))
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
