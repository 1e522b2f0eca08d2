"""What the report's tables read off a result line: its kind of data, its gold labels, the failed items.

A line's result is read as a ``CheckResult`` (``as_result``): its items, false spans and scores are the
result's own (``CheckResult.item_verdicts``, ``false_spans``), never re-derived from the JSON here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from factjudge.records import CheckResult

TRUE, FELM, FACTS = "true", "felm", "facts"
RAG = "ragtruth"  # RAG answers with typed gold spans: a dataset's name, as FELM's is


def pct(value: float | None) -> float | None:
    """A share as a percentage with one decimal; None stays None."""
    return None if value is None else round(100 * value, 1)


def is_true_pair(line: dict[str, Any]) -> bool:
    """A TRUE (grounding, text) pair; lines written before ``grounded`` existed say so by their domain."""
    gold = line["gold"]
    return bool(gold["grounded"]) if "grounded" in gold else line.get("domain") == "dialogue"


def family(line: dict[str, Any]) -> str:
    """Which protocol's tables a line belongs to: TRUE pairs, FELM, RAGTruth, or answers with fact-level
    gold."""
    if line.get("dataset") == RAG:
        return RAG
    if is_true_pair(line):
        return TRUE
    return FELM if line.get("dataset") == "felm" else FACTS


def has_gold(line: dict[str, Any]) -> bool:
    """Whether a human labelled anything of the line's example (Mu-SHROOM's span-free answers count:
    they are labelled all correct)."""
    gold = line["gold"]
    labels = [gold.get("response_label"), *(gold.get("segment_labels") or ()),
              *(gold.get("claim_labels") or ())]
    return (any(label is not None for label in labels) or bool(gold.get("spans") or gold.get("soft_spans"))
            or line.get("dataset") == "mushroom")


def as_result(result: CheckResult | Mapping[str, Any]) -> CheckResult:
    """A line's result as a CheckResult: read with ``CheckResult.from_dict`` (a JSON result line's), or
    as it is."""
    return result if isinstance(result, CheckResult) else CheckResult.from_dict(dict(result))


def predicted_facts(result: CheckResult | Mapping[str, Any]) -> list[bool]:
    """Whether each checked fact of a result is supported, as FActScore scores it: an item the evidence
    left unverified is not supported (the knowledge source does not back it), never left out, so
    an answer of unverified items scores 0, not 100, and is no abstention. Items that are not
    checkable or were unparseable are not facts the judge decided and are left out (counted apart).

    The facts are the result's items (``CheckResult.item_verdicts``), those faithfulness counts: a
    segment whose extraction gave no claims is judged whole and is one fact."""
    items = as_result(result).item_verdicts()
    return [v.label == "true" for _, v in items if v.label in ("true", "false", "unverified")]


def unverified_items(result: CheckResult | Mapping[str, Any]) -> int:
    """How many checked items of a result (``CheckResult.item_verdicts``) the evidence left unverified."""
    return sum(v.label == "unverified" for _, v in as_result(result).item_verdicts())


def gold_segment_labels(line: dict[str, Any]) -> list[bool | None]:
    """Human segment labels; for span-annotated data (Mu-SHROOM), true when no hard span overlaps."""
    labels: list[bool | None] = line["gold"]["segment_labels"]
    spans = line["gold"].get("spans") or []
    if labels or line.get("dataset") != "mushroom":
        return labels
    return [not any(seg["start"] < end and start < seg["end"] for start, end in spans)
            for seg in line["result"]["segments"]]


def failed_items(errors: Iterable[dict[str, Any]], lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Error records of items that never produced a result, each with its example's domain and language.

    A resumed run may have finished an item that failed before, so only items still
    missing from the results count. Records written before errors carried the domain
    take it from the same example's results under another set-up.
    """
    done = {(ln["example_id"], ln["setup"]) for ln in lines}
    known = {ln["example_id"]: ln for ln in lines}
    failed: dict[tuple[str, str], dict[str, Any]] = {}
    for record in errors:
        key = (record["example_id"], record["setup"])
        if key in done:
            continue
        other = known.get(record["example_id"], {})
        failed[key] = {**record, **{k: record.get(k, other.get(k)) for k in ("domain", "language")}}
    return list(failed.values())
