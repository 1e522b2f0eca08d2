"""benchmarks/ragtruth.py's quick path: a balanced, repeatable sample through bench, and its table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from factjudge.eval.datasets import load_dataset
from tests.eval.test_ragtruth import faithjudge_files

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
ragtruth = pytest.importorskip("ragtruth")


def test_the_sample_is_balanced_and_the_same_every_time(tmp_path: Path) -> None:
    summary, _ = faithjudge_files(tmp_path)
    examples = load_dataset(summary)  # one faithful, one hallucinated
    sample = ragtruth.balanced_sample(examples, 2)
    assert [e.response_label for e in sample] == [False, True]
    assert ragtruth.balanced_sample(list(reversed(examples)), 2) == sample
    assert [e.response_label for e in ragtruth.balanced_sample(examples, 1)] == [False]


def test_scripted_smoke_run_prints_the_table_with_the_published_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faithjudge_files(tmp_path)
    argv = ["--model", "scripted", "--limit", "2", "--data", str(tmp_path),
            "--run-dir", str(tmp_path / "runs")]
    assert ragtruth.main(argv) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| default |")]
    # Per task and overall, then the four error types; the model said Yes to all: nothing flagged.
    assert [row.split(" | ")[1] for row in rows[:3]] == ["data2txt", "summary", "overall"]
    assert all(row.split(" | ")[3:6] == ["0", "0", "0"] for row in rows[:3])
    assert "| LettuceDetect-large | 79.2 | 58.9 |" in out and "| RAG-HAT | 83.9 | – |" in out
    assert "full test set" in out
    for setup in ("default", "token_f1", "bm25"):
        assert (tmp_path / "runs" / setup / "results.jsonl").is_file()


def test_before_runs_the_default_of_a_commit_on_the_same_pairs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    faithjudge_files(tmp_path)
    argv = ["--model", "scripted", "--limit", "2", "--data", str(tmp_path), "--setups", "default",
            "--before", "HEAD", "--run-dir", str(tmp_path / "runs")]
    assert ragtruth.main(argv) == 0
    out = capsys.readouterr().out
    before = [line for line in out.splitlines() if line.startswith("| default @ HEAD |")]
    after = [line for line in out.splitlines() if line.startswith("| default |")]
    # The commit's run, in its own folder, scored beside this checkout's on the same pairs.
    assert [row.split(" | ")[1:3] for row in before[:3]] == [row.split(" | ")[1:3] for row in after[:3]]
    assert (tmp_path / "runs" / "before-HEAD" / "default" / "results.jsonl").is_file()
    assert "pairs failed" not in out
