"""Which tables a run's report holds: each kind of data gets the tables of its protocol, and only those.

TRUE pairs get ROC AUC with intervals and p-values (and, given a dev run, test accuracy at
a dev-tuned threshold); FELM gets balanced accuracy per domain with the left-out items
beside every cell and its error-type table; answers with fact-level gold (FActScore,
Mu-SHROOM, Factbench, your own) get the multilingual FActScore tables and the span scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.compare import pairwise_differences
from factjudge.eval.metrics import MIN_ITEMS, MIN_PER_CLASS
from factjudge.eval.setup_name import SetupLabels
from factjudge.eval.summary import OVERALL, common_groups, felm_table, metric_rows, span_rows
from factjudge.eval.tables.felm import SMALL_NOTE, counted_cells, error_type_rows, error_type_table
from factjudge.eval.tables.lines import (
    FACTS,
    FELM,
    RAG,
    TRUE,
    as_result,
    family,
    has_gold,
    pct,
    predicted_facts,
    unverified_items,
)
from factjudge.eval.tables.multilingual import agreement_rows, factscore_rows
from factjudge.eval.tables.ragtruth import RESPONSE_NOTE, TYPE_NOTE, rag_rows, rag_type_rows
from factjudge.eval.tables.true_protocol import (
    BEST,
    ensemble_table,
    ensembles,
    roc_auc_intervals,
    threshold_table,
)

FAMILY_NAMES = {TRUE: "TRUE pairs", FELM: "FELM", FACTS: "answers with fact-level gold", RAG: "RAGTruth"}
COUNTS_NOTE = ("Each cell: the number, then uN = N unparseable (segments at segment level, answers at "
               "response level) and fN = N items that failed (errors.jsonl); neither is in the number. "
               "vN = N left unverified by the evidence: counted as not flagged, and shown apart.")
P_NOTE = ("n: the answers the ROC AUC rests on; unscored: gold-labelled answers left without an error score "
          "(no passage for any item, or unparseable), not in n, and a set-up with any is never the best. "
          "p_vs_best: paired bootstrap (1000 resamples of the examples both scored) of the ROC AUC "
          "difference against the best row of the same dataset; small = unlikely to be luck (0.0: no "
          "resample reversed the order, p < 0.001). Only the set-ups the grid asked for are ranked; in the "
          "CSV, best is true/false, p_vs_best a number or empty, and p_note says why it is empty.")
ENSEMBLE_NOTE = ("TRUE's ensemble: per answer, the mean error score of the set-ups that rank (not "
                 "constants), on the answers every one of them scored. No grid asked for it, so it is shown "
                 "here, never ranked with the set-ups above nor called their best.")


@dataclass
class Section:
    """One table of the report: title, what is printed (None: CSV only), what goes to CSV if other, a note."""

    title: str
    table: pd.DataFrame | None
    csv: str
    data: pd.DataFrame | None = None
    note: str = ""
    footnote: str = ""  # printed under the table: what a reader must know before trusting a cell


@dataclass
class ReportTables:
    """The sections in order, the frames the plots are drawn from, and the set-ups' labels."""

    sections: list[Section] = field(default_factory=list)
    # (" (FELM)" or "" when the run holds one kind of data, group) -> metric_rows
    rows_by_group: dict[tuple[str, str], pd.DataFrame] = field(default_factory=dict)
    spans: pd.DataFrame = field(default_factory=pd.DataFrame)
    ranked_lines: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # shown above every table
    labels: SetupLabels = field(default_factory=SetupLabels)  # what a person reads for each set-up id


