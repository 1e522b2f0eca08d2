"""What an evidence source is: built for a check, asked for each item's passages, closed after.

A source is built by its ``SourceType.open`` from the check's config, the resources of whoever
runs the check (``resources.Resources``: indexes and files opened once and shared) and the
judging model (the web agent and generated knowledge ask it). For each item it is given the
answer's subjects (``retrieval.wiki.topic.Subjects``: what the answer is about, found once a
check), the passages wanted (``k``) and the items' language; it returns ``Gathered``: the
passages, why it has none when it can say (a note shown on the item's verdict) and, for a
source that reads by subject, its coverage (the result's coverage line). The registry
(``sources.SOURCES``) names every source; the config, the flags and the gatherer read it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from factjudge.llm.base import ChatModel
from factjudge.records import Coverage, Evidence
from factjudge.resources import Resources
from factjudge.retrieval.wiki.topic import Subjects

# A check's config.CheckConfig. config imports this registry to validate the sources it names, so
# sources read its fields (kb, wiki, search_provider …) without naming its class.
Config = Any


@dataclass(frozen=True)
class Gathered:
    """What the sources gave one item, and why one gave nothing when it said (an item's
    ``evidence_note``). From one source, also what it covered of the item (``coverage``): the
    gatherer adds these up over the answer."""

    evidence: tuple[Evidence, ...]
    note: str | None = None
    coverage: Coverage | None = None


class Source(Protocol):
    """Evidence for one check's items: the passages for each, best first."""

    @property
    def name(self) -> str:
        """The registry's name for it: kb, wiki, web, llm …"""
        ...

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        """Up to ``k`` passages for ``item`` (a claim or a sentence), the answer being about ``subjects``."""
        ...

    def close(self) -> None:
        """Release what it opened for itself (what the resources hold stays open for the next check)."""
        ...


def _nothing_to_check(config: Config, chosen: bool) -> None:
    """A source with no settings of its own."""


@dataclass(frozen=True)
class SourceType:
    """One evidence source as the registry holds it.

    ``open(config, resources, model)`` builds it for one check. ``check(config, chosen)`` refuses
    (an InputError) a config whose settings for it are wrong, and, when the config gathers from it
    (``chosen``), one that lacks what it needs: it runs when the config is made, before any call.
    """

    open: Callable[[Config, Resources, ChatModel | None], Source]
    check: Callable[[Config, bool], None] = _nothing_to_check


def added_up(covered: Sequence[Coverage]) -> Coverage | None:
    """The coverage of an answer from its items' (one source's, in order); None when none was read."""
    if not covered:
        return None
    without = tuple(dict.fromkeys(s for c in covered for s in c.without))
    return Coverage(covered[0].source, sum(c.items for c in covered), sum(c.with_article for c in covered),
                    sum(c.searched for c in covered), without)
