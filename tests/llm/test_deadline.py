"""An overall deadline per check (issue 14 item 4): a hanging endpoint fails a check once, in time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.config import CheckConfig
from factjudge.errors import InputError, ModelError
from factjudge.llm.base import GenerationParams
from factjudge.llm.deadline import deadline
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.retry import RetryPolicy
from factjudge.testing.openai_server import FaultPlan, OpenAIServer, Step

MESSAGES = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]
PARAMS = GenerationParams(max_tokens=5)
HANGS = FaultPlan(rate=1.0, kinds=("hang",), hang_seconds=4.0)


def test_a_hanging_endpoint_fails_the_check_at_its_deadline_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    with OpenAIServer(faults=HANGS) as server:
        started = time.monotonic()
        # Without the deadline: 5 attempts × 1 s plus 1 + 2 + 4 + 8 s of back-off.
        code = main(["check", "Q?", "Paris is in France.", "--model", "openai:m", "--base-url",
                     server.base_url, "--timeout", "1", "--deadline", "1.5", "--strategy", "vanilla"])
        took = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 3 and err.count("\n") == 1, err
    assert "the check's deadline of 1.5 s passed" in err and "--deadline" in err
    # One timed-out attempt, not five: the back-off would outlast the deadline.
    assert len(server.requests) == 1 and took > 0.9


@pytest.mark.parametrize("timeout", ["60", "0.5"])
def test_a_trickling_endpoint_fails_the_check_at_its_deadline_in_one_line(
        timeout: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    # Status line, headers and body a byte every 0.2 s: no single read waits as long as the timeout.
    trickles = FaultPlan(rate=1.0, kinds=("trickle",), trickle_seconds=0.2)
    with OpenAIServer(faults=trickles) as server:
        started = time.monotonic()
        code = main(["check", "Q?", "Paris is in France.", "--model", "openai:m", "--base-url",
                     server.base_url, "--timeout", timeout, "--deadline", "2", "--strategy", "vanilla"])
        took = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 3 and err.count("\n") == 1, err
    assert "the check's deadline of 2 s passed" in err  # the trickle itself would take minutes
    assert took < 30  # a guard against a hang
    assert server.paid_twice() == 0


def test_the_deadline_cuts_a_call_timeout_and_stops_retries() -> None:
    policy = RetryPolicy(max_attempts=5, base_delay=0.5, max_delay=0.5)
    with OpenAIServer([Step(500)] * 5) as server:
        model = OpenAIChatModel("m", base_url=server.base_url, retry=policy, timeout=30)
        with deadline(0.8), pytest.raises(ModelError, match=r"deadline of 0\.8 s passed .*HTTP 500"):
            model.complete(MESSAGES, PARAMS)
    # Two or three attempts fit in 0.8 s with 0.25-0.5 s back-off, not five (a machine slowed by
    # other work may fit only the first).
    assert 1 <= len(server.requests) <= 3


def test_without_a_deadline_every_attempt_is_made() -> None:
    policy = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.01)
    with OpenAIServer([Step(500)] * 3) as server:
        model = OpenAIChatModel("m", base_url=server.base_url, retry=policy)
        with pytest.raises(ModelError, match=r"HTTP 500.* after 3 attempts"):
            model.complete(MESSAGES, PARAMS)
    assert len(server.requests) == 3


@pytest.mark.parametrize("value", [0, -1, float("nan")])
def test_a_deadline_must_be_positive(value: float) -> None:
    with pytest.raises(InputError, match="deadline must be a positive number"):
        CheckConfig(deadline=value)


def test_deadline_is_a_toml_key(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[check]\ndeadline = 30\n", encoding="utf-8")
    assert CheckConfig.from_toml(path).deadline == 30
