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
from factjudge.eval.summary import group_of
from factjudge.eval.tables.lines import as_result, gold_segment_labels, pct

METRICS = ("segment_ba", "response_ba", "roc_auc")
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
        units[line["setup"]][line["example_id"]] = (group_of(line, "domain"), pairs)
    return units


def unverified_counts(lines: Iterable[dict[str, Any]], metric: str) -> dict[str, int]:
    """Per set-up, the gold-labelled items of ``metric`` the evidence left unverified (segments for
    segment_ba, answers for response_ba; none for roc_auc, whose unscored answers count apart)."""
    counts: dict[str, int] = defaultdict(int)
    for line in lines:
        result, setup = line["result"], line["setup"]
        counts[setup] += 0
        if metric == "segment_ba":
            counts[setup] += sum(label is not None and verdict["label"] == "unverified" for label, verdict
                                 in zip(gold_segment_labels(line), result["segment_verdicts"], strict=False))
        elif metric == "response_ba" and line["gold"]["response_label"] is not None:
            counts[setup] += result["label"] == "unverified"
    return counts


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
    """Per set-up (the index), for every metric: its bootstrap 95% interval (``…_ci_low``, ``…_ci_high``),
    whether it is the best (``…_best``, bool), the paired-bootstrap p-value against the best one
    (``…_p_vs_best``: a number, or None) and why it has none or is not ranked (``…_p_note``, "" if ranked).

    Only what was scored ranks: a set-up that left gold-labelled items of a balanced accuracy
    unverified, or (``complete``: the set-ups that scored every answer) answers without an error score
    for ROC AUC, is never the best, whatever its number. ``domains``: per balanced-accuracy metric, the
    domains its overall number averages. An interval or p-value on too few answers is None
    (``metrics.too_few``).
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
        notes = _not_ranked(lines, metric, setups, complete)
        ranked = [s for s in setups if values[s] is not None and not notes[s]]
        best = max(ranked, key=lambda s: values[s] or 0.0) if ranked else None
        p_values: dict[str, float | None] = {}
        for setup in setups:
            p_values[setup] = None
            if values[setup] is None:
                notes[setup] = notes[setup] or "no number"
            elif best is None:
                notes[setup] = notes[setup] or "no set-up may be ranked"
            elif setup != best:
                ours, theirs = _paired(units, setup, best)
                small = _too_few(metric, ours)
                notes[setup] = ", ".join(note for note in (notes[setup], small) if note)
                if not small:
                    p_values[setup] = metrics.paired_difference(value, ours, theirs, n=n, seed=seed).p_value
        table[f"{metric}_best"] = pd.Series({s: s == best for s in setups}, dtype=bool)
        table[f"{metric}_p_vs_best"] = pd.Series(p_values, dtype=float)
        table[f"{metric}_p_note"] = pd.Series(notes, dtype=object)
    return table


def _not_ranked(lines: Sequence[dict[str, Any]], metric: str, setups: Sequence[str],
                complete: Iterable[str] | None) -> dict[str, str]:
    """Why each set-up may not be the best in ``metric`` ("" when it may): it left items unscored."""
    if metric == "roc_auc":
        whole = set(setups) if complete is None else set(complete)
        return {s: "" if s in whole else "answers unscored: not ranked" for s in setups}
    unverified = unverified_counts(lines, metric)
    what = "segments" if metric == "segment_ba" else "answers"
    return {s: f"{unverified[s]} {what} unverified: not ranked" if unverified.get(s) else "" for s in setups}


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
