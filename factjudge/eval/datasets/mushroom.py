"""Mu-SHROOM loader: answers with hard and soft hallucination spans, from a file or a directory."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.reading import Row, _path, _text, file_rows


def _mushroom_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted(p.glob("*.jsonl"))
        if not files:
            raise InputError(f"{p}: no .jsonl files in this directory")
        return files
    return [_path(p)]


def load_mushroom(path: str | Path) -> list[Example]:
    """Mu-SHROOM answers with hard (majority) and soft (annotator share) hallucination spans."""
    return [e for file in _mushroom_files(path) for e in mushroom_examples(file_rows(file))]


def mushroom_examples(rows: Iterable[Row]) -> list[Example]:
    """Mu-SHROOM rows, from a file or a DataFrame of one."""
    examples: list[Example] = []
    for _, where, row in rows:
        answer = _text(row.get("model_output_text"), where, "model_output_text")
        try:
            spans = tuple(sorted((int(s), int(e)) for s, e in row.get("hard_labels") or []))
            soft = tuple(sorted((int(d["start"]), int(d["end"]), float(d["prob"]))
                                for d in row.get("soft_labels") or []))
        except (TypeError, ValueError, KeyError, OverflowError):
            raise InputError(f"{where}: malformed hard_labels or soft_labels") from None
        if any(not 0 <= s <= e <= len(answer) for s, e in spans):
            raise InputError(f"{where}: a hard label falls outside the answer")
        url = _text(row.get("wikipedia_url"), where, "wikipedia_url", required=False)
        examples.append(Example(
            id=_text(row.get("id"), where, "id"),
            question=_text(row.get("model_input"), where, "model_input"),
            answer=answer,
            # Unlabelled test rows carry no hard_labels key at all.
            response_label=(not spans) if "hard_labels" in row else None,
            domain="wk",
            language=_text(row.get("lang"), where, "lang").lower(),
            dataset="mushroom",
            refs=(url,) if url else (),
            spans=spans,
            soft_spans=soft,
            meta={"model_id": row.get("model_id", ""), "annotations": row.get("annotations", {})},
        ))
    return examples
