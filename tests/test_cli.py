"""The CLI: bad input is one clear line and exit 2; a model failure exits 3; --json loads back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.records import CheckResult

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "factjudge.cli", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["check", "q", ""], None, b"the answer is empty"),
        (["check", "q", "x" * 100_001], None, b"the limit is 100,000"),
        (["check", "q"], b"caf\xe9 \xff\xfe", b"not UTF-8 text"),
        (["check", "q", "Paris is in France.", "--strategy", "guess"], None, b"unknown strategy 'guess'"),
        (["check", "q", "Paris is in France.", "--model", "gpt9"], None, b"unknown model"),
        (["check", "q", "Paris is in France.", "--granularity", "word"], None, b"unknown granularity"),
        (["check", "q", "a", "--answer-file", "f"], None, b"not both"),
        (["check", "q", "--answer-file", "/no/such/file"], None, b"cannot read /no/such/file"),
        (["check", "q", "Paris is in France.", "--batch-size", "x"], None, b"invalid int value"),
        (["bench", "/no/such/data.jsonl"], None, b"/no/such/data.jsonl"),
        (["report", "/no/such/run"], None, b"not a directory"),
        (["frobnicate"], None, b"invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], stdin: bytes | None, message: bytes) -> None:
    done = run_cli(*args, stdin=stdin)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert b"Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_unreachable_endpoint_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "q", "Paris is in France.", "--model", "openai:gpt-4o-mini", "--no-cache",
                 "--base-url", "http://127.0.0.1:9/v1", "--timeout", "2"])
    err = capsys.readouterr().err
    assert code == 3 and err.startswith("factjudge: error:") and len(err.strip().splitlines()) == 1


def test_a_model_free_judge_without_evidence_says_so() -> None:
    done = run_cli("check", "q", "Paris is in France.", "--strategy", "token_f1", "--json")
    assert done.returncode == 2 and b"judges against evidence" in done.stderr


@pytest.mark.local_model
def test_local_model_check_json_round_trips() -> None:
    pytest.importorskip("llama_cpp")
    done = run_cli("check", "Which is the smallest ocean?",
                   "The Arctic Ocean is the smallest ocean. I love the sea!", "--json", "--no-cache")
    assert done.returncode == 0, done.stderr
    result = CheckResult.from_json(done.stdout.decode())
    assert result.demo_model and result.model.startswith("local:")
    assert result.segment_verdicts[1].label == "not_checkable"
    assert result.traces and result.traces[0].prompt_name == "judge_segment_vanilla"
    assert CheckResult.from_json(result.to_json()) == result


@pytest.mark.local_model
def test_local_model_human_output_says_it_is_a_demo() -> None:
    pytest.importorskip("llama_cpp")
    done = run_cli("check", "Which is the smallest ocean?", "The Arctic Ocean is the smallest ocean.")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "demo model" in out and "answer:" in out
