"""``web``: a search agent (the judging model writes the queries) over a web search provider."""

from __future__ import annotations

from dataclasses import dataclass

from factjudge.agents.search_agent import search_web
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.resources import Resources
from factjudge.retrieval.web_search import SEARCH_PROVIDERS, SearchProvider, make_search_provider
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources.base import Config, Gathered, SourceType


@dataclass(frozen=True)
class WebSource:
    """The passages a search agent finds for the item in at most ``max_steps`` searches."""

    model: ChatModel
    provider: SearchProvider
    max_steps: int = 3
    owns_provider: bool = False  # made for this check (closed with it), not given by the caller
    name: str = "web"

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        """What the agent's searches found for ``item``."""
        found = search_web(item, model=self.model, provider=self.provider, k=k, max_steps=self.max_steps)
        return Gathered(tuple(found.evidence))

    def close(self) -> None:
        """Close the provider's connections when the source made it."""
        close = getattr(self.provider, "close", None)
        if self.owns_provider and callable(close):
            close()


def _open(config: Config, resources: Resources, model: ChatModel | None) -> WebSource:
    if model is None:
        raise InputError("evidence from web needs a model to write the searches")
    return WebSource(model, make_search_provider(config.search_provider), owns_provider=True)


def _check(config: Config, chosen: bool) -> None:
    if chosen and not config.search_provider:
        raise InputError(f"evidence from web needs --search-provider {'|'.join(SEARCH_PROVIDERS)}")
    if config.search_provider is not None and config.search_provider not in SEARCH_PROVIDERS:
        raise InputError(f"unknown search provider {config.search_provider!r}; "
                         f"choose from {', '.join(SEARCH_PROVIDERS)}")


SOURCE = SourceType(_open, _check)
