"""A misbehaving endpoint on 127.0.0.1 (issue 14): every fault is retried, refused or reported in one line."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.errors import InputError, ModelError
from factjudge.llm.base import GenerationParams
from factjudge.llm.cache import CachedChatModel, cache_key
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.registry import make_model
from factjudge.llm.retry import RetryPolicy
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.openai_server import FAULTS, WRONG_CONTENT, FaultPlan, OpenAIServer, Step

FAST = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=0.05)
MESSAGES = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]
PARAMS = GenerationParams(max_tokens=5)


def model(server: OpenAIServer, timeout: float = 60.0) -> OpenAIChatModel:
    return OpenAIChatModel("test-model", base_url=server.base_url, api_key="k", retry=FAST, timeout=timeout)


def test_a_malformed_usage_block_is_counted_here_not_a_crash() -> None:
    with OpenAIServer([Step(fault="bad_usage", reply="True")] * 2) as server:
        completion = model(server).complete(MESSAGES, PARAMS)
        again = model(server).complete(MESSAGES, PARAMS)
    assert completion.text == again.text == "True"
    assert completion.prompt_tokens > 5 and completion.completion_tokens == 1
    assert len(server.requests) == 2  # read at once, not retried


RETRIED = [f for f in FAULTS if f not in ("bad_usage", "wrong_content")]


@pytest.mark.parametrize("fault", RETRIED)
def test_every_transient_fault_is_retried_then_the_reply_read(fault: str) -> None:
    plan = FaultPlan(hang_seconds=1.0, huge_chars=100_000)
    with OpenAIServer([Step(fault=fault), Step(reply="True")], faults=plan) as server:
        completion = model(server, timeout=0.3).complete(MESSAGES, PARAMS)
    assert completion.text == "True"
    assert len(server.requests) == 2 and server.injected[fault] == 1


def test_wrong_content_is_a_reply_for_the_parser_to_refuse() -> None:
    with OpenAIServer([Step(fault="wrong_content")]) as server:
        assert model(server).complete(MESSAGES, PARAMS).text == WRONG_CONTENT


def test_a_bad_body_every_time_is_one_model_error_after_the_retries() -> None:
    with OpenAIServer([Step(fault="empty_choices")] * 4) as server, pytest.raises(ModelError) as info:
        model(server).complete(MESSAGES, PARAMS)
    assert len(server.requests) == 4
    message = str(info.value)
    assert "not a chat completion" in message and "after 4 attempts" in message and "\n" not in message


def test_a_huge_reply_is_a_model_error_and_never_cached(tmp_path: Path) -> None:
    plan = FaultPlan(huge_chars=5_000_000)
    with OpenAIServer([Step(fault="huge")] * 4, faults=plan) as server:
        cached = CachedChatModel(model(server), tmp_path / "calls.sqlite")
        with pytest.raises(ModelError, match=r"5,000,[0-9]+ bytes for max_tokens=5 after 4 attempts"):
            cached.complete(MESSAGES, PARAMS)
    assert len(server.requests) == 4 and cached.stats()["entries"] == 0


def test_a_huge_reply_from_any_backend_is_not_cached(tmp_path: Path) -> None:
    cached = CachedChatModel(ScriptedChatModel(["x" * 100_000, "ok"]), tmp_path / "calls.sqlite")
    with pytest.raises(ModelError, match="100,000 characters"):
        cached.complete(MESSAGES, PARAMS)
    assert cached.stats()["entries"] == 0
    assert cached.complete(MESSAGES, PARAMS).text == "ok"


def test_the_cache_key_includes_the_endpoint(tmp_path: Path) -> None:
    cache = tmp_path / "calls.sqlite"
    with OpenAIServer(responder=lambda m: "True") as one, OpenAIServer(responder=lambda m: "False") as two:
        assert CachedChatModel(model(one), cache).complete(MESSAGES, PARAMS).text == "True"
        other = CachedChatModel(model(two), cache).complete(MESSAGES, PARAMS)
        assert other.text == "False" and not other.cached  # not the first endpoint's verdict
        assert CachedChatModel(model(one), cache).complete(MESSAGES, PARAMS).cached
    assert len(one.requests) == 1 and len(two.requests) == 1


@pytest.mark.parametrize("url", ["notaurl", "ftp://example.org/v1", "http://", "localhost:8000"])
def test_a_base_url_that_is_not_a_url_is_refused_at_once(url: str) -> None:
    with pytest.raises(InputError, match="is not an http"):
        make_model("openai:m", base_url=url, cache_path=False)


def test_cli_refuses_a_bad_base_url_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    code = main(["check", "Q", "Paris is in France.", "--model", "openai:m", "--base-url", "notaurl"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "notaurl" in err


def test_identical_calls_in_flight_in_threads_are_paid_once(tmp_path: Path) -> None:
    with OpenAIServer(responder=lambda m: "True", latency=0.3) as server:
        cached = CachedChatModel(model(server), tmp_path / "calls.sqlite")
        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(lambda _: cached.complete(MESSAGES, PARAMS), range(8)))
    assert len(server.requests) == 1
    assert [r.text for r in replies] == ["True"] * 8
    assert sum(not r.cached for r in replies) == 1  # the others are not counted as paid
    assert cached.stats()["joined"] == 7 and cached.stats()["recomputed"] == 0


def test_waiters_share_the_failure_of_the_call_they_joined(tmp_path: Path) -> None:
    with OpenAIServer([Step(401, delay=0.3)]) as server:
        cached = CachedChatModel(model(server), tmp_path / "calls.sqlite")

        def attempt(_: int) -> str:
            try:
                return cached.complete(MESSAGES, PARAMS).text
            except ModelError as exc:
                return str(exc)

        with ThreadPoolExecutor(4) as pool:
            outcomes = list(pool.map(attempt, range(4)))
    assert len(server.requests) == 1 and all("HTTP 401" in o for o in outcomes)


def test_a_waiter_calls_itself_when_the_call_it_joined_is_interrupted(tmp_path: Path) -> None:
    interrupted = threading.Event()

    def reply(messages: list[dict[str, str]]) -> str:
        if not interrupted.is_set():  # the first caller is stopped by Ctrl-C in mid-call
            interrupted.set()
            time.sleep(0.3)
            raise KeyboardInterrupt
        return "True"

    inner = ScriptedChatModel(reply)
    cached = CachedChatModel(inner, tmp_path / "calls.sqlite")

    def first() -> str:
        try:
            return cached.complete(MESSAGES, PARAMS).text
        except KeyboardInterrupt:
            return "interrupted"

    with ThreadPoolExecutor(2) as pool:
        one = pool.submit(first)
        interrupted.wait()
        two = pool.submit(lambda: cached.complete(MESSAGES, PARAMS))
        assert one.result() == "interrupted"
        assert two.result().text == "True"  # not the first caller's interruption
    assert cached.joined == 1 and len(inner.calls) == 2


def test_undecodable_text_is_an_input_error_not_a_crash(tmp_path: Path) -> None:
    bad = [{"role": "user", "content": "Q\udcff"}]  # how Python passes a 0xff byte in argv
    with pytest.raises(InputError, match="not valid UTF-8"):
        cache_key("m", bad, PARAMS)
    with OpenAIServer() as server:
        cached = CachedChatModel(model(server), tmp_path / "calls.sqlite")
        with pytest.raises(InputError):
            cached.complete(bad, PARAMS)
    assert server.requests == []


@pytest.mark.parametrize("cache", [[], ["--no-cache"]])
def test_cli_undecodable_argument_is_one_line_exit_2(cache: list[str], capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    with OpenAIServer() as server:
        code = main(["check", "Which ocean?\udcff", "The Arctic Ocean is the smallest.",
                     "--model", "openai:m", "--base-url", server.base_url, *cache])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "UTF-8" in err
    assert server.requests == []
