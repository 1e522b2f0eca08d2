"""FActScore's human-labelled biographies in a compact JSONL: ChatGPT's all, two other systems' some.

    python benchmarks/data/convert_factscore_bios.py /path/to/long-form-factuality   # clone or bare git dir
    python benchmarks/data/convert_factscore_bios.py DIR --commit 9d27158d198ced0a9d8271a80147cae580614601

Source: google-deepmind/long-form-factuality, ``third_party/factscore/labeled_data/`` (FActScore's
release, Min et al., EMNLP 2023, MIT licence): 183 people a file, each asked "Tell me a bio of
<topic>." of one system, the answer's sentences and the atomic facts people wrote for each,
labelled S (supported by the topic's Wikipedia article), NS (not supported) or IR (irrelevant).
Kept: all 183 of ChatGPT, and InstructGPT's and PerplexityAI's about the six ``COVERED`` people.
The rows keep FActScore's own shape (``input``, ``output``, ``topic``, ``cat``, ``annotations``
with ``text``, ``is-relevant`` and ``human-atomic-facts``), so ``load_dataset`` reads the file as
FActScore data; the model-written atomic facts are left out (they carry no label), and each row
gets ``id`` = ``<system>-<row>`` (the 0-based row of the source file) and ``system``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path(__file__).resolve().parent / "factscore_bios.jsonl"
FOLDER = "third_party/factscore/labeled_data"
# Every ChatGPT biography; of the other two systems only those about the six people the packaged
# summaries have an article about (found by `benchmarks/wiki_topic.py --part coverage`), where an
# estimated FActScore can be set against the human one.
SYSTEMS = ("ChatGPT", "InstructGPT", "PerplexityAI")
COVERED = frozenset({"George Cukor", "António de Oliveira Salazar", "Annika Sörenstam",
                     "Robert Louis Stevenson", "Garrincha", "Osama bin Laden"})


def read_source(repo: Path, path: str, commit: str) -> str:
    """A file's text from a work tree, or from a bare git directory at ``commit``."""
    if (repo / path).is_file():
        return (repo / path).read_text(encoding="utf-8")
    done = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{repo}: cannot read {path} at {commit}: {done.stderr.strip()}")
    return done.stdout


def compact(row: dict[str, Any], system: str, index: int) -> dict[str, Any]:
    """A row with its human-labelled facts only, and where it came from."""
    annotations = row.get("annotations")
    kept = None if annotations is None else [
        {"text": a["text"], "is-relevant": a.get("is-relevant", True),
         "human-atomic-facts": [{"text": f["text"], "label": f["label"]}
                                for f in a.get("human-atomic-facts") or []]}
        for a in annotations]
    return {"id": f"{system}-{index}", "system": system, "topic": row["topic"], "cat": row.get("cat", []),
            "input": row["input"], "output": row["output"], "annotations": kept}


def main() -> None:
    """Write the compact file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path, help="google-deepmind/long-form-factuality: a clone or git dir")
    parser.add_argument("--commit", default="HEAD", help="the commit to read from a bare git dir")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    rows = []
    for system in SYSTEMS:
        text = read_source(args.repo, f"{FOLDER}/{system}.jsonl", args.commit)
        read = [json.loads(line) for line in text.splitlines() if line.strip()]
        rows += [compact(row, system, i) for i, row in enumerate(read)
                 if system == SYSTEMS[0] or row["topic"] in COVERED]
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    facts = sum(len(a["human-atomic-facts"]) for r in rows for a in r["annotations"] or [])
    print(f"{args.out}: {len(rows)} biographies, {facts} labelled facts")


if __name__ == "__main__":
    main()
