"""The knowledge-base retriever is opened once per file and process, shared by threads."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from factjudge.retrieval.kb import KnowledgeBase
from factjudge.retrieval.sources import shared_retriever
from tests.retrieval.test_kb import DOCS


def test_one_retriever_per_knowledge_base_shared_by_threads_and_reopened_after_a_change(
        tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path) as kb:
        kb.add_documents(DOCS[:3])
    first = shared_retriever(path)
    assert shared_retriever(str(path)) is first
    query = DOCS[0]["title"]
    with ThreadPoolExecutor(4) as pool:  # a connection made in one thread, searched from four
        found = list(pool.map(lambda _: first.search(query, 2), range(8)))
    assert all(hits and hits[0].title == query for hits in found)

    with KnowledgeBase(path) as kb:
        kb.add_documents(DOCS[3:4])
    os.utime(path, ns=(0, path.stat().st_mtime_ns + 1))  # as a later write would
    again = shared_retriever(path)
    assert again is not first and again.search(DOCS[3]["title"], 1)[0].title == DOCS[3]["title"]
