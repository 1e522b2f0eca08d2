"""The report's self-contained HTML page: tables, plots, and every judged answer, gold beside predicted.

The answers travel as JSON inside the page and are drawn by plain JavaScript (no server): a
set-up selector, a filter (all, disagreements, false negatives, false positives) and pages
of answers ordered by example id, so a run of thousands of answers stays one small file.
Text reaches the page only through ``html.escape`` or the DOM's ``textContent``.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from factjudge import explain
from factjudge.eval.setup_name import SetupLabels
from factjudge.eval.tables.lines import as_result, gold_segment_labels
from factjudge.records import CheckResult, Verdict

# Long passages are cut: the page shows what the judge read, not whole documents.
EVIDENCE_CHARS = 600
EVIDENCE_PASSAGES = 8
RATIONALE_CHARS = 1500
_COLUMNS = ("TP", "FN", "FP", "TN", "unverified", "unparseable")
# (gold error, predicted error) -> its cell of the confusion matrix; the error is the positive class
_CELL = {(True, True): "TP", (True, False): "FN", (False, True): "FP", (False, False): "TN"}


def _static(name: str) -> str:
    return resources.files("factjudge.eval").joinpath("static", name).read_text(encoding="utf-8")


def html_table(table: pd.DataFrame) -> str:
    """An escaped HTML table of a data frame (its named index becomes the first column).

    It sits in its own box that scrolls sideways, so a wide table is never cut at the page's edge.
    """
    frame = table.reset_index() if table.index.name else table
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{'' if pd.isna(v) else html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<div class=table-wrap><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def example_order(example_id: str) -> list[tuple[int, Any]]:
    """A sort key that puts felm-2 before felm-10."""
    return [(1, int(part)) if part.isdigit() else (0, part) for part in re.split(r"(\d+)", example_id)]


def _labelled(line: dict[str, Any], result: CheckResult) -> Iterator[tuple[str, bool, str]]:
    """(level, gold error, predicted label) of each item of one line (its ``result``) that has a human
    label."""
    gold = line["gold"]
    if gold["response_label"] is not None:
        yield "response", not gold["response_label"], result.label
    for label, verdict in zip(gold_segment_labels(line), result.segment_verdicts, strict=False):
        if label is not None:
            yield "segment", not label, verdict.label


def confusion_rows(lines: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per set-up and level: TP/FN/FP/TN with the error as the positive class, and apart from them the
    items the evidence left unverified and those that were unparseable (never folded into FN or TN)."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for line in lines:
        for level, gold_error, predicted in _labelled(line, as_result(line["result"])):
            cell = counts.setdefault((line["setup"], level), dict.fromkeys(_COLUMNS, 0))
            apart = predicted in ("unverified", "unparseable")
            name = predicted if apart else _CELL[(gold_error, predicted == "false")]
            cell[name] += 1
    rows = [{"setup": setup, "level": level, **cell} for (setup, level), cell in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["setup", "level", *_COLUMNS])


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " …"


def _evidence(result: CheckResult) -> list[list[str]]:
    """The distinct passages the judge read: [source, url or title, text]."""
    seen: dict[tuple[str, str, str], None] = {}
    for verdict in (*result.segment_verdicts, *result.claim_verdicts):
        for ev in verdict.evidence:
            seen.setdefault((ev.source, ev.url or ev.title or "", _cut(ev.text, EVIDENCE_CHARS)), None)
    return [list(key) for key in list(seen)[:EVIDENCE_PASSAGES]]


def _why(verdict: Verdict | None) -> str:
    """The rule that made the label, in the words every output uses (``explain.why``)."""
    if verdict is None:
        return "no verdict: the item was not judged"
    return _cut(explain.why(verdict), RATIONALE_CHARS)


def _rests_on(verdict: Verdict | None) -> str:
    """The passage a verdict rests on first, by title or address; "none" when it read none."""
    if verdict is None or verdict.label == "not_checkable":
        return ""
    if not verdict.evidence:
        return "none"
    first = verdict.evidence[0]
    return first.title or first.url or first.source


def _error_score(verdict: Verdict | None) -> str:
    return "" if verdict is None or verdict.error_score is None else f"{verdict.error_score:.2f}"


def _gold_text(label: bool | None) -> str | None:
    return None if label is None else ("true" if label else "false")


def item_record(line: dict[str, Any], setup: int, example: int) -> dict[str, Any]:
    """What the page draws for one judged answer, in short keys (the page may hold thousands)."""
    result = as_result(line["result"])
    gold_segments = gold_segment_labels(line)
    predicted = {v.target_id: v for v in result.segment_verdicts}
    segments = []
    for index, seg in enumerate(result.segments):
        verdict = predicted.get(seg.id)
        gold = gold_segments[index] if index < len(gold_segments) else None
        # A located segment's text is the answer's own (the page slices it): not sent twice.
        text = "" if seg.start >= 0 else seg.text
        segments.append({"id": seg.id, "start": seg.start, "end": seg.end, "text": text,
                         "pred": verdict.label if verdict else "not_checkable", "gold": _gold_text(gold),
                         "es": _error_score(verdict), "why": _why(verdict), "src": _rests_on(verdict)})
    gold_claims = line["gold"].get("claim_labels") or []
    claim_verdicts = {v.target_id: v for v in result.claim_verdicts}
    claims = []
    for index, claim in enumerate(result.claims):
        verdict = claim_verdicts.get(claim.id)
        claims.append({"segment": claim.segment_id, "text": claim.text,
                       "pred": verdict.label if verdict else "not_checkable",
                       "gold": _gold_text(gold_claims[index]) if index < len(gold_claims) else None,
                       "es": _error_score(verdict), "why": _why(verdict), "src": _rests_on(verdict)})
    pairs = [(g, p == "false") for _, g, p in _labelled(line, result)
             if p not in ("unparseable", "unverified")]
    # n: a gold error the judge called true (false negative); p: the reverse (false positive)
    flags = "n" * any(g and not p for g, p in pairs) + "p" * any(p and not g for g, p in pairs)
    return {"s": setup, "e": example, "label": result.label, "score": result.error_score,
            "segments": segments, "claims": claims, "marks": [[s.start, s.end] for s in result.spans],
            "evidence": _evidence(result), "flags": flags}


def page_data(lines: Sequence[dict[str, Any]], labels: SetupLabels | None = None) -> dict[str, Any]:
    """Set-ups (ids and ``labels``), examples (answer and gold labels once each), passages and items
    ordered by example id."""
    labels = labels or SetupLabels()
    setups = sorted({ln["setup"] for ln in lines})
    ordered = sorted(lines, key=lambda ln: (example_order(ln["example_id"]), ln["setup"]))
    examples: dict[str, int] = {}
    example_rows: list[dict[str, Any]] = []
    items = []
    passages: dict[tuple[str, ...], int] = {}
    for line in ordered:
        if line["example_id"] not in examples:
            examples[line["example_id"]] = len(example_rows)
            gold = line["gold"]
            example_rows.append({"id": line["example_id"], "question": line["result"]["question"],
                                 "answer": line["result"]["answer"], "domain": line.get("domain") or "",
                                 "language": line.get("language") or "",
                                 "gold": _gold_text(gold["response_label"]),
                                 "spans": [list(s[:2]) for s in gold.get("spans") or []]})
        item = item_record(line, setups.index(line["setup"]), examples[line["example_id"]])
        # Set-ups that read the same documents share their passages: each is sent once.
        item["evidence"] = [passages.setdefault(tuple(ev), len(passages)) for ev in item["evidence"]]
        items.append(item)
    return {"setups": setups, "setup_labels": [labels(s) for s in setups], "examples": example_rows,
            "items": items,
            "passages": [list(p) for p in passages]}


def _script_json(data: Any) -> str:
    """JSON that cannot close the script element it sits in (``</script>``) or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_ANSWERS = """<h2 id=answers>Judged answers</h2>
<p class=legend>Background: the judge's verdict on each segment
(<span class='seg seg-true'>predicted true</span>, <span class='seg seg-false'>predicted false</span>,
<span class='seg seg-unparseable'>unparseable</span>); underline: the human label
(<span class='seg gold-true'>gold true</span>, <span class='seg gold-false'>gold false</span>);
<mark class=err>words the judge called wrong</mark>; <span class=gold-span>words the annotators
marked wrong</span>. A false negative is a gold error the judge called true; a false positive, a
gold-true item it called false.</p>
<div class=controls><label>Set-up <select id=setup></select></label>
<label>Show <select id=filter><option value=all>all</option><option value=np>disagreements</option>
<option value=n>false negatives</option><option value=p>false positives</option></select></label>
<button id=prev type=button>previous</button> <span id=page-info></span>
<button id=next type=button>next</button></div>
<div id=items></div>"""


