"""Recall@k and hit rates against hand-computed values, and on the multilingual fixture KB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.retrieval.kb import KnowledgeBase
from factjudge.retrieval.metrics import hit_rate, recall_at_k

RANKED = [["a", "b", "c"], ["x", "y", "z"], ["p", "q", "r"]]
RELEVANT = [{"b", "d"}, {"x"}, set()]


def test_hand_computed_values() -> None:
    assert recall_at_k(RANKED, RELEVANT, 1) == pytest.approx((0 + 1) / 2)
    assert recall_at_k(RANKED, RELEVANT, 2) == pytest.approx((0.5 + 1) / 2)
    assert hit_rate(RANKED, RELEVANT, 1) == pytest.approx(0.5)
    assert hit_rate(RANKED, RELEVANT, 2) == pytest.approx(1.0)
    assert recall_at_k([["a"]], [set()], 1) is None
    with pytest.raises(ValueError):
        hit_rate(RANKED, RELEVANT[:2], 1)


def test_bm25_top1_on_the_multilingual_fixture(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "fixtures" / "kb_multilingual.jsonl"
    docs = [json.loads(line) for line in fixture.read_text(encoding="utf-8").splitlines() if line.strip()]
    with KnowledgeBase(tmp_path / "kb.sqlite") as kb:
        kb.add_documents(docs)
        queries = [(d["text"].split(".")[0], d["title"], d.get("lang", "")) for d in docs]
        ranked = [[(e.title, e.text[:20]) for e in kb.search_bm25(q, 5)] for q, _, _ in queries]
        relevant = [{(e.title, e.text[:20]) for e in kb.search_bm25(q, 50) if e.title == t
                     and q[:20] in e.text} for q, t, _ in queries]
    assert hit_rate(ranked, relevant, 1) == 1.0 and recall_at_k(ranked, relevant, 5) == 1.0
