"""Data files opened without blocking: only regular files are read.

Opening a FIFO for reading waits for a writer, and reading a character device may never end:
a file named ``*.db`` or ``*.zim`` in a data folder that is one of these would hold every check,
``wiki status`` and the service's start-up for good. Every data file is therefore checked to be
a regular file before SQLite or libzim opens it, and a header is read through a descriptor opened
with ``O_NONBLOCK`` and checked again (``fstat``), so a file swapped in between cannot block either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a data file ("missing", "a FIFO" …); None for a regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    return None if stat.S_ISREG(mode) else f"not a regular file ({_kind(mode)})"


def read_head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path``, read without ever blocking on a FIFO or
    device; OSError (with a ``strerror`` in words) when it is not a regular file or cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(0, f"not a regular file ({_kind(mode)})", str(path))
        return os.read(fd, size)
    finally:
        os.close(fd)
