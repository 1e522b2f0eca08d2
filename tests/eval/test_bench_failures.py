"""Set-ups that cannot run are refused before the run; a run with failed items says so (issue 26, point 7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from factjudge.cli import EXIT_ITEMS_FAILED, main
from factjudge.eval.results import read_lines

SEGMENTS = ["Paris is in France.", "The Moon is made of cheese."]
# The model is never reached: the set-ups here call none, and refused ones stop before any is built.
NO_SERVER = ["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--no-progress"]


def felm_file(path: Path, with_texts: int = 0) -> Path:
    """Three FELM-shaped answers; the first ``with_texts`` carry a reference text, the others no evidence."""
    rows: list[dict[str, Any]] = [
        {"prompt": f"Question {i}?", "response": " ".join(SEGMENTS), "segmented_response": SEGMENTS,
         "labels": [True, False], "domain": "wk", "source": "test",
         "ref_contents": ["Paris is the capital of France."] if i < with_texts else []}
        for i in range(3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_set_up_needing_evidence_on_data_with_none_is_refused_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    code = main(["bench", str(felm_file(tmp_path / "felm.jsonl")), "--grid", "strategy=fact,token_f1,bm25",
                 "--run-dir", str(run_dir), *NO_SERVER])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "strategy=token_f1 (the token_f1 strategy judges against evidence and has none" in err
    assert "strategy=bm25 (the bm25 strategy" in err and "strategy=fact" not in err
    assert not run_dir.exists()  # nothing written, no model built


def test_the_constant_floors_need_no_evidence_and_call_no_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    code = main(["bench", str(felm_file(tmp_path / "felm.jsonl")), "--grid",
                 "strategy=always_true,always_false", "--run-dir", str(run_dir), *NO_SERVER])
    assert code == 0 and "6 done, 0 already done, 0 failed (0 model calls" in capsys.readouterr().out
    lines = read_lines(run_dir / "results.jsonl")
    labels = {ln["setup"].rsplit("=", 1)[1]: ln["result"]["label"] for ln in lines}
    assert labels == {"always_true": "true", "always_false": "false"}


def test_a_run_with_failed_items_exits_non_zero_and_the_report_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    # token_f1 can run on the one answer with a reference text; the two without fail as they come.
    code = main(["bench", str(felm_file(tmp_path / "felm.jsonl", with_texts=1)), "--strategy", "token_f1",
                 "--run-dir", str(run_dir), *NO_SERVER])
    out, err = capsys.readouterr()
    assert code == EXIT_ITEMS_FAILED != 0
    assert "1 done, 0 already done, 2 failed" in out
    assert err.count("\n") == 1 and "2 items failed" in err
    assert "InputError: the token_f1 strategy judges against evidence and has none" in err
    assert len(list(read_lines(run_dir / "errors.jsonl"))) == 2

    assert main(["report", str(run_dir)]) == 0
    markdown = (run_dir / "report" / "report.md").read_text(encoding="utf-8")
    table_end = markdown.index("u0 f2)")
    why = markdown.index("Why items failed (first error per set-up; all in errors.jsonl): "
                         "token_f1 · segment · no model: InputError: the token_f1 "
                         "strategy judges against evidence and has none")
    assert why > table_end  # under the table whose cells count the failures


def test_bench_help_names_the_exit_status_of_a_run_with_failures(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    assert f"{EXIT_ITEMS_FAILED} the run finished but some items failed" in capsys.readouterr().out
