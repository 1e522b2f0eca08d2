"""Metrics of the three papers, Mu-SHROOM and RAGTruth, as pure functions on plain lists.

Conventions. Classification metrics take *error flags*: ``True`` = the item is an error
(a false segment, an inconsistent pair), the positive class of FELM and TRUE. Ranking
metrics follow TRUE: ``labels`` 1 = consistent, 0 = inconsistent, ``scores`` are error
scores (higher = more likely inconsistent). A metric that is undefined on its input
(empty, one class) returns ``None`` rather than a number that looks meaningful.
Scikit-learn and SciPy compute what they can (precision, recall, F1, kappa, Spearman; ROC
AUC and balanced accuracy are counted with numpy as they define them, being bootstrapped a
thousand times a row); the wrappers here handle the cases where they would warn, raise or
return NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from scipy.stats import rankdata, spearmanr
from sklearn.metrics import cohen_kappa_score, precision_recall_fscore_support


def _flags(values: Sequence[Any]) -> np.ndarray:
    """Booleans as a numpy array, whatever truthy values came in (1/0, numpy bools)."""
    return np.array([bool(v) for v in values], dtype=bool)


def _check_lengths(*arrays: Sequence[Any]) -> int:
    lengths = {len(a) for a in arrays}
    if len(lengths) > 1:
        raise ValueError(f"inputs differ in length: {sorted(lengths)}")
    return lengths.pop() if lengths else 0


# ---------------------------------------------------------------- classification


def balanced_accuracy(gold: Sequence[bool], pred: Sequence[bool]) -> float | None:
    """Mean of the per-class recalls (FELM's metric, scikit-learn's); None when empty.

    With a single gold class only that class's recall exists, so it is returned (as
    scikit-learn does, minus its warning): then it is plain accuracy, not a balanced one.
    """
    if _check_lengths(gold, pred) == 0:
        return None
    # The recalls counted with numpy, as scikit-learn's balanced_accuracy_score defines them: its
    # call costs ~5 ms (input validation), and reports bootstrap balanced accuracy 1000 times a row.
    truth, guess = _flags(gold), _flags(pred)
    recalls = [float((guess[truth == cls] == cls).mean()) for cls in (False, True) if (truth == cls).any()]
    return sum(recalls) / len(recalls)


class PRF(NamedTuple):
    """Precision, recall and F1 of the error class, and how many gold errors there are."""

    precision: float
    recall: float
    f1: float
    support: int


def error_prf(gold: Sequence[bool], pred: Sequence[bool]) -> PRF:
    """Precision/recall/F1 of the error class (True = error); 0.0 where a ratio has no denominator."""
    if _check_lengths(gold, pred) == 0:
        return PRF(0.0, 0.0, 0.0, 0)
    truth = _flags(gold)
    precision, recall, f1, _ = precision_recall_fscore_support(
        truth, _flags(pred), average="binary", pos_label=True, zero_division=0.0
    )
    return PRF(float(precision), float(recall), float(f1), int(truth.sum()))


# ---------------------------------------------------------------- ranking (TRUE)


def roc_auc(labels: Sequence[bool | int], scores: Sequence[float]) -> float | None:
    """ROC AUC for detecting inconsistent items (label 0) by error score; None with one class."""
    _check_lengths(labels, scores)
    positive = ~_flags(labels)
    if positive.all() or not positive.any():
        return None
    values = np.asarray(scores, dtype=float)
    if np.isnan(values).any():
        raise ValueError("scores contain NaN; drop the items with no score first")
    # AUC is Mann–Whitney's U over the pairs, ties counting half, read off SciPy's average
    # ranks as scipy.stats.mannwhitneyu does. Its own call (0.4 ms) and scikit-learn's
    # roc_auc_score (1.4 ms) cost 10-25 times more, and the report bootstraps 1000 resamples.
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    u = rankdata(values)[positive].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))


def _rates(labels: Sequence[bool | int], scores: Sequence[float], threshold: float) -> tuple[float, float]:
    """TPR and FPR of 'inconsistent when score >= threshold'."""
    pos = [s for v, s in zip(labels, scores, strict=True) if not v]
    neg = [s for v, s in zip(labels, scores, strict=True) if v]
    tpr = sum(s >= threshold for s in pos) / len(pos) if pos else 0.0
    fpr = sum(s >= threshold for s in neg) / len(neg) if neg else 0.0
    return tpr, fpr


def tune_threshold(dev_labels: Sequence[bool | int], dev_scores: Sequence[float]) -> float:
    """Error-score threshold maximising sqrt(TPR·(1−FPR)) on dev (TRUE); ties go to the lower one."""
    n = _check_lengths(dev_labels, dev_scores)
    if n == 0:
        raise ValueError("cannot tune a threshold on no examples")
    candidates = [*sorted(set(float(s) for s in dev_scores)), math.inf]
    best, best_value = candidates[0], -1.0
    for threshold in candidates:
        tpr, fpr = _rates(dev_labels, dev_scores, threshold)
        value = math.sqrt(tpr * (1 - fpr))
        if value > best_value:
            best, best_value = threshold, value
    return best


def accuracy_at(labels: Sequence[bool | int], scores: Sequence[float], threshold: float) -> float | None:
    """Accuracy of predicting inconsistent when the error score is at or above ``threshold``."""
    n = _check_lengths(labels, scores)
    if n == 0:
        return None
    return sum((s >= threshold) == (not v) for v, s in zip(labels, scores, strict=True)) / n


# ---------------------------------------------------------------- FActScore


@dataclass(frozen=True)
class FactScoreSummary:
    """FActScore over responding answers, with and without the length penalty."""

    score: float | None
    score_without_penalty: float | None
    abstention_rate: float
    facts_per_response: float | None
    responses: int
    responding: int


def factscore(
    per_response_supported: Sequence[Sequence[bool]],
    gamma: int = 10,
    abstained: Sequence[bool] | None = None,
) -> FactScoreSummary:
    """Mean share of supported facts per responding answer; penalty exp(1 − γ/|facts|) when |facts| < γ.

    An answer that abstains, or has no facts at all, is not scored (FActScore's
    definition is over answers that respond); both count towards the abstention rate.
    ``gamma=0`` turns the penalty off.
    """
    n = len(per_response_supported)
    if abstained is None:
        abstained = [False] * n
    _check_lengths(per_response_supported, abstained)
    plain, penalised, lengths = [], [], []
    for facts, abstain in zip(per_response_supported, abstained, strict=True):
        if abstain or not facts:
            continue
        share = sum(bool(f) for f in facts) / len(facts)
        penalty = math.exp(1 - gamma / len(facts)) if gamma and len(facts) < gamma else 1.0
        plain.append(share)
        penalised.append(share * penalty)
        lengths.append(len(facts))
    return FactScoreSummary(
        score=float(np.mean(penalised)) if penalised else None,
        score_without_penalty=float(np.mean(plain)) if plain else None,
        abstention_rate=(n - len(plain)) / n if n else 0.0,
        facts_per_response=float(np.mean(lengths)) if lengths else None,
        responses=n,
        responding=len(plain),
    )


@dataclass(frozen=True)
class ScoringConfusion:
    """Fact-scorer vs gold labels (positive = supported), as shares of all facts."""

    tp: float
    fn: float
    fp: float
    tn: float
    accuracy: float
    gold_factscore: float
    pred_factscore: float
    estimation_error: float
    facts: int


def _groups(values: Sequence[Any]) -> list[list[bool]]:
    """Per-response fact labels from nested lists; a flat list is one pool."""
    if values and isinstance(values[0], (list, tuple)):
        return [[bool(x) for x in v] for v in values]
    return [[bool(x) for x in values]]


def scoring_confusion(
    gold: Sequence[bool] | Sequence[Sequence[bool]],
    pred: Sequence[bool] | Sequence[Sequence[bool]],
) -> ScoringConfusion | None:
    """TP/FN/FP/TN rates, scoring accuracy and predicted-minus-gold FActScore (over-/under-estimation).

    Flat lists are pooled facts; lists of lists are per-response facts, and then the
    FActScores are the per-response means without length penalty (the same facts are
    scored, so the penalty would only rescale both).
    """
    gold_groups, pred_groups = _groups(gold), _groups(pred)
    _check_lengths(gold_groups, pred_groups)
    for g, p in zip(gold_groups, pred_groups, strict=True):
        _check_lengths(g, p)
    flat_gold = [x for g in gold_groups for x in g]
    flat_pred = [x for p in pred_groups for x in p]
    gold_fs = factscore(gold_groups, gamma=0).score_without_penalty
    pred_fs = factscore(pred_groups, gamma=0).score_without_penalty
    n = len(flat_gold)
    if n == 0 or gold_fs is None or pred_fs is None:
        return None
    tp = sum(g and p for g, p in zip(flat_gold, flat_pred, strict=True))
    fn = sum(g and not p for g, p in zip(flat_gold, flat_pred, strict=True))
    fp = sum(p and not g for g, p in zip(flat_gold, flat_pred, strict=True))
    tn = n - tp - fn - fp
    return ScoringConfusion(tp / n, fn / n, fp / n, tn / n, (tp + tn) / n, gold_fs, pred_fs,
                            pred_fs - gold_fs, n)


# ---------------------------------------------------------------- resampling

# Below these counts a figure is shown with its n and a warning, and no bootstrap interval or
# p-value is given: three items resampled a thousand times read [100.0–100.0], certainty from luck.
MIN_ITEMS = 30
MIN_PER_CLASS = 5


def too_few(labels: Sequence[Any]) -> str | None:
    """Why binary ``labels`` are too few for an interval or a p-value (``n=3``, ``n=40, 2 of one class``);
    None when there are ``MIN_ITEMS`` and ``MIN_PER_CLASS`` of each class."""
    n = len(labels)
    if n < MIN_ITEMS:
        return f"n={n}"
    positives = sum(bool(v) for v in labels)
    minority = min(positives, n - positives)
    return f"n={n}, {minority} of one class" if minority < MIN_PER_CLASS else None



def bootstrap_ci(
    metric_fn: Callable[..., float | None],
    *arrays: Sequence[Any],
    n: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of ``metric_fn(*arrays)``, resampling examples jointly.

    Resamples where the metric is undefined (e.g. one class for ROC AUC) are dropped.
    """
    size = _check_lengths(*arrays)
    if size == 0:
        return None, None
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(n):
        idx = rng.integers(0, size, size)
        value = metric_fn(*([a[i] for i in idx] for a in arrays))
        if value is not None and not math.isnan(value):
            values.append(value)
    if not values:
        return None, None
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def paired_bootstrap(
    metric_fn: Callable[[Sequence[Any], Sequence[Any]], float | None],
    gold: Sequence[Any],
    pred_a: Sequence[Any],
    pred_b: Sequence[Any],
    n: int = 1000,
    seed: int = 0,
) -> float:
    """Share of paired resamples where the run that wins on the full set does not win (a p-value).

    Both runs are scored on the same resampled examples; a small share means the
    difference is unlikely to be luck. 1.0 when the runs tie on the full set.
    """
    size = _check_lengths(gold, pred_a, pred_b)
    full_a, full_b = metric_fn(gold, pred_a), metric_fn(gold, pred_b)
    if size == 0 or full_a is None or full_b is None or full_a == full_b:
        return 1.0
    sign = 1.0 if full_a > full_b else -1.0
    rng = np.random.default_rng(seed)
    losses = counted = 0
    for _ in range(n):
        idx = rng.integers(0, size, size)
        g = [gold[i] for i in idx]
        a, b = metric_fn(g, [pred_a[i] for i in idx]), metric_fn(g, [pred_b[i] for i in idx])
        if a is None or b is None:
            continue
        counted += 1
        losses += sign * (a - b) <= 0
    return losses / counted if counted else 1.0


