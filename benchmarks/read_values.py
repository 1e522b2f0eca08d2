"""Read the value, then compare: today's judge against the same judge reading each item's values.

    python benchmarks/read_values.py --part world     # FELM wk, the swap set, FacTool-QA, Mu-SHROOM
    python benchmarks/read_values.py --part true      # TRUE dev sets with a context (supported)

Every figure comes from ``factjudge bench`` (the checker every entry point runs, resumable, its
model calls cached) with the grid key ``values``: 0 is today's judge (one Yes/No question an
item), N reads up to N values of each item (names, places, dates, numbers) from its passages and
makes the item false when a value is contradicted (``judges/decision.py``).

``world`` runs the embedded judge's default without a context (``evidence`` over the packaged
Wikipedia, the answer's topic deciding what is read) on the first answers of FELM's world-knowledge
domain, the same answers over FELM's own reference texts, the value-swap sets (en/es/fr; a value
from another article, benchmarks/data/value_swaps.jsonl, or one the same lead states elsewhere,
value_swaps_in_lead.jsonl), FacTool-QA's claims and Mu-SHROOM val en/es/fr:
segment balanced accuracy (unverified counts as not flagged), the share left unverified, Mu-SHROOM
span IoU, and model calls and seconds per segment. ``true`` runs ``supported`` on the TRUE dev sets
(BEGIN, Q² memnet, FaithDial's audit): ROC AUC with intervals and paired p-values, the labels given
and at the short-grounding threshold, calls and seconds per pair.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pandas as pd
from local_judge import _labels_and_cost, _labels_given, bench, show
from wiki_evidence import felm_slice

from factjudge.eval.summary import metric_rows, roc_auc_intervals, span_rows

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SWAPS = ROOT / "benchmarks" / "data" / "value_swaps.jsonl"
SWAPS_IN_LEAD = ROOT / "benchmarks" / "data" / "value_swaps_in_lead.jsonl"
WIKI = ["strategy=evidence", "use_refs=false", "evidence=wiki", "wiki=packaged"]


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def swap_rows(per_language: int, path: Path = SWAPS, name: str = "swap") -> list[dict[str, Any]]:
    """The first ``per_language`` items (pairs kept whole) of each language of a swap set, one segment
    each."""
    rows = _jsonl(path)
    kept = [r for lang in ("en", "es", "fr") for r in [r for r in rows if r["lang"] == lang][:per_language]]
    return [{"id": r["id"], "dataset": f"{name}-{r['lang']}", "language": r["lang"],
             "question": r["question"], "answer": r["item"], "segments": [r["item"]],
             "segment_labels": [r["label"]]} for r in kept]


def factool_rows(limit: int) -> list[dict[str, Any]]:
    """FacTool-QA's first answers, its own claims as the segments judged (its labels are on them)."""
    return [{"id": f"factool-qa-{i}", "dataset": "factool-qa", "question": r["prompt"],
             "answer": r["response"], "segments": r["claims"], "segment_labels": r["claim_labels"]}
            for i, r in enumerate(_jsonl(DATA / "factool_qa.jsonl")[:limit])]


def _setups(lines: list[dict[str, Any]], run_dir: Path) -> list[dict[str, Any]]:
    """Lines with their set-up named by the values read (today: 0), as the run's manifest records it."""
    configs = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))["setups"]
    for line in lines:
        values = configs[line["setup"]]["values"]
        line["setup"] = "today (values=0)" if values == 0 else f"read {values} values"
    return lines


def _cost_and_open(lines: list[dict[str, Any]], group: str) -> pd.DataFrame:
    """Per set-up and group: segments, the share left unverified, calls and seconds per segment."""
    rows = []
    for line in lines:
        verdicts = line["result"]["segment_verdicts"]
        usage = line["result"]["usage"]
        rows.append({"setup": line["setup"], group: line[group], "segments": len(verdicts),
                     "unverified": sum(v["label"] == "unverified" for v in verdicts),
                     "calls": usage["calls"] + usage["cached_calls"], "seconds": line.get("seconds") or 0.0})
    table = pd.DataFrame(rows).groupby(["setup", group], sort=False).sum()
    table["unverified %"] = (100 * table.pop("unverified") / table["segments"]).round(1)
    table["calls / segment"] = (table.pop("calls") / table["segments"]).round(2)
    table["s / segment"] = (table.pop("seconds") / table["segments"]).round(1)
    return table.reset_index()


