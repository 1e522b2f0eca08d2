"""The evidence sources, by the name ``--evidence`` and a config's ``evidence`` give them.

Each is one module holding its ``Source`` and a ``SOURCE = SourceType(open, check)``; this
registry names them. The config checks a source's settings with its ``check`` when it is made
(``config.CheckConfig``), ``--evidence`` lists these names (``flags``), and the gatherer opens the
ones a plan reads and asks each for every item's passages (``checking.gather``). Adding a
source is a module and a line here (README, "Adding an evidence source").

The caller's context and the references' pages are not sources: they are read once and shared
by every item of a check (``checking.checker``), where a source is asked per item.
"""

from __future__ import annotations

from factjudge.sources import kb, llm, web, wiki
from factjudge.sources.base import Gathered, Source, SourceType, added_up

__all__ = ["SOURCES", "Gathered", "Source", "SourceType", "added_up"]

SOURCES: dict[str, SourceType] = {
    "kb": kb.SOURCE,
    "wiki": wiki.SOURCE,
    "web": web.SOURCE,
    "llm": llm.SOURCE,
}
