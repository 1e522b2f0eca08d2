"""The multilingual FActScore study's tables: predicted against human FActScore per language, the
scorer's TP/FN/FP/TN rates, facts per answer and abstention, and cross-language agreement.

Positive = supported here, as in the study. The confusion pairs each dataset-given unit that
has a human label (a segment; for FActScore data a sentence, true when all its atomic facts
are) with the judge's verdict on it; the FActScores are each side's own: the human one over
the human atomic facts where the data has them, the predicted one over what the judge judged.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.summary import group_of
from factjudge.eval.tables.lines import as_result, gold_segment_labels, pct, predicted_facts, unverified_items

HUMAN = "human labels"


def _human_facts(line: dict[str, Any]) -> list[bool]:
    claims = [c for c in line["gold"].get("claim_labels") or [] if c is not None]
    return claims or [s for s in gold_segment_labels(line) if s is not None]


def _paired_units(line: dict[str, Any]) -> tuple[list[bool], list[bool], int]:
    """Human and predicted 'supported' of the labelled segments the judge decided; unparseable counted.

    An unverified segment was not decided: it is in no TP/FN/FP/TN cell (the table's ``unverified``
    column counts it), while the predicted FActScore counts it as not supported."""
    gold, pred, unparseable = [], [], 0
    for label, verdict in zip(gold_segment_labels(line), line["result"]["segment_verdicts"], strict=False):
        if label is None:
            continue
        if verdict["label"] in ("true", "false"):
            gold.append(bool(label))
            pred.append(verdict["label"] == "true")
        unparseable += verdict["label"] == "unparseable"
    return gold, pred, unparseable


def factscore_rows(lines: Iterable[dict[str, Any]], group: str = "language") -> pd.DataFrame:
    """Per (set-up, language): human and predicted FActScore and their difference (> 0: over-estimation),
    the predicted one with the γ=10 length penalty, facts per answer and abstention on both sides, and
    the TP/FN/FP/TN rates and scoring accuracy over the paired facts."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        cells[(line["setup"], group_of(line, group))].append(line)
    rows = []
    for (setup, value), part in sorted(cells.items()):
        human = metrics.factscore([_human_facts(ln) for ln in part])
        results = [as_result(ln["result"]) for ln in part]
        pred = metrics.factscore([predicted_facts(result) for result in results])
        units = [_paired_units(ln) for ln in part]
        confusion = metrics.scoring_confusion([g for g, _, _ in units], [p for _, p, _ in units])
        difference = (None if human.score_without_penalty is None or pred.score_without_penalty is None
                      else pred.score_without_penalty - human.score_without_penalty)
        rows.append({
            "setup": setup, group: value, "answers": len(part),
            "human_factscore": pct(human.score_without_penalty),
            "predicted_factscore": pct(pred.score_without_penalty),
            "difference": pct(difference),
            "predicted_gamma10": pct(pred.score),
            "human_facts_per_answer": _round(human.facts_per_response),
            "predicted_facts_per_answer": _round(pred.facts_per_response),
            "human_abstention": pct(human.abstention_rate),
            "predicted_abstention": pct(pred.abstention_rate),
            **{k: pct(getattr(confusion, k)) if confusion else None for k in ("tp", "fn", "fp", "tn")},
            "scoring_accuracy": pct(confusion.accuracy) if confusion else None,
            "paired_facts": confusion.facts if confusion else 0,
            "unverified": sum(unverified_items(result) for result in results),
            "unparseable": sum(u for _, _, u in units),
        })
    return pd.DataFrame(rows)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def parallel_key(line: dict[str, Any]) -> str | None:
    """What makes two items the same facts in two languages: the example's ``meta.parallel_id``, else its
    id with the language code taken out (``12-fr`` ~ ``12-en``) when the dataset itself gave the labelled
    units. Answers whose labels come from spans over the judge's own segments (Mu-SHROOM, whose
    ``val-fr-1`` and ``val-en-1`` are different questions) never pair by id."""
    gold = line["gold"]
    if gold.get("parallel_id"):
        return str(gold["parallel_id"])
    if not gold["segment_labels"]:
        return None
    language = str(line.get("language") or "").lower()
    tokens = re.split(r"[-_.]", str(line["example_id"]))
    kept = [t for t in tokens if t.lower() != language]
    return "-".join(kept) if language and len(kept) < len(tokens) else None


def agreement_rows(lines: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Per (set-up, language pair): agreement and Cohen's kappa of the labels given to the same segments
    of parallel items, with the human labels' own agreement as a reference row. Items whose segment
    counts differ cannot be aligned and are counted in ``unaligned``; empty when nothing pairs."""
    by_key: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
    for line in lines:
        key = parallel_key(line)
        if key is not None:
            by_key[(line["setup"], key)][str(line.get("language"))] = line
    pairs: dict[tuple[str, str, str], list[list[bool | None]]] = defaultdict(lambda: [[], []])
    items: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])  # aligned, unaligned
    human_seen: set[tuple[str, str, str]] = set()  # the human labels are the same under every set-up
    for (setup, key), by_language in sorted(by_key.items()):
        for lang_a, lang_b in itertools.combinations(sorted(by_language), 2):
            a, b = by_language[lang_a], by_language[lang_b]
            sides = {setup: (_predicted(a), _predicted(b))}
            if (key, lang_a, lang_b) not in human_seen:
                human_seen.add((key, lang_a, lang_b))
                sides[HUMAN] = (gold_segment_labels(a), gold_segment_labels(b))
            for who, (labels_a, labels_b) in sides.items():
                key3 = (who, lang_a, lang_b)
                if len(labels_a) != len(labels_b):
                    items[key3][1] += 1
                    continue
                items[key3][0] += 1
                pairs[key3][0].extend(labels_a)
                pairs[key3][1].extend(labels_b)
    rows = []
    for key3, (aligned, unaligned) in sorted(items.items()):
        agreement = metrics.cross_language_agreement(*pairs[key3])
        who, lang_a, lang_b = key3
        rows.append({"setup": who, "languages": f"{lang_a}-{lang_b}", "items": aligned,
                     "unaligned": unaligned, "facts": agreement.items, "agreement": pct(agreement.share),
                     "kappa": None if agreement.kappa is None else round(agreement.kappa, 3)})
    return pd.DataFrame(rows)


def _predicted(line: dict[str, Any]) -> list[bool | None]:
    return [{"true": True, "false": False}.get(v["label"]) for v in line["result"]["segment_verdicts"]]
