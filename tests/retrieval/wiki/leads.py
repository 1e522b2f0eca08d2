"""Packaged-summary files written from test leads, as the linking tests build a small Wikipedia."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects

# (title, language, description, category, lead), as the packaged summaries hold an article.
Lead = tuple[str, str, str, str, str]


def summary_files(folder: Path, leads: Sequence[Lead]) -> dict[str, Path]:
    """One summaries file a language (en, es, fr) in ``folder`` holding ``leads``."""
    files = {}
    for lang in ("en", "es", "fr"):
        path = folder / f"summaries_{lang}.json"
        path.write_text(json.dumps({t: {"title": t, "extract": lead, "description": d, "topic": c}
                                    for t, lg, d, c, lead in leads if lg == lang}), encoding="utf-8")
        files[lang] = path
    return files


def read_titles(wiki: PackagedWiki, question: str, answer: str, item: str) -> list[str | None]:
    """The titles of the passages ``item`` of ``answer`` is read in, in order."""
    reading = wiki.read(item, 4, subjects=Subjects.of(question, answer))
    return list(dict.fromkeys(ev.title for ev in reading.evidence))


def read_passages(wiki: PackagedWiki, question: str, answer: str, item: str) -> list[tuple[str | None, str]]:
    """The (title, text) of each passage ``item`` of ``answer`` is read in, in order."""
    reading = wiki.read(item, 4, subjects=Subjects.of(question, answer))
    return [(ev.title, ev.text) for ev in reading.evidence]