def page(manifest: dict[str, Any], lines: Sequence[dict[str, Any]], run_dir: Path,
         sections: Sequence[tuple[str, pd.DataFrame, str, str]], images: Sequence[tuple[str, bytes]],
         notes: Sequence[str] = (), labels: SetupLabels | None = None) -> str:
    """The whole page: header, tables, plots, confusion matrices and the judged answers.

    Each section is (title, table, the note above it, the footnote under it); ``labels`` name the
    set-ups (none: by their ids).
    """
    labels = labels or SetupLabels()
    parts = [f"<h1>factjudge report: {html.escape(str(manifest.get('dataset', run_dir.name)))}</h1>",
             f"<p>{len(lines)} results · factjudge {html.escape(str(manifest.get('version', '?')))} · "
             f"dataset hash {html.escape(str(manifest.get('dataset_hash', '?')))}. Metrics are "
             "percentages with the error as the positive class; unparseable items are excluded and "
             "counted, and so are unverified ones in the confusion matrices.</p>"]
    parts += [f"<p class=note>{html.escape(note)}</p>" for note in notes]
    for title, table, note, footnote in sections:
        parts.append(f"<h2>{html.escape(title)}</h2>")
        parts.append(f"<p>{html.escape(note)}</p>" if note else "")
        parts.append(html_table(table))
        parts += [f"<p class=note>{html.escape(text)}</p>" for text in footnote.split("\n\n") if text]
    for title, data in images:
        encoded = base64.b64encode(data).decode()
        parts.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' "
                     f"src='data:image/png;base64,{encoded}'>")
    confusion = confusion_rows(lines)
    if not confusion.empty:
        parts.append("<h2>Confusion matrices (gold × predicted, the error is the positive class)</h2>"
                     f"<div id=confusion>{html_table(labels.tables(confusion))}</div>")
    parts.append(_ANSWERS)
    payload = _script_json(page_data(lines, labels))
    parts.append(f"<script type=application/json id=report-data>{payload}</script>")
    return ("<!doctype html><html lang=en><head><meta charset=utf-8><title>factjudge report</title>"
            f"<link rel=icon href='data:,'><style>{_static('report.css')}</style></head>"
            f"<body>{''.join(parts)}<script>{_static('report.js')}</script></body></html>")
