"""RAGTruth loader: RAG answers with typed, character-offset hallucination spans, in two layouts.

RAGTruth's own release is a folder of ``response.jsonl`` (one line per answer: ``id``,
``source_id``, ``model``, ``labels``, ``split``, ``quality``, ``response``) and
``source_info.jsonl`` (one line per source: ``source_id``, ``task_type`` QA / Summary /
Data2txt, ``source_info``). FaithJudge's copy has one line per source: ``source_id``,
``source`` and its ``responses`` (``response``, ``model``, ``labels``).

Each answer is one example, its task the domain, its source the context a judge reads: a
news text as it is, a business's JSON record as titled passages in plain words (its details,
hours, attributes, each review: ``json_record``), a question's passages with the question as the
example's question. Gold: the answer is hallucinated
when any span is marked (RAGTruth's response level; ``implicit_true`` and ``due_to_null``
spans count, and are kept in ``meta``), its spans with their types, and each sentence
(as ``factjudge.text.segmenter`` cuts it, as a check does) false when a span overlaps it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.json_record import passages_text, record_passages
from factjudge.eval.datasets.reading import Row, _path, _text, file_rows
from factjudge.records import Evidence
from factjudge.text.segmenter import segment

DATASET = "ragtruth"
RESPONSES, SOURCES = "response.jsonl", "source_info.jsonl"
# RAGTruth's hallucination types, in the paper's order.
SPAN_TYPES = ("Evident Conflict", "Subtle Conflict", "Evident Baseless Info", "Subtle Baseless Info")
_TASKS = {"qa": "qa", "summary": "summary", "data2txt": "data2txt"}


def ragtruth_files(path: str | Path) -> list[Path] | None:
    """``[response.jsonl, source_info.jsonl]`` of a RAGTruth folder, or of either file with the other
    beside it; None for anything else."""
    p = Path(path)
    folder = p if p.is_dir() else p.parent if p.name in (RESPONSES, SOURCES) else None
    if folder is None:
        return None
    pair = [folder / RESPONSES, folder / SOURCES]
    return pair if all(f.is_file() for f in pair) else None


def load_ragtruth(path: str | Path) -> list[Example]:
    """RAGTruth answers from its own folder (or its response.jsonl) or from a FaithJudge file."""
    pair = ragtruth_files(path)
    if pair is None:
        return faithjudge_examples(file_rows(_path(path)))
    sources: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for _, where, row in file_rows(pair[1]):
        sources[_text(row.get("source_id"), where, "source_id")] = (where, row)
    return ragtruth_examples(file_rows(pair[0]), sources)


def ragtruth_examples(rows: Iterable[Row], sources: Mapping[str, tuple[str, Mapping[str, Any]]],
                      ) -> list[Example]:
    """RAGTruth's response rows, each read with its source row (``source_id`` -> (where, row))."""
    examples = []
    for _, where, row in rows:
        source_id = _text(row.get("source_id"), where, "source_id")
        if source_id not in sources:
            raise InputError(f"{where}: source_id {source_id!r} is not in {SOURCES}")
        source_where, source = sources[source_id]
        task = _task(source.get("task_type"), source_where)
        question, grounding, passages = _context(task, source.get("source_info"), source_where)
        meta = {"split": row.get("split", ""), "quality": row.get("quality", ""),
                "temperature": row.get("temperature")}
        examples.append(_example(f"{DATASET}-{_text(row.get('id'), where, 'id')}", row, where, task,
                                 question, grounding, passages, source_id, meta))
    return examples


def faithjudge_examples(rows: Iterable[Row]) -> list[Example]:
    """FaithJudge's RAGTruth rows (one source, its responses), from a file or a DataFrame of it."""
    examples = []
    for _, where, row in rows:
        source_id = _text(row.get("source_id"), where, "source_id")
        source = row.get("source")
        task = _task_of(source)
        question, grounding, passages = _context(task, source, where)
        responses = row.get("responses")
        if not isinstance(responses, list) or not all(isinstance(r, Mapping) for r in responses):
            raise InputError(f"{where}: 'responses' should be a list of objects")
        for number, response in enumerate(responses):
            model = _text(response.get("model", number), where, "model")
            examples.append(_example(f"{DATASET}-{task}-{source_id}-{model}", response, where, task,
                                     question, grounding, passages, source_id, {}))
    return examples


