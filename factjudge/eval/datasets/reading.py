"""Shared readers: files to numbered rows, cells to text, string lists and binary labels."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from factjudge.errors import InputError

_TRUE_WORDS = frozenset({"1", "true", "t", "yes", "y", "consistent", "supported", "factual",
                         "fully attributable", "correct", "s"})
_FALSE_WORDS = frozenset({"0", "false", "f", "no", "n", "inconsistent", "not supported", "unsupported",
                          "not factual", "nonfactual", "not fully attributable", "incorrect", "ns",
                          "hallucination", "hallucinated"})


def _path(path: str | Path) -> Path:
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    return p


def _decoded(p: Path) -> str:
    """The text of a UTF-8 file (a BOM is dropped); an InputError names the line of a bad byte."""
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{p}:{line}: not UTF-8 text (undecodable byte 0x{data[exc.start]:02x})") from None


def _jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) of a JSONL file, skipping blank lines."""
    p = _path(path)
    # split("\n"), not splitlines(): U+2028 and friends may sit unescaped inside JSON strings.
    for number, line in enumerate(_decoded(p).split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except RecursionError:
            raise InputError(f"{p}:{number}: JSON nested too deeply") from None
        except ValueError as exc:  # JSONDecodeError, and integers too long to convert
            raise InputError(f"{p}:{number}: not valid JSON ({getattr(exc, 'msg', exc)})") from None
        if not isinstance(row, dict):
            raise InputError(f"{p}:{number}: expected a JSON object, got {type(row).__name__}")
        yield number, row


# One row of a dataset: its line number (1-based), where it is for messages, its values.
Row = tuple[int, str, Mapping[str, Any]]


def file_rows(path: str | Path) -> Iterator[Row]:
    """The rows of a JSONL file, each with its line number and ``file:line``."""
    for number, row in _jsonl(path):
        yield number, _where(path, number), row


def given_rows(rows: Sequence[Any], name: str) -> Iterator[Row]:
    """Rows given in memory (a DataFrame's records, dicts), numbered like a file's lines.

    A missing cell (None, or the NaN pandas writes for one) becomes None, as an absent
    JSON value would.
    """
    for index, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise InputError(f"{name} row {index}: expected a mapping of column to value, "
                             f"got {type(row).__name__}")
        yield index + 1, f"{name} row {index}", {str(k): _missing_as_none(v) for k, v in row.items()}


def _missing_as_none(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def _csv_rows(path: str | Path, delimiter: str | None = None) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield (line number, row) of a CSV/TSV file; the header is line 1."""
    p = _path(path)
    if delimiter is None:
        delimiter = "\t" if p.suffix.lower() in (".tsv", ".tab") else ","
    reader = csv.DictReader(io.StringIO(_decoded(p), newline=""), delimiter=delimiter)
    try:
        if not reader.fieldnames:
            raise InputError(f"{p}: empty file, no header row")
        for row in reader:
            if None in row or any(v is None for v in row.values()):
                raise InputError(f"{p}:{reader.line_num}: row does not match the header's columns")
            yield reader.line_num, row
    except csv.Error as exc:  # an oversized field, a stray quote in strict dialects
        raise InputError(f"{p}:{reader.line_num}: not valid CSV ({exc})") from None


def _where(path: str | Path, line: int) -> str:
    return f"{path}:{line}"


def _text(value: Any, where: str, name: str, required: bool = True) -> str:
    # FELM writes NaN for two missing responses; treat it like an absent value.
    if value is None or (isinstance(value, float) and math.isnan(value)):
        if required:
            raise InputError(f"{where}: {name!r} is missing")
        return ""
    if not isinstance(value, (str, int, float)):
        raise InputError(f"{where}: {name!r} should be text, got {type(value).__name__}")
    return str(value)


def _str_list(value: Any, where: str, name: str) -> tuple[str, ...]:
    # Several releases write "" where a list is empty.
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(f"{where}: {name!r} should be a list of strings")
    return tuple(value)


def parse_label(value: Any, where: str = "", name: str = "label") -> bool | None:
    """Read a binary label written as a bool, 0/1 or a common word; empty means unlabelled."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and math.isnan(value):
            return None
        if value in (0, 1):
            return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if not word:
            return None
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
        try:
            return parse_label(float(word), where, name)
        except ValueError:
            pass
    raise InputError(f"{where}: {name!r} value {value!r} is not a binary label")


def _label_list(value: Any, where: str, name: str) -> tuple[bool | None, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list):
        raise InputError(f"{where}: {name!r} should be a list of labels")
    return tuple(parse_label(v, where, name) for v in value)


def _response_label(labels: Sequence[bool | None]) -> bool | None:
    """A response is false when any part is false, true when all parts are known true."""
    if any(v is False for v in labels):
        return False
    if labels and all(v is True for v in labels):
        return True
    return None
