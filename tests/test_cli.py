"""The CLI: bad input is one clear line and exit 2; a model failure exits 3; --json loads back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factjudge import explain
from factjudge.cli import main
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.records import CheckResult
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "factjudge.cli", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=HANG_GUARD)


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
        (["check", "q", "Paris is in France.", "--timeout", "-1"], None, b"timeout must be a positive"),
        (["check", "q", "Paris is in France.", "--timeout", "0"], None, b"timeout must be a positive"),
        (["serve", "--port", "70000"], None, b"--port must be between 1 and 65535"),
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


# The embedded model honours a check's deadline (120 s by default), and a two-core machine busy with
# other jobs may take longer than that: what these tests check is the verdicts, not the machine.
NO_HURRY = ("--deadline", "600")
EIFFEL = ("Where is the Eiffel Tower?", "The Eiffel Tower is in Rome. It was finished in 1889.", "--context",
          "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889.")


@pytest.mark.local_model
def test_the_embedded_model_labels_a_grounded_answer_right() -> None:
    pytest.importorskip("llama_cpp")
    done = run_cli("check", *EIFFEL, "--json", "--no-cache", *NO_HURRY)
    assert done.returncode == 0, done.stderr
    result = CheckResult.from_json(done.stdout.decode())
    assert [v.label for v in result.segment_verdicts] == ["false", "true"]
    assert result.model == LOCAL_DEFAULT and result.strategy == "supported"
    assert result.model_note and "Qwen2.5-Coder-1.5B" in result.model_note
    judged = [t for t in result.traces if t.prompt_name == "judge_supported"]
    assert judged and all("Paris" in t.messages[0]["content"] for t in judged)
    # Beside the decision, the judge read the item's values (the place, the year) from the passage.
    assert {t.prompt_name for t in result.traces} == {"judge_supported", "read_value_cloze"}
    assert CheckResult.from_json(explain.result_json(result)) == result


@pytest.mark.local_model
def test_the_readme_demo_prints_right_verdicts_and_names_the_model() -> None:
    pytest.importorskip("llama_cpp")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = {k: v.strip() for k, _, v in (line.partition(" ?= ") for line in makefile.splitlines())}
    done = run_cli("check", demo["QUESTION"], demo["ANSWER"], "--context", demo["CONTEXT"], *NO_HURRY)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.decode().split())
    assert "Judged offline by Qwen2.5-Coder-1.5B" in out
    assert "✔ true [1]" in out and "✘ false [2]" in out and "· not checkable [3]" in out


@pytest.mark.local_model
def test_the_demo_world_knowledge_answer_rests_on_wikipedia() -> None:
    pytest.importorskip("llama_cpp")
    from factjudge.retrieval.wiki import best_offline_wiki

    if best_offline_wiki() is None:
        pytest.skip("the packaged Wikipedia (the wiki extra) is not installed")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = {k: v.strip() for k, _, v in (line.partition(" ?= ") for line in makefile.splitlines())}
    done = run_cli("check", demo["WK_QUESTION"], demo["WK_ANSWER"], "--json", "--no-cache", *NO_HURRY)
    assert done.returncode == 0, done.stderr
    result = CheckResult.from_json(done.stdout.decode())
    assert result.strategy == "evidence" and result.model == LOCAL_DEFAULT
    paris, finished, tallest = result.segment_verdicts
    assert paris.label == "true" and finished.label != "true" and tallest.label != "true"
    assert all(v.evidence and v.evidence[0].title == "Eiffel Tower" and v.evidence[0].source == "wikipedia"
               for v in result.segment_verdicts)
    shown = run_cli("check", result.question, result.answer, *NO_HURRY)  # the same calls, now cached
    out = " ".join(shown.stdout.decode().split())
    assert "evidence: wikipedia · Eiffel Tower · https://en.wikipedia.org/wiki/Eiffel_Tower" in out