class Difference(NamedTuple):
    """A minus B on the same items: the difference, its bootstrap 95% interval and paired p-value."""

    difference: float | None
    low: float | None
    high: float | None
    p_value: float | None


def paired_difference(
    metric_fn: Callable[[Sequence[Any]], float | None],
    units_a: Sequence[Any],
    units_b: Sequence[Any],
    n: int = 1000,
    seed: int = 0,
    alpha: float = 0.05,
) -> Difference:
    """``metric_fn(units_a) − metric_fn(units_b)``, A's and B's units paired by position (the same
    examples), with a percentile interval and a p-value from resampling the examples jointly.

    The p-value is ``paired_bootstrap``'s: the share of resamples where the side that wins on the
    full set does not win (1.0 on a tie). Resamples where either value is undefined are dropped.
    """
    size = _check_lengths(units_a, units_b)
    full_a, full_b = metric_fn(units_a), metric_fn(units_b)
    if size == 0 or full_a is None or full_b is None:
        return Difference(None, None, None, None)
    full = full_a - full_b
    rng = np.random.default_rng(seed)
    diffs = []
    for _ in range(n):
        idx = rng.integers(0, size, size)
        a, b = metric_fn([units_a[i] for i in idx]), metric_fn([units_b[i] for i in idx])
        if a is not None and b is not None and not (math.isnan(a) or math.isnan(b)):
            diffs.append(a - b)
    if not diffs:
        return Difference(full, None, None, None)
    low, high = np.quantile(diffs, [alpha / 2, 1 - alpha / 2])
    sign = 1.0 if full > 0 else -1.0
    p_value = 1.0 if full == 0 else sum(sign * d <= 0 for d in diffs) / len(diffs)
    return Difference(full, float(low), float(high), float(p_value))


