"""Reports count unverified answers apart and print the n each figure rests on (issue 34, point 10).

Before: the FActScore table predicted 100.0 on answers whose items were unverified and showed
unverified-only answers as abstention; ROC AUC dropped answers with no error score silently and still
called the row "best"; the confusion matrix folded unverified items into FN/TN.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from factjudge.eval.report import write_report
from factjudge.eval.report_tables import report_tables
from factjudge.eval.summary import OVERALL, metric_rows
from factjudge.eval.tables.multilingual import factscore_rows
from factjudge.eval.tables.true_protocol import roc_auc_intervals
from tests.eval.report_fixtures import line, write_run


def labelled(example_id: str, setup: str, preds: list[str], label: str, *, gold: bool = True,
             error_score: float | None = None, dataset: str = "mine") -> dict[str, Any]:
    """A line whose answer label is ``label`` (the fixture would call an unverified answer true)."""
    out = line(example_id, setup, preds, gold=[gold] * len(preds), dataset=dataset, response_label=gold,
               error_score=error_score)
    out["result"]["label"] = label
    return out


def test_factscore_counts_unverified_items_as_not_supported_and_never_as_abstention() -> None:
    lines = [labelled("a1", "evidence", ["true", "unverified", "unverified", "unverified"], "unverified"),
             labelled("a2", "evidence", ["unverified", "unverified"], "unverified"),
             labelled("a3", "evidence", ["not_checkable"], "not_checkable")]
    [row] = factscore_rows(lines).to_dict("records")
    assert row["predicted_factscore"] == 12.5  # (1/4 + 0/2) / 2; was 100.0 on the first two
    assert row["predicted_abstention"] == pytest.approx(33.3)  # only the opinion-only answer abstains
    assert row["unverified"] == 5
    assert row["paired_facts"] == 1  # an unverified segment is in no TP/FN/FP/TN cell
    assert (row["tp"], row["fn"], row["fp"], row["tn"]) == (100.0, 0.0, 0.0, 0.0)
    overall = metric_rows(lines).set_index("domain").loc[OVERALL]
    assert overall["factscore"] == 12.5 and overall["abstention"] == pytest.approx(33.3)


def roc_lines() -> list[dict[str, Any]]:
    """Five answers (three wrong); ``judge`` leaves two unscored and ranks its other three perfectly."""
    gold = {"e1": True, "e2": True, "e3": False, "e4": False, "e5": False}
    judge = {"e1": 0.1, "e2": None, "e3": 0.9, "e4": 0.8, "e5": None}
    scorer = {"e1": 0.2, "e2": 0.6, "e3": 0.9, "e4": 0.5, "e5": 0.7}
    out = []
    for example, consistent in gold.items():
        score = judge[example]
        out.append(labelled(example, "judge", ["unverified" if score is None else "true"],
                            "unverified" if score is None else "true", gold=consistent, error_score=score))
        out.append(labelled(example, "scorer", ["true"], "true", gold=consistent,
                            error_score=scorer[example]))
    return out


def test_roc_auc_states_its_n_and_never_calls_a_row_best_on_dropped_answers() -> None:
    table = roc_auc_intervals(roc_lines()).set_index("setup")
    assert table.loc["judge", "roc_auc"] == 100.0 and table.loc["scorer", "roc_auc"] == 83.3
    assert (table.loc["judge", "n"], table.loc["judge", "unscored"]) == (3, 2)
    assert (table.loc["scorer", "n"], table.loc["scorer", "unscored"]) == (5, 0)
    # The higher ROC AUC rests on 3 of 5 answers: the complete row is the best.
    assert table["best"].tolist() == [False, True] and table.index.tolist() == ["judge", "scorer"]
    assert pd.isna(table.loc["judge", "p_vs_best"]) and table["p_vs_best"].dtype == float
    assert table.loc["judge", "p_note"] == "n=3, 2 answers unscored: not ranked"
    only_judge = roc_auc_intervals([ln for ln in roc_lines() if ln["setup"] == "judge"])
    assert only_judge["best"].tolist() == [False] and only_judge["p_vs_best"].isna().all()
    assert only_judge["p_note"].tolist() == ["2 answers unscored; no set-up scored every answer"]


def test_metric_rows_count_unverified_and_unscored_answers_and_the_roc_n() -> None:
    overall = metric_rows(roc_lines()).set_index(["setup", "domain"])
    judge = overall.loc[("judge", OVERALL)]
    assert (judge["roc_auc"], judge["roc_auc_n"], judge["unscored_answers"]) == (100.0, 3, 2)
    assert judge["unverified_answers"] == 2 and judge["unverified"] == 2
    assert overall.loc[("scorer", OVERALL), "roc_auc_n"] == 5


def test_the_report_prints_the_n_unscored_answers_and_unverified_answers(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path / "run", roc_lines(), "h")
    markdown = write_report(run_dir)["markdown"].read_text(encoding="utf-8")
    assert "| setup | dataset | n | unscored | roc_auc |" in markdown
    assert "| judge | mine | 3 | 2 | 100.0 |" in markdown and "| scorer | mine | 5 | 0 | 83.3 |" in markdown
    assert "a set-up with any is never the best" in markdown
    built = report_tables(roc_lines())
    response = next(s for s in built.sections if s.title.startswith("Response-level balanced accuracy"))
    assert response.table is not None
    assert response.table.loc["judge", "overall"].endswith("v2)")  # unverified answers shown apart


def test_felm_error_types_show_unverified_errors_apart() -> None:
    from factjudge.eval.tables.felm import error_type_rows, error_type_table

    lines = [line("f1", "evidence", ["unverified", "false"], gold=[False, False],
                  error_types=["knowledge_error", "knowledge_error"])]
    table = error_type_table(error_type_rows(lines))
    assert table.loc["evidence", "knowledge_error"] == "50.0 (1/2, u0 v1)"
