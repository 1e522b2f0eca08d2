"""The reworded true sentences (benchmarks/data/true_reworded.jsonl) rest on leads that say them: each
row's lead sentence is in its article's packaged lead, and the sentence is not that lead sentence copied."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "true_reworded.jsonl"


def test_every_row_names_a_lead_sentence_of_its_article_and_says_it_otherwise() -> None:
    from factjudge.retrieval.wiki.installed import packaged_installed
    from factjudge.retrieval.wiki.packaged import data_files

    if not packaged_installed():
        pytest.skip("the packaged Wikipedia (the wiki extra) is not installed")
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    leads = {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in data_files().items()}
    assert Counter(r["lang"] for r in rows) == {"en": 16, "es": 16, "fr": 16}
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["label"] is True and row["question"].strip()
        assert row["lead_sentence"] in leads[row["lang"]][row["title"]]["extract"], row["id"]
        assert row["item"] not in row["lead_sentence"], row["id"]
