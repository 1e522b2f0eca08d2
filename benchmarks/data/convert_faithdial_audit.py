"""FaithDial's hallucination audit (Wizard of Wikipedia part) as TRUE pairs in JSONL.

    python benchmarks/data/convert_faithdial_audit.py /path/to/FaithDial   # a clone or a bare git dir
    python benchmarks/data/convert_faithdial_audit.py DIR --commit 25671c6e3aa7d667943b7744a2b91507e7187f83

Source: McGill-NLP/FaithDial, ``data-audit/`` (Dziri et al., NAACL 2022, "On the Origin of
Hallucinations in Conversational Models"): 200 knowledge-grounded responses a file, each
labelled by people with BEGIN categories. Only the four Wizard of Wikipedia files are read
(the human-written gold responses and those of GPT2, DoHA and CTRL); why the CMU-DoG and
TopicalChat files are left out is in benchmarks/data/README.md.

Labels (TRUE's convention, consistent = supported by the knowledge):
- consistent: "entailment", alone or with "uncooperative" (entailed but off the conversation);
- inconsistent: any "hallucination" or "partial hallucination" (also beside "entailment");
- dropped: "generic" and a lone "uncooperative" (nothing to support or refute), unlabelled rows,
  and a (knowledge, response) pair seen before in the same file (kept once when its labels agree).

Each output row holds ``Example`` fields, so ``factjudge.eval.datasets.load_dataset`` reads it as
a TRUE pair. Rows are ordered by the sha256 of their id, so any ``--limit N`` prefix is a
deterministic sample mixing the four systems and both labels.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path(__file__).resolve().parent / "faithdial_audit_dev.jsonl"
# system name -> (file in the repository, its response column, its label column)
FILES = {
    "gold": ("data-audit/gold/wow.csv", "response", "BEGIN"),
    "gpt2": ("data-audit/GPT2/gpt2_processed_wow.csv", "gpt2", "begin_label"),
    "doha": ("data-audit/DoHA/doha_processed_wow.csv", "doha", "begin_label"),
    "ctrl": ("data-audit/CTRL/ctrl_processed_wow.csv", "ctrl", "begin_label"),
}
# The files spell a few labels loosely ("entailmentt", "entailment. uncooperative", "hallucinated").
SPELLINGS = {"entailmentt": "entailment", "hallucinated": "hallucination"}
KNOWN = frozenset({"entailment", "hallucination", "partial hallucination", "generic", "uncooperative"})


def read_source(repo: Path, path: str, commit: str) -> str:
    """A file's text from a work tree, or from a bare git directory at ``commit``."""
    if (repo / path).is_file():
        return (repo / path).read_text(encoding="utf-8")
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{repo}: cannot read {path} at {commit}: {done.stderr.strip()}")
    return done.stdout


def begin_labels(cell: str) -> list[str]:
    """The BEGIN categories of one label cell, normalised."""
    labels = [SPELLINGS.get(part.strip().lower(), part.strip().lower()) for part in re.split(r"[,.]", cell)]
    labels = [label for label in labels if label]
    unknown = set(labels) - KNOWN
    if unknown:
        sys.exit(f"unknown BEGIN label(s) {sorted(unknown)} in {cell!r}")
    return labels


def consistent(labels: list[str]) -> bool | None:
    """TRUE's label for a set of BEGIN categories; None when it says neither."""
    if "hallucination" in labels or "partial hallucination" in labels:
        return False
    if "entailment" in labels:
        return True
    return None


def convert(repo: Path, commit: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The TRUE rows of the four WoW files, and counts of what was dropped and why."""
    rows: list[dict[str, Any]] = []
    dropped = {"unlabelled": 0, "generic or uncooperative": 0, "duplicate pair": 0}
    for system, (path, response_column, label_column) in FILES.items():
        seen: dict[tuple[str, str], dict[str, Any]] = {}
        for index, cell in enumerate(csv.DictReader(io.StringIO(read_source(repo, path, commit)))):
            knowledge = cell["evidence" if system == "gold" else "knowledge"].strip()
            response = cell[response_column].strip()
            labels = begin_labels(cell[label_column])
            if not labels or not knowledge or not response:
                dropped["unlabelled"] += 1
                continue
            label = consistent(labels)
            if label is None:
                dropped["generic or uncooperative"] += 1
                continue
            key = (knowledge, response)
            if key in seen:
                dropped["duplicate pair"] += 1
                if seen[key]["response_label"] != label:
                    seen[key]["drop"] = True  # people disagreed on the same pair: keep neither
                continue
            row = {
                "id": f"faithdial-audit-wow-{system}-{index}",
                "question": cell["history"].strip(),
                "answer": response,
                "grounding": knowledge,
                "response_label": label,
                "domain": "dialogue",
                "dataset": "faithdial-audit",
                "meta": {"system": system, "begin": labels, "file": path, "row": index},
            }
            seen[key] = row
            rows.append(row)
    conflicting = [row for row in rows if row.pop("drop", False)]
    dropped["conflicting duplicate"] = len(conflicting)
    rows = [row for row in rows if row not in conflicting]
    rows.sort(key=lambda row: hashlib.sha256(row["id"].encode("utf-8")).hexdigest())
    return rows, dropped


def main() -> None:
    """Parse flags, convert, write the JSONL and print counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repo", type=Path, help="McGill-NLP/FaithDial: a clone or a bare git directory")
    parser.add_argument("--commit", default="HEAD", help="commit to read from a git directory")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    rows, dropped = convert(args.repo, args.commit)
    with args.out.open("w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    positives = sum(row["response_label"] for row in rows)
    print(f"{args.out}: {len(rows)} pairs, {positives} consistent, {len(rows) - positives} inconsistent; "
          f"dropped {dropped}")


if __name__ == "__main__":
    main()
