"""From a run's result lines to metric tables: FELM balanced accuracy, ROC AUC, FActScore.

Conventions: FELM gold labels say True = factual; the positive class of every
metric here is the *error* (a false segment, an inconsistent pair). Items the judge
could not parse are left out of a metric and counted in its ``unparseable`` column,
never counted as a verdict.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from factjudge.eval import metrics

OVERALL = "overall"


@dataclass
class _Cell:
    """Gold and predicted errors of one (set-up, group) at segment and response level."""

    seg_gold: list[bool] = field(default_factory=list)
    seg_pred: list[bool] = field(default_factory=list)
    resp_gold: list[bool] = field(default_factory=list)
    resp_pred: list[bool] = field(default_factory=list)
    resp_score: list[float] = field(default_factory=list)
    resp_score_gold: list[bool] = field(default_factory=list)
    supported: list[list[bool]] = field(default_factory=list)
    unparseable: int = 0
    items: int = 0


def _cells(lines: Iterable[dict[str, Any]], group: str) -> dict[tuple[str, str], _Cell]:
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for line in lines:
        result, gold = line["result"], line["gold"]
        cell = cells[(line["setup"], str(line.get(group) or "unknown"))]
        cell.items += 1
        for label, verdict in zip(gold["segment_labels"], result["segment_verdicts"], strict=False):
            if label is None:
                continue
            if verdict["label"] == "unparseable":
                cell.unparseable += 1
                continue
            cell.seg_gold.append(not label)
            cell.seg_pred.append(verdict["label"] == "false")
        if gold["response_label"] is not None and result["label"] != "unparseable":
            cell.resp_gold.append(not gold["response_label"])
            cell.resp_pred.append(result["label"] == "false")
            if result["error_score"] is not None:
                cell.resp_score.append(result["error_score"])
                cell.resp_score_gold.append(not gold["response_label"])
        judged = result["claim_verdicts"] or result["segment_verdicts"]
        facts = [v["label"] == "true" for v in judged if v["label"] in ("true", "false")]
        if facts:
            cell.supported.append(facts)
    return cells


def _pct(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def metric_rows(lines: Iterable[dict[str, Any]], group: str = "domain") -> pd.DataFrame:
    """One row per (set-up, group value) with every metric, plus each set-up's overall row.

    The overall row averages the groups' balanced accuracies (FELM's overall: a set-up that
    fell back in some domain, e.g. claim → segment for math, contributes the fallback's
    number there, because that is what ran); ``pooled`` columns pool all items instead.
    """
    lines = list(lines)
    cells = _cells(lines, group)
    rows = []
    for (setup, value), cell in sorted(cells.items()):
        fs = metrics.factscore(cell.supported) if cell.supported else None
        rows.append({
            "setup": setup,
            group: value,
            "items": cell.items,
            "segment_ba": _pct(metrics.balanced_accuracy(cell.seg_gold, cell.seg_pred)),
            "response_ba": _pct(metrics.balanced_accuracy(cell.resp_gold, cell.resp_pred)),
            "roc_auc": _pct(metrics.roc_auc([not g for g in cell.resp_score_gold], cell.resp_score)),
            "factscore": _pct(fs.score_without_penalty) if fs else None,
            "factscore_gamma10": _pct(fs.score) if fs else None,
            "unparseable": cell.unparseable,
        })
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    overall = []
    for setup, part in table.groupby("setup", sort=True):
        pooled = _cells((ln for ln in lines if ln["setup"] == setup), "setup")[(setup, setup)]
        fs_all = metrics.factscore(pooled.supported) if pooled.supported else None
        overall.append({
            "setup": setup,
            group: OVERALL,
            "items": int(part["items"].sum()),
            "segment_ba": _mean(part["segment_ba"]),
            "response_ba": _mean(part["response_ba"]),
            "roc_auc": _pct(metrics.roc_auc([not g for g in pooled.resp_score_gold], pooled.resp_score)),
            "factscore": _pct(fs_all.score_without_penalty) if fs_all else None,
            "factscore_gamma10": _pct(fs_all.score) if fs_all else None,
            "unparseable": int(part["unparseable"].sum()),
            "pooled_segment_ba": _pct(metrics.balanced_accuracy(pooled.seg_gold, pooled.seg_pred)),
            "pooled_response_ba": _pct(metrics.balanced_accuracy(pooled.resp_gold, pooled.resp_pred)),
        })
    return pd.concat([table, pd.DataFrame(overall)], ignore_index=True)


def _mean(values: pd.Series) -> float | None:
    known = values.dropna()
    return None if known.empty else round(float(known.mean()), 1)


def felm_table(rows: pd.DataFrame, metric: str = "segment_ba", group: str = "domain") -> pd.DataFrame:
    """FELM's layout: rows are set-ups, columns the groups and overall, cells one metric."""
    if rows.empty:
        return rows
    table = rows.pivot(index="setup", columns=group, values=metric)
    columns = [c for c in table.columns if c != OVERALL] + [OVERALL]
    return table[columns]


def roc_auc_intervals(lines: Iterable[dict[str, Any]], n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """ROC AUC per (set-up, dataset) with a bootstrap 95% interval, TRUE-style."""
    rows = []
    for (setup, dataset), cell in sorted(_cells(lines, "dataset").items()):
        labels = [not g for g in cell.resp_score_gold]
        auc = metrics.roc_auc(labels, cell.resp_score)
        low, high = (None, None)
        if auc is not None:
            low, high = metrics.bootstrap_ci(metrics.roc_auc, labels, cell.resp_score, n=n, seed=seed)
        rows.append({"setup": setup, "dataset": dataset, "n": len(labels), "roc_auc": _pct(auc),
                     "ci_low": _pct(low), "ci_high": _pct(high)})
    return pd.DataFrame(rows)
