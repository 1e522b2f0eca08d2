"""Any LangChain chat model works as a factjudge model."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.base import GenerationParams
from factjudge.llm.langchain_backend import LangChainChatModel

fake = pytest.importorskip("langchain_core.language_models.fake_chat_models")


def test_wraps_a_langchain_chat_model_in_the_pipeline() -> None:
    chat = fake.FakeListChatModel(responses=["Answer: 1"])
    model = LangChainChatModel(chat)
    result = Checker(CheckConfig(), model).check("q", "The Moon is made of cheese. Water is wet.")
    assert [v.label for v in result.segment_verdicts] == ["false", "true"]
    assert result.traces[0].usage.prompt_tokens > 0  # counted when the model gives no usage


def test_invoke_from_threads() -> None:
    model = LangChainChatModel(fake.FakeListChatModel(responses=["True"]))
    with ThreadPoolExecutor(4) as pool:
        replies = list(pool.map(lambda _: model.complete([{"role": "user", "content": "x"}],
                                                          GenerationParams()), range(4)))
    assert [c.text for c in replies] == ["True"] * 4 and model.name.startswith("langchain:")
