"""``factjudge report RUN_DIR``: markdown and CSV tables, PNG plots and one self-contained HTML page.

The page itself (gold beside predicted for every answer) is drawn by ``report_html``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from factjudge.errors import InputError
from factjudge.eval.report_html import page as report_page
from factjudge.eval.results import read_lines
from factjudge.eval.runner import MANIFEST, RESULTS
from factjudge.eval.summary import OVERALL, felm_table, metric_rows, roc_auc_intervals, span_rows


def _model_notes(lines: Sequence[dict[str, Any]]) -> list[str]:
    """The caveat of each model that judged in the run, once each."""
    notes = (ln["result"].get("model_note") for ln in lines)
    return list(dict.fromkeys(n for n in notes if n))


def markdown_table(table: pd.DataFrame) -> str:
    """A pipe table; written by hand so no optional dependency (tabulate) is needed."""
    if table.empty:
        return "(no rows)\n"
    frame = table.reset_index() if table.index.name else table
    cols = [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join("" if pd.isna(v) else str(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return buffer.getvalue()


def _domain_bars(rows: pd.DataFrame, group: str, metric: str) -> bytes | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    part = rows[rows[group] != OVERALL].pivot(index=group, columns="setup", values=metric)
    if part.dropna(how="all").empty:
        return None
    figure, axis = plt.subplots(figsize=(8, 3.5))
    part.plot.bar(ax=axis, rot=0)
    axis.axhline(50, color="grey", linewidth=0.8, linestyle="--")
    axis.set_ylabel(metric.replace("_", " "))
    axis.set_ylim(0, 100)
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    data = _png(figure)
    plt.close(figure)
    return data


def _roc_curves(lines: Sequence[dict[str, Any]]) -> bytes | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.metrics import roc_curve

    figure, axis = plt.subplots(figsize=(4.5, 4.5))
    drawn = False
    for setup in sorted({ln["setup"] for ln in lines}):
        pairs = [(not ln["gold"]["response_label"], ln["result"]["error_score"]) for ln in lines
                 if ln["setup"] == setup and ln["gold"]["response_label"] is not None
                 and ln["result"]["error_score"] is not None]
        if len({g for g, _ in pairs}) < 2:
            continue
        fpr, tpr, _ = roc_curve([g for g, _ in pairs], [s for _, s in pairs])
        axis.plot(fpr, tpr, label=setup)
        drawn = True
    if not drawn:
        plt.close(figure)
        return None
    axis.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--")
    axis.set_xlabel("false positive rate")
    axis.set_ylabel("true positive rate (errors found)")
    axis.legend(fontsize=6)
    data = _png(figure)
    plt.close(figure)
    return data


def language_summary(lines: Sequence[dict[str, Any]], spans: pd.DataFrame) -> pd.DataFrame:
    """One row per (set-up, language): accuracy, span scores, FActScore, abstention, facts per answer."""
    rows = metric_rows(lines, "language")
    rows = rows[rows["language"] != OVERALL][["setup", "language", "items", "segment_ba", "response_ba",
                                              "factscore", "abstention", "facts_per_answer"]]
    if not spans.empty:
        rows = rows.merge(spans[["setup", "language", "span_iou", "span_spearman"]], how="outer",
                          on=["setup", "language"])
    return rows.sort_values(["setup", "language"]).reset_index(drop=True)


def write_report(run_dir: Path) -> dict[str, Path]:
    """Write every table, plot and the HTML page into ``run_dir/report``; return their paths."""
    lines = list(read_lines(run_dir / RESULTS))
    if not lines:
        raise InputError(f"{run_dir} has no results yet ({RESULTS} is missing or empty)")
    manifest_path = run_dir / MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {}
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    paths: dict[str, Path] = {}
    # (title, table) pairs, computed once and rendered both as markdown and as HTML
    sections: list[tuple[str, pd.DataFrame]] = []
    images: list[tuple[str, bytes]] = []

    languages = {ln.get("language") for ln in lines}
    groups = ["domain"] + (["language"] if len(languages) > 1 else [])
    for group in groups:
        rows = metric_rows(lines, group)
        rows.to_csv(out / f"metrics_by_{group}.csv", index=False)
        paths[f"metrics_by_{group}"] = out / f"metrics_by_{group}.csv"
        for metric, title in (("segment_ba", "Segment-level balanced accuracy"),
                              ("response_ba", "Response-level balanced accuracy"),
                              ("factscore", "FActScore (share of judged items supported)"),
                              ("factscore_gamma10", "FActScore with the length penalty (γ = 10)")):
            table = felm_table(rows, metric, group)
            if table.isna().all().all():
                continue
            name = f"{metric}_by_{group}"
            table.to_csv(out / f"{name}.csv")
            paths[name] = out / f"{name}.csv"
            sections.append((f"{title} by {group}", table.round(1)))
        bars = _domain_bars(rows, group, "segment_ba")
        if bars:
            images.append((f"Segment-level balanced accuracy by {group}", bars))

    aucs = roc_auc_intervals(lines)
    if not aucs.dropna(subset=["roc_auc"]).empty:
        aucs.to_csv(out / "roc_auc.csv", index=False)
        paths["roc_auc"] = out / "roc_auc.csv"
        sections.append(("ROC AUC for detecting errors, with bootstrap 95% intervals", aucs))
        curves = _roc_curves(lines)
        if curves:
            images.append(("ROC curves (response level)", curves))

    spans = span_rows(lines)
    if not spans.empty:
        spans.to_csv(out / "spans_by_language.csv", index=False)
        paths["spans_by_language"] = out / "spans_by_language.csv"
        for metric, title in (("span_iou", "Mu-SHROOM span IoU"), ("span_spearman", "Mu-SHROOM Spearman")):
            table = spans.pivot(index="setup", columns="language", values=metric)
            table["mean"] = table.mean(axis=1).round(1)
            heading = f"{title} by language (mark-all and mark-none are the floors)"
            sections.append((heading, table))
        bars = _domain_bars(spans.rename(columns={"span_iou": "iou"}), "language", "iou")
        if bars:
            images.append(("Mu-SHROOM span IoU by language", bars))
    if "language" in groups:
        per_language = language_summary(lines, spans)
        per_language.to_csv(out / "per_language.csv", index=False)
        paths["per_language"] = out / "per_language.csv"
        sections.append(("Per-language summary", per_language))

    for i, (_title, data) in enumerate(images, start=1):
        (out / f"plot{i}.png").write_bytes(data)
        paths[f"plot{i}"] = out / f"plot{i}.png"

    header = [f"# factjudge report: {manifest.get('dataset', run_dir.name)}", "",
              f"{len(lines)} results; factjudge {manifest.get('version', '?')}; dataset hash "
              f"{manifest.get('dataset_hash', '?')}. Metrics are percentages; the error is the "
              "positive class; unparseable items are excluded and counted.", ""]
    header += [f"> {note}\n" for note in _model_notes(lines)]
    markdown = "\n".join(header) + "\n".join(f"## {t}\n\n{markdown_table(table)}" for t, table in sections)
    (out / "report.md").write_text(markdown, encoding="utf-8")
    paths["markdown"] = out / "report.md"
    page = report_page(manifest, lines, run_dir, sections, images, notes=_model_notes(lines))
    (out / "report.html").write_text(page, encoding="utf-8")
    paths["html"] = out / "report.html"
    return paths