# ---------------------------------------------------------------- agreement and ensembles


class Agreement(NamedTuple):
    """Raw agreement and Cohen's kappa of two labelings of the same items."""

    share: float | None
    kappa: float | None
    items: int


def cross_language_agreement(
    labels_a: Sequence[bool | None], labels_b: Sequence[bool | None]
) -> Agreement:
    """Agreement of the labels given to the same facts in two languages; pairs with a None are skipped.

    Kappa is None when chance agreement is already 1 (both sides use one same label).
    """
    _check_lengths(labels_a, labels_b)
    pairs = [(bool(a), bool(b)) for a, b in zip(labels_a, labels_b, strict=True)
             if a is not None and b is not None]
    if not pairs:
        return Agreement(None, None, 0)
    a, b = (np.array(side) for side in zip(*pairs, strict=True))
    # One same label on both sides: chance agreement is 1 and kappa is 0/0.
    kappa = None if len({*a, *b}) == 1 else float(cohen_kappa_score(a, b))
    return Agreement(float(np.mean(a == b)), kappa, len(pairs))


def ensemble_scores(score_lists: Sequence[Sequence[float | None]]) -> list[float | None]:
    """Per-example mean of several checkers' scores (TRUE's ensemble), ignoring missing ones."""
    if not score_lists:
        return []
    _check_lengths(*score_lists)
    out: list[float | None] = []
    for column in zip(*score_lists, strict=True):
        known = [float(s) for s in column if s is not None and not math.isnan(s)]
        out.append(sum(known) / len(known) if known else None)
    return out


