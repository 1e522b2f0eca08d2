"""Set-ups compared on the same answers: intervals, p-values, and "A minus B" (paired bootstrap).

Each metric is computed as ``summary.metric_rows``' overall row computes it, so an interval is
around the number shown: balanced accuracy is the mean over the given domains (the ones every
set-up has a number for), ROC AUC is pooled over the answers. Resampling draws answers (examples),
never single segments, since the segments of one answer are not independent; two set-ups are
compared only on the answers both have a usable result for, so their difference is paired.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.tables.lines import as_result, gold_segment_labels, pct

METRICS = ("segment_ba", "response_ba", "roc_auc")
BEST = "best"
# (domain, pairs): for balanced accuracy (gold error, predicted error) per labelled item of one
# answer; for ROC AUC (gold error, error score) of the answer. No pair: the answer does not count.
Unit = tuple[str, list[tuple[bool, Any]]]
Units = dict[str, dict[str, Unit]]  # set-up -> example id -> unit


def metric_units(lines: Iterable[dict[str, Any]], metric: str) -> Units:
    """Each set-up's units of ``metric`` per example: what the metric reads off every result line."""
    units: Units = defaultdict(dict)
    for line in lines:
        result, gold = as_result(line["result"]), line["gold"]
        pairs: list[tuple[bool, Any]] = []
        answer_gold = gold["response_label"]
        if metric == "segment_ba":
            labelled = zip(gold_segment_labels(line), result.segment_verdicts, strict=False)
            pairs = [(not label, verdict.is_false) for label, verdict in labelled
                     if label is not None and verdict.label != "unparseable"]
        elif metric == "response_ba" and answer_gold is not None and result.label != "unparseable":
            pairs = [(not answer_gold, result.label == "false")]
        elif metric == "roc_auc" and answer_gold is not None and result.error_score is not None:
            pairs = [(not answer_gold, float(result.error_score))]
        units[line["setup"]][line["example_id"]] = (str(line.get("domain") or "unknown"), pairs)
    return units


def metric_of(metric: str, domains: Sequence[str] | None = None) -> Callable[[Sequence[Unit]], float | None]:
    """``metric`` on a list of units: balanced accuracy averaged over ``domains`` (pooled when None)
    and present in the units; ROC AUC pooled."""
    def value(units: Sequence[Unit]) -> float | None:
        if metric == "roc_auc":
            pairs = [pair for _, unit_pairs in units for pair in unit_pairs]
            return metrics.roc_auc([not error for error, _ in pairs], [score for _, score in pairs])
        by_domain: dict[str, list[tuple[bool, Any]]] = defaultdict(list)
        for domain, unit_pairs in units:
            if domains is None or domain in domains:
                by_domain["all" if domains is None else domain].extend(unit_pairs)
        scores = [metrics.balanced_accuracy([g for g, _ in pairs], [p for _, p in pairs])
                  for pairs in by_domain.values() if pairs]
        known = [s for s in scores if s is not None]
        return sum(known) / len(known) if known else None

    return value


def _too_few(metric: str, units: Sequence[Unit]) -> str | None:
    """Why ``units`` are too few for an interval or a p-value (``metrics.too_few``'s rule)."""
    if metric == "roc_auc":
        return metrics.too_few([error for _, pairs in units for error, _ in pairs])
    return f"n={len(units)}" if len(units) < metrics.MIN_ITEMS else None


def _paired(units: Units, a: str, b: str) -> tuple[list[Unit], list[Unit]]:
    """A's and B's units on the answers both have one for, in one order."""
    both = set(units.get(a, {})) & set(units.get(b, {}))
    ids = sorted(i for i in both if units[a][i][1] and units[b][i][1])
    return [units[a][i] for i in ids], [units[b][i] for i in ids]


def _counted(units: Mapping[str, Unit]) -> list[Unit]:
    return [unit for _, unit in sorted(units.items()) if unit[1]]


