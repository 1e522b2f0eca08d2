"""Issue 42's proof that speed changed no verdict: the dev sets judged with and without the speed-ups.

    python benchmarks/same_labels.py                  # 10 items a set; a rerun resumes
    python benchmarks/same_labels.py --per-set 20 --sets true-begin,long

The embedded judge runs every item twice in one process, through ``factjudge.checking.api.check`` with
the defaults a user gets: once as shipped (prompt states kept in memory and on disk and restored,
decisions read in one forward pass) and once with ``LocalChatModel(speedups=False)`` (every prompt
evaluated from scratch, decisions decoded token by token, nothing saved or restored), no call cache
either way. The sets: the TRUE dev sets with their context (BEGIN, Q² memnet, FaithDial's audit),
BEGIN's pairs padded to 2,000 words of other groundings (the long-context table's ``padded``), FELM
world knowledge and both value-swap sets (no context: the packaged Wikipedia). For each set: items,
labels that differ, the largest error-score difference, and seconds each way. A long context's windows
are read until one supports a sentence either way (that rule keeps labels by construction: a window
saying true ends the reading because no later window can make the label more lenient;
``tests/judges`` checks it with a scripted model); what is compared here is everything the model does.
Each item is written to ``--out`` as it is judged, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local_judge import padded
from read_values import SWAPS, SWAPS_IN_LEAD, q2_rows, swap_rows

from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.eval.datasets import load_dataset
from factjudge.llm.local import LocalChatModel, smollm2_path
from factjudge.llm.model_file import QWEN_1_5B, ensure_model_file
from factjudge.llm.registry import LOCAL_DEFAULT, SMOLLM2
from factjudge.records import Evidence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = ("true-begin", "true-q2", "true-faithdial", "long", "felm-wk", "swaps", "swaps-in-lead")


@dataclass(frozen=True)
class Item:
    """One check: its set, id, question, answer, context (None: world knowledge) and language."""

    set: str
    id: str
    question: str
    answer: str
    context: str | None
    language: str = "en"
    segments: tuple[str, ...] = ()


def items(name: str, limit: int, data: Path, scratch: Path) -> list[Item]:
    """The first ``limit`` items of the set ``name``."""
    if limit <= 0:
        return []
    if name.startswith("true-") or name == "long":
        source = {"true-begin": data / "begin_dev_wow.tsv", "long": data / "begin_dev_wow.tsv",
                  "true-faithdial": ROOT / "benchmarks" / "data" / "faithdial_audit_dev.jsonl"}.get(name)
        if name == "true-q2":
            source = scratch / "q2.jsonl"
            rows = q2_rows((limit + 1) // 2)
            source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        elif name == "long":
            assert source is not None
            source = padded(source, scratch / "long.jsonl", range(limit), 2000)
        assert source is not None
        return [Item(name, e.id, e.question, e.answer, e.grounding) for e in load_dataset(source)[:limit]]
    if name == "felm-wk":
        return [Item(name, e.id, e.question, e.answer, None, segments=e.segments)
                for e in load_dataset(data / "felm_wk.jsonl")[:limit]]
    rows = swap_rows((limit + 2) // 3, SWAPS if name == "swaps" else SWAPS_IN_LEAD, name)
    return [Item(name, r["id"], r["question"], r["answer"], None, r["language"]) for r in rows][:limit]


def judged(item: Item, model: LocalChatModel) -> dict[str, Any]:
    """The item's item labels and error scores, and seconds, with ``model``."""
    config = CheckConfig(model="local", use_cache=False, deadline=3600, language=item.language)
    started = time.perf_counter()
    result = check(item.question, item.answer, config, model=model,
                   context=[Evidence("context", item.context)] if item.context else None,
                   segments=item.segments or None)
    verdicts = [verdict for _, verdict in result.item_verdicts()]
    return {"labels": [v.label for v in verdicts], "scores": [v.error_score for v in verdicts],
            "seconds": time.perf_counter() - started}


def done_items(out: Path) -> Iterator[dict[str, Any]]:
    """The items an earlier run wrote."""
    if out.is_file():
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.strip():
                yield json.loads(line)


def table(rows: list[dict[str, Any]], sets: list[str]) -> list[str]:
    """Per set: items, labels differing, largest score difference, seconds each way."""
    lines = ["| set | items | item labels | labels differing | largest error-score difference | "
             "seconds, speed-ups | seconds, none |", "|---|---|---|---|---|---|---|"]
    for name in sets:
        mine = [r for r in rows if r["set"] == name]
        if not mine:
            continue
        labels = sum(len(r["fast"]["labels"]) for r in mine)
        pairs = [(a, b) for r in mine for key in ("labels", "scores")
                 for a, b in zip(r["fast"][key], r["slow"][key], strict=True)]
        differing = sum(a != b for a, b in pairs if isinstance(a, str))
        gaps = [abs(a - b) for a, b in pairs if isinstance(a, float) and isinstance(b, float)]
        lines.append(f"| {name} | {len(mine)} | {labels} | {differing} | {max(gaps, default=0.0):.1e} | "
                     f"{sum(r['fast']['seconds'] for r in mine):.0f} | "
                     f"{sum(r['slow']['seconds'] for r in mine):.0f} |")
    return lines


def main() -> int:
    """Judge what is missing, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-set", type=int, default=10, help="items of each set")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data")
    parser.add_argument("--smollm2", action="store_true",
                        help="judge with the packaged 135M test model instead (a smoke run, seconds)")
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "same-labels.jsonl",
                        help="every item judged, one line each (a rerun judges only what is missing)")
    args = parser.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    if unknown := set(sets) - set(SETS):
        parser.error(f"unknown sets {sorted(unknown)}: choose from {', '.join(SETS)}")
    rows = list(done_items(args.out))
    seen = {(r["set"], r["id"]) for r in rows}
    path, name = (smollm2_path(), SMOLLM2) if args.smollm2 else (ensure_model_file(QWEN_1_5B), LOCAL_DEFAULT)
    with tempfile.TemporaryDirectory() as scratch:
        fast = LocalChatModel(path, name=name, prefix_dir=Path(scratch) / "prefixes")
        slow = LocalChatModel(path, name=name, speedups=False)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        for name in sets:
            for item in items(name, args.per_set, args.data, Path(scratch)):
                if (name, item.id) in seen:
                    continue
                row = {"set": name, "id": item.id, "fast": judged(item, fast), "slow": judged(item, slow)}
                print(f"  {name} {item.id}: {row['fast']['labels']} / {row['slow']['labels']}",
                      file=sys.stderr)
                rows.append(row)
                with args.out.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(row) + "\n")
    print("\n".join(table([r for r in rows if r["set"] in sets], sets)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
