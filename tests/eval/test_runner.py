"""The benchmark runner: one line per (example, set-up), resumable, no call paid twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.eval.datasets import load_dataset
from factjudge.eval.grid import expand, parse_grid, setup_name
from factjudge.eval.results import read_lines
from factjudge.eval.runner import BenchRun, Setup
from factjudge.llm.base import Message
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.scripted import ScriptedChatModel


def reply(messages: list[Message]) -> str:
    prompt = messages[0]["content"]
    if "extract factual claims" in prompt or "atomic factual claims" in prompt:
        return "Segment 1:\nClaim 1. Paris is in France.\nSegment 2:\nClaim 1. The Moon is made of cheese."
    if "Thought:" in prompt:
        return "Thought: segment 2 is wrong.\nAnswer: 2"
    return "Answer: 2"


def write_dataset(path: Path, n: int) -> Path:
    rows = [
        {"prompt": f"Question {i}?", "response": "Paris is in France. The Moon is made of cheese.",
         "claims": ["Paris is in France.", "The Moon is made of cheese."], "claim_labels": [True, False],
         "response_label": False, "source": "felm-wk"}
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def make_run(tmp_path: Path, model: CachedChatModel, n: int = 3, grid: tuple[str, ...] = ()) -> BenchRun:
    data = write_dataset(tmp_path / "data.jsonl", n)
    parsed = parse_grid(list(grid) or ["strategy=vanilla,cot"])
    configs = expand(CheckConfig(model="scripted"), parsed)
    setups = [Setup.named(setup_name(c, list(parsed)), c) for c in configs]
    return BenchRun(tmp_path / "run", load_dataset(str(data)), setups, model_factory=lambda c: model,
                    dataset=str(data), dataset_hash="h", concurrency=3)


def test_every_item_and_setup_once_then_resume_makes_no_call(tmp_path: Path) -> None:
    inner = ScriptedChatModel(reply)
    model = CachedChatModel(inner, tmp_path / "cache.sqlite")
    summary = make_run(tmp_path, model).run(show_progress=False)
    assert summary.done == 6 and summary.failed == 0
    lines = list(read_lines(tmp_path / "run" / "results.jsonl"))
    assert sorted((ln["example_id"], ln["setup"]) for ln in lines) == sorted(
        {(ln["example_id"], ln["setup"]) for ln in lines})
    assert {ln["result"]["segment_verdicts"][1]["label"] for ln in lines} == {"false"}
    calls = len(inner.calls)
    again = make_run(tmp_path, model).run(resume=True, show_progress=False)
    assert again.done == 0 and again.skipped == 6 and len(inner.calls) == calls
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert len(manifest["sessions"]) == 2 and manifest["sessions"][0]["done"] == 6
    assert "judge_segment_cot" in manifest["prompt_hashes"]


def test_a_torn_last_line_is_dropped_and_its_item_run_again(tmp_path: Path) -> None:
    model = CachedChatModel(ScriptedChatModel(reply), tmp_path / "cache.sqlite")
    make_run(tmp_path, model).run(show_progress=False)
    results = tmp_path / "run" / "results.jsonl"
    data = results.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    results.write_bytes(data[: last_start + 40])  # as if killed while writing the last line
    summary = make_run(tmp_path, model).run(resume=True, show_progress=False)
    assert summary.done == 1
    lines = list(read_lines(results))
    assert len(lines) == 6 and len({(ln["example_id"], ln["setup"]) for ln in lines}) == 6


def test_an_existing_run_needs_resume(tmp_path: Path) -> None:
    model = CachedChatModel(ScriptedChatModel(reply), tmp_path / "cache.sqlite")
    make_run(tmp_path, model, n=1).run(show_progress=False)
    with pytest.raises(InputError, match="--resume"):
        make_run(tmp_path, model, n=1).run(show_progress=False)


def test_model_failures_go_to_the_errors_file_and_can_be_retried(tmp_path: Path) -> None:
    from factjudge.errors import ModelError

    def flaky(messages: list[Message]) -> str:
        if "Question 1?" in messages[0]["content"]:
            raise ModelError("HTTP 500 from http://127.0.0.1 after 5 attempts")
        return reply(messages)

    model = CachedChatModel(ScriptedChatModel(flaky), tmp_path / "cache.sqlite")
    summary = make_run(tmp_path, model, grid=("strategy=vanilla",)).run(show_progress=False)
    assert summary.done == 2 and summary.failed == 1
    errors = list(read_lines(tmp_path / "run" / "errors.jsonl"))
    assert "HTTP 500" in errors[0]["error"]
    fixed = CachedChatModel(ScriptedChatModel(reply), tmp_path / "cache.sqlite")
    rerun = make_run(tmp_path, fixed, grid=("strategy=vanilla",)).run(resume=True, show_progress=False)
    assert rerun.done == 1


@pytest.mark.parametrize("term", ["strategy", "strategy=", "colour=red", "batch_size=two", "domain=math"])
def test_bad_grid_terms_are_input_errors(term: str) -> None:
    with pytest.raises(InputError):
        parse_grid([term])


def test_grid_expands_to_every_combination() -> None:
    grid = parse_grid(["strategy=vanilla,cot", "granularity=segment,claim", "batch_size=all,1"])
    configs = expand(CheckConfig(), grid)
    assert len(configs) == 8
    assert {c.batch_size for c in configs} == {None, 1}
    expected = "batch_size=None,granularity=segment,model=local,strategy=vanilla"
    assert setup_name(configs[0], list(grid)).id == expected
