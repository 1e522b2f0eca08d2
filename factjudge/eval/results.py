"""The append-only results file of a benchmark run: one JSON line per (example, set-up).

A line is written whole and flushed to the operating system as soon as its item is
done, so even SIGKILL loses at most the line being written (reading back drops a torn
last line). There is no fsync per line: that guards against power loss only, and costs
a disk sync per item.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factjudge.errors import InputError


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the complete JSON lines of ``path``; a torn final line (from a kill) is skipped."""
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.endswith("\n"):
                return  # torn by a kill mid-write: that item was not finished
            try:
                yield json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{number}: not a JSON line ({exc.msg})") from None


def read_results(path: Path) -> list[dict[str, Any]]:
    """The result lines of a run, one per (example, set-up): of duplicates the last one wins."""
    latest = {(r.get("example_id"), r.get("setup")): r for r in read_lines(path)}
    return list(latest.values())


def read_json(path: Path) -> dict[str, Any]:
    """A JSON object file (a run manifest); unreadable or corrupt is one input error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecursionError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise InputError(f"cannot read {path}: expected a JSON object, got {type(data).__name__}")
    return data


def repair(path: Path) -> None:
    """Cut a torn final line so the next append starts on a fresh line."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as handle:
            handle.truncate(data.rfind(b"\n") + 1)


class ResultWriter:
    """Thread-safe appender of JSON lines, durable line by line."""

    def __init__(self, path: Path) -> None:
        repair(path)
        self.path = path
        self._lock = threading.Lock()
        self._handle = path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as one line, handed to the OS before returning."""
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock:
            self._handle.write(line)
            self._handle.flush()

    def close(self) -> None:
        """Close the file."""
        self._handle.close()