def report_tables(lines: Sequence[dict[str, Any]], failures: Sequence[Mapping[str, Any]] = (),
                  dev_lines: Sequence[dict[str, Any]] | None = None,
                  labels: SetupLabels | None = None) -> ReportTables:
    """Every table the lines mean something for, per kind of data (``tables.lines.family``).

    Lines whose example no human labelled get only what the judge predicted, never a metric
    computed as if they had gold. ``labels``: the run's recorded set-up names (none: ids are shown);
    the result's ``labels`` add the ensembles its tables hold.
    """
    out = ReportTables(labels=labels or SetupLabels())
    unlabelled = [ln for ln in lines if not has_gold(ln)]
    lines = [ln for ln in lines if has_gold(ln)]
    if unlabelled:
        out.notes.append(_no_gold_note(len(unlabelled), len(lines)))
        out.sections.append(Section("What the judge predicted, on answers with no gold label",
                                    prediction_rows(unlabelled), "predictions_without_gold",
                                    note=PREDICTIONS_NOTE))
    families = sorted({family(ln) for ln in lines}, key=list(FAMILY_NAMES).index)
    by_example = {ln["example_id"]: family(ln) for ln in lines}
    for kind in families:
        part = [ln for ln in lines if family(ln) == kind]
        failed = [f for f in failures if _failure_family(f, by_example, families) == kind]
        # One kind of data (the usual run): plain titles and file names; several: each says which.
        suffix, prefix = (f" ({FAMILY_NAMES[kind]})", f"{kind}_") if len(families) > 1 else ("", "")
        before = len(out.sections)
        _balanced_accuracy(out, part, failed, kind, prefix, suffix)
        _ranking(out, part, dev_lines if kind == TRUE else None, prefix)
        _differences(out, part, kind, prefix, out.rows_by_group[(suffix, "domain")])
        if kind == FELM:
            _error_types(out, part, prefix)
        if kind == FACTS:
            _facts(out, part, prefix, out.rows_by_group.get((suffix, "language")))
        if kind == RAG:
            _ragtruth(out, part, prefix)
        for section in out.sections[before:]:
            section.title += suffix
    return out


PREDICTIONS_NOTE = ("Per set-up: the answers' labels as the judge gave them, and its predicted FActScore "
                    "(an unverified item counts as not supported), abstention (answers with no checked "
                    "fact) and facts per answer. With no human label, nothing here says how right it was.")


def _no_gold_note(unlabelled: int, labelled: int) -> str:
    """The warning above the tables of a run whose data (or part of it) has no human label."""
    what = "label, response_label, segment_labels, claim_labels or spans"
    if not labelled:
        return (f"No gold: no result of this run has a human label ({what}), so no metric of the judge "
                "(balanced accuracy, ROC AUC, FActScore against human) can be computed; the table shows "
                "what it predicted.")
    return (f"{unlabelled} results have no human label ({what}): they are left out of every metric and "
            "shown apart, as predictions only.")


