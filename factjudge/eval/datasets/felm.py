"""FELM loader: segmented answers with per-segment labels, error types and references."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.reading import (
    Row,
    _label_list,
    _response_label,
    _str_list,
    _text,
    file_rows,
)


def load_felm(path: str | Path) -> list[Example]:
    """FELM's full release (all.jsonl): segments with labels, error types, reference links and texts."""
    return felm_examples(file_rows(path))


def felm_examples(rows: Iterable[Row]) -> list[Example]:
    """FELM rows, from a file or a DataFrame of it."""
    examples: list[Example] = []
    for line, where, row in rows:
        segments = _str_list(row.get("segmented_response"), where, "segmented_response")
        labels = _label_list(row.get("labels"), where, "labels")
        if len(labels) != len(segments):
            raise InputError(f"{where}: {len(segments)} segments but {len(labels)} labels")
        # One row's link list left a trailing comma on a URL (felm index 403).
        refs = tuple(r.strip().rstrip(",") for r in _str_list(row.get("ref"), where, "ref") if r.strip())
        contents = _str_list(row.get("ref_contents"), where, "ref_contents")
        answer = _text(row.get("response"), where, "response", required=False) or "\n".join(segments)
        # Per-segment notes, kept only when they line up; older rows leave them empty.
        types, comments = (v if isinstance(v, list) else [] for v in (row.get("type"), row.get("comment")))
        domain = _text(row.get("domain"), where, "domain")
        examples.append(Example(
            id=f"felm-{_text(row.get('index', line - 1), where, 'index')}",
            question=_text(row.get("prompt"), where, "prompt"),
            answer=answer,
            segments=segments,
            segment_labels=labels,
            response_label=_response_label(labels),
            domain=domain,
            dataset="felm",
            refs=refs,
            ref_contents=contents,
            meta={
                "source": row.get("source", ""),
                "error_types": list(types) if len(types) == len(segments) else [],
                "comments": list(comments) if len(comments) == len(segments) else [],
                "ref_contents_aligned": len(refs) == len(contents),
            },
        ))
    return examples
