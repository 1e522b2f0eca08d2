"""The openai backend against a real HTTP server on 127.0.0.1: retries, timeouts, cache, usage."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from factjudge.errors import ModelError
from factjudge.llm.base import GenerationParams
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.retry import RetryPolicy
from factjudge.testing.openai_server import OpenAIServer, Step

FAST = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05)
MESSAGES = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]
PARAMS = GenerationParams(max_tokens=5)


def model(server: OpenAIServer, **kw: object) -> OpenAIChatModel:
    return OpenAIChatModel("test-model", base_url=server.base_url, api_key="k", retry=FAST, **kw)  # type: ignore[arg-type]


def test_retries_after_429_and_500_then_succeeds_honouring_retry_after() -> None:
    steps = [Step(429, headers={"retry-after": "0.3"}), Step(500), Step(reply="True")]
    with OpenAIServer(steps) as server:
        started = time.perf_counter()
        completion = model(server).complete(MESSAGES, PARAMS)
        assert completion.text == "True"
        assert len(server.requests) == 3
        assert time.perf_counter() - started >= 0.3  # waited as the server asked


def test_gives_up_after_the_last_attempt_with_one_clear_line() -> None:
    with OpenAIServer([Step(503)] * 4) as server, pytest.raises(ModelError) as info:
        model(server).complete(MESSAGES, PARAMS)
    assert len(server.requests) == 4
    assert "HTTP 503" in str(info.value) and "after 4 attempts" in str(info.value)


def test_client_errors_fail_at_once() -> None:
    with OpenAIServer([Step(401), Step(reply="True")]) as server, pytest.raises(ModelError, match="HTTP 401"):
        model(server).complete(MESSAGES, PARAMS)
    assert len(server.requests) == 1


def test_a_timeout_surfaces_as_a_clear_model_error() -> None:
    steps = [Step(reply="True", delay=1.0)] * 2
    with OpenAIServer(steps) as server:
        slow = OpenAIChatModel("m", base_url=server.base_url, timeout=0.2,
                               retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.01))
        with pytest.raises(ModelError, match=r"timed out after 0.2 s after 2 attempts"):
            slow.complete(MESSAGES, PARAMS)


@pytest.mark.parametrize("body", [{"choices": []}, {"object": "error"}, {"choices": [{"message": None}]}])
def test_a_reply_that_is_not_a_chat_completion_is_reported_not_read(body: dict[str, object]) -> None:
    failing = pytest.raises(ModelError, match="not a chat completion")
    with OpenAIServer([Step(body=body)] * 4) as server, failing:
        model(server).complete(MESSAGES, PARAMS)
    assert len(server.requests) == 4  # retried like a 5xx before it is reported


def test_usage_and_logprobs_are_read_from_the_response() -> None:
    logprobs = [{"token": "True", "logprob": -0.1, "bytes": None,
                 "top_logprobs": [{"token": "True", "logprob": -0.1, "bytes": None},
                                  {"token": "False", "logprob": -2.4, "bytes": None}]}]
    with OpenAIServer([Step(reply="True", logprobs=logprobs)]) as server:
        completion = model(server).complete(MESSAGES, GenerationParams(max_tokens=5, logprobs=True))
    assert server.requests[0]["logprobs"] is True and server.requests[0]["top_logprobs"] == 5
    assert server.requests[0]["temperature"] == 0.0
    assert completion.prompt_tokens == 8 and completion.completion_tokens == 1
    assert completion.logprobs is not None and completion.logprobs[0].top["False"] == pytest.approx(-2.4)


def test_missing_usage_is_counted_with_tiktoken() -> None:
    with OpenAIServer([Step(reply="True", usage=False)]) as server:
        completion = model(server).complete(MESSAGES, PARAMS)
    assert completion.prompt_tokens > 5 and completion.completion_tokens == 1


def test_a_second_identical_run_is_served_wholly_from_the_cache(tmp_path: Path) -> None:
    with OpenAIServer(responder=lambda messages: "True") as server:
        cached = CachedChatModel(model(server), tmp_path / "calls.sqlite")
        first = [cached.complete([{"role": "user", "content": f"q{i}"}], PARAMS) for i in range(5)]
        assert len(server.requests) == 5 and not any(c.cached for c in first)
        again = CachedChatModel(model(server), tmp_path / "calls.sqlite")  # a new process, same file
        second = [again.complete([{"role": "user", "content": f"q{i}"}], PARAMS) for i in range(5)]
        assert len(server.requests) == 5  # zero HTTP requests the second time
        assert all(c.cached for c in second) and [c.text for c in second] == [c.text for c in first]
        assert second[0].prompt_tokens == first[0].prompt_tokens  # usage recorded with the reply
        assert again.stats()["recomputed"] == 0


def test_calls_from_threads_are_retried_each() -> None:
    with OpenAIServer([Step(500), Step(500), Step(reply="False"), Step(reply="False")]) as server:
        shared = model(server)
        with ThreadPoolExecutor(2) as pool:
            replies = list(pool.map(lambda _: shared.complete(MESSAGES, PARAMS).text, range(2)))
    assert replies == ["False", "False"] and len(server.requests) == 4


def test_unreachable_endpoint_is_a_connection_error() -> None:
    dead = OpenAIChatModel("m", base_url="http://127.0.0.1:9/v1", retry=RetryPolicy(2, 0.01, 0.01))
    with pytest.raises(ModelError, match="could not connect"):
        dead.complete(MESSAGES, PARAMS)
