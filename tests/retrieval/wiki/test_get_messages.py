"""What ``wiki get`` says (issue 44, low points): how to allow a mirror it refused, that it waits for
another get of the same file, a full disk; Wikipedia codes of three parts; a relative XDG folder."""

from __future__ import annotations

import errno
import logging
import threading
import time
from pathlib import Path

import pytest

from factjudge.environment import cache_home, zim_dir
from factjudge.errors import RetrievalError
from factjudge.llm.model_file import file_lock
from factjudge.retrieval.wiki import download as download_module
from factjudge.retrieval.wiki.download import fetcher_for, get_edition
from tests.retrieval.wiki.test_download import NAME, Kiwix, serve
from tests.retrieval.wiki.test_download import zim_bytes as zim_bytes  # a fixture

pytest.importorskip("libzim.writer")


def test_a_refused_mirror_says_how_to_allow_it(tmp_path: Path) -> None:
    with serve(Kiwix({NAME: b"x"})) as kiwix, pytest.raises(RetrievalError) as caught:
        get_edition("en", mirror=kiwix.url, directory=tmp_path)
    assert "refused loopback address" in str(caught.value) and "--allow-private" in str(caught.value)


def test_a_second_get_of_the_same_file_says_it_waits(tmp_path: Path, zim_bytes: bytes,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    got: list[object] = []
    with serve(Kiwix({NAME: zim_bytes})) as kiwix, caplog.at_level(logging.WARNING):
        with file_lock(tmp_path / f"{NAME}.lock"):  # another get holds it
            second = threading.Thread(target=lambda: got.append(get_edition(
                "en", mirror=kiwix.url, directory=tmp_path, fetcher=fetcher_for(allow_loopback=True))))
            second.start()
            ends = time.monotonic() + 10
            while "waiting for it to finish" not in caplog.text and time.monotonic() < ends:
                time.sleep(0.05)
            assert f"another wiki get is downloading {NAME}" in caplog.text and not got
        second.join(30)
    assert got and (tmp_path / NAME).read_bytes() == zim_bytes


def test_a_full_disk_is_one_line_that_keeps_the_part(tmp_path: Path, zim_bytes: bytes,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(download_module.os, "fsync", full)
    with serve(Kiwix({NAME: zim_bytes})) as kiwix, \
            pytest.raises(RetrievalError, match=r"is full: .* kept; free some space and run the same"):
        get_edition("en", mirror=kiwix.url, directory=tmp_path, fetcher=fetcher_for(allow_loopback=True))


def test_a_language_code_of_three_parts_is_accepted(tmp_path: Path) -> None:
    with serve(Kiwix({NAME: b"x"})) as kiwix, \
            pytest.raises(RetrievalError, match="no wikipedia_zh-min-nan_all_nopic file is listed"):
        get_edition("zh-min-nan", mirror=kiwix.url, directory=tmp_path,
                    fetcher=fetcher_for(allow_loopback=True))


def test_a_relative_xdg_folder_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert zim_dir() == Path.home() / ".local" / "share" / "factjudge" / "wiki"
    assert cache_home() == Path.home() / ".cache" / "factjudge"