def interval_columns(lines: Sequence[dict[str, Any]], setups: Sequence[str],
                     domains: Mapping[str, Sequence[str] | None], complete: Iterable[str] | None = None,
                     n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Per set-up (the index), for every metric: its bootstrap 95% interval (``…_ci_low``, ``…_ci_high``)
    and the paired-bootstrap p-value against the set-up with the best value (``…_p_vs_best``).

    ``domains``: per balanced-accuracy metric, the domains its overall number averages. ``complete``:
    the set-ups that scored every answer, the only ones ROC AUC may call the best. An interval or
    p-value on too few answers is None (``metrics.too_few``); a p-value says ``n/a (…)`` then.
    """
    table = pd.DataFrame(index=pd.Index(list(setups), name="setup"))
    for metric in METRICS:
        units = metric_units(lines, metric)
        value = metric_of(metric, domains.get(metric))
        values = {s: value(_counted(units.get(s, {}))) for s in setups}
        lows, highs = {}, {}
        for setup in setups:
            mine = _counted(units.get(setup, {}))
            low = high = None
            if values[setup] is not None and not _too_few(metric, mine):
                low, high = metrics.bootstrap_ci(value, mine, n=n, seed=seed)
            lows[setup], highs[setup] = pct(low), pct(high)
        table[f"{metric}_ci_low"] = pd.Series(lows, dtype=object)
        table[f"{metric}_ci_high"] = pd.Series(highs, dtype=object)
        eligible = set(setups) if complete is None or metric != "roc_auc" else set(complete)
        ranked = [s for s in setups if values[s] is not None and s in eligible]
        best = max(ranked, key=lambda s: values[s] or 0.0) if ranked else None
        p_values: dict[str, Any] = {}
        for setup in setups:
            if best is None or values[setup] is None:
                p_values[setup] = None
            elif setup == best:
                p_values[setup] = BEST
            else:
                ours, theirs = _paired(units, setup, best)
                small = _too_few(metric, ours)
                p_values[setup] = f"n/a ({small})" if small else metrics.paired_difference(
                    value, ours, theirs, n=n, seed=seed).p_value
        table[f"{metric}_p_vs_best"] = pd.Series(p_values, dtype=object)
    return table


def difference_rows(lines: Sequence[dict[str, Any]], a: str, b: str,
                    domains: Mapping[str, Sequence[str] | None], metrics_shown: Sequence[str] = METRICS,
                    n: int = 1000, seed: int = 0) -> list[dict[str, Any]]:
    """A minus B for each metric, on the answers both have a result for: both values, the difference
    and its bootstrap 95% interval, the paired-bootstrap p-value, and the n of answers."""
    rows = []
    for metric in metrics_shown:
        units = metric_units(lines, metric)
        ours, theirs = _paired(units, a, b)
        value = metric_of(metric, domains.get(metric))
        small = _too_few(metric, ours)
        diff = metrics.paired_difference(value, ours, theirs, n=0 if small else n, seed=seed)
        if diff.difference is None:
            continue
        rows.append({"a": a, "b": b, "metric": metric, "n": len(ours), "a_value": pct(value(ours)),
                     "b_value": pct(value(theirs)), "a_minus_b": pct(diff.difference),
                     "ci_low": pct(diff.low), "ci_high": pct(diff.high),
                     "p_value": None if diff.p_value is None else round(diff.p_value, 3)})
    return rows


def pairwise_differences(lines: Sequence[dict[str, Any]], setups: Sequence[str],
                         domains: Mapping[str, Sequence[str] | None], metrics_shown: Sequence[str] = METRICS,
                         n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """``difference_rows`` for every pair of ``setups``, in their order (A before B)."""
    rows = [row for a, b in itertools.combinations(setups, 2)
            for row in difference_rows(lines, a, b, domains, metrics_shown, n=n, seed=seed)]
    return pd.DataFrame(rows, columns=["a", "b", "metric", "n", "a_value", "b_value", "a_minus_b", "ci_low",
                                       "ci_high", "p_value"])
