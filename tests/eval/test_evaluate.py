"""factjudge.evaluate(): the bench's runner from Python, results as DataFrames, resumable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import factjudge
from factjudge.cli import main
from factjudge.config import CheckConfig
from factjudge.errors import InputError, ModelError
from factjudge.eval.datasets import Example, load_dataset, load_rows
from factjudge.eval.results import read_lines
from factjudge.eval.summary import OVERALL, metric_rows
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from tests.eval.test_felm_table import reply

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
BEGIN = SHARED / "begin_dev_wow.tsv"


def items(n: int) -> list[dict[str, Any]]:
    """Two-segment answers; the even ones are wrong in their first segment."""
    return [{"id": f"q{k}", "question": "What are they?", "answer": "Alpha is one. Beta is two.",
             "segments": ["Alpha is one.", "Beta is two."], "segment_labels": [k % 2 == 1, True],
             "response_label": k % 2 == 1} for k in range(n)]


def test_evaluate_is_exported_lazily_so_import_factjudge_stays_light() -> None:
    code = ("import sys, factjudge; assert 'pandas' not in sys.modules; factjudge.evaluate; "
            "print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    from factjudge.eval.evaluate import evaluate

    assert factjudge.evaluate is evaluate


@pytest.mark.skipif(not BEGIN.exists(), reason="needs ../shared/data")
def test_results_match_a_bench_run_of_the_same_data_and_set_ups(tmp_path: Path) -> None:
    assert main(["bench", str(BEGIN), "--grid", "strategy=token_f1,bm25", "--limit", "30",
                 "--run-dir", str(tmp_path / "bench"), "--no-progress"]) == 0
    lines = list(read_lines(tmp_path / "bench/results.jsonl"))
    bench = {(ln["example_id"], ln["setup"]): ln["result"] for ln in lines}
    examples = load_dataset(BEGIN)[:30]
    evaluation = factjudge.evaluate(examples, {"strategy": ["token_f1", "bm25"]}, run_dir=tmp_path / "eval")
    results = evaluation.results
    assert len(results) == len(bench) == 60
    for row in results.itertuples():
        ran = bench[(row.example_id, row.setup)]
        assert (row.label, row.error_score) == (ran["label"], ran["error_score"])
        assert row.gold_label == next(e.response_label for e in examples if e.id == row.example_id)
    overall = metric_rows(lines)
    overall = overall[overall["domain"] == OVERALL].set_index("setup")
    summary = evaluation.summary.set_index("setup")
    assert sorted(summary.index) == sorted(overall.index)
    for column in ("items", "response_ba", "roc_auc"):
        assert summary[column].to_dict() == overall[column].to_dict()
    assert (summary["missing"] == 0).all()
    # the directory is a bench run: the CLI resumes it with nothing left to do
    assert main(["bench", str(BEGIN), "--grid", "strategy=token_f1", "--limit", "30", "--run-dir",
                 str(tmp_path / "bench"), "--resume", "--no-progress"]) == 0


def test_a_grid_dict_with_a_scripted_model_gives_labels_and_hand_computed_metrics(tmp_path: Path) -> None:
    model = ScriptedChatModel(reply)  # calls every first segment wrong
    evaluation = factjudge.evaluate(items(6), {"strategy": ["vanilla", "cot"]},
                                    base=CheckConfig(model="scripted"), model=model, run_dir=tmp_path / "run")
    results = evaluation.results
    assert list(results["setup"].unique()) == ["granularity=segment,model=scripted,strategy=vanilla",
                                               "granularity=segment,model=scripted,strategy=cot"]
    assert list(results["example_id"][:6]) == [f"q{k}" for k in range(6)]  # dataset order
    assert (results["label"] == "false").all()
    assert results["correct"].tolist() == [k % 2 == 0 for k in range(6)] * 2
    assert results["segment_labels"].iloc[0] == ["false", "true"]
    assert results["gold_segment_labels"].iloc[0] == [False, True]
    summary = evaluation.summary.set_index("setup")
    # segments: 3 gold errors all caught (TPR 1), 9 gold-true of which 3 called false (TNR 2/3)
    assert summary["segment_ba"].tolist() == [83.3, 83.3]
    assert summary["response_ba"].tolist() == [50.0, 50.0]
    assert evaluation.report()["html"].exists()


def test_resuming_skips_finished_items(tmp_path: Path) -> None:
    model = ScriptedChatModel(reply)
    base = CheckConfig(model="scripted", use_cache=False)
    first = factjudge.evaluate(items(4), {"strategy": ["vanilla"]}, base=base, model=model, run_dir=tmp_path)
    calls = len(model.calls)
    assert first.run.done == 4 and calls == 4
    again = factjudge.evaluate(items(4), {"strategy": ["vanilla"]}, base=base, model=model, run_dir=tmp_path)
    assert (again.run.done, again.run.skipped, len(model.calls)) == (0, 4, calls)
    assert again.results.drop(columns="seconds").equals(first.results.drop(columns="seconds"))
    both = {"strategy": ["vanilla", "cot"]}
    wider = factjudge.evaluate(items(4), both, base=base, model=model, run_dir=tmp_path)
    assert (wider.run.done, wider.run.skipped, len(model.calls)) == (4, 4, calls + 4)  # only cot ran
    assert len(wider.results) == 8


def test_configs_given_as_a_list_are_named_by_what_differs(tmp_path: Path) -> None:
    configs = [CheckConfig(model="scripted", strategy=s) for s in ("vanilla", "cot")]
    evaluation = factjudge.evaluate([Example("a", "q", "Alpha is one.")], configs,
                                    model=ScriptedChatModel(reply), run_dir=tmp_path)
    assert sorted(evaluation.summary["setup"]) == sorted(evaluation.results["setup"])
    assert {s.rsplit("strategy=", 1)[1] for s in evaluation.summary["setup"]} == {"vanilla", "cot"}


@pytest.mark.parametrize(
    ("dataset", "setups", "message"),
    [
        ([{"question": "q"}], CheckConfig(), r"item row 0: unrecognised dataset columns \['question'\]"),
        ([], CheckConfig(), "empty"),
        ([{"answer": "A."}], "cot", "setups must be"),
        ([{"answer": "A."}], [CheckConfig(), CheckConfig()], "the same configuration"),
        ([{"answer": "A."}], {"colour": ["red"]}, "unknown"),
        ([{"id": 1, "answer": "A."}, {"id": "1", "answer": "B."}], CheckConfig(), "duplicate"),
    ],
)
def test_bad_arguments_are_input_errors(tmp_path: Path, dataset: Any, setups: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        factjudge.evaluate(dataset, setups, run_dir=tmp_path)


def test_a_limit_below_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="limit must be at least 1, not 0"):
        factjudge.evaluate(items(2), CheckConfig(strategy="always_true"), run_dir=tmp_path, limit=0)


def factbench_file(path: Path) -> Path:
    """Factbench rows as released: felm-wk answers, a null hallucination_spans, one label left empty."""
    rows = [{"prompt": f"Question {i}?", "response": "Paris is in France. The Moon is cheese.",
             "response_label": None if i == 3 else i % 2 == 0,
             "claims": ["Paris is in France.", "The Moon is cheese."], "claim_labels": [True, i % 2 == 0],
             "ability_to_test": "knowledge", "source": "felm-wk", "hallucination_spans": None}
            for i in range(4)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_dataframe_read_from_a_released_file_loads_as_the_file_does(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    path = factbench_file(tmp_path / "felm_wk.jsonl")
    frame = pd.read_json(path, lines=True)
    assert load_rows(frame.to_dict("records")) == load_dataset(path)
    evaluation = factjudge.evaluate(frame, {"strategy": ["always_false"]}, run_dir=tmp_path / "run", limit=3)
    assert evaluation.results["example_id"].tolist() == ["felm-wk-0", "felm-wk-1", "felm-wk-2"]
    assert evaluation.results["gold_label"].tolist() == [True, False, True]
    assert evaluation.summary[["items", "failed", "missing"]].values.tolist() == [[3, 0, 0]]


@pytest.mark.skipif(not (SHARED / "felm_wk.jsonl").exists(), reason="needs ../shared/data")
def test_the_released_felm_wk_file_read_by_pandas_gives_the_examples_of_load_dataset() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.read_json(SHARED / "felm_wk.jsonl", lines=True)
    assert load_rows(frame.to_dict("records")) == load_dataset(SHARED / "felm_wk.jsonl")


def test_a_set_up_whose_items_all_failed_counts_them_as_failed_not_missing(tmp_path: Path) -> None:
    def down(messages: list[Message]) -> str:
        raise ModelError("HTTP 503 from http://127.0.0.1:9")

    config = CheckConfig(model="scripted", strategy="vanilla", use_cache=False)
    evaluation = factjudge.evaluate(items(3), config, model=ScriptedChatModel(down), run_dir=tmp_path)
    assert evaluation.run.failed == 3
    assert evaluation.summary[["items", "failed", "missing"]].values.tolist() == [[0, 3, 0]]
