"""Labelled datasets as one ``Example`` type: FELM, Factbench, TRUE pairs, FActScore, Mu-SHROOM, tables.

Label convention everywhere: ``True`` = factual / consistent / supported, ``False`` = an
error, ``None`` = not labelled. Loaders read the files as the papers released them and
raise ``InputError`` naming the file and line of anything they cannot use.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.metrics import FELM_DOMAINS

__all__ = ["FELM_DOMAINS", "Example", "dataset_files", "dataset_hash", "load_dataset", "load_factbench",
           "load_factscore", "load_felm", "load_mushroom", "load_table", "load_true_pairs", "parse_label"]
# Factbench packs four sources in one schema; its `claims` are FELM segments for felm-wk only.
_FACTBENCH_SEGMENT_SOURCES = frozenset({"felm-wk"})
_FACTSCORE_LABELS: dict[str, bool | None] = {"S": True, "NS": False, "IR": None}
_TRUE_WORDS = frozenset({"1", "true", "t", "yes", "y", "consistent", "supported", "factual",
                         "fully attributable", "correct", "s"})
_FALSE_WORDS = frozenset({"0", "false", "f", "no", "n", "inconsistent", "not supported", "unsupported",
                          "not factual", "nonfactual", "not fully attributable", "incorrect", "ns",
                          "hallucination", "hallucinated"})
_TUPLE_FIELDS = ("segments", "segment_labels", "claims", "claim_labels", "refs", "ref_contents")


@dataclass(frozen=True)
class Example:
    """One labelled answer (or grounded text) with everything a judge and a metric need."""

    id: str
    question: str
    answer: str
    segments: tuple[str, ...] = ()
    segment_labels: tuple[bool | None, ...] = ()
    response_label: bool | None = None
    claims: tuple[str, ...] = ()
    claim_labels: tuple[bool | None, ...] = ()
    domain: str = ""
    language: str = "en"
    dataset: str = ""
    grounding: str = ""
    refs: tuple[str, ...] = ()
    ref_contents: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    soft_spans: tuple[tuple[int, int, float], ...] = ()
    # Left out of the hash so examples can sit in sets; still compared for equality.
    meta: dict[str, Any] = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (tuples become lists)."""
        data = asdict(self)
        for key in (*_TUPLE_FIELDS, "spans", "soft_spans"):
            data[key] = [list(v) if isinstance(v, tuple) else v for v in data[key]]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Example:
        """Rebuild from ``to_dict`` output, ignoring unknown keys."""
        names = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        for key in _TUPLE_FIELDS:
            if key in kwargs:
                kwargs[key] = tuple(kwargs[key] or ())
        kwargs["spans"] = tuple((int(s), int(e)) for s, e in kwargs.get("spans") or ())
        kwargs["soft_spans"] = tuple((int(s), int(e), float(p)) for s, e, p in kwargs.get("soft_spans") or ())
        kwargs["meta"] = dict(kwargs.get("meta") or {})
        return cls(**kwargs)


# ---------------------------------------------------------------- reading helpers


def _path(path: str | Path) -> Path:
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    return p


def _jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) of a JSONL file, skipping blank lines."""
    p = _path(path)
    with p.open(encoding="utf-8-sig") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{p}:{number}: not valid JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise InputError(f"{p}:{number}: expected a JSON object, got {type(row).__name__}")
            yield number, row


def _csv_rows(path: str | Path, delimiter: str | None = None) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield (line number, row) of a CSV/TSV file; the header is line 1."""
    p = _path(path)
    if delimiter is None:
        delimiter = "\t" if p.suffix.lower() in (".tsv", ".tab") else ","
    with p.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh, delimiter=delimiter)
        if not reader.fieldnames:
            raise InputError(f"{p}: empty file, no header row")
        for row in reader:
            if None in row or any(v is None for v in row.values()):
                raise InputError(f"{p}:{reader.line_num}: row does not match the header's columns")
            yield reader.line_num, row


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


# ---------------------------------------------------------------- FELM


