"""Every entry point (CLI, check(), Verifier, Runnable, HTTP) runs the one checker.run."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from factjudge import cli, explain
from factjudge.checking import api, checker
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult
from tests.integrations.samples import ANSWER, QUESTION, second_is_wrong


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[CheckResult]:
    """Every CheckResult that checker.run produced during the test."""
    seen: list[CheckResult] = []
    original: Callable[..., CheckResult] = checker.run

    def spy(*args: Any, **kwargs: Any) -> CheckResult:
        result = original(*args, **kwargs)
        seen.append(result)
        return result

    monkeypatch.setattr(checker, "run", spy)
    monkeypatch.setattr(api, "run", spy)
    model = ScriptedChatModel(second_is_wrong, name="scripted:judge")
    monkeypatch.setattr("factjudge.checking.model_pool.build_model", lambda config: model)
    monkeypatch.setattr(api, "build_model", lambda config: model)
    return seen


def test_all_entry_points_share_the_pipeline_and_agree(runs: list[CheckResult],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", QUESTION, ANSWER, "--json", "--no-cache"]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    from_api = api.check(QUESTION, ANSWER, CheckConfig())
    from_verifier = Verifier().verify(QUESTION, ANSWER)
    outputs: list[dict[str, Any]] = [from_cli, explain.result_dict(from_api),
                                     explain.result_dict(from_verifier)]
    try:
        from factjudge.integrations.langchain import VerifierRunnable

        invoked = VerifierRunnable().invoke({"question": QUESTION, "answer": ANSWER})
        outputs.append(explain.result_dict(invoked))
    except ImportError:
        pass
    try:
        from fastapi.testclient import TestClient

        from factjudge.integrations.http import create_app

        with TestClient(create_app(), base_url="http://localhost") as client:
            outputs.append(client.post("/v1/check", json={"question": QUESTION, "answer": ANSWER}).json())
    except ImportError:
        pass
    assert len(runs) == len(outputs) >= 3
    labels = {json.dumps([v["label"] for v in out["segment_verdicts"]]) for out in outputs}
    assert labels == {json.dumps(["true", "false", "not_checkable"])}
    assert {out["strategy"] for out in outputs} == {"vanilla"}
