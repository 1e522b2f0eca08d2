"""The call cache: keyed by model, messages and parameters; thread-safe; counts recomputations."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from factjudge.llm.base import GenerationParams
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.scripted import ScriptedChatModel

P = GenerationParams(max_tokens=10)


def test_hit_needs_same_model_messages_and_params(tmp_path: Path) -> None:
    inner = ScriptedChatModel(lambda messages: messages[0]["content"].upper())
    cache = CachedChatModel(inner, tmp_path / "c.sqlite")
    msg = [{"role": "user", "content": "hi"}]
    assert cache.complete(msg, P).text == "HI" and cache.complete(msg, P).text != "x"
    assert len(inner.calls) == 1 and cache.hits == 1
    cache.complete(msg, GenerationParams(max_tokens=11))
    cache.complete([{"role": "user", "content": "hi "}], P)
    assert len(inner.calls) == 3
    other = CachedChatModel(ScriptedChatModel(lambda m: "other", name="other"), tmp_path / "c.sqlite")
    assert other.complete(msg, P).text == "other"  # another model never reads this model's replies


def test_concurrent_threads_share_one_file(tmp_path: Path) -> None:
    inner = ScriptedChatModel(lambda messages: messages[0]["content"])
    cache = CachedChatModel(inner, tmp_path / "c.sqlite")
    prompts = [[{"role": "user", "content": str(i)}] for i in range(40)]
    with ThreadPoolExecutor(8) as pool:
        texts = list(pool.map(lambda m: cache.complete(m, P).text, prompts))
    assert texts == [str(i) for i in range(40)]
    with ThreadPoolExecutor(8) as pool:
        again = list(pool.map(lambda m: cache.complete(m, P).text, prompts))
    assert again == texts
    assert len(inner.calls) == 40
    assert cache.stats() == {"entries": 40, "recomputed": 0, "hits": 40, "misses": 40, "joined": 0}