def load_felm(path: str | Path) -> list[Example]:
    """FELM's full release (all.jsonl): segments with labels, error types, reference links and texts."""
    examples: list[Example] = []
    for line, row in _jsonl(path):
        where = _where(path, line)
        segments = _str_list(row.get("segmented_response"), where, "segmented_response")
        labels = _label_list(row.get("labels"), where, "labels")
        if len(labels) != len(segments):
            raise InputError(f"{where}: {len(segments)} segments but {len(labels)} labels")
        # One row's link list left a trailing comma on a URL (felm index 403).
        refs = tuple(r.strip().rstrip(",") for r in _str_list(row.get("ref"), where, "ref") if r.strip())
        contents = _str_list(row.get("ref_contents"), where, "ref_contents")
        answer = _text(row.get("response"), where, "response", required=False) or "\n".join(segments)
        types = row.get("type") or []
        comments = row.get("comment") or []
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
                # `type` is per segment only when its length matches; older rows leave it empty.
                "error_types": list(types) if len(types) == len(segments) else [],
                "comments": list(comments) if len(comments) == len(segments) else [],
                "ref_contents_aligned": len(refs) == len(contents),
            },
        ))
    return examples


# ---------------------------------------------------------------- Factbench


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
    examples: list[Example] = []
    counters: dict[str, int] = {}
    for line, row in _jsonl(path):
        where = _where(path, line)
        source = _text(row.get("source", "factbench"), where, "source")
        claims = _str_list(row.get("claims"), where, "claims")
        labels = _label_list(row.get("claim_labels"), where, "claim_labels")
        if len(labels) != len(claims):
            raise InputError(f"{where}: {len(claims)} claims but {len(labels)} claim labels")
        answer = _text(row.get("response"), where, "response", required=False) or " ".join(claims)
        pieces = row.get("hallucination_spans") or []
        spans, missing = _find_spans(answer, [p for p in pieces if isinstance(p, str)])
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


# ---------------------------------------------------------------- TRUE pairs


def _label_from_name(path: Path) -> bool | None:
    name = path.stem.lower()
    if "inconsistent" in name:
        return False
    if "consistent" in name:
        return True
    return None


def load_true_pairs(path: str | Path, label: bool | None = None, dataset: str | None = None) -> list[Example]:
    """TRUE-style (grounding, text, consistent?) pairs: BEGIN tsv, Q² csv, or TRUE's own csv columns.

    BEGIN: ``begin_label`` "Fully attributable" = consistent, anything else not. Q²: the
    file has no label column; ``label`` decides, else the file name (…_consistent /
    …_inconsistent). TRUE csv: ``grounding``, ``generated_text``, ``label`` (1 = consistent).
    """
    p = _path(path)
    stem = p.stem.replace("_", "-")
    examples: list[Example] = []
    for line, row in _csv_rows(p):
        where = _where(p, line)
        if "begin_label" in row:
            name = dataset or f"begin-{row.get('data_source') or 'dialogue'}"
            gold: bool | None = row["begin_label"].strip().lower() == "fully attributable"
            grounding, text, question = row.get("knowledge"), row.get("response"), row.get("message", "")
        elif "knowledge" in row and "response" in row:
            # Both halves of Q² form one dataset, so ROC AUC sees both classes.
            name = dataset or stem.replace("-inconsistent", "").replace("-consistent", "")
            gold = label if label is not None else _label_from_name(p)
            if gold is None and "label" in row:
                gold = parse_label(row["label"], where)
            elif gold is None:
                raise InputError(f"{p}: cannot tell consistent from inconsistent; pass label=True/False")
            grounding, text, question = row["knowledge"], row["response"], row.get("message", "")
        elif "grounding" in row and "generated_text" in row:
            name = dataset or stem
            gold = label if label is not None else parse_label(row.get("label"), where)
            grounding, text, question = row["grounding"], row["generated_text"], ""
        else:
            raise InputError(f"{p}: unknown TRUE-pair columns {sorted(row)}; expected BEGIN, Q² or TRUE csv")
        if gold is None:
            raise InputError(f"{where}: the label is empty")
        if not (grounding or "").strip() or not (text or "").strip():
            raise InputError(f"{where}: empty grounding or text")
        extra = {k: v for k, v in row.items()
                 if k not in ("knowledge", "response", "message", "grounding", "generated_text", "label", "")}
        examples.append(Example(
            id=f"{stem}-{len(examples)}",
            question=question or "",
            answer=str(text),
            response_label=gold,
            domain="dialogue",
            dataset=name,
            grounding=str(grounding),
            meta=extra,
        ))
    return examples


