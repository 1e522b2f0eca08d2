"""The append-only results file of a benchmark run: one JSON line per (example, set-up).

A line is written whole and flushed to the operating system as soon as its item is
done, so even SIGKILL loses at most the line being written (reading back drops a torn
last line). There is no fsync per line: that guards against power loss only, and costs
a disk sync per item.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from factjudge.errors import FactJudgeError, InputError

log = logging.getLogger(__name__)

# What a line must hold to be read back: any line of a run (results or errors), and a result
# line a report can be made of.
KEY_FIELDS: Mapping[str, type] = {"example_id": str, "setup": str}
RESULT_FIELDS: Mapping[str, type] = {**KEY_FIELDS, "result": dict, "gold": dict}


def read_lines(path: Path, fields: Mapping[str, type] = KEY_FIELDS) -> Iterator[dict[str, Any]]:
    """Yield the complete JSON lines of ``path`` that hold ``fields``.

    A torn final line (from a kill) is skipped; so is a foreign line (``{}``, ``null``, a
    list), with a warning naming it, as no result can be read from it.
    """
    if not path.exists():
        return
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.endswith("\n"):
                return  # torn by a kill mid-write: that item was not finished
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as exc:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
                raise InputError(f"{path}:{number}: not a JSON line ({reason})") from None
            if isinstance(record, dict) and all(isinstance(record.get(k), t) for k, t in fields.items()):
                yield record
            else:
                log.warning("%s:%d: skipped a line that is not a factjudge record: %.80s", path, number,
                            line.strip())


def utf8_json(data: Any, indent: int | None = None) -> str:
    """JSON text that encodes as UTF-8: non-ASCII text as is, all escaped where a lone surrogate is.

    A dataset may hold a lone surrogate (``"\\ud800"``), which UTF-8 cannot encode; escaped, it
    reads back as the same string.
    """
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, indent=indent)
    return text


def read_results(path: Path) -> list[dict[str, Any]]:
    """The result lines of a run, one per (example, set-up): of duplicates the last one wins."""
    latest = {(r["example_id"], r["setup"]): r for r in read_lines(path, RESULT_FIELDS)}
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
    """Thread-safe appender of JSON lines, durable line by line.

    A line that cannot be written (a full disk) is a FactJudgeError naming the file; the
    lines written before it stay, so a resumed run redoes only what is missing.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._failed = False
        try:
            repair(path)
            self._handle = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise self._error(exc) from None

    def _error(self, exc: OSError) -> FactJudgeError:
        self._failed = True
        return FactJudgeError(f"cannot write {self.path}: {exc.strerror or exc}; what was written before "
                              "is kept: make room, then continue with --resume")

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as one line, handed to the OS before returning."""
        line = utf8_json(record) + "\n"
        with self._lock:
            try:
                self._handle.write(line)
                self._handle.flush()
            except OSError as exc:
                raise self._error(exc) from None

    def close(self) -> None:
        """Close the file; after a failed write, quietly (that failure was reported already)."""
        try:
            self._handle.close()
        except OSError as exc:
            if not self._failed:
                raise self._error(exc) from None
