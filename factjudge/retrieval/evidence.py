"""Evidence from a check's references: FELM's doc strategy, offline texts or fetched pages."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from factjudge.environment import pages_dir
from factjudge.records import Evidence


def page_cache_dir(call_cache: str | Path | None = None) -> Path:
    """Where fetched reference pages are kept: ``$FACTJUDGE_PAGES``, else ``pages/`` beside the call cache."""
    return pages_dir(call_cache)


def reference_evidence(
    query: str,
    refs: Sequence[str],
    ref_texts: Sequence[str] = (),
    *,
    allow_private: bool = False,
    cache_dir: Path | bool | None = True,
) -> tuple[list[Evidence], list[str]]:
    """The most relevant 512-token chunk of each reference, and a message per reference that failed.

    Texts given with the references (FELM's shipped ``ref_contents``) stand in for the
    pages, so the same chunk selection runs with no network; otherwise pages are fetched,
    and kept on disk in ``cache_dir`` (``page_cache_dir()`` by default; False or None: not kept).
    """
    from factjudge.retrieval.links import LinkFetcher, doc_evidence, doc_evidence_from_texts

    if ref_texts:
        urls = list(refs) + [""] * max(0, len(ref_texts) - len(refs))
        return doc_evidence_from_texts(query, list(ref_texts), urls[: len(ref_texts)]), []
    folder = page_cache_dir() if cache_dir is True else cache_dir or None
    fetcher = LinkFetcher(cache_dir=folder, allow_private=allow_private)
    return doc_evidence(query, list(refs), fetcher)
