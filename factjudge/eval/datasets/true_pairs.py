"""TRUE-style (grounding, text, consistent?) pair loader for BEGIN, Q² and TRUE csv files."""

from __future__ import annotations

from pathlib import Path

from factjudge.errors import InputError
from factjudge.eval.datasets.example import Example
from factjudge.eval.datasets.reading import _csv_rows, _path, _where, parse_label


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
