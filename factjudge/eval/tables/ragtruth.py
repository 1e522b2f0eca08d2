"""RAGTruth's tables: response-level precision, recall and F1 of "hallucinated", character-level span F1,
both per error type, beside balanced accuracy, ROC AUC and what a pair cost.

An answer is flagged when its result is labelled false; its predicted spans are the judge's located
error words, or the whole of a false sentence where it quoted none (``summary.predicted_spans``, as
Mu-SHROOM is scored). Unparseable answers are left out of every number and counted; an unverified
answer counts as not flagged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from statistics import mean, median
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.datasets.ragtruth import SPAN_TYPES
from factjudge.eval.summary import OVERALL, predicted_spans
from factjudge.eval.tables.lines import pct

RESPONSE_NOTE = ("Response level: precision, recall and F1 of \"hallucinated\" (the answer has a marked "
                 "span; flagged = labelled false; unverified counts as not flagged), with balanced accuracy "
                 "and ROC AUC of the answer's error score. Span level: precision, recall and F1 over the "
                 "answers' characters pooled (predicted: the judge's located error words, else the whole "
                 "false sentence). calls and s: model calls (the cache's answers too) and seconds per pair "
                 "(median in brackets; seconds only of the pairs that made all their calls: timed). "
                 "unparseable: answers left out. overall pools the tasks.")
TYPE_NOTE = ("Per RAGTruth error type: response recall = the share of the answers holding an error of "
             "that type that were flagged (answers: how many); span recall = the share of that type's "
             "characters inside predicted spans (chars: how many).")


def _gold_spans(line: dict[str, Any]) -> list[tuple[int, int, str]]:
    gold = line["gold"]
    kinds = list(gold.get("span_types") or [])
    spans = gold.get("spans") or []
    kinds += ["untyped"] * (len(spans) - len(kinds))
    return [(int(s), int(e), kind) for (s, e), kind in zip(spans, kinds, strict=False)]


def _scored(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The gold-labelled, parsed lines: what every number of these tables rests on."""
    return [ln for ln in lines if ln["gold"].get("response_label") is not None
            and ln["result"]["label"] != "unparseable"]


def _row(part: Sequence[dict[str, Any]], unparseable: int) -> dict[str, Any]:
    gold = [not ln["gold"]["response_label"] for ln in part]
    flagged = [ln["result"]["label"] == "false" for ln in part]
    response = metrics.error_prf(gold, flagged)
    spans = metrics.span_prf([[(s, e) for s, e, _ in _gold_spans(ln)] for ln in part],
                             [[(s, e) for s, e, _ in predicted_spans(ln["result"])] for ln in part])
    scored = [(g, ln["result"]["error_score"]) for g, ln in zip(gold, part, strict=True)
              if ln["result"]["error_score"] is not None]
    # The model calls a pair needed, the cache's answers too; seconds only of the pairs that made every
    # call they needed (one the cache answered took cache-read time, not the model's).
    usage = [ln["result"]["usage"] for ln in part]
    calls = [u["calls"] + u.get("cached_calls", 0) for u in usage]
    seconds = [ln["seconds"] for ln, u in zip(part, usage, strict=True)
               if ln.get("seconds") is not None and not u.get("cached_calls")]
    return {
        "answers": len(part), "hallucinated": sum(gold),
        "precision": pct(response.precision), "recall": pct(response.recall), "f1": pct(response.f1),
        "balanced_accuracy": pct(metrics.balanced_accuracy(gold, flagged)),
        "roc_auc": pct(metrics.roc_auc([not g for g, _ in scored], [s for _, s in scored])),
        "span_precision": pct(spans.precision), "span_recall": pct(spans.recall), "span_f1": pct(spans.f1),
        "calls": round(mean(calls), 1) if calls else None,
        "calls_median": median(calls) if calls else None,
        "seconds": round(mean(seconds), 2) if seconds else None,
        "seconds_median": round(median(seconds), 2) if seconds else None,
        "timed": len(seconds),
        "unparseable": unparseable,
    }


def rag_rows(lines: Sequence[dict[str, Any]], group: str = "domain") -> pd.DataFrame:
    """One row per (set-up, task) and per set-up over all tasks (``overall``): every RAGTruth number."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        for value in (str(line.get(group) or "unknown"), OVERALL):
            cells[(line["setup"], value)].append(line)
    rows = []
    # Each set-up's tasks, then its overall row.
    for (setup, value), part in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1] == OVERALL, kv[0][1])
                                       ):
        scored = _scored(part)
        unparseable = sum(ln["result"]["label"] == "unparseable" for ln in part)
        rows.append({"setup": setup, group: value, **_row(scored, unparseable)})
    return pd.DataFrame(rows)


def rag_type_rows(lines: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per (set-up, RAGTruth error type): response recall and span recall of that type."""
    by_setup: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in _scored(lines):
        by_setup[line["setup"]].append(line)
    rows = []
    for setup, part in sorted(by_setup.items()):
        typed = [_gold_spans(ln) for ln in part]
        flagged = [ln["result"]["label"] == "false" for ln in part]
        answers = metrics.recall_by_type([[kind for _, _, kind in spans] for spans in typed], flagged)
        chars = metrics.span_recall_by_type(typed, [[(s, e) for s, e, _ in predicted_spans(ln["result"])]
                                                    for ln in part])
        for kind in [*SPAN_TYPES, *sorted(set(answers) - set(SPAN_TYPES))]:
            recall, n = answers.get(kind, (None, 0))
            span_recall, n_chars = chars.get(kind, (None, 0))
            rows.append({"setup": setup, "error_type": kind, "answers": n, "response_recall": pct(recall),
                         "chars": n_chars, "span_recall": pct(span_recall)})
    return pd.DataFrame(rows)
