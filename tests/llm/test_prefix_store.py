"""The store of evaluated prompt prefixes on disk: whole files or none, and no temporary files left."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factjudge.llm.prefix_store import STALE_TMP_SECONDS, PrefixStore

# Writes one prefix with files limited to 4 KB, as a full disk would stop it half-way.
FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from factjudge.llm.prefix_store import STALE_TMP_SECONDS, PrefixStore
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
folder = Path(sys.argv[1])
PrefixStore(folder, "model").write(folder / "a.kv", b"x" * 100_000)
"""


def test_a_prefix_is_written_whole_with_its_hash(tmp_path: Path) -> None:
    store = PrefixStore(tmp_path, "model")
    store.write(tmp_path / "a.kv", b"state")
    assert (tmp_path / "a.kv").read_bytes() == hashlib.sha256(b"state").digest() + b"state"
    assert [p.name for p in tmp_path.iterdir()] == ["a.kv"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="RLIMIT_FSIZE is POSIX")
def test_a_full_disk_leaves_no_temporary_file_and_no_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path)], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr  # a cache that cannot be written costs speed only
    assert list(tmp_path.iterdir()) == []


def test_temporary_files_killed_writers_left_are_pruned_and_fresh_ones_kept(tmp_path: Path) -> None:
    stale, fresh = tmp_path / "tmpold.tmp", tmp_path / "tmpnew.tmp"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"being written")
    old = time.time() - STALE_TMP_SECONDS - 60
    os.utime(stale, (old, old))
    PrefixStore(tmp_path, "model").write(tmp_path / "a.kv", b"state")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.kv", "tmpnew.tmp"]


def test_least_recently_used_prefixes_go_past_the_budget(tmp_path: Path) -> None:
    store = PrefixStore(tmp_path, "model", budget=300)
    for n in range(3):
        store.write(tmp_path / f"{n}.kv", b"x" * 100)
        past = time.time() - 100 + n
        os.utime(tmp_path / f"{n}.kv", (past, past))
    store.write(tmp_path / "3.kv", b"x" * 100)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["2.kv", "3.kv"]
