"""Generic loaders: a mapping names the column for each ``Example`` field, or rows name the fields."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.reading import (
    Row,
    _csv_rows,
    _jsonl,
    _label_list,
    _path,
    _response_label,
    _str_list,
    _text,
    _where,
    file_rows,
    parse_label,
)


def _cell_list(value: Any) -> Any:
    # CSV cells hold lists as JSON text.
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


_FIELDS = frozenset(f.name for f in fields(Example))


def _example(values: dict[str, Any], where: str) -> Example:
    """An Example from the field values of one row, each checked and converted."""
    for name in ("segments", "claims", "refs", "ref_contents"):
        values[name] = _str_list(values.get(name), where, name)
    for name in ("segment_labels", "claim_labels"):
        values[name] = _label_list(values.get(name), where, name)
    values["response_label"] = parse_label(values.get("response_label"), where, "response_label")
    if values["response_label"] is None:
        values["response_label"] = _response_label(values["segment_labels"] or values["claim_labels"])
    for name in ("id", "question", "answer", "domain", "language", "dataset", "grounding"):
        if name in values:
            values[name] = _text(values[name], where, name, required=name == "answer")
    values["language"] = (values.get("language") or "en").lower()
    try:
        return Example.from_dict(values)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InputError(f"{where}: malformed spans, soft_spans or meta ({exc})") from None


def load_table(
    path: str | Path,
    mapping: Mapping[str, str],
    fmt: str | None = None,
    *,
    defaults: Mapping[str, Any] | None = None,
) -> list[Example]:
    """Any CSV/TSV/JSONL file: ``mapping`` names the column for each ``Example`` field.

    ``{"answer": "response", "grounding": "knowledge", "response_label": "label"}``; list
    fields take JSON lists (JSON text in CSV cells); ``defaults`` fill fields with no column.
    """
    p = _path(path)
    unknown = set(mapping) - _FIELDS
    if unknown:
        raise InputError(f"mapping names unknown Example fields: {sorted(unknown)}")
    if "answer" not in mapping:
        raise InputError("the mapping needs a column for 'answer'")
    kind = (fmt or p.suffix.lstrip(".")).lower()
    if kind in ("jsonl", "json"):
        rows: Iterator[tuple[int, Mapping[str, Any]]] = _jsonl(p)
    elif kind in ("csv", "tsv", "tab"):
        rows = _csv_rows(p, "\t" if kind in ("tsv", "tab") else ",")
    else:
        raise InputError(f"{p}: unknown table format {kind!r}; use csv, tsv or jsonl")
    examples: list[Example] = []
    for line, row in rows:
        where = _where(p, line)
        values: dict[str, Any] = {"dataset": p.stem, "id": f"{p.stem}-{len(examples)}", "question": ""}
        values.update(defaults or {})
        for name, column in mapping.items():
            if column not in row:
                raise InputError(f"{where}: column {column!r} (for {name}) is missing")
            values[name] = _cell_list(row[column])
        examples.append(_example(values, where))
    return examples


def load_examples(path: str | Path) -> list[Example]:
    """JSONL rows whose keys are ``Example`` fields (``id``, ``answer``, ``response_label`` …).

    ``label`` is read as ``response_label``; any other key is refused, naming the keys
    expected, so a row's labels are never dropped without a word.
    """
    p = _path(path)
    return field_examples(file_rows(p), p.stem)


def field_examples(rows: Iterable[Row], name: str) -> list[Example]:
    """Rows whose keys are ``Example`` fields, from a file or a DataFrame; ids default to ``name-N``."""
    examples: list[Example] = []
    for _, where, row in rows:
        # An absent value (a DataFrame's empty cell) takes the default, as a missing key does.
        values = {key: value for key, value in row.items() if value is not None}
        if "label" in values:
            if "response_label" in values:
                raise InputError(f"{where}: give 'label' or 'response_label', not both")
            values["response_label"] = values.pop("label")
        unknown = set(values) - _FIELDS
        if unknown:
            raise InputError(f"{where}: unknown keys {sorted(unknown)}; rows of id and answer take "
                             f"{', '.join(sorted(_FIELDS))} and label (the response label); "
                             "put anything else in meta")
        examples.append(_example({"id": f"{name}-{len(examples)}", "question": "", **values}, where))
    return examples
