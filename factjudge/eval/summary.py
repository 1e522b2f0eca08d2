"""From a run's result lines to metric tables: FELM balanced accuracy, ROC AUC, FActScore.

Conventions: FELM gold labels say True = factual; the positive class of every
metric here is the *error* (a false segment, an inconsistent pair). Items the judge
could not parse are left out of a metric and counted in its ``unparseable`` column,
never counted as a verdict. Items and answers the evidence left unverified are counted apart
(``unverified``, ``unverified_answers``); an answer with no error score is not in the ROC AUC and
is counted in ``unscored_answers`` beside ``roc_auc_n``, the answers it rests on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.tables.lines import as_result, gold_segment_labels, predicted_facts
from factjudge.eval.tables.lines import pct as _pct
from factjudge.eval.tables.true_protocol import roc_auc_intervals
from factjudge.records import CheckResult

__all__ = ["OVERALL", "felm_table", "gold_segment_labels", "group_of", "metric_rows", "roc_auc_intervals",
           "span_rows"]

OVERALL = "overall"


def group_of(line: Mapping[str, Any], group: str) -> str:
    """A result's (or failure's) domain or language; ``no domain`` when its data gave none."""
    return str(line.get(group) or f"no {group}")

# The averaged columns, and the count of left-out items that stands beside each.
AVERAGED = {"segment_ba": "unparseable", "response_ba": "unparseable_answers"}


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
    unparseable_answers: int = 0
    unverified: int = 0  # gold-labelled segments the evidence left open (counted as not flagged)
    unverified_answers: int = 0  # gold-labelled answers labelled unverified (counted as not flagged)
    unscored_answers: int = 0  # gold-labelled answers with no error score: not in the ROC AUC
    items: int = 0


def _cells(lines: Iterable[dict[str, Any]], group: str) -> dict[tuple[str, str], _Cell]:
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for line in lines:
        result, gold = as_result(line["result"]), line["gold"]
        cell = cells[(line["setup"], group_of(line, group))]
        cell.items += 1
        for label, verdict in zip(gold_segment_labels(line), result.segment_verdicts, strict=False):
            if label is None:
                continue
            if verdict.label == "unparseable":
                cell.unparseable += 1
                continue
            cell.seg_gold.append(not label)
            cell.seg_pred.append(verdict.is_false)
            cell.unverified += verdict.label == "unverified"
        if gold["response_label"] is not None and result.label == "unparseable":
            cell.unparseable_answers += 1
        elif gold["response_label"] is not None:
            cell.resp_gold.append(not gold["response_label"])
            cell.resp_pred.append(result.label == "false")
            cell.unverified_answers += result.label == "unverified"
            if result.error_score is not None:
                cell.resp_score.append(result.error_score)
                cell.resp_score_gold.append(not gold["response_label"])
            else:
                cell.unscored_answers += 1
        # An answer with no checked fact counts as abstaining (FActScore's abstention rate); an
        # unverified fact is checked and not supported (tables.lines.predicted_facts).
        cell.supported.append(predicted_facts(result))
    return cells


def _failed_counts(failures: Iterable[Mapping[str, Any]], group: str) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for record in failures:
        counts[(record["setup"], group_of(record, group))] += 1
    return counts


def common_groups(rows: pd.DataFrame, metric: str, group: str = "domain") -> list[str]:
    """The groups every set-up has a number for: the only ones an overall average may compare."""
    part = rows[rows[group] != OVERALL].pivot(index="setup", columns=group, values=metric)
    return sorted(str(c) for c in part.columns if part[c].notna().all())


def metric_rows(lines: Iterable[dict[str, Any]], group: str = "domain",
                failures: Iterable[Mapping[str, Any]] = ()) -> pd.DataFrame:
    """One row per (set-up, group value) with every metric, plus each set-up's overall row.

    The overall row averages the balanced accuracies of the groups that *every* set-up
    has a number for (``common_groups``), so a set-up whose answers in one domain were all
    unparseable is not ranked on easier domains only. FELM's fallbacks (claim → segment
    for math) contribute the fallback's number, because that is what ran. ``failures``
    are the error records of items that produced no result (``lines.failed_items``),
    counted in ``failed``; ``pooled`` columns pool all items instead of averaging. ``…_n``:
    the gold-labelled, parsed items a balanced accuracy rests on.
    """
    lines = list(lines)
    cells = _cells(lines, group)
    failed = _failed_counts(failures, group)
    for key in failed:
        cells.setdefault(key, _Cell())
    rows = []
    for (setup, value), cell in sorted(cells.items()):
        fs = metrics.factscore(cell.supported) if cell.supported else None
        rows.append({
            "setup": setup,
            group: value,
            "items": cell.items,
            "segment_ba": _pct(metrics.balanced_accuracy(cell.seg_gold, cell.seg_pred)),
            "response_ba": _pct(metrics.balanced_accuracy(cell.resp_gold, cell.resp_pred)),
            "segment_ba_n": len(cell.seg_gold),
            "response_ba_n": len(cell.resp_gold),
            "roc_auc": _pct(metrics.roc_auc([not g for g in cell.resp_score_gold], cell.resp_score)),
            "roc_auc_n": len(cell.resp_score),
            "factscore": _pct(fs.score_without_penalty) if fs else None,
            "factscore_gamma10": _pct(fs.score) if fs else None,
            "abstention": _pct(fs.abstention_rate) if fs else None,
            "facts_per_answer": _round(fs.facts_per_response) if fs else None,
            "unparseable": cell.unparseable,
            "unparseable_answers": cell.unparseable_answers,
            "unverified": cell.unverified,
            "unverified_answers": cell.unverified_answers,
            "unscored_answers": cell.unscored_answers,
            "failed": failed.get((setup, value), 0),
        })
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    common = {metric: common_groups(table, metric, group) for metric in AVERAGED}
    overall = []
    for setup, part in table.groupby("setup", sort=True):
        pooled = _cells((ln for ln in lines if ln["setup"] == setup), "setup").get((setup, setup), _Cell())
        fs_all = metrics.factscore(pooled.supported) if pooled.supported else None
        overall.append({
            "setup": setup,
            group: OVERALL,
            "items": int(part["items"].sum()),
            **{metric: _mean(part[part[group].isin(common[metric])][metric]) for metric in AVERAGED},
            # What the averaged number rests on: the items of the groups it averages.
            **{f"{metric}_n": int(part[part[group].isin(common[metric])][f"{metric}_n"].sum())
               for metric in AVERAGED},
            "roc_auc": _pct(metrics.roc_auc([not g for g in pooled.resp_score_gold], pooled.resp_score)),
            "roc_auc_n": len(pooled.resp_score),
            "factscore": _pct(fs_all.score_without_penalty) if fs_all else None,
            "factscore_gamma10": _pct(fs_all.score) if fs_all else None,
            "abstention": _pct(fs_all.abstention_rate) if fs_all else None,
            "facts_per_answer": _round(fs_all.facts_per_response) if fs_all else None,
            "unparseable": int(part["unparseable"].sum()),
            "unparseable_answers": int(part["unparseable_answers"].sum()),
            "unverified": int(part["unverified"].sum()),
            "unverified_answers": int(part["unverified_answers"].sum()),
            "unscored_answers": int(part["unscored_answers"].sum()),
            "failed": int(part["failed"].sum()),
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


def predicted_spans(result: CheckResult | Mapping[str, Any]) -> list[tuple[int, int, float]]:
    """Character spans a result marks wrong, with a probability each: the result's false spans
    (``CheckResult.false_spans``), a false item the judge quoted nothing of marking its segment whole.
    A span's probability is its own, else its item's error score, else 1."""
    spans = []
    for span, verdict in as_result(result).false_spans(whole_segments=True):
        score = verdict.error_score if verdict.error_score is not None else 1.0
        spans.append((span.start, span.end, span.probability or score))
    return spans


def span_rows(lines: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Mu-SHROOM scores per (set-up, language): mean span IoU and Spearman, with mark-all/none floors."""
    scores: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    floors: dict[tuple[str, str], dict[str, tuple[float, float]]] = defaultdict(dict)
    for line in lines:
        gold = line["gold"]
        if line["dataset"] != "mushroom":  # the shared task's span scores are defined on its data
            continue
        result = as_result(line["result"])
        n = len(result.answer)
        language = str(line.get("language") or "unknown")
        pred = predicted_spans(result)
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
