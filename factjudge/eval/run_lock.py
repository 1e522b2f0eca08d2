"""One bench at a time per run directory: an exclusive ``flock`` held for the whole run.

The kernel drops a ``flock`` when its holder exits, however it exits, so a lock left
by a process killed with SIGKILL never blocks ``--resume``: only a live bench does.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from factjudge.errors import InputError

LOCK = "bench.lock"


class RunLock:
    """Held while a bench writes into ``run_dir``; a second bench there is an input error."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / LOCK
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise InputError(f"run dir {self.path.parent} is in use by another bench "
                             f"(pid {holder})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor releases the flock
            self._fd = None
