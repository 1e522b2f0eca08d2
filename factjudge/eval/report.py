"""``factjudge report RUN_DIR``: markdown and CSV tables, PNG plots and one self-contained HTML page."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from factjudge.errors import InputError
from factjudge.eval.metrics import MIN_ITEMS
from factjudge.eval.report_html import page as report_page
from factjudge.eval.report_tables import Section, report_tables
from factjudge.eval.results import read_json, read_lines, read_results
from factjudge.eval.runner import ERRORS, MANIFEST, RESULTS
from factjudge.eval.setup_name import SetupLabels
from factjudge.eval.summary import OVERALL
from factjudge.eval.tables.lines import TRUE, failed_items, family


def _model_notes(lines: Sequence[dict[str, Any]]) -> list[str]:
    """The caveat of each model that judged in the run, once each."""
    notes = (ln["result"].get("model_note") for ln in lines)
    return list(dict.fromkeys(n for n in notes if n))


def small_run_warning(lines: Sequence[dict[str, Any]]) -> str:
    """The warning above every table of a run where no set-up judged ``MIN_ITEMS`` items; else ""."""
    per_setup = Counter(ln["setup"] for ln in lines)
    least, most = min(per_setup.values()), max(per_setup.values())
    if most >= MIN_ITEMS:
        return ""
    items = f"{most} item{'s' if most != 1 else ''}" if least == most else f"{least} to {most} items"
    return (f"Warning: this run judged {items} per set-up (fewer than {MIN_ITEMS}): its figures are a "
            "first look, not a result. Cells marked * or n/a (n=…) show the n each rests on.")


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


def bar_frame(rows: pd.DataFrame, group: str, metric: str, labels: Callable[[str], str]) -> pd.DataFrame:
    """What a bar chart draws: ``metric`` per group (rows) and set-up (columns, by their ``labels``).

    A set-up with no number in any group draws no bar, so it is left out (of the legend too).
    """
    part = rows[rows[group] != OVERALL].pivot(index=group, columns="setup", values=metric)
    return part.dropna(axis="columns", how="all").dropna(how="all").rename(columns=labels)


def _domain_bars(rows: pd.DataFrame, group: str, metric: str, labels: SetupLabels) -> bytes | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    part = bar_frame(rows, group, metric, labels)
    if part.empty:
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


def _roc_curves(lines: Sequence[dict[str, Any]], labels: SetupLabels) -> bytes | None:
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
        axis.plot(fpr, tpr, label=labels(setup))
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


def _read_run(run_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A run's result lines and manifest; a run with no results is an input error."""
    if not run_dir.is_dir():
        raise InputError(f"{run_dir} is not a directory")
    lines = read_results(run_dir / RESULTS)
    if not lines:
        raise InputError(f"{run_dir} has no results yet ({RESULTS} is missing or empty)")
    manifest_path = run_dir / MANIFEST
    manifest = read_json(manifest_path) if manifest_path.exists() else {}
    return lines, manifest


