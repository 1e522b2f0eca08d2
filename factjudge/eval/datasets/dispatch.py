"""Dataset arguments to files, each file (or rows in memory) to its loader by its columns, and a hash."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.factbench import factbench_examples
from factjudge.eval.datasets.factscore import factscore_examples
from factjudge.eval.datasets.felm import felm_examples
from factjudge.eval.datasets.mushroom import _mushroom_files, mushroom_examples
from factjudge.eval.datasets.ragtruth import RESPONSES, faithjudge_examples, load_ragtruth, ragtruth_files
from factjudge.eval.datasets.reading import Row, _jsonl, file_rows, given_rows
from factjudge.eval.datasets.table import field_examples
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
    # RAGTruth's release is two files read together: a folder, or either file, names both.
    if pair := ragtruth_files(p):
        return pair
    if p.is_dir():
        return _mushroom_files(p)
    if p.is_file():
        return [p]
    for suffix in (".csv", ".tsv"):
        pair = [p.with_name(f"{p.name}_{half}{suffix}") for half in ("consistent", "inconsistent")]
        if all(f.is_file() for f in pair):
            return pair
    raise InputError(f"{p}: no such file, directory or consistent/inconsistent pair")


RowsLoader = Callable[[Iterable[Row]], list[Example]]


def _rows_loader(row: Mapping[str, Any], where: str, name: str) -> RowsLoader:
    """The loader of the release whose columns ``row`` has; ``name`` prefixes ids it must make up."""
    if "segmented_response" in row:
        return felm_examples
    if "model_output_text" in row:
        return mushroom_examples
    if "responses" in row and "source" in row:
        return faithjudge_examples
    if "source_id" in row and "labels" in row and "response" in row:
        raise InputError(f"{where}: RAGTruth's response rows are read with their source_info.jsonl: give "
                         "the folder holding both, or its response.jsonl with source_info.jsonl beside it")
    if "annotations" in row and ("output" in row or "generation" in row):
        return factscore_examples
    # Example fields (the id may be left to us); before Factbench, as they may hold a response_label.
    if "answer" in row and ("id" in row or "response" not in row):
        return partial(field_examples, name=name)
    # Factbench names its question `prompt` and lists `claims`; rows of one's own with a `response`
    # are told what the key is, not that Factbench's `prompt` is missing.
    if "response" in row and not ({"prompt", "claims"} & set(row)):
        mapping = {"answer": "response", **{field: key for key, field in _OWN_NAMES.items() if key in row}}
        raise InputError(f"{where}: the answer is under 'response'; rows of your own name it 'answer' "
                         f"(beside question, label, segments …): rename the key, or read the file with "
                         f"{_LOAD_TABLE}(path, {mapping})")
    if "claims" in row or "response_label" in row:
        return factbench_examples
    raise InputError(f"{where}: unrecognised dataset columns {sorted(row)}; name the answer 'answer' (and "
                     f"the label 'label'), or map the columns with "
                     f"{_LOAD_TABLE}(path, {{'answer': COLUMN, …}})")


# The loader for files whose columns are named otherwise (README: "Benchmarking judges").
_LOAD_TABLE = "factjudge.eval.datasets.load_table"
# Keys of a row that map onto Example fields as they are (the label under its field's name).
_OWN_NAMES = {"id": "id", "question": "question", "label": "response_label",
              "response_label": "response_label", "segments": "segments", "segment_labels": "segment_labels"}


def _load_file(p: Path) -> list[Example]:
    suffix = p.suffix.lower()
    if suffix in (".tsv", ".csv"):
        return load_true_pairs(p)
    if suffix not in (".jsonl", ".json"):
        raise InputError(f"{p}: unknown dataset format; expected .jsonl, .csv, .tsv or a directory")
    if ragtruth_files(p):  # source_info.jsonl is read with its response.jsonl
        return load_ragtruth(p) if p.name == RESPONSES else []
    return _rows_loader(_first_row(p), str(p), p.stem)(file_rows(p))


def _unique(examples: list[Example], name: object) -> list[Example]:
    ids = [e.id for e in examples]
    if len(set(ids)) != len(ids):
        raise InputError(f"{name}: duplicate example ids")
    return examples


def load_dataset(name_or_path: str | Path) -> list[Example]:
    """Load any supported dataset (see ``dataset_files``), each file recognised by its columns."""
    return _unique([e for f in dataset_files(name_or_path) for e in _load_file(f)], name_or_path)


def load_rows(rows: Sequence[Mapping[str, Any]], name: str = "rows") -> list[Example]:
    """Rows of a released JSONL file held in memory (``pd.read_json(path, lines=True)``'s records,
    dicts), recognised by their columns and read by that file's own loader, as ``load_dataset`` does."""
    if not rows:
        raise InputError(f"{name}: no rows")
    first = rows[0]
    if not isinstance(first, Mapping):
        raise InputError(f"{name} row 0: expected a mapping of column to value, got {type(first).__name__}")
    return _unique(_rows_loader(first, f"{name} row 0", name)(given_rows(rows, name)), name)


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
