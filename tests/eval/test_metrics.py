"""Metrics against hand-computed values and against scikit-learn / scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.metrics import (
    balanced_accuracy_score,
    cohen_kappa_score,
    precision_recall_fscore_support,
    roc_auc_score,
)

from factjudge.eval import metrics


@pytest.fixture()
def rng() -> np.random.Generator:
    return np.random.default_rng(7)


# ---------------------------------------------------------------- classification


def test_balanced_accuracy_by_hand() -> None:
    gold = [True, True, False, False, False, False]
    pred = [True, False, False, False, False, True]
    # recall of errors 1/2, of correct items 3/4
    assert metrics.balanced_accuracy(gold, pred) == pytest.approx((0.5 + 0.75) / 2)


def test_balanced_accuracy_matches_sklearn(rng: np.random.Generator) -> None:
    for _ in range(20):
        gold = rng.random(50) < 0.3
        pred = rng.random(50) < 0.5
        expected = balanced_accuracy_score(gold, pred)
        assert metrics.balanced_accuracy(list(gold), list(pred)) == pytest.approx(expected)


def test_balanced_accuracy_single_class_and_empty() -> None:
    assert metrics.balanced_accuracy([True, True, True], [True, False, True]) == pytest.approx(2 / 3)
    assert metrics.balanced_accuracy([], []) is None
    with pytest.raises(ValueError):
        metrics.balanced_accuracy([True], [True, False])


def test_error_prf_by_hand_and_sklearn(rng: np.random.Generator) -> None:
    prf = metrics.error_prf([True, True, False, False], [True, False, True, False])
    assert prf == (0.5, 0.5, 0.5, 2)
    assert metrics.error_prf([False, False], [False, False]) == (0.0, 0.0, 0.0, 0)
    for _ in range(20):
        gold, pred = rng.random(40) < 0.3, rng.random(40) < 0.4
        p, r, f, _ = precision_recall_fscore_support(gold, pred, average="binary", pos_label=True,
                                                     zero_division=0)
        got = metrics.error_prf(list(gold), list(pred))
        assert (got.precision, got.recall, got.f1) == pytest.approx((p, r, f))


# ---------------------------------------------------------------- ranking


def test_roc_auc_by_hand() -> None:
    # inconsistent items (label 0) have error scores 0.9 and 0.4; consistent 0.4 and 0.1
    labels, scores = [0, 0, 1, 1], [0.9, 0.4, 0.4, 0.1]
    # pairs (inconsistent, consistent): 0.9>0.4 1, 0.9>0.1 1, 0.4=0.4 0.5, 0.4>0.1 1 → 3.5 / 4
    assert metrics.roc_auc(labels, scores) == pytest.approx(0.875)


def test_roc_auc_matches_sklearn_with_ties(rng: np.random.Generator) -> None:
    for _ in range(20):
        labels = rng.random(60) < 0.5
        scores = np.round(rng.random(60), 1)  # many ties
        expected = roc_auc_score(~labels, scores)
        assert metrics.roc_auc(list(labels), list(scores)) == pytest.approx(expected)


def test_roc_auc_single_class_is_none() -> None:
    assert metrics.roc_auc([1, 1, 1], [0.2, 0.3, 0.1]) is None
    assert metrics.roc_auc([], []) is None
    with pytest.raises(ValueError):
        metrics.roc_auc([0, 1], [0.1, float("nan")])


def test_tune_threshold_and_accuracy() -> None:
    labels = [0, 0, 0, 1, 1, 1]
    scores = [0.9, 0.8, 0.3, 0.4, 0.2, 0.1]
    threshold = metrics.tune_threshold(labels, scores)
    # ≥0.3: TPR 1, FPR 1/3 → sqrt(2/3); ≥0.8: TPR 2/3, FPR 0 → sqrt(2/3) too; ties keep the lower.
    assert threshold == 0.3
    assert metrics.accuracy_at(labels, scores, threshold) == pytest.approx(5 / 6)
    assert metrics.accuracy_at(labels, scores, 0.85) == pytest.approx(4 / 6)
    assert metrics.accuracy_at([], [], 0.5) is None
    perfect = metrics.tune_threshold([0, 1], [0.7, 0.2])
    assert perfect == 0.7 and metrics.accuracy_at([0, 1], [0.7, 0.2], perfect) == 1.0


# ---------------------------------------------------------------- FActScore


def test_factscore_with_and_without_penalty() -> None:
    facts = [[True, True, False], [True] * 10, []]
    summary = metrics.factscore(facts, abstained=[False, False, True])
    first = 2 / 3
    assert summary.score_without_penalty == pytest.approx((first + 1) / 2)
    assert summary.score == pytest.approx((first * math.exp(1 - 10 / 3) + 1) / 2)
    assert summary.abstention_rate == pytest.approx(1 / 3)
    assert summary.facts_per_response == pytest.approx(6.5)
    assert (summary.responses, summary.responding) == (3, 2)
    assert metrics.factscore([[True, False]], gamma=0).score == 0.5
    empty = metrics.factscore([[]])
    assert empty.score is None and empty.abstention_rate == 1.0


def test_scoring_confusion() -> None:
    gold = [True, True, False, False, True]
    pred = [True, False, True, False, True]
    conf = metrics.scoring_confusion(gold, pred)
    assert conf is not None
    assert (conf.tp, conf.fn, conf.fp, conf.tn) == pytest.approx((0.4, 0.2, 0.2, 0.2))
    assert conf.accuracy == pytest.approx(0.6)
    assert conf.estimation_error == pytest.approx(0.0)
    nested = metrics.scoring_confusion([[True, False], [True]], [[True, True], [True]])
    assert nested is not None
    assert nested.gold_factscore == pytest.approx(0.75) and nested.pred_factscore == 1.0
    assert nested.estimation_error == pytest.approx(0.25)  # the scorer overestimates
    assert metrics.scoring_confusion([], []) is None


# ---------------------------------------------------------------- resampling


def test_bootstrap_ci_is_reproducible_and_brackets_the_estimate(rng: np.random.Generator) -> None:
    labels = list(rng.random(200) < 0.5)
    scores = [0.3 * (not y) + float(rng.random()) for y in labels]
    auc = metrics.roc_auc(labels, scores)
    low, high = metrics.bootstrap_ci(metrics.roc_auc, labels, scores, n=300, seed=1)
    assert low is not None and high is not None and auc is not None
    assert low < auc < high and high - low < 0.2
    assert metrics.bootstrap_ci(metrics.roc_auc, labels, scores, n=300, seed=1) == (low, high)
    assert metrics.bootstrap_ci(metrics.roc_auc, [1, 1], [0.1, 0.2], n=50) == (None, None)
    assert metrics.bootstrap_ci(metrics.roc_auc, [], [], n=50) == (None, None)


def test_paired_bootstrap(rng: np.random.Generator) -> None:
    gold = list(rng.random(200) < 0.4)
    good = [g if rng.random() < 0.9 else not g for g in gold]
    bad = [g if rng.random() < 0.6 else not g for g in gold]
    assert metrics.paired_bootstrap(metrics.balanced_accuracy, gold, good, bad, n=300) < 0.01
    assert metrics.paired_bootstrap(metrics.balanced_accuracy, gold, bad, good, n=300) < 0.01
    assert metrics.paired_bootstrap(metrics.balanced_accuracy, gold, good, good, n=50) == 1.0
    close = [g if rng.random() < 0.88 else not g for g in gold]
    assert metrics.paired_bootstrap(metrics.balanced_accuracy, gold, good, close, n=300) > 0.05


# ---------------------------------------------------------------- agreement and ensembles


def test_cross_language_agreement_matches_sklearn(rng: np.random.Generator) -> None:
    a = list(rng.random(80) < 0.6)
    b = [x if rng.random() < 0.8 else not x for x in a]
    agreement = metrics.cross_language_agreement(a, b)
    assert agreement.share == pytest.approx(np.mean(np.array(a) == np.array(b)))
    assert agreement.kappa == pytest.approx(cohen_kappa_score(a, b))
    with_none = metrics.cross_language_agreement([True, None, False], [True, True, True])
    assert with_none.items == 2 and with_none.share == 0.5
    assert metrics.cross_language_agreement([True, True], [True, True]).kappa is None
    # observed 3/4, chance 1/2 * 1/4 + 1/2 * 3/4 = 1/2: kappa (3/4 - 1/2) / (1 - 1/2) = 1/2
    by_hand = metrics.cross_language_agreement([True, True, False, False], [True, False, False, False])
    assert (by_hand.share, by_hand.kappa) == pytest.approx((0.75, 0.5))


def test_ensemble_scores_is_none_safe() -> None:
    out = metrics.ensemble_scores([[0.2, None, None], [0.4, 0.6, None]])
    assert out[0] == pytest.approx(0.3) and out[1] == 0.6 and out[2] is None
    assert metrics.ensemble_scores([]) == []
    with pytest.raises(ValueError):
        metrics.ensemble_scores([[0.1], [0.1, 0.2]])


def test_span_iou() -> None:
    assert metrics.span_iou([], []) == 1.0
    assert metrics.span_iou([(0, 4)], []) == 0.0
    # gold {2..5}, pred {4..7}: 2 shared of 6
    assert metrics.span_iou([(2, 6)], [(4, 8)]) == pytest.approx(2 / 6)
    assert metrics.span_iou([[0, 2], [5, 6]], [(0, 2), (5, 6)]) == 1.0


def test_span_spearman_by_hand() -> None:
    # gold [1, 1, 0, 0] ranks [3.5, 3.5, 1.5, 1.5]; pred [0.9, 0.5, 0.5, 0] ranks [4, 2.5, 2.5, 1]
    # centred (1, 1, -1, -1) and (1.5, 0, 0, -1.5): r = 3 / sqrt(4 * 4.5) = 1 / sqrt(2)
    gold, pred = [(0, 2, 1.0)], [(0, 1, 0.9), (1, 3, 0.5)]
    assert metrics.span_spearman(gold, pred, 4) == pytest.approx(1 / math.sqrt(2))


def test_span_spearman_matches_scipy() -> None:
    from scipy.stats import spearmanr

    gold = [(0, 3, 0.2), (5, 9, 0.9)]
    pred = [{"start": 1, "end": 4, "prob": 0.5}, {"start": 6, "end": 10, "prob": 0.7}]
    gv, pv = np.zeros(12), np.zeros(12)
    gv[0:3], gv[5:9], pv[1:4], pv[6:10] = 0.2, 0.9, 0.5, 0.7
    expected = spearmanr(gv, pv).correlation
    assert metrics.span_spearman(gold, pred, 12) == pytest.approx(expected)


def test_span_spearman_constant_vectors() -> None:
    assert metrics.span_spearman([], [], 10) == 1.0  # no hallucination predicted for none
    assert metrics.span_spearman([(0, 10, 0.5)], [], 10) == 1.0  # both constant
    assert metrics.span_spearman([(0, 3, 1.0)], [], 10) == 0.0
    assert metrics.span_spearman([], [(2, 4, 0.3)], 10) == 0.0
