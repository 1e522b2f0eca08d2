"""Bench ranking ranks only what was scored, adds no row the grid did not ask for, and keeps its
columns typed (issue 44, point 17)."""

from __future__ import annotations

from typing import Any

from factjudge.eval.compare import interval_columns
from factjudge.eval.report_tables import report_tables
from factjudge.eval.summary import OVERALL, metric_rows
from factjudge.eval.tables.true_protocol import ensemble_table, roc_auc_intervals
from tests.eval.report_fixtures import line

# Eleven segments of one answer: five wrong, six right.
GOLD = [False] * 5 + [True] * 6
# "lazy" left 10 of 11 unverified and flagged one wrong segment: 60.0, all of it from what it did not judge.
LAZY = ["false"] + ["unverified"] * 10
# "judge" decided every segment: 3 of 5 wrong and 4 of 6 right segments flagged, 46.7.
JUDGE = ["false"] * 3 + ["true"] * 2 + ["false"] * 4 + ["true"] * 2
DOMAINS: dict[str, Any] = {"segment_ba": None, "response_ba": None, "roc_auc": None}


def test_a_set_up_that_left_most_segments_unverified_is_not_the_best() -> None:
    lines = [line("e1", "lazy", LAZY, gold=GOLD), line("e1", "judge", JUDGE, gold=GOLD)]
    overall = metric_rows(lines).set_index(["setup", "domain"])
    assert overall.loc[("lazy", OVERALL), "segment_ba"] == 60.0
    assert overall.loc[("judge", OVERALL), "segment_ba"] == 46.7
    table = interval_columns(lines, ["lazy", "judge"], DOMAINS)
    assert not table.loc["lazy", "segment_ba_best"] and table.loc["judge", "segment_ba_best"]
    assert table.loc["lazy", "segment_ba_p_note"].startswith("10 segments unverified: not ranked")
    assert table.loc["judge", "segment_ba_p_note"] == ""


def test_p_value_columns_hold_numbers_and_best_is_a_column_of_its_own() -> None:
    lines = [line("e1", "lazy", LAZY, gold=GOLD), line("e1", "judge", JUDGE, gold=GOLD)]
    table = interval_columns(lines, ["lazy", "judge"], DOMAINS)
    for metric in ("segment_ba", "response_ba", "roc_auc"):
        assert table[f"{metric}_p_vs_best"].dtype == float  # was "best", "n/a (n=3)" and numbers mixed
        assert table[f"{metric}_best"].dtype == bool
        assert all(isinstance(note, str) for note in table[f"{metric}_p_note"])


def true_lines() -> list[dict[str, Any]]:
    """Six TRUE pairs judged by two scorers that rank."""
    gold = {"t1": True, "t2": True, "t3": False, "t4": False, "t5": True, "t6": False}
    scores = {"a": [0.1, 0.4, 0.7, 0.3, 0.2, 0.9], "b": [0.2, 0.1, 0.8, 0.9, 0.3, 0.6]}
    return [line(example, setup, ["true"], gold=[consistent], dataset="q2", domain="", error_score=score)
            for setup, values in scores.items()
            for (example, consistent), score in zip(gold.items(), values, strict=True)]


def test_no_ensemble_row_joins_the_set_ups_it_is_shown_apart() -> None:
    table = roc_auc_intervals(true_lines())
    assert table["setup"].tolist() == ["a", "b"]  # the grid's set-ups, and no others
    [ensemble] = ensemble_table(true_lines()).to_dict("records")
    assert ensemble["setup"] == "ensemble of a + b" and "best" not in ensemble
    titles = [section.title for section in report_tables(true_lines()).sections]
    assert "TRUE's ensemble of the set-ups (not a set-up of the grid)" in titles


def test_rows_without_a_domain_say_so_not_unknown() -> None:
    rows = metric_rows(true_lines())
    assert set(rows["domain"]) == {"no domain", OVERALL}
