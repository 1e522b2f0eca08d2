"""Search agent (SAFE-style): the model writes queries, reads the results, and says when it has enough.

The Internet as a knowledge source, as in multilingual FActScore: one query, the
provider's hits, then ``Query: ...`` again or ``DONE``, for at most ``max_steps``
searches. Hits become ``Evidence(source="web")``, one per URL.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from factjudge.agents.calling import ask
from factjudge.errors import InputError, ParseError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import Evidence
from factjudge.retrieval.web_search import SearchHit, SearchProvider

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 300
StopReason = Literal["done", "max_steps", "unparseable"]


@dataclass(frozen=True)
class NextStep:
    """The model's decision: a query to run, or ``None`` when it has enough."""

    query: str | None


@dataclass(frozen=True)
class SearchStep:
    """One query and the hits it returned."""

    query: str
    hits: tuple[SearchHit, ...]


@dataclass(frozen=True)
class WebSearchResult:
    """Evidence found, the searches behind it, and why the agent stopped."""

    evidence: tuple[Evidence, ...]
    steps: tuple[SearchStep, ...]
    stop: StopReason


def parse_search_step(reply: str, *, first: bool, searched: Collection[str] = ()) -> NextStep:
    """Read ``Query: <query>`` or ``DONE`` (one line, nothing else); ParseError otherwise."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    if not lines:
        raise ParseError("the reply is empty")
    if len(lines) > 1:
        raise ParseError(f"expected exactly one line, got {len(lines)}")
    line = lines[0]
    if line.rstrip(".").upper() == "DONE":
        if first:
            raise ParseError("no search has been made yet, so a 'Query: ...' line is required")
        return NextStep(None)
    head, sep, rest = line.partition(":")
    if not sep or head.strip().lower() != "query":
        raise ParseError("expected a line 'Query: <search query>' or 'DONE'")
    query = rest.strip()
    if len(query) >= 2 and query[0] == query[-1] and query[0] in "\"'`":
        query = query[1:-1].strip()
    if not query:
        raise ParseError("the query after 'Query:' is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise ParseError(f"the query is longer than {MAX_QUERY_CHARS} characters")
    if query.casefold() in {q.casefold() for q in searched}:
        raise ParseError(f"the query {query!r} was already searched; write a different one or DONE")
    return NextStep(query)


def render_results(steps: Sequence[SearchStep]) -> str:
    """The searches so far, each query followed by its numbered hits."""
    if not steps:
        return "(no searches yet)"
    blocks = []
    for number, step in enumerate(steps, start=1):
        lines = [f"Query {number}: {step.query}"]
        if not step.hits:
            lines.append("(no results)")
        for rank, hit in enumerate(step.hits, start=1):
            lines.append(f"[{rank}] {hit.title} ({hit.url})")
            if hit.snippet:
                lines.append(hit.snippet)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def url_key(url: str) -> str:
    """A URL without fragment, trailing slash or case in scheme and host, for deduplication."""
    parts = urlsplit(url.strip())
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, ""))


def hits_to_evidence(steps: Sequence[SearchStep]) -> tuple[Evidence, ...]:
    """Every hit once (first occurrence of its URL wins), in the order found."""
    seen: set[str] = set()
    evidence: list[Evidence] = []
    for step in steps:
        for hit in step.hits:
            key = url_key(hit.url)
            if key in seen or not (hit.snippet or hit.title):
                continue
            seen.add(key)
            evidence.append(Evidence(source="web", text=hit.snippet or hit.title, url=hit.url,
                                     title=hit.title or None))
    return tuple(evidence)


def search_web(
    claim_text: str,
    *,
    model: ChatModel,
    provider: SearchProvider,
    k: int = 5,
    max_steps: int = 3,
    max_attempts: int = 3,
) -> WebSearchResult:
    """Let the model search for evidence on ``claim_text``: at most ``max_steps`` queries of ``k`` hits.

    A reply that stays unreadable after ``max_attempts`` ends the search with what was
    found so far (the transcript carries the error); a provider failure raises RetrievalError.
    """
    if max_steps < 1:
        raise InputError(f"max_steps must be at least 1, got {max_steps}")
    prompt = load_prompt("search_query")
    steps: list[SearchStep] = []
    stop: StopReason = "max_steps"
    while len(steps) < max_steps:
        asked = ask(
            model,
            prompt,
            {"statement": fence("statement", claim_text), "results": fence("results", render_results(steps))},
            GenerationParams(max_tokens=64),
            partial(parse_search_step, first=not steps, searched=[s.query for s in steps]),
            step="search",
            max_attempts=max_attempts,
        )
        if asked.value is None:
            log.warning("search agent: no readable query after %d attempts for %r", max_attempts, claim_text)
            stop = "unparseable"
            break
        if asked.value.query is None:
            stop = "done"
            break
        query = asked.value.query
        steps.append(SearchStep(query, tuple(provider.search(query, k))))
    return WebSearchResult(hits_to_evidence(steps), tuple(steps), stop)
