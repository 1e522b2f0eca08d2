"""Dataset arguments to files, each file to its loader by its columns, and a content hash."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.factbench import load_factbench
from factjudge.eval.datasets.factscore import load_factscore
from factjudge.eval.datasets.felm import load_felm
from factjudge.eval.datasets.mushroom import _mushroom_files, load_mushroom
from factjudge.eval.datasets.reading import _jsonl
from factjudge.eval.datasets.table import load_examples
from factjudge.eval.datasets.true_pairs import load_true_pairs


def _first_row(path: Path) -> dict[str, Any]:
    for _, row in _jsonl(path):
        return row
    raise InputError(f"{path}: no rows")


def dataset_files(name_or_path: str | Path) -> list[Path]:
    """The files behind a dataset argument: a file, a directory of .jsonl, or a Q²-style prefix.

    A prefix ``…/q2_memnet`` stands for ``q2_memnet_consistent.csv`` plus
    ``q2_memnet_inconsistent.csv`` beside it, so one argument names both classes.
    """
    p = Path(name_or_path)
    if p.is_dir():
        return _mushroom_files(p)
    if p.is_file():
        return [p]
    for suffix in (".csv", ".tsv"):
        pair = [p.with_name(f"{p.name}_{half}{suffix}") for half in ("consistent", "inconsistent")]
        if all(f.is_file() for f in pair):
            return pair
    raise InputError(f"{p}: no such file, directory or consistent/inconsistent pair")


def _load_file(p: Path) -> list[Example]:
    suffix = p.suffix.lower()
    if suffix in (".tsv", ".csv"):
        return load_true_pairs(p)
    if suffix not in (".jsonl", ".json"):
        raise InputError(f"{p}: unknown dataset format; expected .jsonl, .csv, .tsv or a directory")
    row = _first_row(p)
    if "segmented_response" in row:
        return load_felm(p)
    if "model_output_text" in row:
        return load_mushroom(p)
    if "annotations" in row and ("output" in row or "generation" in row):
        return load_factscore(p)
    if "id" in row and "answer" in row:  # before Factbench: these rows may hold a response_label
        return load_examples(p)
    if "claims" in row or "response_label" in row:
        return load_factbench(p)
    raise InputError(f"{p}: unrecognised dataset columns {sorted(row)}; use load_table with a mapping")


def load_dataset(name_or_path: str | Path) -> list[Example]:
    """Load any supported dataset (see ``dataset_files``), each file recognised by its columns."""
    examples = [e for f in dataset_files(name_or_path) for e in _load_file(f)]
    ids = [e.id for e in examples]
    if len(set(ids)) != len(ids):
        raise InputError(f"{name_or_path}: duplicate example ids")
    return examples


def dataset_hash(path: str | Path) -> str:
    """Short sha256 of a dataset's bytes (of each of its files, in order, with their names if several)."""
    files = dataset_files(path)
    digest = hashlib.sha256()
    for file in files:
        if len(files) > 1:
            digest.update(file.name.encode("utf-8") + b"\0")
        with file.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]
