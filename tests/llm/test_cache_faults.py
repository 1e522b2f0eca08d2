"""A call cache that cannot be used (issue 22 point 7): bypassed or waited on, and no paid reply lost."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factjudge.llm.base import GenerationParams
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.deadline import deadline
from factjudge.llm.scripted import ScriptedChatModel
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[2]
P = GenerationParams(max_tokens=10)


def ask(n: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"question {n}"}]


def echo() -> ScriptedChatModel:
    return ScriptedChatModel(lambda messages: messages[0]["content"].upper())


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def filled(path: Path, n: int = 30) -> None:
    cache = CachedChatModel(echo(), path)
    for i in range(n):
        cache.complete(ask(i), P)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "directory", "parent_is_a_file"])
def test_a_cache_that_cannot_be_used_is_bypassed_with_one_warning(
        damage: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "calls.sqlite"
    if damage == "garbage":
        path.write_bytes(b"this is not a database\n" * 300)
    elif damage == "truncated":
        filled(path)
        for extra in ("-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2 + 100])
    elif damage == "directory":
        path.mkdir()
    else:
        (tmp_path / "file").write_text("x")
        path = tmp_path / "file" / "calls.sqlite"
    inner = echo()
    cache = CachedChatModel(inner, path)
    with caplog.at_level(logging.WARNING):
        texts = [cache.complete(ask(i % 3), P).text for i in range(6)]
    assert texts == [f"QUESTION {i % 3}" for i in range(6)]
    assert len(inner.calls) in (3, 6)  # bypassed at once, or (a damaged page found late) part-way
    assert len(warnings_of(caplog)) == 1 and "cannot be used" in warnings_of(caplog)[0]
    assert cache.stats()["hits"] + cache.stats()["misses"] == 6


def chattr(flag: str, path: Path) -> bool:
    return shutil.which("chattr") is not None and subprocess.run(
        ["chattr", flag, str(path)], capture_output=True).returncode == 0


def test_a_read_only_cache_serves_what_it_holds_and_returns_new_replies_unstored(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "calls.sqlite"
    filled(path, 2)
    # Root writes through file modes, so the file is made immutable instead (where chattr works).
    if not (chattr("+i", path) if os.geteuid() == 0 else path.chmod(0o444) is None):
        pytest.skip("cannot make the cache file read-only here")
    try:
        inner = echo()
        cache = CachedChatModel(inner, path)
        with caplog.at_level(logging.WARNING):
            assert cache.complete(ask(0), P).cached
            assert [cache.complete(ask(i), P).text for i in (5, 6)] == ["QUESTION 5", "QUESTION 6"]
        assert len(inner.calls) == 2
        assert len(warnings_of(caplog)) == 1 and "not stored" in warnings_of(caplog)[0]
    finally:
        if os.geteuid() == 0:
            chattr("-i", path)


LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")  # a write transaction held open
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def locked_by_another_process(path: Path, seconds: float) -> subprocess.Popen[str]:
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(path), str(seconds)], stdout=subprocess.PIPE,
                              text=True)
    assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
    return locker


def test_a_cache_locked_by_another_writer_is_waited_on_and_then_stores(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    filled(path, 1)
    locker = locked_by_another_process(path, 0.5)
    cache = CachedChatModel(echo(), path)
    with deadline(10):
        assert cache.complete(ask(7), P).text == "QUESTION 7"
    assert cache.stats()["entries"] == 2  # stored once the lock was let go, within the deadline
    assert locker.wait(timeout=10) == 0


def test_a_cache_locked_past_the_deadline_still_returns_the_paid_reply(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "calls.sqlite"
    filled(path, 1)
    locker = locked_by_another_process(path, 3)
    inner = echo()
    cache = CachedChatModel(inner, path)
    started = time.monotonic()
    with caplog.at_level(logging.WARNING), deadline(1.0):
        assert cache.complete(ask(7), P).text == "QUESTION 7"  # paid: never thrown away
    assert time.monotonic() - started < 20  # the wait ended with the deadline (1 s), not SQLite's 30 s
    assert len(inner.calls) == 1
    assert any("locked" in w and "not stored" in w for w in warnings_of(caplog))
    assert locker.wait(timeout=10) == 0
    assert cache.complete(ask(8), P).text == "QUESTION 8" and cache.stats()["entries"] == 2  # usable again


FULL_DISK = """
import resource, sys
from factjudge.llm.base import GenerationParams
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.scripted import ScriptedChatModel

resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))  # as `ulimit -f 16`
inner = ScriptedChatModel(lambda messages: messages[0]["content"] * 100)
cache = CachedChatModel(inner, sys.argv[1])
texts = [cache.complete([{"role": "user", "content": f"reply {i} "}], GenerationParams()).text
         for i in range(60)]
assert texts == [f"reply {i} " * 100 for i in range(60)], "a paid reply was lost"
print(len(inner.calls))
"""


def test_a_full_disk_loses_no_paid_reply(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path / "calls.sqlite")],
                          capture_output=True, cwd=ROOT, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.strip() == b"60"
    assert b"Traceback" not in done.stderr and done.stderr.count(b"call cache") == 1


def test_a_check_that_calls_no_model_never_opens_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "calls.sqlite"
    cache.write_bytes(b"not a database")
    done = subprocess.run([sys.executable, "-m", "factjudge.cli", "check", "Where is it?",
                           "The Eiffel Tower is in Paris.", "--strategy", "token_f1", "--context",
                           "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."],
                          capture_output=True, cwd=ROOT, timeout=HANG_GUARD,
                          env={**os.environ, "FACTJUDGE_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b"" and cache.read_bytes() == b"not a database"


def test_a_reply_holding_a_lone_surrogate_is_stored_and_read_back(tmp_path: Path) -> None:
    inner = ScriptedChatModel(lambda messages: "odd \ud800 reply")
    cache = CachedChatModel(inner, tmp_path / "calls.sqlite")
    assert cache.complete(ask(1), P).text == "odd \ud800 reply"
    again = cache.complete(ask(1), P)
    assert again.cached and again.text == "odd \ud800 reply" and len(inner.calls) == 1
