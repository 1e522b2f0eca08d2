"""Evidence from a check's references: FELM's doc strategy, offline texts or fetched pages."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from factjudge.records import Evidence


def reference_evidence(
    query: str,
    refs: Sequence[str],
    ref_texts: Sequence[str] = (),
    *,
    allow_private: bool = False,
    cache_dir: Path | None = None,
) -> tuple[list[Evidence], list[str]]:
    """The most relevant 512-token chunk of each reference, and a message per reference that failed.

    Texts given with the references (FELM's shipped ``ref_contents``) stand in for the
    pages, so the same chunk selection runs with no network; otherwise pages are fetched.
    """
    from factjudge.retrieval.links import LinkFetcher, doc_evidence, doc_evidence_from_texts

    if ref_texts:
        urls = list(refs) + [""] * max(0, len(ref_texts) - len(refs))
        return doc_evidence_from_texts(query, list(ref_texts), urls[: len(ref_texts)]), []
    fetcher = LinkFetcher(cache_dir=cache_dir, allow_private=allow_private)
    return doc_evidence(query, list(refs), fetcher)
