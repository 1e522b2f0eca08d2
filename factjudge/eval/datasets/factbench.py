"""Factbench loader: claims, claim labels, response labels and located hallucination spans."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
    parse_label,
)

# Factbench packs four sources in one schema; its `claims` are FELM segments for felm-wk only.
_FACTBENCH_SEGMENT_SOURCES = frozenset({"felm-wk"})


def _find_spans(answer: str, pieces: Sequence[str]) -> tuple[tuple[tuple[int, int], ...], list[str]]:
    """Character offsets of quoted hallucinated passages; those not found verbatim are returned apart."""
    spans, missing = [], []
    for piece in pieces:
        start = answer.find(piece) if piece else -1
        if start < 0:
            missing.append(piece)
        else:
            spans.append((start, start + len(piece)))
    return tuple(sorted(spans)), missing


def load_factbench(path: str | Path) -> list[Example]:
    """Factbench rows (felm-wk, factool-qa, halueval-dolly15k): claims, claim labels, response label."""
    return factbench_examples(file_rows(path))


def factbench_examples(rows: Iterable[Row]) -> list[Example]:
    """Factbench rows, from a file or a DataFrame of it."""
    examples: list[Example] = []
    counters: dict[str, int] = {}
    for _, where, row in rows:
        source = _text(row.get("source", "factbench"), where, "source")
        claims = _str_list(row.get("claims"), where, "claims")
        labels = _label_list(row.get("claim_labels"), where, "claim_labels")
        if len(labels) != len(claims):
            raise InputError(f"{where}: {len(claims)} claims but {len(labels)} claim labels")
        answer = _text(row.get("response"), where, "response", required=False) or " ".join(claims)
        pieces = _str_list(row.get("hallucination_spans"), where, "hallucination_spans")
        spans, missing = _find_spans(answer, pieces)
        as_segments = source in _FACTBENCH_SEGMENT_SOURCES
        number = counters.get(source, 0)
        counters[source] = number + 1
        label = parse_label(row.get("response_label"), where, "response_label")
        examples.append(Example(
            id=f"{source}-{number}",
            question=_text(row.get("prompt"), where, "prompt"),
            answer=answer,
            segments=claims if as_segments else (),
            segment_labels=labels if as_segments else (),
            response_label=label if label is not None else _response_label(labels),
            claims=() if as_segments else claims,
            claim_labels=() if as_segments else labels,
            # Every Factbench source asks world-knowledge questions.
            domain="wk",
            dataset=source,
            spans=spans,
            meta={"ability_to_test": row.get("ability_to_test", ""), "unlocated_spans": missing},
        ))
    return examples
