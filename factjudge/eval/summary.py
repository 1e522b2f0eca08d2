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


def gold_segment_labels(line: dict[str, Any]) -> list[bool | None]:
    """Human segment labels; for span-annotated data (Mu-SHROOM), true when no hard span overlaps."""
    labels: list[bool | None] = line["gold"]["segment_labels"]
    spans = line["gold"].get("spans") or []
    if labels or line.get("dataset") != "mushroom":
        return labels
    return [not any(seg["start"] < end and start < seg["end"] for start, end in spans)
            for seg in line["result"]["segments"]]


def _cells(lines: Iterable[dict[str, Any]], group: str) -> dict[tuple[str, str], _Cell]:
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for line in lines:
        result, gold = line["result"], line["gold"]
        cell = cells[(line["setup"], str(line.get(group) or "unknown"))]
        cell.items += 1
        for label, verdict in zip(gold_segment_labels(line), result["segment_verdicts"], strict=False):
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
        # An answer with no judged fact counts as abstaining (FActScore's abstention rate).
        cell.supported.append([v["label"] == "true" for v in judged if v["label"] in ("true", "false")])
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
            "abstention": _pct(fs.abstention_rate) if fs else None,
            "facts_per_answer": _round(fs.facts_per_response) if fs else None,
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
            "abstention": _pct(fs_all.abstention_rate) if fs_all else None,
            "facts_per_answer": _round(fs_all.facts_per_response) if fs_all else None,
            "unparseable": int(part["unparseable"].sum()),
            "pooled_segment_ba": _pct(metrics.balanced_accuracy(pooled.seg_gold, pooled.seg_pred)),
            "pooled_response_ba": _pct(metrics.balanced_accuracy(pooled.resp_gold, pooled.resp_pred)),
        })
    return pd.concat([table, pd.DataFrame(overall)], ignore_index=True)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


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
    return pd.DataFrame(rows + ensemble_rows(lines, n=n, seed=seed))


def ensemble_rows(lines: Iterable[dict[str, Any]], n: int = 1000, seed: int = 0) -> list[dict[str, Any]]:
    """TRUE's ensemble: per dataset, the mean error score of every set-up that ranks (not a constant)."""
    scores: dict[str, dict[str, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    gold: dict[tuple[str, str], bool] = {}
    for line in lines:
        result = line["result"]
        if result["error_score"] is None or line["gold"]["response_label"] is None:
            continue
        scores[line["dataset"]][line["setup"]][line["example_id"]] = result["error_score"]
        gold[(line["dataset"], line["example_id"])] = bool(line["gold"]["response_label"])
    rows = []
    for dataset, by_setup in sorted(scores.items()):
        members = sorted(s for s, values in by_setup.items() if len(set(values.values())) > 1)
        if len(members) < 2:
            continue
        ids = sorted(set.intersection(*(set(by_setup[s]) for s in members)))
        # every member scored every id in ``ids``, so no mean is None
        means = metrics.ensemble_scores([[by_setup[s][i] for i in ids] for s in members])
        averaged = [float(v) for v in means if v is not None]
        labels = [gold[(dataset, i)] for i in ids]
        auc = metrics.roc_auc(labels, averaged)
        low, high = metrics.bootstrap_ci(metrics.roc_auc, labels, averaged, n=n, seed=seed)
        rows.append({"setup": f"ensemble of {' + '.join(members)}", "dataset": dataset, "n": len(ids),
                     "roc_auc": _pct(auc), "ci_low": _pct(low), "ci_high": _pct(high)})
    return rows


def predicted_spans(result: dict[str, Any]) -> list[tuple[int, int, float]]:
    """Character spans a result marks wrong, with a probability each.

    The judge's located quotes where it gave them; a false segment without a located
    quote counts whole (the verdict is about the segment, so that is what it claims).
    """
    spans: list[tuple[int, int, float]] = []
    for verdict in (*result["segment_verdicts"], *result["claim_verdicts"]):
        if verdict["label"] != "false":
            continue
        score = verdict["error_score"] if verdict["error_score"] is not None else 1.0
        located = [s for s in verdict.get("spans", ()) if s["located"]]
        for span in located:
            spans.append((span["start"], span["end"], span["probability"] or score))
        if not located and verdict["target"] == "segment":
            segment = next(s for s in result["segments"] if s["id"] == verdict["target_id"])
            if segment["start"] >= 0:
                spans.append((segment["start"], segment["end"], score))
    return spans


def span_rows(lines: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Mu-SHROOM scores per (set-up, language): mean span IoU and Spearman, with mark-all/none floors."""
    scores: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    floors: dict[tuple[str, str], dict[str, tuple[float, float]]] = defaultdict(dict)
    for line in lines:
        gold = line["gold"]
        if line["dataset"] != "mushroom":  # the shared task's span scores are defined on its data
            continue
        answer = line["result"]["answer"]
        n = len(answer)
        language = str(line.get("language") or "unknown")
        pred = predicted_spans(line["result"])
        scores[(line["setup"], language)].append(
            (metrics.span_iou(gold["spans"], [(s, e) for s, e, _ in pred]),
             metrics.span_spearman(gold["soft_spans"], pred, n)))
        for name, marked in (("baseline: mark all", [(0, n, 1.0)]), ("baseline: mark none", [])):
            floors[(name, language)][line["example_id"]] = (
                metrics.span_iou(gold["spans"], [(s, e) for s, e, _ in marked]),
                metrics.span_spearman(gold["soft_spans"], marked, n))
    for key, per_example in floors.items():
        scores[key] = list(per_example.values())
    rows = [{"setup": setup, "language": language, "answers": len(values),
             "span_iou": _pct(sum(v[0] for v in values) / len(values)),
             "span_spearman": _pct(sum(v[1] for v in values) / len(values))}
            for (setup, language), values in sorted(scores.items())]
    return pd.DataFrame(rows)
