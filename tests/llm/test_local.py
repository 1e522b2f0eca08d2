"""Local GGUF models through llama.cpp: the fast SmolLM2 test model and the embedded Qwen judge."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.llm.base import GenerationParams
from factjudge.llm.local import LocalChatModel, physical_cores, smollm2_path
from factjudge.llm.registry import LOCAL_DEFAULT, make_model

pytestmark = pytest.mark.local_model

QUESTION = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]


@pytest.fixture(scope="module")
def smollm2() -> LocalChatModel:
    pytest.importorskip("llama_cpp")
    return LocalChatModel(smollm2_path(), name="local:smollm2-135m")


def test_smollm2_is_found_without_network() -> None:
    path = smollm2_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000


def test_replies_with_usage_and_logprobs_of_each_generated_token(smollm2: LocalChatModel) -> None:
    params = GenerationParams(max_tokens=4, logprobs=True, top_logprobs=3)
    completion = smollm2.complete(QUESTION, params)
    assert completion.text.strip()
    assert completion.prompt_tokens > 5 and 0 < completion.completion_tokens <= 4
    assert completion.logprobs and len(completion.logprobs) == completion.completion_tokens
    first = completion.logprobs[0]
    assert len(first.top) == 3 and first.token in first.top
    assert sum(math.exp(lp) for lp in first.top.values()) <= 1.0 + 1e-6
    assert completion.text.startswith(first.token.lstrip()) or first.token.strip() in completion.text


def test_grammar_and_stop_strings_bound_the_reply(smollm2: LocalChatModel) -> None:
    yes_no = smollm2.complete(QUESTION, GenerationParams(max_tokens=3, grammar='root ::= "True" | "False"\n'))
    assert yes_no.text in ("True", "False") and yes_no.finish_reason == "stop"
    counted = smollm2.complete([{"role": "user", "content": "Count from 1 to 20, comma-separated."}],
                               GenerationParams(max_tokens=60, stop=("5",)))
    assert "5" not in counted.text and counted.finish_reason == "stop"


def test_a_repeated_prompt_gives_the_same_reply(smollm2: LocalChatModel) -> None:
    params = GenerationParams(max_tokens=8)
    assert smollm2.complete(QUESTION, params).text == smollm2.complete(QUESTION, params).text


def test_specs_select_the_model(tmp_path: Path) -> None:
    assert make_model("local:smollm2", cache_path=False).name == "local:smollm2-135m"
    with pytest.raises(InputError, match=r"no GGUF model file at nowhere\.gguf"):
        make_model("local:nowhere.gguf", cache_path=False)
    assert physical_cores() >= 1


def test_the_default_is_the_embedded_qwen_judge() -> None:
    pytest.importorskip("llama_cpp")
    model = make_model("local", cache_path=False)
    assert model.name == LOCAL_DEFAULT
    ask = ("Knowledge: The Eiffel Tower is a lattice tower in Paris, France.\n"
           "Statement: The Eiffel Tower is in Rome.\n"
           "Is the statement supported by the knowledge? Answer with only Yes or No.")
    reply = model.complete([{"role": "user", "content": ask}],
                           GenerationParams(max_tokens=2, logprobs=True, grammar='root ::= "Yes" | "No"\n'))
    assert reply.text == "No"


@pytest.mark.local_model
def test_a_prompt_longer_than_the_context_is_too_long_not_a_model_failure() -> None:
    # Issue 44 (low): a sentence longer than the model's context was "the model endpoint failed".
    pytest.importorskip("llama_cpp")
    from factjudge.errors import TooMuchWork

    small = LocalChatModel(smollm2_path(), name="local:smollm2-135m", n_ctx=256)
    words = [{"role": "user", "content": "The bridge opened in 1937. " * 200}]
    with pytest.raises(TooMuchWork, match=r"too long for local:smollm2-135m.*256-token context") as raised:
        small.complete(words, GenerationParams(max_tokens=5))
    assert isinstance(raised.value, InputError) and raised.value.exit_code == 2  # the HTTP service: 413
