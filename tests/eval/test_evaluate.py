"""``factjudge.evaluate()``: the bench runner from Python, results and summary as DataFrames."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import factjudge
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.eval.datasets import Example, load_dataset
from factjudge.eval.grid import expand, parse_grid, setup_id
from factjudge.eval.results import read_results
from factjudge.eval.runner import RESULTS, BenchRun, Setup
from factjudge.eval.summary import metric_rows
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.scripted import ScriptedChatModel
from tests.eval.test_runner import reply, write_dataset

SCRIPTED = CheckConfig(model="scripted")


def cached(tmp_path: Path) -> tuple[ScriptedChatModel, CachedChatModel]:
    inner = ScriptedChatModel(reply)
    return inner, CachedChatModel(inner, tmp_path / "cache.sqlite")


def test_results_and_summary_match_a_bench_run_of_the_same_data(tmp_path: Path) -> None:
    data = write_dataset(tmp_path / "data.jsonl", 3)
    grid = parse_grid(["strategy=vanilla,cot"])
    setups = [Setup(setup_id(c, list(grid)), c) for c in expand(SCRIPTED, grid)]
    _, model = cached(tmp_path)
    BenchRun(tmp_path / "bench", load_dataset(data), setups, model_factory=lambda c: model,
             dataset=str(data), dataset_hash="h").run(show_progress=False)
    bench = read_results(tmp_path / "bench" / RESULTS)

    got = factjudge.evaluate(data, {"strategy": ["vanilla", "cot"]}, config=SCRIPTED,
                             run_dir=tmp_path / "eval", model_factory=lambda c: model, show_progress=False)
    assert isinstance(got.results, pd.DataFrame) and len(got.results) == 6 == len(bench)
    # Dataset order within each set-up, whatever order the workers finished in.
    assert list(got.results["example_id"])[:3] == ["felm-wk-0", "felm-wk-1", "felm-wk-2"]
    assert set(got.results["strategy"]) == {"vanilla", "cot"}
    mine = {(r.example_id, r.setup): (r.predicted_label, r.gold_label, r.predicted_segment_labels)
            for r in got.results.itertuples()}
    theirs = {(ln["example_id"], ln["setup"]): (ln["result"]["label"], ln["gold"]["response_label"],
                                                [v["label"] for v in ln["result"]["segment_verdicts"]])
              for ln in bench}
    assert mine == theirs
    assert mine[("felm-wk-0", setups[0].id)] == ("false", False, ["true", "false"])
    pd.testing.assert_frame_equal(got.summary, metric_rows(bench, "domain"))
    overall = got.summary[got.summary["domain"] == "overall"]
    assert list(overall["segment_ba"]) == [100.0, 100.0]  # the script marks exactly the false claim


def test_a_second_call_on_the_run_dir_skips_finished_items(tmp_path: Path) -> None:
    inner, model = cached(tmp_path)
    answer = "Paris is in France. The Moon is made of cheese."
    rows: list[dict[str, Any]] = [
        {"id": f"q{i}", "question": "Where is Paris?", "answer": answer,
         "segments": ["Paris is in France.", "The Moon is made of cheese."], "segment_labels": [True, False]}
        for i in range(2)
    ]
    first = factjudge.evaluate(rows[:1], SCRIPTED, run_dir=tmp_path / "run", model_factory=lambda c: model,
                               show_progress=False)
    assert (first.run.done, first.run.skipped) == (1, 0) and list(first.results["example_id"]) == ["q0"]
    assert list(first.results["gold_label"]) == [False]  # derived from the segment labels
    calls = len(inner.calls)
    again = factjudge.evaluate(rows[:1], [SCRIPTED], run_dir=tmp_path / "run",
                               model_factory=lambda c: model, show_progress=False)
    assert (again.run.done, again.run.skipped) == (0, 1) and len(inner.calls) == calls
    pd.testing.assert_frame_equal(again.results, first.results)
    with pytest.raises(InputError, match="another dataset"):
        factjudge.evaluate(rows, SCRIPTED, run_dir=tmp_path / "run", model_factory=lambda c: model,
                           show_progress=False)


def test_examples_and_a_list_of_configs_run_in_a_temporary_dir(tmp_path: Path) -> None:
    _, model = cached(tmp_path)
    example = Example(id="e1", question="", answer="Paris is in France. The Moon is made of cheese.",
                      segments=("Paris is in France.", "The Moon is made of cheese."),
                      segment_labels=(True, False), response_label=False, dataset="felm", domain="wk")
    got = factjudge.evaluate([example], [SCRIPTED, SCRIPTED.replace(strategy="cot")],
                             model_factory=lambda c: model, show_progress=False)
    assert got.run_dir.is_dir() and got.run_dir != tmp_path
    assert list(got.results["setup"]) == ["granularity=segment,model=scripted,strategy=vanilla",
                                          "granularity=segment,model=scripted,strategy=cot"]
    assert list(got.summary["domain"]) == ["wk", "wk", "overall", "overall"]


@pytest.mark.parametrize(
    ("dataset", "setups", "message"),
    [
        (42, None, "dataset must be a path or a list"),
        ([], None, "no examples"),
        (["text"], None, "dataset item 0 is a str"),
        ([{"id": "a"}], None, "dataset item 0: no 'answer'"),
        ([{"answer": "A.", "lable": True}], None, "unknown keys"),
        ("/nonexistent/data.jsonl", None, "no such file"),
        ([{"answer": "A."}], {"strategy": ["nope"]}, "strategy"),
        ([{"answer": "A."}], {"colour": ["red"]}, "grid key 'colour' is unknown"),
        ([{"answer": "A."}], {"strategy": []}, "no values"),
        ([{"answer": "A."}], [], "setups must be"),
        ([{"answer": "A."}], ["vanilla"], "not a CheckConfig"),
        ([{"answer": "A."}], [SCRIPTED, SCRIPTED], "same set-up twice"),
        ([{"answer": "A."}], CheckConfig(model="nomodel"), "unknown model"),
    ],
)
def test_bad_input_is_a_one_line_input_error(dataset: Any, setups: Any, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        factjudge.evaluate(dataset, setups, show_progress=False)
    assert "\n" not in str(caught.value)


def test_import_factjudge_does_not_import_pandas() -> None:
    code = "import sys, factjudge; assert 'pandas' not in sys.modules; factjudge.evaluate; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
    with pytest.raises(AttributeError):
        factjudge.nothing_here  # noqa: B018