def _dev_lines(dev_dir: Path, test_dir: Path, test_lines: Sequence[dict[str, Any]],
               test_manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The dev run's TRUE lines, once it is sure the two runs make a dev/test pair of TRUE runs."""
    lines, manifest = _read_run(dev_dir)
    dev = [ln for ln in lines if family(ln) == TRUE]
    for run, part in ((dev_dir, dev), (test_dir, [ln for ln in test_lines if family(ln) == TRUE])):
        if not part:
            raise InputError(f"{run} holds no TRUE (grounding, text) pairs: --test tunes TRUE's threshold "
                             "on a dev run of pairs and applies it to a test run of pairs")
    digest = manifest.get("dataset_hash")
    if digest and digest == test_manifest.get("dataset_hash"):
        raise InputError(f"{dev_dir} and {test_dir} ran over the same data (dataset hash {digest}): "
                         "tune on a dev run over other examples")
    if not {ln["setup"] for ln in dev} & {ln["setup"] for ln in test_lines}:
        raise InputError(f"{dev_dir} and {test_dir} have no set-up in common: no threshold to apply")
    return dev


def write_report(run_dir: Path, test_dir: Path | None = None) -> dict[str, Path]:
    """Write every table, plot and the HTML page into ``run_dir/report``; return their paths.

    With ``test_dir``, ``run_dir`` is a TRUE dev run: each set-up's threshold is tuned on it
    and the report, on the test run, goes into ``test_dir/report``.
    """
    report_dir = test_dir or run_dir
    lines, manifest = _read_run(report_dir)
    dev = _dev_lines(run_dir, test_dir, lines, manifest) if test_dir is not None else None
    failures = failed_items(read_lines(report_dir / ERRORS), lines)
    out = report_dir / "report"
    out.mkdir(exist_ok=True)
    paths: dict[str, Path] = {}
    built = report_tables(lines, failures, dev, SetupLabels.recorded(manifest))
    for section in built.sections:
        data = section.data if section.data is not None else section.table
        if data is not None and not data.empty:
            data.to_csv(out / f"{section.csv}.csv", index=data.index.name is not None)
            paths[section.csv] = out / f"{section.csv}.csv"

    images: list[tuple[str, bytes]] = []
    for (suffix, group), rows in built.rows_by_group.items():
        bars = _domain_bars(rows, group, "segment_ba", built.labels)
        if bars:
            images.append((f"Segment-level balanced accuracy by {group}{suffix}", bars))
    curves = _roc_curves(built.ranked_lines, built.labels) if built.ranked_lines else None
    if curves:
        images.append(("ROC curves (response level)", curves))
    if not built.spans.empty:
        bars = _domain_bars(built.spans.rename(columns={"span_iou": "iou"}), "language", "iou", built.labels)
        if bars:
            images.append(("Mu-SHROOM span IoU by language", bars))
    for i, (_title, data) in enumerate(images, start=1):
        (out / f"plot{i}.png").write_bytes(data)
        paths[f"plot{i}"] = out / f"plot{i}.png"

    header = [f"# factjudge report: {manifest.get('dataset', report_dir.name)}", "",
              f"{len(lines)} results, {len(failures)} failed; factjudge {manifest.get('version', '?')}; "
              f"dataset hash {manifest.get('dataset_hash', '?')}. Metrics are percentages; the error is the "
              "positive class; unparseable and failed items are excluded and counted.", ""]
    if dev is not None:
        header += [f"Thresholds tuned on the dev run {run_dir} ({len(dev)} results).", ""]
    warnings = [*built.notes, *(w for w in (small_run_warning(lines),) if w)]
    header += [f"> {note}\n" for note in [*warnings, *_model_notes(lines)]]
    printed = [s for s in built.sections if s.table is not None]
    markdown = "\n".join(header) + "\n" + "\n".join(_markdown_section(s, built.labels) for s in printed)
    # A dataset's lone surrogate ("\ud800") has no UTF-8: shown as that escape, not a crash.
    (out / "report.md").write_text(markdown, encoding="utf-8", errors="backslashreplace")
    paths["markdown"] = out / "report.md"
    # The notes go with their tables: a starred cell or an fN count means nothing without them.
    html_sections = [(s.title, built.labels.tables(s.table), s.note, s.footnote) for s in printed
                     if s.table is not None and not s.table.empty]
    page = report_page(manifest, lines, report_dir, html_sections, images,
                       notes=[*warnings, *_model_notes(lines)], labels=built.labels)
    (out / "report.html").write_text(page, encoding="utf-8", errors="backslashreplace")
    paths["html"] = out / "report.html"
    return paths


def _markdown_section(section: Section, labels: SetupLabels) -> str:
    """A heading, the note, and the table (only the note when the table has no rows)."""
    parts = [f"## {section.title}\n"]
    if section.note:
        parts.append(f"{section.note}\n")
    if section.table is not None and not section.table.empty:
        parts.append(markdown_table(labels.tables(section.table)))
    if section.footnote:
        parts.append(f"{section.footnote}\n")
    return "\n".join(parts)