# ---------------------------------------------------------------- Mu-SHROOM


def _char_set(spans: Iterable[Sequence[int]]) -> set[int]:
    return {i for span in spans for i in range(int(span[0]), int(span[1]))}


def span_iou(gold_spans: Iterable[Sequence[int]], pred_spans: Iterable[Sequence[int]]) -> float:
    """Intersection over union of the characters in hard spans (end exclusive); 1.0 when both are empty."""
    gold, pred = _char_set(gold_spans), _char_set(pred_spans)
    if not gold and not pred:
        return 1.0
    return len(gold & pred) / len(gold | pred)


def _soft_vector(spans: Iterable[Any], text_len: int) -> np.ndarray:
    vec = np.zeros(text_len)
    for span in spans:
        if isinstance(span, Mapping):
            start, end, prob = span["start"], span["end"], span["prob"]
        else:
            start, end, prob = span
        vec[int(start):int(end)] = float(prob)
    return vec


def span_spearman(gold_soft: Iterable[Any], pred_soft: Iterable[Any], text_len: int) -> float:
    """Spearman correlation of per-character hallucination probabilities, as Mu-SHROOM scores it.

    Soft spans are (start, end, prob) or {"start", "end", "prob"}. The correlation of a
    constant vector is undefined; following the shared task's scorer, if either vector is
    constant (values rounded to 8 decimals) the result is 1.0 when both are constant and
    0.0 otherwise: an answer with no hallucination is matched by predicting none.
    """
    gold = _soft_vector(gold_soft, text_len)
    pred = _soft_vector(pred_soft, text_len)
    gold_constant = len(set(np.round(gold, 8))) <= 1
    pred_constant = len(set(np.round(pred, 8))) <= 1
    if gold_constant or pred_constant:
        return float(gold_constant and pred_constant)
    return float(spearmanr(gold, pred).statistic)


