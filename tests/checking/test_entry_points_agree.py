"""One code path: the CLI, the Verifier, the LangChain runnable, the HTTP service and bench agree.

The same question, answer, context and settings go through every entry point with the
same scripted model; each must run the same strategy with the same prompts (by hash) and
reach the same verdicts, and a caller's context must reach the judge from every one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from factjudge import cli
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.eval.datasets import load_dataset
from factjudge.eval.results import read_lines
from factjudge.eval.runner import BenchRun, Setup
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult

QUESTION = "When did the city museum open, and where is it?"
# One sentence: bench judges a TRUE pair's text as one segment, the others split it into sentences.
ANSWER = "The city museum opened in 1998 on the north bank of the river."
CONTEXT = "The city museum opened its doors in 1998 in a former power station on the south bank of the river."
CLAIMS = ("Segment 1:\nClaim 1. The city museum opened in 1998.\n"
          "Claim 2. The city museum is on the north bank.\n")
_ITEM = re.compile(r"^(\d+)\. (.*)$", re.MULTILINE)


def judge(messages: list[Message]) -> str:
    """Extracts two claims; lists, or calls False (No), whatever says "north bank"."""
    prompt = messages[0]["content"]
    if "Answer with only Yes or No" in prompt:  # the per-item grounded prompt
        return "No" if "north bank" in prompt[prompt.rindex("<statement>"):] else "Yes"
    if "<statement>" in prompt:  # FActScore's one-item prompt
        return "False" if "north bank" in prompt[prompt.rindex("<statement>"):] else "True"
    if "atomic factual claims" in prompt or "extract factual claims" in prompt:
        return CLAIMS
    fenced = prompt[max(prompt.rfind("<segments>"), prompt.rfind("<claims>")):]
    wrong = [n for n, text in _ITEM.findall(fenced) if "north bank" in text]
    return f'Answer: {", ".join(wrong)}' if wrong else "Answer: ALL_CORRECT"


Capture = pytest.CaptureFixture[str]
EntryPoint = Callable[[CheckConfig, bool, Path, Capture], CheckResult]


def via_cli(config: CheckConfig, with_context: bool, tmp_path: Path, capsys: Capture) -> CheckResult:
    flags = [f"--{key}={getattr(config, key)}" for key in ("strategy", "granularity")
             if getattr(config, key) is not None]
    context = ["--context", CONTEXT] if with_context else []
    assert cli.main(["check", QUESTION, ANSWER, "--json", *flags, *context]) == 0
    return CheckResult.from_json(capsys.readouterr().out)


def via_verifier(config: CheckConfig, with_context: bool, tmp_path: Path, capsys: Capture) -> CheckResult:
    return Verifier(config).verify(QUESTION, ANSWER, context=[CONTEXT] if with_context else None)


def via_langchain(config: CheckConfig, with_context: bool, tmp_path: Path, capsys: Capture) -> CheckResult:
    pytest.importorskip("langchain_core")
    from factjudge.integrations.langchain import VerifierRunnable

    data = {"question": QUESTION, "answer": ANSWER, "context": [CONTEXT] if with_context else None}
    return VerifierRunnable(config=config).invoke(data)


def via_http(config: CheckConfig, with_context: bool, tmp_path: Path, capsys: Capture) -> CheckResult:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from factjudge.integrations.http import create_app

    options = {key: getattr(config, key) for key in ("strategy", "granularity") if getattr(config, key)}
    body = {"question": QUESTION, "answer": ANSWER, "options": options,
            **({"context": [CONTEXT]} if with_context else {})}  # [] would be an empty retrieval, refused
    with TestClient(create_app(), base_url="http://localhost") as client:
        response = client.post("/v1/check", json=body)
    assert response.status_code == 200, response.text
    return CheckResult.from_dict(response.json())


def via_bench(config: CheckConfig, with_context: bool, tmp_path: Path, capsys: Capture) -> CheckResult:
    example = {"id": "e1", "question": QUESTION, "answer": ANSWER}
    if with_context:
        example["grounding"] = CONTEXT  # a TRUE pair: the grounding is the context
    tmp_path.mkdir()
    data = tmp_path / "one.jsonl"
    data.write_text(json.dumps(example) + "\n", encoding="utf-8")
    run = BenchRun(tmp_path / "run", load_dataset(data), [Setup("one", config)], dataset=str(data),
                   dataset_hash="h", concurrency=1)
    assert run.run(show_progress=False).done == 1
    [line] = read_lines(tmp_path / "run" / "results.jsonl")
    return CheckResult.from_dict(line["result"])


ENTRY_POINTS: dict[str, EntryPoint] = {"cli": via_cli, "verifier": via_verifier, "langchain": via_langchain,
                                       "http": via_http, "bench": via_bench}


def fingerprint(result: CheckResult) -> dict[str, Any]:
    """What must not depend on the entry point: strategy, prompts and their hashes, verdicts."""
    messages = json.dumps([t.messages for t in result.traces], sort_keys=True)
    return {
        "strategy": result.strategy,
        "granularity": result.granularity,
        "model": result.model,
        "prompt_hashes": [t.prompt_hash for t in result.traces],
        "prompts": hashlib.sha256(messages.encode()).hexdigest(),
        "verdicts": [(v.target, v.target_id, v.label, v.error_score, [e.text for e in v.evidence])
                     for v in (*result.segment_verdicts, *result.claim_verdicts)],
        "label": result.label,
    }


@pytest.mark.parametrize(("settings", "with_context", "strategy", "label"), [
    ({}, False, "vanilla", "false"),
    ({}, True, "grounded", "false"),
    ({"strategy": "cot", "granularity": "claim"}, True, "grounded", "false"),
    ({"strategy": "fact"}, True, "supported", "false"),
    ({"strategy": "bm25"}, True, "bm25", "true"),  # most of its words are in the context
    ({"strategy": "fact", "granularity": "claim"}, False, "fact", "false"),
], ids=["default", "context", "cot-claims-context", "fact-context", "bm25-context", "fact-claims"])
def test_every_entry_point_runs_the_same_check(settings: dict[str, str], with_context: bool, strategy: str,
                                               label: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    models: list[ScriptedChatModel] = []

    def build(config: CheckConfig) -> ScriptedChatModel:
        models.append(ScriptedChatModel(judge, name="scripted:judge"))
        return models[-1]

    monkeypatch.setattr("factjudge.checking.model_pool.build_model", build)
    monkeypatch.setattr("factjudge.checking.api.build_model", build)
    config = CheckConfig(**settings)  # type: ignore[arg-type]
    results = {}
    for name, entry in ENTRY_POINTS.items():
        try:
            results[name] = entry(config, with_context, tmp_path / name, capsys)
        except pytest.skip.Exception:
            continue
    assert {"cli", "verifier", "bench"} <= set(results)  # langchain and http need their extras

    prints = {name: fingerprint(result) for name, result in results.items()}
    first = prints["cli"]
    assert first["strategy"] == strategy
    assert all(p == first for p in prints.values()), json.dumps(prints, indent=1)
    assert first["label"] == label
    judged = [t for t in results["cli"].traces if t.step == "judge"]
    if with_context and judged:  # the context is in the judge's prompt, from every entry point
        assert all(CONTEXT in t.messages[0]["content"] for t in judged)
    if with_context:
        assert all(CONTEXT in texts for *_, texts in first["verdicts"] if texts)
    else:
        assert all(CONTEXT not in call[0]["content"] for m in models for call in m.calls)


def test_open_mode_is_the_same_from_the_cli_and_the_verifier(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: Capture) -> None:
    monkeypatch.setattr("factjudge.checking.api.build_model",
                        lambda config: ScriptedChatModel(judge, name="s"))
    assert cli.main(["check", QUESTION, ANSWER, "--json", "--context", CONTEXT, "--open"]) == 0
    from_cli = CheckResult.from_json(capsys.readouterr().out)
    from_verifier = Verifier(model=ScriptedChatModel(judge, name="s"), grounded=False).verify(
        QUESTION, ANSWER, context=[CONTEXT])
    assert from_cli.strategy == from_verifier.strategy == "doc"
    assert fingerprint(from_cli) == fingerprint(from_verifier)
    assert CONTEXT in from_cli.traces[0].messages[0]["content"]
