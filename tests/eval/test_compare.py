"""Set-ups compared on the same answers (issue 35, point 9): readable names, intervals and p-values in
``evaluate``'s summary, and a direct "A minus B, with its interval and p-value" in the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import factjudge
from factjudge.eval import metrics
from factjudge.eval.compare import difference_rows, interval_columns, metric_of, metric_units
from factjudge.eval.datasets import load_dataset
from factjudge.eval.report import write_report
from factjudge.eval.tables.true_protocol import roc_auc_intervals
from tests.eval.report_fixtures import line

ROOT = Path(__file__).resolve().parents[2]
BEGIN = ROOT.parent / "shared" / "data" / "begin_dev_wow.tsv"


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory: pytest.TempPathFactory) -> factjudge.eval.evaluate.Evaluation:
    if not BEGIN.exists():
        pytest.skip("needs ../shared/data")
    run_dir = tmp_path_factory.mktemp("compare") / "run"
    return factjudge.evaluate(load_dataset(BEGIN)[:60], {"strategy": ["token_f1", "bm25"]}, run_dir=run_dir)


def test_the_summary_names_set_ups_for_people_and_has_intervals_and_p_values(evaluation: Any) -> None:
    summary = evaluation.summary.set_index("setup")
    assert set(summary["name"]) == {"token_f1 · segment · no model", "bm25 · segment · no model"}
    for metric in ("segment_ba", "response_ba", "roc_auc"):
        for column in ("ci_low", "ci_high", "p_vs_best", "best", "p_note"):
            assert f"{metric}_{column}" in summary.columns
    # The intervals and p-values are the report's own: its ROC AUC table gives the same figures.
    lines = [{"example_id": r.example_id, "setup": r.setup, "dataset": r.dataset, "result": r.result,
              "gold": r.gold, "domain": r.domain} for r in evaluation.results.itertuples()]
    table = roc_auc_intervals(lines).set_index("setup")
    for setup in summary.index:
        assert summary.loc[setup, "roc_auc_ci_low"] == table.loc[setup, "ci_low"]
        assert summary.loc[setup, "roc_auc_ci_high"] == table.loc[setup, "ci_high"]
        p_value = summary.loc[setup, "roc_auc_p_vs_best"]
        expected = table.loc[setup, "p_vs_best"]
        assert summary.loc[setup, "roc_auc_best"] == table.loc[setup, "best"]
        assert (pd.isna(p_value) and pd.isna(expected)) or round(p_value, 3) == expected
        assert summary.loc[setup, "segment_ba_ci_low"] <= summary.loc[setup, "segment_ba"]
        assert summary.loc[setup, "segment_ba"] <= summary.loc[setup, "segment_ba_ci_high"]


def test_compare_gives_a_minus_b_with_its_interval_and_p_value(evaluation: Any) -> None:
    table = evaluation.compare("bm25 · segment · no model", "token_f1 · segment · no model")
    table = table.set_index("metric")
    assert set(table.index) == {"segment_ba", "response_ba", "roc_auc"}
    for metric, row in table.iterrows():
        assert row["n"] == 60 and row["a"] == "bm25 · segment · no model"
        assert row["a_minus_b"] == pytest.approx(row["a_value"] - row["b_value"], abs=0.11), metric
        assert row["ci_low"] <= row["a_minus_b"] <= row["ci_high"]
    summary = evaluation.summary.set_index("name")
    assert table.loc["roc_auc", "a_value"] == summary.loc["bm25 · segment · no model", "roc_auc"]
    # The p-value against the best is this comparison's, from the loser's side.
    assert table.loc["roc_auc", "p_value"] == round(
        summary.loc["token_f1 · segment · no model", "roc_auc_p_vs_best"], 3)
    with pytest.raises(factjudge.errors.InputError, match="no set-up 'nope'"):
        evaluation.compare("nope", "bm25 · segment · no model")


def test_the_report_prints_a_minus_b_for_two_set_ups(evaluation: Any) -> None:
    markdown = write_report(evaluation.run_dir)["markdown"].read_text(encoding="utf-8")
    assert "## A minus B: set-ups compared on the same answers" in markdown
    row = next(ln for ln in markdown.splitlines() if ln.startswith("| bm25 · segment · no model | token_f1")
               and "| roc_auc |" in ln)
    assert "| 60 |" in row


def units_line(example_id: str, setup: str, domain: str, gold: bool, pred: str) -> dict[str, Any]:
    return line(example_id, setup, [pred], gold=[gold], domain=domain, dataset="mine")


def test_balanced_accuracy_intervals_resample_answers_and_average_the_domains() -> None:
    lines = [units_line(f"{d}{i}", s, d, i % 2 == 0, "false" if (i % 3 == 0) == (s == "a") else "true")
             for d in ("wk", "math") for i in range(20) for s in ("a", "b")]
    value = metric_of("segment_ba", ["math", "wk"])
    units = metric_units(lines, "segment_ba")
    by_domain = [metrics.balanced_accuracy(
        [not ln["gold"]["segment_labels"][0] for ln in lines if ln["setup"] == "a" and ln["domain"] == d],
        [ln["result"]["segment_verdicts"][0]["label"] == "false" for ln in lines
         if ln["setup"] == "a" and ln["domain"] == d]) for d in ("wk", "math")]
    mine = [units["a"][k] for k in sorted(units["a"])]
    assert value(mine) == pytest.approx(sum(by_domain) / 2)  # type: ignore[arg-type]
    domains = {"segment_ba": ["math", "wk"], "response_ba": ["math", "wk"]}
    columns = interval_columns(lines, ["a", "b"], domains)
    low, high = metrics.bootstrap_ci(value, mine)
    assert (columns.loc["a", "segment_ba_ci_low"], columns.loc["a", "segment_ba_ci_high"]) == (
        round(100 * low, 1), round(100 * high, 1))  # type: ignore[operator]
    [row] = difference_rows(lines, "a", "b", {"segment_ba": ["math", "wk"]}, ("segment_ba",))
    assert row["n"] == 40 and row["a_minus_b"] == pytest.approx(row["a_value"] - row["b_value"], abs=0.11)


def test_few_answers_give_the_difference_without_an_interval() -> None:
    lines = [units_line(f"e{i}", s, "wk", i % 2 == 0, "false" if i < 3 else "true")
             for i in range(6) for s in ("a", "b")]
    [row] = difference_rows(lines, "a", "b", {"segment_ba": None}, ("segment_ba",))
    assert row["n"] == 6 and row["ci_low"] is None and row["p_value"] is None