# ---------------------------------------------------------------- RAGTruth


def span_prf(gold_spans: Sequence[Iterable[Sequence[int]]],
             pred_spans: Sequence[Iterable[Sequence[int]]]) -> PRF:
    """Character-level precision, recall and F1 of predicted error spans, the characters pooled over the
    answers (RAGTruth's span level); ``gold_spans[i]`` and ``pred_spans[i]`` are answer i's spans (end
    exclusive). ``support``: the gold characters; 0.0 where a ratio has no denominator."""
    _check_lengths(gold_spans, pred_spans)
    hit = gold_n = pred_n = 0
    for gold, pred in zip(gold_spans, pred_spans, strict=True):
        gold_chars, pred_chars = _char_set(gold), _char_set(pred)
        hit += len(gold_chars & pred_chars)
        gold_n += len(gold_chars)
        pred_n += len(pred_chars)
    precision = hit / pred_n if pred_n else 0.0
    recall = hit / gold_n if gold_n else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return PRF(precision, recall, f1, gold_n)


def span_recall_by_type(gold_spans: Sequence[Sequence[tuple[int, int, str]]],
                        pred_spans: Sequence[Iterable[Sequence[int]]]) -> dict[str, tuple[float, int]]:
    """Per gold span type: the share of its characters the predicted spans cover (pooled over answers),
    and how many characters of that type there are. Gold spans are (start, end, type)."""
    _check_lengths(gold_spans, pred_spans)
    covered: dict[str, int] = {}
    total: dict[str, int] = {}
    for gold, pred in zip(gold_spans, pred_spans, strict=True):
        pred_chars = _char_set(pred)
        for start, end, kind in gold:
            chars = _char_set([(start, end)])
            covered[kind] = covered.get(kind, 0) + len(chars & pred_chars)
            total[kind] = total.get(kind, 0) + len(chars)
    return {kind: (covered[kind] / total[kind] if total[kind] else 0.0, total[kind]) for kind in total}


def recall_by_type(types: Sequence[Iterable[str]], flagged: Sequence[bool]) -> dict[str, tuple[float, int]]:
    """Per error type: the share of the answers holding an error of that type that were flagged, and how
    many such answers there are (an answer with two types counts under each)."""
    _check_lengths(types, flagged)
    caught: dict[str, list[bool]] = {}
    for kinds, flag in zip(types, flagged, strict=True):
        for kind in set(kinds):
            caught.setdefault(kind, []).append(bool(flag))
    return {kind: (sum(flags) / len(flags), len(flags)) for kind, flags in caught.items()}
