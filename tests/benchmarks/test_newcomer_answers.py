"""The newcomer's short answers (benchmarks/data/newcomer_answers.jsonl) are judged sentence by sentence:
each row's sentences are its segments, one gold label each, and a false one says what is right."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "newcomer_answers.jsonl"


def test_every_answer_has_a_label_a_sentence_and_the_right_value_of_a_false_one() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    assert Counter(r["lang"] for r in rows) == {"en": 192, "es": 192, "fr": 192}
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["question"].strip() and row["segments"], row["id"]
        assert len(row["segments"]) == len(row["labels"]), row["id"]
        assert all(isinstance(label, bool) for label in row["labels"]), row["id"]
        # A false sentence says what the truth is, for the reader who checks the label.
        assert all(row["labels"]) or row["right"].strip(), row["id"]
