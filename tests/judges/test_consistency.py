"""Model-free scorers: tokenisation, ranges, and TRUE's token-F1 figures on BEGIN and Q²."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.eval.datasets import load_dataset
from factjudge.eval.metrics import roc_auc
from factjudge.judges import consistency

DATA = Path(__file__).parents[2].parent / "shared" / "data"


def auc_of(scorer: consistency.Scorer, name: str) -> float:
    path = DATA / name
    if not (path.exists() or path.with_name(f"{path.name}_consistent.csv").exists()):
        pytest.skip(f"{path} is not here")
    examples = load_dataset(path)
    labels = [e.response_label for e in examples]
    auc = roc_auc(labels, [1 - scorer(e.grounding, e.answer) for e in examples])
    assert auc is not None
    return 100 * auc


def test_token_f1_roc_auc_on_begin_is_about_83() -> None:
    assert auc_of(consistency.token_f1, "begin_dev_wow.tsv") == pytest.approx(83.2, abs=0.05)


def test_token_f1_roc_auc_on_q2_memnet_is_about_77() -> None:
    assert auc_of(consistency.token_f1, "q2_memnet") == pytest.approx(77.3, abs=0.05)


def test_bm25_beats_chance_on_both() -> None:
    assert auc_of(consistency.bm25_score, "begin_dev_wow.tsv") > 85
    assert auc_of(consistency.bm25_score, "q2_memnet") > 70


def test_token_f1_by_hand() -> None:
    # text 4 tokens, grounding 3, overlap 2: P 1/2, R 2/3
    expected = 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3)
    assert consistency.token_f1("the cat sat", "The cat ran away") == pytest.approx(expected)
    assert consistency.token_f1("a b", "a b") == 1.0
    assert consistency.token_f1("", "a") == 0.0 and consistency.token_f1("x", "y") == 0.0


def test_bm25_score_range_and_order() -> None:
    grounding = "Paris is the capital of France. The Seine flows through it. Lyon is a city."
    exact = consistency.bm25_score(grounding, "Paris is the capital of France")
    partial = consistency.bm25_score(grounding, "Paris is the capital of Italy")
    unrelated = consistency.bm25_score(grounding, "bananas grow quickly")
    assert 0.0 <= unrelated < partial < exact <= 1.0
    assert unrelated == 0.0
    assert consistency.bm25_score("One sentence only here.", "one sentence") > 0.3  # positive idf
    assert consistency.bm25_score("", "anything") == 0.0 and consistency.bm25_score("text", "") == 0.0