def prediction_rows(lines: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Per set-up: how many answers got each label, and the predicted FActScore, abstention and facts."""
    rows = []
    for setup in sorted({ln["setup"] for ln in lines}):
        part = [as_result(ln["result"]) for ln in lines if ln["setup"] == setup]
        labels: list[str] = [result.label for result in part]
        facts = metrics.factscore([predicted_facts(result) for result in part])
        rows.append({"setup": setup, "answers": len(part),
                     **{label: labels.count(label) for label in ANSWER_LABELS},
                     "predicted_factscore": pct(facts.score_without_penalty),
                     "predicted_abstention": pct(facts.abstention_rate),
                     "facts_per_answer": None if facts.facts_per_response is None
                     else round(facts.facts_per_response, 2),
                     "unverified_items": sum(unverified_items(result) for result in part)})
    return pd.DataFrame(rows)


# The labels an answer can get, in the order the predictions table counts them.
ANSWER_LABELS = ("true", "false", "unverified", "not_checkable", "unparseable")


def _failure_family(record: Mapping[str, Any], by_example: dict[str, str], families: list[str]) -> str:
    if record["example_id"] in by_example:
        return by_example[record["example_id"]]
    if len(families) == 1:
        return families[0]
    return FELM if record.get("dataset") == "felm" else FACTS


def _groups(lines: Sequence[dict[str, Any]]) -> list[str]:
    return ["domain"] + (["language"] if len({ln.get("language") for ln in lines}) > 1 else [])


def _balanced_accuracy(out: ReportTables, lines: Sequence[dict[str, Any]],
                       failed: Sequence[Mapping[str, Any]], kind: str, prefix: str, suffix: str) -> None:
    """Segment- and response-level balanced accuracy per group, overall only over the common groups."""
    # A TRUE pair is one segment: its response level would repeat the segment level.
    shown = {"segment_ba": ("unparseable", "Segment-level balanced accuracy")}
    if kind != TRUE:
        shown["response_ba"] = ("unparseable_answers", "Response-level balanced accuracy")
    for group in _groups(lines):
        rows = metric_rows(lines, group, failures=failed)
        out.rows_by_group[(suffix, group)] = rows
        out.sections.append(Section(f"All metrics by {group}", None, f"{prefix}metrics_by_{group}",
                                    data=rows))
        for metric, (left_out, title) in shown.items():
            numbers = felm_table(rows, metric, group)
            if numbers.isna().all().all() and not rows[left_out].any() and not rows["failed"].any():
                continue
            cells = counted_cells(rows, metric, left_out, group)
            small = cells.apply(lambda column: column.str.contains("*", regex=False)).any().any()
            notes = (SMALL_NOTE if small else "", _failure_note(failed, out.labels))
            footnotes = [note for note in notes if note]
            out.sections.append(Section(f"{title} by {group}", cells, f"{prefix}{metric}_by_{group}",
                                        data=numbers, note=_overall_note(rows, metric, group),
                                        footnote="\n\n".join(footnotes)))


def _failure_note(failed: Sequence[Mapping[str, Any]], labels: SetupLabels) -> str:
    """Why items failed: the first error of each set-up (fN in a cell counts them)."""
    first: dict[str, str] = {}
    for record in failed:
        first.setdefault(str(record["setup"]), str(record.get("error") or "no error recorded"))
    if not first:
        return ""
    return ("Why items failed (first error per set-up; all in errors.jsonl): "
            + "; ".join(f"{labels(setup)}: {error}" for setup, error in sorted(first.items())) + ".")


def _overall_note(rows: pd.DataFrame, metric: str, group: str) -> str:
    every = sorted(str(v) for v in rows[group].unique() if v != OVERALL)
    common = common_groups(rows, metric, group)
    if not common:
        return f"No {group} has a number for every set-up, so there is no {OVERALL}. {COUNTS_NOTE}"
    left = [g for g in every if g not in common]
    leaving = f"; left out, as some set-up has no number there: {', '.join(left)}" if left else ""
    return (f"{OVERALL}: the mean over {', '.join(common)} (the {group}s every set-up has a number "
            f"for){leaving}. {COUNTS_NOTE}")


def _ranking(out: ReportTables, lines: Sequence[dict[str, Any]], dev_lines: Sequence[dict[str, Any]] | None,
             prefix: str) -> None:
    """ROC AUC with intervals and p-values; for TRUE given a dev run, accuracy at the dev-tuned threshold."""
    aucs = roc_auc_intervals(lines)
    if aucs.empty or aucs["roc_auc"].isna().all():
        return
    out.ranked_lines.extend(lines)
    out.labels = out.labels.with_ensembles(ensembles(lines))
    note = P_NOTE
    if dev_lines is None and family(lines[0]) == TRUE:
        note += (" For TRUE's test accuracy at a threshold tuned on dev, run "
                 "`factjudge report DEV_RUN --test THIS_RUN`.")
    out.sections.append(Section("ROC AUC for detecting errors, with bootstrap 95% intervals",
                                _without_intervals(aucs), f"{prefix}roc_auc", data=aucs, note=note,
                                footnote=_small_sample_note(aucs)))
    together = ensemble_table(lines)
    if not together.empty:
        out.sections.append(Section("TRUE's ensemble of the set-ups (not a set-up of the grid)",
                                    _without_intervals(together), f"{prefix}roc_auc_ensemble", data=together,
                                    note=ENSEMBLE_NOTE, footnote=_small_sample_note(together)))
    if dev_lines is not None:
        tuned = threshold_table(dev_lines, lines)
        out.sections.append(Section(
            "Test accuracy at the threshold tuned on the dev run (TRUE)", _without_intervals(tuned),
            f"{prefix}true_threshold",
            note="threshold: the error score maximising sqrt(TPR·(1−FPR)) on the dev run, one per set-up; "
                 "an item is flagged inconsistent at or above it. Accuracy, balanced accuracy and ROC AUC "
                 f"are on the test run. {P_NOTE}", data=tuned, footnote=_small_sample_note(tuned)))


# Every pair of set-ups is compared directly up to this many set-ups (6 pairs); beyond, the
# p_vs_best columns and Evaluation.compare(a, b) do it.
MAX_COMPARED = 4
DIFFERENCE_NOTE = ("A minus B on the answers both set-ups judged (n), in percentage points: the overall "
                   "number of each (balanced accuracy: the mean over the domains every set-up has a number "
                   "for; ROC AUC: pooled), the difference with its bootstrap 95% interval, and the paired-"
                   "bootstrap p-value (1000 resamples of those answers: the share in which the set-up ahead "
                   "is not ahead). An interval that excludes 0 and a small p: unlikely to be luck.")


def _differences(out: ReportTables, lines: Sequence[dict[str, Any]], kind: str, prefix: str,
                 rows: pd.DataFrame) -> None:
    """Two to ``MAX_COMPARED`` set-ups: each pair's A minus B, with its interval and p-value."""
    setups = sorted({ln["setup"] for ln in lines})
    if not 2 <= len(setups) <= MAX_COMPARED or rows.empty:
        return
    domains = {metric: common_groups(rows, metric) for metric in ("segment_ba", "response_ba")}
    # A TRUE pair is one segment: its response level would repeat the segment level.
    shown = ("segment_ba", "roc_auc") if kind == TRUE else ("segment_ba", "response_ba", "roc_auc")
    table = pairwise_differences(lines, setups, {**domains, "roc_auc": None}, shown)
    if table.empty:
        return
    printed = table.astype({"ci_low": object, "ci_high": object, "p_value": object})
    small = table["ci_low"].isna()
    for column in ("ci_low", "ci_high", "p_value"):
        printed.loc[small, column] = [f"n/a (n={n})" for n in table.loc[small, "n"]]
    printed[["a", "b"]] = printed[["a", "b"]].map(out.labels)
    out.sections.append(Section("A minus B: set-ups compared on the same answers", printed,
                                f"{prefix}differences", data=table, note=DIFFERENCE_NOTE,
                                footnote=_SMALL_DIFFERENCE if small.any() else ""))


_SMALL_DIFFERENCE = (f"n/a (n=…): fewer than {MIN_ITEMS} answers both judged (or, for ROC AUC, fewer than "
                     f"{MIN_PER_CLASS} of either class), so no interval or p-value is given.")


def _without_intervals(table: pd.DataFrame) -> pd.DataFrame:
    """The printed ROC AUC table: an interval left out for too few items says so, with the n; the
    p-value column reads ``best`` on the best row and ``n/a (why)`` where there is none (the data's
    columns stay typed: ``best``, ``p_vs_best`` and ``p_note``)."""
    if table.empty:
        return table
    small = table["roc_auc"].notna() & table["ci_low"].isna()
    shown = table.astype({"ci_low": object, "ci_high": object})
    for column in ("ci_low", "ci_high"):
        shown.loc[small, column] = [f"n/a (n={n})" for n in table.loc[small, "n"]]
    if "best" in table.columns:
        shown["p_vs_best"] = [_p_shown(row) for row in table.itertuples()]
        shown = shown.drop(columns=["best", "p_note"])
    return shown


def _p_shown(row: Any) -> Any:
    """A ranked row's p-value as printed: ``best``, the number, or ``n/a (why)``."""
    if row.best:
        return BEST
    if row.p_vs_best is not None and row.p_vs_best == row.p_vs_best:  # not None, not NaN
        return row.p_vs_best
    return f"n/a ({row.p_note})" if row.p_note else None


def _small_sample_note(table: pd.DataFrame) -> str:
    """The warning under a ROC AUC table with rows on too few items."""
    if table.empty or not (table["roc_auc"].notna() & table["ci_low"].isna()).any():
        return ""
    return (f"n/a (n=…): fewer than {MIN_ITEMS} items or fewer than {MIN_PER_CLASS} of either class, so no "
            "bootstrap interval or p-value is given; the ROC AUC of such a row is only indicative.")


def _error_types(out: ReportTables, lines: Sequence[dict[str, Any]], prefix: str) -> None:
    rows = error_type_rows(lines)
    if rows.empty:
        return
    typed = set(rows["error_type"]) - {"untyped", "all errors"}
    note = ("Recall per FELM error type: the share of human-labelled false segments of that type the set-up "
            "labelled false, over the parsed ones (caught/errors, uN unparseable, vN left unverified by the "
            "evidence: not caught, and shown apart). FELM types the errors of "
            "wk, science and writing_rec only; math and reasoning errors are untyped.")
    if not typed:
        note += " No line carries FELM's error types (runs written before they were kept)."
    out.sections.append(Section("Which of FELM's error types each set-up catches", error_type_table(rows),
                                f"{prefix}error_types", data=rows, note=note))


def _facts(out: ReportTables, lines: Sequence[dict[str, Any]], prefix: str,
           by_language: pd.DataFrame | None) -> None:
    """FActScore predicted vs human, cross-language agreement, and Mu-SHROOM's span scores."""
    scores = factscore_rows(lines)
    out.sections.append(Section(
        "FActScore, predicted against human, by language", scores, f"{prefix}factscore_by_language",
        note="difference = predicted − human (> 0: the judge over-estimates). An item the evidence left "
             "unverified counts as not supported in the predicted FActScore (an answer of unverified items "
             "scores 0 and is no abstention) and is in no tp/fn/fp/tn cell; unverified counts them. "
             "tp/fn/fp/tn: shares of the paired facts (human-labelled segments the judge decided true or "
             "false), positive = supported. γ=10: FActScore's length penalty on the predicted score."))
    agreement = agreement_rows(lines)
    if agreement.empty:
        out.sections.append(Section(
            "Cross-language agreement", agreement, f"{prefix}cross_language_agreement",
            note="No item is judged in two languages: no two items share a meta.parallel_id or an id that "
                 "differs only by its language code (with dataset-given segments)."))
    else:
        out.sections.append(Section(
            "Cross-language agreement on the same facts", agreement, f"{prefix}cross_language_agreement",
            note="Labels of the same segments of parallel items in two languages; 'human labels' is the "
                 "gold's own agreement. kappa: Cohen's."))
    spans = span_rows(lines)
    out.spans = spans
    if not spans.empty:
        out.sections.append(Section("Mu-SHROOM span scores", None, f"{prefix}spans_by_language", data=spans))
        for metric, title in (("span_iou", "Mu-SHROOM span IoU"), ("span_spearman", "Mu-SHROOM Spearman")):
            table = spans.pivot(index="setup", columns="language", values=metric)
            table["mean"] = table.mean(axis=1).round(1)
            out.sections.append(Section(f"{title} by language (mark-all and mark-none are the floors)", table,
                                        f"{prefix}{metric}_by_language"))
    if by_language is not None:
        summary = language_summary(by_language, spans)
        out.sections.append(Section("Per-language summary", summary, f"{prefix}per_language"))


def language_summary(rows: pd.DataFrame, spans: pd.DataFrame) -> pd.DataFrame:
    """One row per (set-up, language) of ``metric_rows(…, "language")``, with the span scores beside it."""
    rows = rows[rows["language"] != OVERALL][["setup", "language", "items", "segment_ba", "response_ba",
                                              "factscore", "abstention", "facts_per_answer"]]
    if not spans.empty:
        rows = rows.merge(spans[["setup", "language", "span_iou", "span_spearman"]], how="outer",
                          on=["setup", "language"])
    return rows.sort_values(["setup", "language"]).reset_index(drop=True)


def _ragtruth(out: ReportTables, lines: Sequence[dict[str, Any]], prefix: str) -> None:
    """RAGTruth: response- and span-level detection per task, and per error type."""
    out.sections.append(Section("RAGTruth: hallucinated answers and spans found, by task", rag_rows(lines),
                                f"{prefix}ragtruth_by_task", note=RESPONSE_NOTE))
    out.sections.append(Section("RAGTruth: recall per error type", rag_type_rows(lines),
                                f"{prefix}ragtruth_error_types", note=TYPE_NOTE))
