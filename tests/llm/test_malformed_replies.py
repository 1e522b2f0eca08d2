"""Malformed log-probabilities (issue 22 point 5): refused before the cache, so the server is asked again."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from factjudge.errors import ModelError
from factjudge.llm.base import Completion, GenerationParams, TokenLogprob
from factjudge.llm.cache import CachedChatModel, cache_key
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.reply_check import completion_problem
from factjudge.llm.retry import RetryPolicy
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.prompts.contracts import ID_LIST, TRUE_FALSE
from factjudge.testing.openai_server import OpenAIServer, Step

MESSAGES = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]
WITH_LOGPROBS = GenerationParams(max_tokens=5, logprobs=True)
GOOD = [{"token": "True", "logprob": -0.1, "top_logprobs": [{"token": "True", "logprob": -0.1},
                                                            {"token": "False", "logprob": -2.4}]}]
BAD: list[list[dict[str, Any]]] = [
    [{"token": "True", "logprob": "-0.1", "top_logprobs": []}],  # a string
    [{"token": "True", "logprob": 1e308, "top_logprobs": []}],  # exp() overflows
    [{"token": "True", "logprob": 10**400, "top_logprobs": []}],  # no float can hold it
    [{"token": 5, "logprob": -0.1, "top_logprobs": []}],  # a token that is not text
    [{"token": "True", "logprob": -0.1, "top_logprobs": [{"token": "False", "logprob": [1]}]}],
    [{"token": "True", "logprob": -0.1, "top_logprobs": "False"}],
    "True",  # not a list at all
]


@pytest.mark.parametrize("bad", BAD)
def test_a_reply_with_malformed_logprobs_is_not_cached_and_the_server_is_asked_again(
        bad: list[dict[str, Any]], tmp_path: Path) -> None:
    with OpenAIServer([Step(reply="True", logprobs=bad)] * 2 + [Step(reply="True", logprobs=GOOD)]) as server:
        endpoint = OpenAIChatModel("test-model", base_url=server.base_url, api_key="k",
                                   retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.01))
        cached = CachedChatModel(endpoint, tmp_path / "calls.sqlite")
        with pytest.raises(ModelError, match="not a chat completion"):
            cached.complete(MESSAGES, WITH_LOGPROBS)
        assert len(server.requests) == 2  # retried like any reply that is not a completion
        healthy = cached.complete(MESSAGES, WITH_LOGPROBS)
        assert len(server.requests) == 3 and not healthy.cached  # nothing bad was stored
        assert healthy.logprobs is not None and healthy.logprobs[0].top["False"] == pytest.approx(-2.4)
        assert cached.complete(MESSAGES, WITH_LOGPROBS).cached  # the good reply is


def _malformed() -> list[TokenLogprob]:
    return [TokenLogprob("True", "-0.1"), TokenLogprob("True", 1e308), TokenLogprob(5, -0.1),  # type: ignore[arg-type]
            TokenLogprob("True", float("nan")), TokenLogprob("True", -0.1, {"False": "x"}),  # type: ignore[dict-item]
            TokenLogprob("True", 10**400)]


@pytest.mark.parametrize("token", _malformed())
def test_a_stored_entry_that_is_not_well_formed_is_a_miss(token: TokenLogprob, tmp_path: Path) -> None:
    """A cache written before replies were checked may hold one: the model is asked again, once."""
    good = Completion("True", 3, 1, (TokenLogprob("True", -0.1),), model="scripted")
    inner = ScriptedChatModel([good, Completion("unused")])
    cached = CachedChatModel(inner, tmp_path / "calls.sqlite")
    cached.put(cache_key(inner.name, MESSAGES, WITH_LOGPROBS), Completion("True", logprobs=(token,)))
    assert cached.complete(MESSAGES, WITH_LOGPROBS).logprobs == good.logprobs
    assert cached.complete(MESSAGES, WITH_LOGPROBS).cached and len(inner.calls) == 1


def test_a_backend_reply_that_is_not_well_formed_is_an_error_and_not_stored(tmp_path: Path) -> None:
    inner = ScriptedChatModel([Completion("True", logprobs=(TokenLogprob("True", "high"),)),  # type: ignore[arg-type]
                               Completion("True")])
    cached = CachedChatModel(inner, tmp_path / "calls.sqlite")
    with pytest.raises(ModelError, match="malformed reply"):
        cached.complete(MESSAGES, WITH_LOGPROBS)
    assert cached.complete(MESSAGES, WITH_LOGPROBS).text == "True" and len(inner.calls) == 2


@pytest.mark.parametrize("token", _malformed())
def test_malformed_logprobs_give_no_score_and_never_crash(token: TokenLogprob) -> None:
    tokens = [TokenLogprob("Answer", -0.01), TokenLogprob(":", -0.01), token]
    assert TRUE_FALSE.scores(tokens) is None
    assert ID_LIST.scores(tokens, 2) is None
    assert completion_problem(Completion("True", logprobs=(token,))) is not None


def test_well_formed_logprobs_still_score() -> None:
    tokens = [TokenLogprob("True", math.log(0.6), {"False": math.log(0.2), "x": float("-inf")}),
              TokenLogprob("2", 0, {"1": -5})]  # JSON may carry whole numbers
    assert TRUE_FALSE.scores(tokens) == pytest.approx(0.25)
    assert ID_LIST.scores(tokens, 2) == pytest.approx({1: math.exp(-5), 2: 1.0})
    assert completion_problem(Completion("True", logprobs=tuple(tokens))) is None
