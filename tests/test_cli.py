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


def checked(*args: str) -> CheckResult:
    """``factjudge check ARGS --json``, in no hurry, its result read back (the check must succeed)."""
    done = run_cli("check", *args, "--json", *NO_HURRY)
    assert done.returncode == 0, done.stderr
    return CheckResult.from_json(done.stdout.decode())

EIFFEL = ("Where is the Eiffel Tower?", "The Eiffel Tower is in Rome. It was finished in 1889.", "--context",
          "The Eiffel Tower is a wrought-iron lattice tower in Paris, France, completed in 1889.")


@pytest.mark.local_model
def test_the_embedded_model_labels_a_grounded_answer_right() -> None:
    pytest.importorskip("llama_cpp")
    result = checked(*EIFFEL, "--no-cache")
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
    result = checked(demo["WK_QUESTION"], demo["WK_ANSWER"], "--no-cache")
    assert result.strategy == "evidence" and result.model == LOCAL_DEFAULT
    paris, finished, tallest = result.segment_verdicts
    assert paris.label == "true" and finished.label != "true" and tallest.label != "true"
    assert all(v.evidence and v.evidence[0].title == "Eiffel Tower" and v.evidence[0].source == "wikipedia"
               for v in result.segment_verdicts)
    shown = run_cli("check", result.question, result.answer, *NO_HURRY)  # the same calls, now cached
    out = " ".join(shown.stdout.decode().split())
    assert "evidence: wikipedia · Eiffel Tower · https://en.wikipedia.org/wiki/Eiffel_Tower" in out


def test_check_help_names_the_default_strategy_the_plan_runs(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 44, point 15: the help said fact for local models while results and /v1/info said evidence.
    from factjudge.checking.plan import plan_check
    from factjudge.config import CheckConfig

    with pytest.raises(SystemExit):
        main(["check", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    runs = {name: plan_check(CheckConfig(wiki=wiki), "", "x", context=context, model_name=LOCAL_DEFAULT)
            .strategy.name for name, wiki, context in (("alone", "api", ()), ("no wiki", "none", ()),
                                                       ("context", "auto", ("x",)))}
    assert runs == {"alone": "evidence", "no wiki": "fact", "context": "supported"}
    assert (f"for local models {runs['alone']} (reading Wikipedia; {runs['no wiki']} where none is at "
            f"hand), {runs['context']} with a context") in shown
    assert "for others vanilla, grounded with a context (doc with --open)" in shown


def _remaining_at_each_call(monkeypatch: pytest.MonkeyPatch, delay: float = 0.0) -> list[float | None]:
    """The check's time left at each model call of a scripted True/False judge."""
    from factjudge.llm.deadline import remaining
    from factjudge.llm.scripted import ScriptedChatModel

    seen: list[float | None] = []

    def judge(messages: object) -> str:
        seen.append(remaining())
        return "True"

    model = ScriptedChatModel(judge, name="scripted:judge", delay=delay)
    monkeypatch.setattr("factjudge.checking.api.build_model", lambda config: model)
    return seen


FACTS = ("Bridge 1 opened in 1901. Bridge 2 opened in 1902. Bridge 3 opened in 1903. "
         "Bridge 4 opened in 1904.")


def test_at_the_terminal_a_check_waits_unless_a_deadline_is_given(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    # Issue 44, point 16: the default 120 s deadline turned a slow check into exit 3 with nothing shown.
    seen = _remaining_at_each_call(monkeypatch)
    args = ["check", "q", FACTS, "--strategy", "fact", "--wiki", "none", "--no-cache", "--json"]
    assert main(args) == 0 and seen == [None] * 4
    seen.clear()
    assert main([*args, "--deadline", "30"]) == 0 and seen and all(s is not None and s <= 30 for s in seen)
    seen.clear()
    config = tmp_path / "check.toml"
    config.write_text("[check]\ndeadline = 20\n", encoding="utf-8")
    assert main([*args, "--config", str(config)]) == 0
    assert seen and all(s is not None and s <= 20 for s in seen)
    capsys.readouterr()


def test_a_deadline_that_stops_a_check_shows_what_was_judged(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    _remaining_at_each_call(monkeypatch, delay=0.4)
    assert main(["check", "q", FACTS, "--strategy", "fact", "--wiki", "none", "--no-cache",
                 "--deadline", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "✔ true [1]" in out and "Bridge 1 opened in 1901." in out
    assert "not judged" in out and "Bridge 4 opened in 1904." in out


def test_check_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 checked" in shown
    assert all(f"; {code} " in shown for code in (2, 3, 4, 1, 130))


def test_a_model_free_judge_whose_references_were_refused_says_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 44 (low): it said only that it "has none", not that the reference was refused.
    code = main(["check", "q", "Paris is in France.", "--strategy", "token_f1", "--refs", "http://127.0.0.1:1/x"])
    err = capsys.readouterr().err
    assert code == 2 and "token_f1 strategy judges against evidence and found none" in err
    assert "none of the 1 references could be fetched (http://127.0.0.1:1/x: refused loopback" in err


def test_check_help_imports_neither_the_checker_nor_the_network(tmp_path: Path) -> None:
    # Issue 42, point 4: what a command does not use is not imported at start (httpx pulled in
    # trio, click and rich: about 300 modules before `--help` printed anything).
    probe = ("import sys\nfrom factjudge.cli import main\ntry:\n    main(['check', '--help'])\n"
             "except SystemExit:\n    pass\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                          timeout=HANG_GUARD)
    imported = set(done.stderr.split())
    assert "factjudge.cli" in imported and "exit status" in done.stdout
    assert not imported & {"httpx", "httpcore", "tiktoken", "factjudge.checking.checker", "llama_cpp"}
