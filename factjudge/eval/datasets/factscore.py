"""FActScore loader: sentences as segments, human atomic facts labelled S, NS or IR as claims."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.reading import Row, _response_label, _text, file_rows

_FACTSCORE_LABELS: dict[str, bool | None] = {"S": True, "NS": False, "IR": None}


def load_factscore(path: str | Path) -> list[Example]:
    """FActScore's labelled jsonl: sentences with human atomic facts labelled S, NS or IR.

    Sentences become segments, atomic facts claims (S → True, NS → False, IR → None:
    irrelevant facts do not count). A row without annotations is an abstention
    (``meta["abstained"]``).
    """
    return factscore_examples(file_rows(path))


def factscore_examples(rows: Iterable[Row]) -> list[Example]:
    """FActScore rows, from a file or a DataFrame of it."""
    examples: list[Example] = []
    for line, where, row in rows:
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
            if not isinstance(facts, list):
                raise InputError(f"{where}: 'human-atomic-facts' should be a list")
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
