"""`bench --resume` continues what the run was started with; filters, grid keys and files say what is wrong.

Issue 35, points 7 and 8: a resume without --grid ran the default set-up into the run; --domain took
one value; a bad grid key named no valid key; a JSONL with `response` said "'prompt' is missing"; a
JSONL with no labels ran and reported figures with no word that there was no gold.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.eval.report import write_report
from factjudge.eval.results import read_json, read_results

DOMAINS = ["wk", "math", "science", "wk", "reasoning", "math"]


def write_rows(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """Six labelled answers of our own, in four domains."""
    return write_rows(tmp_path / "own.jsonl", [
        {"id": f"a{i}", "question": f"Question {i}?", "answer": f"Answer {i} is right.", "label": i % 2 == 0,
         "domain": domain} for i, domain in enumerate(DOMAINS)])


def bench(dataset: Path, run_dir: Path, *flags: str) -> int:
    return main(["bench", str(dataset), "--run-dir", str(run_dir), "--no-progress", *flags])


def setups_of(run_dir: Path) -> set[str]:
    return {line["setup"] for line in read_results(run_dir / "results.jsonl")}


def test_resume_without_a_grid_continues_the_runs_own_set_ups_and_examples(
        dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    assert bench(dataset, run_dir, "--grid", "strategy=always_true,always_false", "--domain", "wk,math",
                 "--limit", "3") == 0
    started = setups_of(run_dir)
    assert len(started) == 2 and len(read_results(run_dir / "results.jsonl")) == 6
    # Lose the last result, as a kill would; resume as the tool prints it: no grid, no filters.
    results = run_dir / "results.jsonl"
    results.write_text("".join(results.read_text(encoding="utf-8").splitlines(keepends=True)[:-1]),
                       encoding="utf-8")
    capsys.readouterr()
    assert bench(dataset, run_dir, "--resume") == 0
    out = capsys.readouterr().out
    assert "1 done, 5 already done, 0 failed" in out  # not the default set-up, not all six examples
    assert setups_of(run_dir) == started
    manifest = read_json(run_dir / "manifest.json")
    assert set(manifest["setups"]) == started
    assert manifest["selection"]["domain"] == ["wk", "math"] and manifest["selection"]["limit"] == 3


def test_resume_with_a_set_up_the_run_was_not_started_with_is_refused_with_the_choices(
        dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    assert bench(dataset, run_dir, "--grid", "strategy=always_true,always_false") == 0
    capsys.readouterr()
    for flags in (["--grid", "strategy=always_true,token_f1"], ["--strategy", "bm25"]):
        assert bench(dataset, run_dir, "--resume", *flags) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--resume continues those" in err, err
        assert "granularity=segment,strategy=always_false; granularity=segment,strategy=always_true" in err
        assert "Resume without --grid and setting flags" in err
    assert len(setups_of(run_dir)) == 2
    # A grid naming some of the run's own set-ups resumes just those.
    assert bench(dataset, run_dir, "--resume", "--grid", "strategy=always_true") == 0


@pytest.mark.parametrize("flags", [["--domain", "wk,math"], ["--domain", "wk", "--domain", "math"],
                                   ["--domain", "wk, math", "--domain", "wk"]])
def test_several_domains_are_accepted_as_a_list_or_a_repeated_flag(
        flags: list[str], dataset: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    assert bench(dataset, run_dir, "--strategy", "always_true", *flags) == 0
    domains = [line["domain"] for line in read_results(run_dir / "results.jsonl")]
    assert sorted(domains) == ["math", "math", "wk", "wk"]


def test_an_unknown_domain_among_several_is_named(dataset: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert bench(dataset, tmp_path / "run", "--strategy", "always_true", "--domain", "wk,maths") == 2
    err = capsys.readouterr().err
    assert "has no examples of domain 'maths'; its domains: 'math', 'reasoning', 'science', 'wk'" in err


@pytest.mark.parametrize(("term", "hint"), [("stratgy=fact", "did you mean strategy? "),
                                            ("colour=red", ""),
                                            ("domain=wk", "the dataset sets domain and language; ")])
def test_a_bad_grid_key_names_the_valid_ones(term: str, hint: str, dataset: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert bench(dataset, tmp_path / "run", "--grid", term) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"is unknown; {hint}the keys a grid may vary: " in err
    assert "granularity, " in err and "strategy, " in err and "model, " in err


@pytest.mark.parametrize("row", [
    {"id": "r1", "question": "Q?", "response": "Paris is in France.", "label": True},
    {"question": "Q?", "response": "Paris is in France.", "response_label": True},
])
def test_a_jsonl_with_response_instead_of_answer_says_so(row: dict[str, object], tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = write_rows(tmp_path / "mine.jsonl", [row])
    assert bench(data, tmp_path / "run", "--strategy", "always_true") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'prompt'" not in err, err
    assert "the answer is under 'response'; rows of your own name it 'answer'" in err
    assert "factjudge.eval.datasets.load_table(path, {'answer': 'response'" in err


def test_the_load_table_the_error_suggests_reads_the_file(tmp_path: Path) -> None:
    from factjudge.eval.datasets import load_table

    data = write_rows(tmp_path / "mine.jsonl", [{"id": "r1", "question": "Q?", "response": "A.", "label": 0}])
    [example] = load_table(data, {"answer": "response", "id": "id", "question": "question",
                                  "response_label": "label"})
    assert (example.answer, example.response_label) == ("A.", False)


def test_data_with_no_gold_says_so_in_bench_and_report_and_reports_no_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_rows(tmp_path / "unlabelled.jsonl", [{"answer": "Paris is in France."},
                                                      {"answer": "Rome is in Spain."}])
    run_dir = tmp_path / "run"
    assert bench(data, run_dir, "--grid", "strategy=always_true,always_false") == 0
    assert "holds no gold label" in capsys.readouterr().err
    markdown = write_report(run_dir)["markdown"].read_text(encoding="utf-8")
    assert "No gold: no result of this run has a human label" in markdown
    assert "What the judge predicted, on answers with no gold label" in markdown
    # No table computed as if there were gold: no human FActScore or abstention, no accuracy.
    assert "human_abstention" not in markdown and "## Segment-level balanced accuracy" not in markdown
    assert "| always_true · segment · no model | 2 | 2 | 0 | 0 | 0 | 0 | 100.0 | 0.0 | 1.0 | 0 |" in markdown