# ---------------------------------------------------------------- FActScore


def load_factscore(path: str | Path) -> list[Example]:
    """FActScore's labelled jsonl: sentences with human atomic facts labelled S, NS or IR.

    Sentences become segments, atomic facts claims (S → True, NS → False, IR → None:
    irrelevant facts do not count). A row without annotations is an abstention
    (``meta["abstained"]``).
    """
    examples: list[Example] = []
    for line, row in _jsonl(path):
        where = _where(path, line)
        answer = _text(row.get("output", row.get("generation")), where, "output")
        annotations = row.get("annotations")
        if annotations is not None and not isinstance(annotations, list):
            raise InputError(f"{where}: 'annotations' should be a list or null")
        segments: list[str] = []
        seg_labels: list[bool | None] = []
        claims: list[str] = []
        claim_labels: list[bool | None] = []
        claim_segment: list[int] = []
        tags: list[str] = []
        for sentence in annotations or []:
            if not isinstance(sentence, dict):
                raise InputError(f"{where}: each annotation should be an object")
            facts = sentence.get("human-atomic-facts") or []
            fact_labels = []
            for fact in facts:
                tag = str(fact.get("label", "")).strip().upper() if isinstance(fact, dict) else ""
                if tag not in _FACTSCORE_LABELS:
                    raise InputError(f"{where}: atomic fact label {tag!r} is not S, NS or IR")
                claims.append(_text(fact.get("text"), where, "atomic fact text"))
                claim_labels.append(_FACTSCORE_LABELS[tag])
                claim_segment.append(len(segments))
                tags.append(tag)
                fact_labels.append(_FACTSCORE_LABELS[tag])
            segments.append(_text(sentence.get("text"), where, "annotation text"))
            relevant = sentence.get("is-relevant", True)
            # IR facts are left out of FActScore, so they do not make a label unknown.
            judged = [v for v in fact_labels if v is not None]
            seg_labels.append(_response_label(judged) if relevant else None)
        abstained = annotations is None
        topic = _text(row.get("topic", ""), where, "topic", required=False)
        language = str(row.get("lang") or row.get("language") or "en").lower()
        examples.append(Example(
            id=f"factscore-{row.get('id', line - 1)}",
            question=_text(row.get("input", f"Tell me a bio of {topic}."), where, "input"),
            answer=answer,
            segments=tuple(segments),
            segment_labels=tuple(seg_labels),
            response_label=None if abstained else _response_label([v for v in claim_labels if v is not None]),
            claims=tuple(claims),
            claim_labels=tuple(claim_labels),
            domain="bio",
            language=language,
            dataset="factscore",
            meta={"topic": topic, "abstained": abstained, "claim_segment": claim_segment, "fact_tags": tags,
                  "cat": row.get("cat", [])},
        ))
    return examples


# ---------------------------------------------------------------- Mu-SHROOM


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
    examples: list[Example] = []
    for file in _mushroom_files(path):
        for line, row in _jsonl(file):
            where = _where(file, line)
            answer = _text(row.get("model_output_text"), where, "model_output_text")
            try:
                spans = tuple(sorted((int(s), int(e)) for s, e in row.get("hard_labels") or []))
                soft = tuple(sorted((int(d["start"]), int(d["end"]), float(d["prob"]))
                                    for d in row.get("soft_labels") or []))
            except (TypeError, ValueError, KeyError):
                raise InputError(f"{where}: malformed hard_labels or soft_labels") from None
            if any(not 0 <= s <= e <= len(answer) for s, e in spans):
                raise InputError(f"{where}: a hard label falls outside the answer")
            url = row.get("wikipedia_url") or ""
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


# ---------------------------------------------------------------- generic tables


def _cell_list(value: Any) -> Any:
    # CSV cells hold lists as JSON text.
    if isinstance(value, str) and value.strip().startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


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
    known = {f.name for f in fields(Example)}
    unknown = set(mapping) - known
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
        examples.append(Example.from_dict(values))
    return examples


# ---------------------------------------------------------------- dispatch


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
    if "claims" in row or "response_label" in row:
        return load_factbench(p)
    if "id" in row and "answer" in row:
        return [Example.from_dict(r) for _, r in _jsonl(p)]
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
