"""One plan decides: every entry point's set-up name, plan and result record agree on what ran.

For a grid of configs (the embedded model and an endpoint's, with and without a context,
reference texts, an evidence source, open mode, claims whose extraction fails), each entry
point (CLI, ``check``, the Verifier, LangChain, HTTP, ``bench``, ``evaluate`` with and without a
model passed in) must name the set-up by the strategy and granularity the planner decided, record
that plan in the result, and run it, or say in ``fallback`` why something else ran.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from factjudge import cli
from factjudge.checking.api import check
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.eval.datasets import Example
from factjudge.eval.evaluate import evaluate
from factjudge.eval.results import read_json, read_lines
from factjudge.eval.runner import name_setups, plan_example
from factjudge.llm.base import Message
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult

QUESTION = "When did the city museum open?"
ANSWER = "The city museum opened in 1998 on the north bank."
CONTEXT = "The city museum opened its doors in 1998 on the south bank of the river."
REF_TEXT = "The museum was opened to the public in 1998."


def judge(fail_extraction: bool) -> Callable[[list[Message]], str]:
    """A model that answers every prompt factjudge sends; extraction fails when asked to."""

    def reply(messages: list[Message]) -> str:
        prompt = messages[0]["content"]
        if "atomic factual claims" in prompt or "extract factual claims" in prompt:
            return "I would rather not." if fail_extraction else (
                "Segment 1:\nClaim 1. The city museum opened in 1998.\n")
        if "Answer with only Yes or No" in prompt or "Yes or No" in prompt:
            return "Yes"
        if "<statement>" in prompt:
            return "True"
        if "Answer:" in prompt:
            return "Answer: ALL_CORRECT"
        return "The city museum opened in 1998."  # the knowledge agent's passage

    return reply


@dataclass(frozen=True)
class Case:
    """One point of the grid: settings, which model judges, and what the input carries."""

    name: str
    model: str  # the judging model's name: the embedded model or an endpoint's
    settings: dict[str, Any] = field(default_factory=dict)
    context: bool = False
    ref_text: bool = False
    fail_extraction: bool = False

    def config(self) -> CheckConfig:
        spec = "local" if self.model == LOCAL_DEFAULT else self.model
        return CheckConfig(model=spec, wiki="none", **self.settings)

    def example(self) -> Example:
        return Example("e1", QUESTION, ANSWER, domain="wk", grounding=CONTEXT if self.context else "",
                       ref_contents=(REF_TEXT,) if self.ref_text else ())


CASES = [
    Case("local", LOCAL_DEFAULT),
    Case("local-context", LOCAL_DEFAULT, context=True),
    Case("local-context-open", LOCAL_DEFAULT, {"grounded": False}, context=True),
    Case("local-refs", LOCAL_DEFAULT, ref_text=True),
    Case("local-evidence-llm", LOCAL_DEFAULT, {"evidence": ("llm",)}),
    Case("local-claims-failed", LOCAL_DEFAULT, {"granularity": "claim"}, fail_extraction=True),
    Case("endpoint", "openai:m"),
    Case("endpoint-context", "openai:m", context=True),
    Case("endpoint-context-open", "openai:m", {"grounded": False}, context=True),
    Case("endpoint-refs-doc", "openai:m", {"strategy": "doc"}, ref_text=True),
    Case("endpoint-doc-no-refs", "openai:m", {"strategy": "doc"}),
    Case("endpoint-claims", "openai:m", {"granularity": "claim"}),
    Case("endpoint-claims-failed", "openai:m", {"strategy": "cot", "granularity": "claim"},
         fail_extraction=True),
]

Run = tuple[str, CheckResult]  # the set-up's name, the result
EntryPoint = Callable[[Case, ScriptedChatModel, Path, pytest.CaptureFixture[str]], Run]


def _name(case: Case, model: ScriptedChatModel) -> str:
    """The set-up name bench would give this one config (entry points without a grid have none)."""
    [setup] = name_setups([case.config()], [], [case.example()], lambda c: model.name)
    return setup.id


def _inputs(case: Case) -> dict[str, Any]:
    return {"context": [CONTEXT] if case.context else None,
            "ref_texts": [REF_TEXT] if case.ref_text else None}


def via_cli(case: Case, model: ScriptedChatModel, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    if case.ref_text:
        pytest.skip("the CLI takes reference links, not texts")
    config = case.config()
    flags = ["--model", config.model, "--wiki", "none", "--granularity", config.granularity]
    flags += ["--strategy", config.strategy] if config.strategy else []
    flags += ["--evidence", ",".join(config.evidence)] if config.evidence else []
    flags += ["--context", CONTEXT] if case.context else []
    flags += [] if config.grounded else ["--open"]
    assert cli.main(["check", QUESTION, ANSWER, "--json", *flags]) == 0
    return _name(case, model), CheckResult.from_json(capsys.readouterr().out)


def via_check(case: Case, model: ScriptedChatModel, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    from factjudge.records import Evidence

    result = check(QUESTION, ANSWER, case.config(), model=model,
                   context=[Evidence("context", CONTEXT)] if case.context else (),
                   ref_texts=[REF_TEXT] if case.ref_text else ())
    return _name(case, model), result


def via_verifier(case: Case, model: ScriptedChatModel, tmp: Path,
                 capsys: pytest.CaptureFixture[str]) -> Run:
    return _name(case, model), Verifier(case.config(), model=model).verify(QUESTION, ANSWER, **_inputs(case))


def via_langchain(case: Case, model: ScriptedChatModel, tmp: Path,
                  capsys: pytest.CaptureFixture[str]) -> Run:
    pytest.importorskip("langchain_core")
    from factjudge.integrations.langchain import VerifierRunnable

    data = {"question": QUESTION, "answer": ANSWER, **_inputs(case)}
    return _name(case, model), VerifierRunnable(config=case.config(), model=model).invoke(data)


def via_http(case: Case, model: ScriptedChatModel, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from factjudge.integrations.http import create_app

    body = {"question": QUESTION, "answer": ANSWER, "ref_texts": [REF_TEXT] if case.ref_text else [],
            **({"context": [CONTEXT]} if case.context else {})}  # no context is left out: [] is an empty one
    with TestClient(create_app(model, case.config()), base_url="http://localhost") as client:
        info = client.get("/v1/info").json()
        response = client.post("/v1/check", json=body)
    assert response.status_code == 200, response.text
    result = CheckResult.from_dict(response.json())
    shown = info["strategy_with_context"] if case.context else info["strategy"]
    if not case.ref_text:  # /v1/info plans a request without references
        assert shown == result.plan.strategy
    return _name(case, model), result


def _dataset(case: Case, tmp: Path) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "one.jsonl"
    path.write_text(json.dumps(case.example().to_dict()) + "\n", encoding="utf-8")
    return path


def via_bench(case: Case, model: ScriptedChatModel, tmp: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    config = case.config()
    grid = [f"granularity={config.granularity}", f"grounded={config.grounded}"]
    grid += [f"strategy={config.strategy}"] if config.strategy else []
    grid += [f"evidence={'+'.join(config.evidence)}"] if config.evidence else []
    run_dir = tmp / "run"
    assert cli.main(["bench", str(_dataset(case, tmp)), "--model", config.model, "--wiki", "none",
                     "--run-dir", str(run_dir), "--no-progress", "--grid", *grid]) == 0
    [line] = read_lines(run_dir / "results.jsonl")
    assert list(read_json(run_dir / "manifest.json")["setups"]) == [line["setup"]]
    return line["setup"], CheckResult.from_dict(line["result"])


def via_evaluate(case: Case, model: ScriptedChatModel, tmp: Path,
                 capsys: pytest.CaptureFixture[str]) -> Run:
    done = evaluate([case.example()], case.config(), model=model, run_dir=tmp / "run")
    [row] = done.results.to_dict("records")
    return row["setup"], CheckResult.from_dict(row["result"])


def via_evaluate_built(case: Case, model: ScriptedChatModel, tmp: Path,
                       capsys: pytest.CaptureFixture[str]) -> Run:
    done = evaluate([case.example()], case.config(), run_dir=tmp / "run")  # the model the config names
    [row] = done.results.to_dict("records")
    return row["setup"], CheckResult.from_dict(row["result"])


ENTRY_POINTS: dict[str, EntryPoint] = {
    "cli": via_cli, "check": via_check, "verifier": via_verifier, "langchain": via_langchain,
    "http": via_http, "bench": via_bench, "evaluate": via_evaluate, "evaluate-built": via_evaluate_built,
}


def _named(setup: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in setup.split(","))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_the_setup_name_the_plan_and_the_result_agree(case: Case, entry: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    model = ScriptedChatModel(judge(case.fail_extraction), name=case.model)
    monkeypatch.setattr("factjudge.checking.model_pool.build_model", lambda config: model)
    monkeypatch.setattr("factjudge.checking.api.build_model", lambda config: model)
    setup, result = ENTRY_POINTS[entry](case, model, tmp_path, capsys)

    plan = plan_example(case.config(), case.example(), model.name) if entry in ("bench", "evaluate",
                                                                              "evaluate-built") else None
    named = _named(setup)
    assert named["strategy"].split("→")[-1] == result.plan.strategy, (setup, result.plan)
    assert named["granularity"].split("→")[-1] == result.plan.granularity, (setup, result.plan)
    if plan is not None:
        assert plan.summary() == result.plan
    # What ran is the plan, or the result says why not.
    if result.strategy != result.plan.strategy:
        assert any(f"{result.plan.strategy} ran as {result.strategy}" in f for f in result.fallbacks)
    if result.granularity != result.plan.granularity:
        assert case.fail_extraction and any("claim extraction failed" in f for f in result.fallbacks)


def test_a_passed_in_model_names_the_setup_by_its_own_default() -> None:
    # The bug this fixes: CheckConfig() names "local" (fact), but an endpoint's model runs vanilla.
    case = Case("endpoint", "openai:m")
    [setup] = name_setups([CheckConfig()], [], [case.example()], lambda c: "openai:m")
    assert _named(setup.id)["strategy"] == "vanilla"
    [setup] = name_setups([CheckConfig(wiki="none")], [], [Case("c", "x", context=True).example()],
                          lambda c: LOCAL_DEFAULT)
    assert _named(setup.id)["strategy"] == "supported"  # TRUE mode: the grounding is a context
    [setup] = name_setups([CheckConfig(strategy="vanilla")], [], [Case("c", "x", context=True).example()],
                          lambda c: "openai:m")
    assert _named(setup.id)["strategy"] == "vanilla→grounded"


def test_two_setups_named_alike_are_refused() -> None:
    from factjudge.errors import InputError

    example = Case("c", "x", context=True).example()
    with pytest.raises(InputError, match="run the same thing"):  # k varies but is not a shown key
        name_setups([CheckConfig(model="openai:m", k=3), CheckConfig(model="openai:m", k=5)],
                    [], [example], lambda c: "openai:m")
