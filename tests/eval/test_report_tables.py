"""The report's tables against values computed by hand on hand-written result lines (issue 15)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from factjudge.cli import main
from factjudge.eval import metrics
from factjudge.eval.report import small_run_warning
from factjudge.eval.results import read_lines
from factjudge.eval.summary import felm_table, metric_rows
from factjudge.eval.tables.felm import error_type_rows
from factjudge.eval.tables.lines import failed_items
from factjudge.eval.tables.multilingual import agreement_rows, factscore_rows, parallel_key
from factjudge.eval.tables.true_protocol import roc_auc_intervals, threshold_table
from tests.eval.report_fixtures import (
    TEST_GOLD,
    TEST_SCORES,
    felm_run,
    line,
    multilingual_run,
    true_runs,
    write_run,
)


def lines_of(run: Path) -> list[dict]:
    return list(read_lines(run / "results.jsonl"))


def report(capsys: pytest.CaptureFixture[str], *args: Path | str) -> str:
    """Run `factjudge report ARGS`, which must succeed, and return what it printed."""
    assert main(["report", *map(str, args)]) == 0
    return capsys.readouterr().out


def indexed(table: pd.DataFrame, *keys: str) -> pd.DataFrame:
    return table.set_index(list(keys))


# ---------------------------------------------------------------- TRUE


@pytest.fixture
def any_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """The small-sample rule off, so the hand-written pairs check the intervals and p-values themselves."""
    monkeypatch.setattr(metrics, "MIN_ITEMS", 1)
    monkeypatch.setattr(metrics, "MIN_PER_CLASS", 1)


@pytest.mark.usefixtures("any_sample")
def test_threshold_is_tuned_on_dev_and_scored_on_test(tmp_path: Path) -> None:
    dev, test = true_runs(tmp_path)
    table = indexed(threshold_table(lines_of(dev), lines_of(test)), "setup")
    assert list(table.index) == ["a", "b"]  # the set-ups that ran; TRUE's ensemble is not one
    # a on dev: sqrt(TPR·(1−FPR)) is 0.707 at 0.3 and at 0.6; ties go to the lower threshold
    assert table.loc["a", "threshold"] == 0.3
    assert table.loc["b", "threshold"] == 0.8  # b separates dev perfectly from 0.8 up
    # a on test at 0.3 flags t2 t3 t5 t6: right on t1 t3 t5 t6 = 4/6; recalls 1/2 and 3/4
    assert (table.loc["a", "accuracy"], table.loc["a", "balanced_accuracy"]) == (66.7, 62.5)
    # b at 0.8 flags t3 t4: 4/6; recalls 2/2 and 2/4
    assert (table.loc["b", "accuracy"], table.loc["b", "balanced_accuracy"]) == (66.7, 75.0)
    # test ROC AUC: a ranks 7 of the 8 (inconsistent, consistent) pairs right; b all
    assert list(table["roc_auc"]) == [87.5, 100.0]
    assert list(table["dev_n"]) == [4, 4] and list(table["n"]) == [6, 6]
    assert (table["ci_low"] <= table["roc_auc"]).all() and (table["roc_auc"] <= table["ci_high"]).all()
    # p-values against the best row (b), paired on the same test pairs
    ids = sorted(TEST_GOLD)
    a, b = ([TEST_SCORES[s][i] for i in ids] for s in "ab")
    expected = metrics.paired_bootstrap(metrics.roc_auc, [TEST_GOLD[i] for i in ids], a, b)
    assert table["best"].tolist() == [False, True] and pd.isna(table.loc["b", "p_vs_best"])
    assert table.loc["a", "p_vs_best"] == round(expected, 3)


@pytest.mark.usefixtures("any_sample")
def test_roc_auc_table_carries_a_p_value_per_pair_with_the_best_row(tmp_path: Path) -> None:
    _, test = true_runs(tmp_path)
    table = indexed(roc_auc_intervals(lines_of(test)), "setup")
    assert table.loc["a", "roc_auc"] == 87.5 and table.loc["b", "best"]
    assert 0 < float(table.loc["a", "p_vs_best"]) < 1


def test_too_few_items_or_too_few_of_a_class_are_named() -> None:
    assert metrics.too_few([True, False, True]) == "n=3"
    assert metrics.too_few([True] * 38 + [False] * 2) == "n=40, 2 of one class"
    assert metrics.too_few([False] * 25 + [True] * 5) is None


def test_roc_auc_on_six_pairs_shows_its_n_and_no_interval_or_p_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, test = true_runs(tmp_path)
    table = indexed(roc_auc_intervals(lines_of(test)), "setup")
    assert table["n"].tolist() == [6, 6] and table["roc_auc"].tolist() == [87.5, 100.0]
    assert table["ci_low"].isna().all() and table["ci_high"].isna().all()
    assert table["best"].tolist() == [False, True] and table["p_vs_best"].isna().all()
    assert table["p_note"].tolist() == ["n=6", ""]
    out = report(capsys, test)
    assert "| a | q2-memnet | 6 | 0 | 87.5 | n/a (n=6) | n/a (n=6) | n/a (n=6) |" in out
    below = out.index("| a | q2-memnet | 6 | 0 | 87.5 |")
    assert out.index("n/a (n=…): fewer than 30 items or fewer than 5 of either class") > below
    saved = pd.read_csv(test / "report" / "roc_auc.csv")  # the CSV keeps numbers: empty, not text
    assert saved["ci_low"].isna().all()


def test_report_cli_on_a_true_dev_and_test_pair(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dev, test = true_runs(tmp_path)
    out = report(capsys, dev, "--test", test)
    assert "## Test accuracy at the threshold tuned on the dev run (TRUE)" in out
    assert "| a | q2-memnet | 4 | 0.3 | 66.7 | 62.5 | 6 | 0 | 87.5 |" in out
    assert "FActScore" not in out and "error type" not in out  # tables of other protocols
    saved = pd.read_csv(test / "report" / "true_threshold.csv")
    assert list(saved["threshold"]) == [0.3, 0.8]


def test_report_cli_without_a_test_run_says_how_to_get_the_tuned_accuracy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, test = true_runs(tmp_path)
    out = report(capsys, test)
    assert "factjudge report DEV_RUN --test THIS_RUN" in out and "Test accuracy" not in out
    assert "Response-level" not in out  # a pair is one segment: it would repeat the segment level


@pytest.mark.parametrize("case, message", [
    ("missing", "is not a directory"),
    ("felm", "holds no TRUE (grounding, text) pairs"),
    ("same data", "ran over the same data"),
    ("other set-ups", "no set-up in common"),
])
def test_report_cli_refuses_a_bad_test_run_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, message: str) -> None:
    dev, test = true_runs(tmp_path)
    if case == "missing":
        test = tmp_path / "nowhere"
    elif case == "felm":
        test = felm_run(tmp_path)
    elif case == "same data":
        test = write_run(tmp_path / "again", lines_of(dev), "dev-hash")
    else:
        renamed = [dict(ln, setup="c") for ln in lines_of(test)]
        test = write_run(tmp_path / "other", renamed, "other-hash")
    assert main(["report", str(dev), "--test", str(test)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------- FELM


def test_felm_overall_is_only_over_the_domains_every_setup_has(tmp_path: Path) -> None:
    run = felm_run(tmp_path)
    lines = lines_of(run)
    rows = metric_rows(lines, failures=failed_items(read_lines(run / "errors.jsonl"), lines))
    table = felm_table(rows, "segment_ba")
    # s1 wk: errors caught 1/2, true kept 2/3 -> 58.3; s2 wk: 0/2 and 3/3 -> 50.0
    assert table.loc["s1", "wk"] == 58.3 and table.loc["s2", "wk"] == 50.0
    assert pd.isna(table.loc["s1", "science"]) and table.loc["s2", "science"] == 100.0
    assert table.loc["s1", "math"] == 100.0 and pd.isna(table.loc["s2", "math"])
    # overall over wk alone: the old mean over each set-up's own domains gave 79.2 and 75.0
    assert list(table["overall"]) == [58.3, 50.0]
    cells = indexed(rows, "setup", "domain")
    assert cells.loc[("s1", "science"), "unparseable"] == 2
    assert cells.loc[("s1", "science"), "unparseable_answers"] == 1
    assert cells.loc[("s2", "math"), "failed"] == 1 and cells.loc[("s2", "overall"), "failed"] == 1
    assert felm_table(rows, "response_ba")["overall"].tolist() == [50.0, 50.0]


def test_felm_error_types_each_setup_catches(tmp_path: Path) -> None:
    rows = indexed(error_type_rows(lines_of(felm_run(tmp_path))), "setup", "error_type")
    # s1: knowledge_error caught in e1, unparseable in e3 -> 1/1 parsed; fooled missed; math's untyped caught
    assert rows.loc[("s1", "knowledge_error"), ["errors", "caught", "unparseable", "recall"]].tolist() == \
        [2, 1, 1, 100.0]
    assert rows.loc[("s1", "fooled"), "recall"] == 0.0
    assert rows.loc[("s1", "untyped"), "recall"] == 100.0
    assert rows.loc[("s1", "all errors"), "recall"] == 66.7  # 2 caught of 3 parsed
    assert rows.loc[("s2", "knowledge_error"), "recall"] == 50.0
    assert rows.loc[("s2", "all errors"), ["errors", "caught"]].tolist() == [3, 1]
    assert ("s2", "untyped") not in rows.index  # its math answer failed


def test_report_cli_on_felm_shows_counts_beside_every_cell(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = felm_run(tmp_path)
    out = report(capsys, run)
    # every number here rests on a handful of segments: starred, with its n (issue 26, point 9)
    assert "| s1 | 100.0* (n=1 u0 f0) | n/a (u2 f0) | 58.3* (n=5 u0 f0) | 58.3* (n=5 u2 f0) |" in out
    assert "| s2 | n/a (u0 f1) | 100.0* (n=2 u0 f0) | 50.0* (n=5 u0 f0) | 50.0* (n=5 u0 f1) |" in out
    assert "* fewer than 30 gold-labelled items (n): too few for the number to be a result" in out
    assert "overall: the mean over wk" in out
    assert "left out, as some set-up has no number there: math, science" in out
    assert "| s1 | 0.0 (0/1, u0) | 100.0 (1/2, u1) | 100.0 (1/1, u0) | 66.7 (2/4, u1) |" in out
    assert "| s2 | 0.0 (0/1, u0) | 50.0 (1/2, u0) | n/a (0/0, u0) | 33.3 (1/3, u0) |" in out
    assert "1 failed" in out and "FActScore" not in out


def test_a_small_run_is_one_warning_above_the_tables_and_the_page_keeps_every_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = felm_run(tmp_path)
    warning = ("Warning: this run judged 3 to 4 items per set-up (fewer than 30): its figures are a "
               "first look, not a result.")
    out = report(capsys, run)
    assert out.index(warning) < out.index("## ")  # before the first table
    # The HTML page shows what the markdown shows under its tables: the n warning and why items failed.
    page = (run / "report" / "report.html").read_text(encoding="utf-8")
    assert page.index(warning) < page.index("<h2>")
    table = page.index("<td>n/a (u0 f1)</td>")
    assert table < page.index("* fewer than 30 gold-labelled items (n): too few for the number", table)
    assert table < page.index("Why items failed (first error per set-up; all in errors.jsonl): s2: "
                              "ModelError: timed out", table)


def test_no_warning_once_a_set_up_has_judged_enough_items() -> None:
    assert small_run_warning([{"setup": "a"}] * 30 + [{"setup": "b"}] * 3) == ""
    mixed = [{"setup": "a"}] * 29 + [{"setup": "b"}] * 3
    assert "judged 3 to 29 items per set-up" in small_run_warning(mixed)
    assert "judged 1 item per set-up" in small_run_warning([{"setup": "a"}])


# ---------------------------------------------------------------- multilingual FActScore


def test_factscore_predicted_against_human_per_language(tmp_path: Path) -> None:
    table = indexed(factscore_rows(lines_of(multilingual_run(tmp_path))), "setup", "language")
    en, fr = table.loc[("m", "en")], table.loc[("m", "fr")]
    # en human: b1 2/3 of its facts (IR left out), b2 1/1 -> 83.3; predicted: 3/3 and 0/1 -> 50.0
    assert (en["human_factscore"], en["predicted_factscore"], en["difference"]) == (83.3, 50.0, -33.3)
    assert en["predicted_gamma10"] == 4.8  # (1·e^(1−10/3) + 0) / 2
    assert (en["human_facts_per_answer"], en["predicted_facts_per_answer"]) == (2.0, 2.0)
    # paired segments: b1 (T,T) (F,T), b2 (T,F): one each of TP, FP, FN
    assert [en[k] for k in ("tp", "fn", "fp", "tn", "scoring_accuracy")] == [33.3, 33.3, 33.3, 0.0, 33.3]
    assert en["paired_facts"] == 3
    # fr: b2 abstains on both sides; human 1/3, predicted 1/2 -> over-estimated by 16.7
    assert (fr["human_factscore"], fr["predicted_factscore"], fr["difference"]) == (33.3, 50.0, 16.7)
    assert (fr["human_abstention"], fr["predicted_abstention"]) == (50.0, 50.0)
    assert [fr[k] for k in ("tp", "fn", "fp", "tn", "scoring_accuracy")] == [50.0, 0.0, 0.0, 50.0, 100.0]


def test_cross_language_agreement_on_parallel_items(tmp_path: Path) -> None:
    table = indexed(agreement_rows(lines_of(multilingual_run(tmp_path))), "setup")
    # b1: m says en (T, T) and fr (T, F): agree on 1 of 2, kappa 0; the human labels agree fully
    assert table.loc["m", ["languages", "items", "facts", "agreement", "kappa"]].tolist() == \
        ["en-fr", 1, 2, 50.0, 0.0]
    assert table.loc["human labels", ["agreement", "kappa"]].tolist() == [100.0, 1.0]


def test_span_labelled_answers_never_pair_by_id() -> None:
    # Mu-SHROOM's val-en-1 and val-fr-1 are different questions; its gold comes from spans
    mushroom = line("val-fr-1", "m", ["true"], dataset="mushroom", language="fr")
    assert parallel_key(mushroom) is None
    assert parallel_key(line("12_fr", "m", ["true"], gold=[True], language="fr")) == "12"
    assert parallel_key(line("q-12", "m", ["true"], gold=[True], language="fr")) is None


def test_report_cli_on_a_multilingual_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = multilingual_run(tmp_path)
    out = report(capsys, run)
    assert "## FActScore, predicted against human, by language" in out
    assert "| m | en | 2 | 83.3 | 50.0 | -33.3 | 4.8 |" in out
    assert "## Cross-language agreement on the same facts" in out
    assert "| m | en-fr | 1 | 0 | 2 | 50.0 | 0.0 |" in out
    assert "ROC AUC" not in out  # no answer carries an error score here
    lonely = write_run(tmp_path / "one", [ln for ln in lines_of(run) if ln["language"] == "en"], "h")
    assert "No item is judged in two languages" in report(capsys, lonely)


def test_an_item_that_failed_and_then_finished_on_resume_is_not_counted_failed(tmp_path: Path) -> None:
    run = felm_run(tmp_path)
    lines = lines_of(run)
    errors = list(read_lines(run / "errors.jsonl"))
    resumed = [*errors, {"example_id": "e1", "setup": "s1", "error": "ModelError: once"}]
    failed = failed_items(resumed, lines)
    assert [(f["example_id"], f["setup"], f["domain"]) for f in failed] == [("e4", "s2", "math")]
    # a record from before errors carried the domain takes it from the example's other results
    old = failed_items([{"example_id": "e3", "setup": "s3", "error": "x"}], lines)
    assert old[0]["domain"] == "science"


def test_a_run_of_two_kinds_of_data_names_each_table_for_its_kind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    both = lines_of(felm_run(tmp_path)) + lines_of(multilingual_run(tmp_path))
    mixed = write_run(tmp_path / "mixed", both, "m")
    out = report(capsys, mixed)
    assert "## Which of FELM's error types each set-up catches (FELM)" in out
    assert "## Segment-level balanced accuracy by domain (FELM)" in out
    assert "## FActScore, predicted against human, by language (answers with fact-level gold)" in out
    assert (mixed / "report" / "felm_error_types.csv").exists()
    assert (mixed / "report" / "facts_factscore_by_language.csv").exists()


def test_unverified_segments_count_as_not_flagged_and_are_shown_apart() -> None:
    from factjudge.eval.tables.felm import counted_cells

    lines = [line("e1", "ev", ["false", "unverified", "true"], gold=[False, False, True]),
             line("e2", "ev", ["unverified", "true"], gold=[True, True])]
    rows = metric_rows(lines)
    wk = indexed(rows, "setup", "domain").loc[("ev", "wk")]
    # errors caught 1/2, true kept 3/3 (the unverified true one is not flagged) -> 75.0
    assert (wk["segment_ba"], wk["unverified"]) == (75.0, 2)
    assert counted_cells(rows, "segment_ba", "unparseable").loc["ev", "wk"] == "75.0* (n=5 u0 f0 v2)"