def _task(value: Any, where: str) -> str:
    task = _TASKS.get(str(value or "").strip().lower())
    if task is None:
        raise InputError(f"{where}: task_type {value!r} is not QA, Summary or Data2txt")
    return task


def _task_of(source: Any) -> str:
    """FaithJudge rows do not name their task: a question with passages, a record, or a text."""
    if isinstance(source, str) and source.lstrip().startswith("{"):
        try:
            source = json.loads(source)
        except json.JSONDecodeError:
            return "summary"
    if isinstance(source, Mapping):
        return "qa" if "passages" in source and "question" in source else "data2txt"
    return "summary"


def _context(task: str, source: Any, where: str) -> tuple[str, str, tuple[Evidence, ...]]:
    """The question (QA only), the text a judge reads and, for a record, that text as the passages it
    reads apart, from a task's source."""
    if isinstance(source, str) and task != "summary":
        try:
            source = json.loads(source)
        except json.JSONDecodeError:
            raise InputError(f"{where}: a {task} source should be a JSON object") from None
    if task == "summary":
        text = _text(source, where, "source")
        question = ""
    elif not isinstance(source, Mapping):
        raise InputError(f"{where}: a {task} source should be an object, got {type(source).__name__}")
    elif task == "qa":
        question = _text(source.get("question"), where, "question")
        text = _text(source.get("passages"), where, "passages")
    else:
        passages = _nonempty(tuple(record_passages(source)), where)
        return "", passages_text(passages), passages
    if not text.strip():
        raise InputError(f"{where}: the source is empty")
    return question, text, ()


def _nonempty(passages: tuple[Evidence, ...], where: str) -> tuple[Evidence, ...]:
    if not any(ev.text.strip() for ev in passages):
        raise InputError(f"{where}: the source is empty")
    return passages


def _spans(labels: Any, answer: str, where: str) -> list[dict[str, Any]]:
    """The marked spans, sorted, each checked to lie in the answer."""
    if labels is None:
        return []
    if not isinstance(labels, list) or not all(isinstance(label, Mapping) for label in labels):
        raise InputError(f"{where}: 'labels' should be a list of objects")
    spans = []
    for label in labels:
        try:
            start, end = int(label["start"]), int(label["end"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"{where}: a label has no integer start and end") from None
        if not 0 <= start < end <= len(answer):
            raise InputError(f"{where}: a label ({start}, {end}) falls outside the answer")
        spans.append({"start": start, "end": end, "type": str(label.get("label_type") or "untyped"),
                      "implicit_true": bool(label.get("implicit_true")),
                      "due_to_null": bool(label.get("due_to_null"))})
    return sorted(spans, key=lambda s: (s["start"], s["end"]))


def _example(example_id: str, response: Mapping[str, Any], where: str, task: str, question: str,
             grounding: str, passages: tuple[Evidence, ...], source_id: str, meta: dict[str, Any],
             ) -> Example:
    answer = _text(response.get("response"), where, "response")
    if not answer.strip():
        raise InputError(f"{where}: an empty response")
    spans = _spans(response.get("labels"), answer, where)
    sentences = segment(answer)
    return Example(
        id=example_id,
        question=question,
        answer=answer,
        segments=tuple(s.text for s in sentences),
        segment_labels=tuple(not _overlaps(spans, s.start, s.end) for s in sentences),
        response_label=not spans,
        domain=task,
        dataset=DATASET,
        grounding=grounding,
        passages=passages,
        spans=tuple((s["start"], s["end"]) for s in spans),
        meta={**meta, "source_id": source_id, "model": str(response.get("model", "")),
              "span_types": [s["type"] for s in spans],
              "implicit_true": [s["implicit_true"] for s in spans],
              "due_to_null": [s["due_to_null"] for s in spans]},
    )


def _overlaps(spans: Sequence[Mapping[str, Any]], start: int, end: int) -> bool:
    return any(s["start"] < end and start < s["end"] for s in spans)