def world_part(args: argparse.Namespace) -> None:
    """The world-knowledge dev sets, with and without reading values (the embedded default: evidence)."""
    grid = [f"values=0,{args.values}"]
    runs = args.runs

    def run(name: str, data: Path, settings: list[str], *extra: str) -> list[dict[str, Any]]:
        return _setups(bench(runs / name, data, [*settings, *grid], args.model, *extra), runs / name)

    felm = _write(runs / "felm_wk.jsonl", felm_slice({"wk": args.felm}))
    lines = [{**ln, "dataset": "felm-wk (Wikipedia)"} for ln in run("felm-wiki", felm, WIKI)]
    lines += [{**ln, "dataset": "felm-wk (its references)"}
              for ln in run("felm-refs", felm, ["strategy=evidence", "use_refs=true", "wiki=none"])]
    lines += run("swaps", _write(runs / "swaps.jsonl", swap_rows(args.swaps)), WIKI)
    in_lead = swap_rows(args.swaps, SWAPS_IN_LEAD, "in-lead")
    lines += run("swaps-in-lead", _write(runs / "swaps_in_lead.jsonl", in_lead), WIKI)
    lines += run("factool", _write(runs / "factool.jsonl", factool_rows(args.factool)), WIKI)
    mushroom = []
    for language in ("en", "es", "fr"):
        mushroom += run(f"mushroom-{language}", DATA / "mushroom_val", WIKI, "--language", language,
                        "--limit", str(args.mushroom))
    table = metric_rows(lines, group="dataset")
    show("Segment balanced accuracy (false segments the positive class; unverified counts as not flagged)",
         table[table["dataset"] != "overall"].pivot(index="setup", columns="dataset", values="segment_ba")
         .reset_index())
    show("Mu-SHROOM val span IoU (a false item's error span: its contradicted values, else its whole text)",
         span_rows(mushroom).pivot(index="setup", columns="language", values="span_iou").reset_index())
    for line in mushroom:
        line["dataset"] = f"mushroom-{line['example']['language']}" if "example" in line else "mushroom"
    show("Segments, left unverified, model calls and seconds per segment",
         _cost_and_open(lines + mushroom, "dataset"))


def q2_rows(per_label: int) -> list[dict[str, Any]]:
    """Q² memnet's first ``per_label`` consistent and first ``per_label`` inconsistent pairs, interleaved
    (its files list each label apart, so a plain limit would take one label only)."""
    import csv

    halves = []
    for name, label in (("consistent", True), ("inconsistent", False)):
        with (DATA / f"q2_memnet_{name}.csv").open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))[:per_label]
        halves.append([{"id": f"q2-{name}-{i}", "dataset": "q2-memnet", "question": "",
                        "answer": r["response"], "grounding": r["knowledge"], "response_label": label}
                       for i, r in enumerate(rows)])
    return [row for pair in zip(*halves, strict=True) for row in pair]


def true_part(args: argparse.Namespace) -> None:
    """`supported` on the TRUE dev sets with a context, with and without reading values."""
    lines: list[dict[str, Any]] = []
    sets = {"begin": args.data / "begin_dev_wow.tsv",
            "q2": _write(args.runs / "q2_mixed.jsonl", q2_rows(args.true_limit // 2)),
            "faithdial": args.bench_data / "faithdial_audit_dev.jsonl"}
    for name, path in sets.items():
        run_dir = args.runs / f"true-{name}"
        found = bench(run_dir, path, ["strategy=supported", f"values=0,{args.values}"], args.model,
                      "--limit", str(args.true_limit))
        lines += _setups(found, run_dir)
    show(f"TRUE dev sets, first {args.true_limit} pairs each: ROC AUC for detecting the inconsistent ones",
         roc_auc_intervals(lines, n=1000))
    for dataset in dict.fromkeys(ln["dataset"] for ln in lines):
        for setup in dict.fromkeys(ln["setup"] for ln in lines):
            mine = [ln for ln in lines if ln["dataset"] == dataset and ln["setup"] == setup]
            print(f"{dataset}, {setup}: {_labels_given(mine)}; {_labels_and_cost(mine, setup)}")


PARTS = {"world": world_part, "true": true_part}


def main() -> None:
    """Parse the options and run the parts asked for."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=PARTS, required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--values", type=int, default=2, help="values read per item by the new judge")
    parser.add_argument("--felm", type=int, default=30, help="FELM world-knowledge answers")
    parser.add_argument("--swaps", type=int, default=60, help="swap-set items per language (whole pairs)")
    parser.add_argument("--factool", type=int, default=12, help="FacTool-QA answers")
    parser.add_argument("--mushroom", type=int, default=12, help="Mu-SHROOM val answers per language")
    parser.add_argument("--true-limit", type=int, default=100, help="pairs per TRUE dev set")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--bench-data", type=Path, default=ROOT / "benchmarks" / "data")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "read-values")
    args = parser.parse_args()
    PARTS[args.part](args)


if __name__ == "__main__":
    main()
