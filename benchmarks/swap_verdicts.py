"""Swaps caught, true sentences passed and true sentences judged false: the default before and after a change.

    python benchmarks/swap_verdicts.py --pairs 8 --felm 8 --before 10f1253

The embedded judge's default (``evidence`` over the packaged Wikipedia, no context) through
``factjudge bench`` on the first ``--pairs`` pairs a language (en, es, fr) of the in-lead swap set
(``value_swaps_in_lead.jsonl``: a value swapped for one the same lead states elsewhere) and of the
swap set (``value_swaps.jsonl``: a value from another article), and on the first ``--felm`` answers
of FELM's world-knowledge domain; with the code of git revision ``--before`` (a temporary worktree)
and with this checkout. Per set, language and code: false segments caught (judged false), true ones
passed (judged true), true ones judged false, segments left unverified, and model calls (not cache
reads) and seconds per segment. Runs resume and share the call cache, so a second run reads it.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

from linking import _bench
from read_values import SWAPS, SWAPS_IN_LEAD, WIKI, _write, swap_rows
from wiki_evidence import felm_slice

ROOT = Path(__file__).resolve().parents[1]


def sets(pairs: int, felm: int, runs: Path) -> dict[str, Path]:
    """The data files judged, by set name."""
    return {"in-lead swaps": _write(runs / "in_lead.jsonl", swap_rows(2 * pairs, SWAPS_IN_LEAD, "in-lead")),
            "swaps": _write(runs / "swaps.jsonl", swap_rows(2 * pairs, SWAPS, "swap")),
            "felm wk": _write(runs / "felm_wk.jsonl", felm_slice({"wk": felm}))}


def counts(lines: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per language (FELM: ``en``): segments caught, passed, true judged false, unverified, calls, seconds."""
    table: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for line in lines:
        row = table[line.get("language") or "en"]
        verdicts = line["result"]["segment_verdicts"]
        for gold, verdict in zip(line["gold"]["segment_labels"], verdicts, strict=True):
            label = verdict["label"]
            row["false"] += not gold
            row["true"] += bool(gold)
            row["caught"] += not gold and label == "false"
            row["passed"] += bool(gold) and label == "true"
            row["true judged false"] += bool(gold) and label == "false"
            row["unverified"] += label == "unverified"
        row["calls"] += line["result"]["usage"]["calls"]
        row["seconds"] += line.get("seconds") or 0.0
    return table


def main() -> None:
    """Judge the sets with --before's code and this checkout's; print one table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=8, help="swap pairs a language, per swap set")
    parser.add_argument("--felm", type=int, default=8, help="FELM world-knowledge answers")
    parser.add_argument("--before", default="10f1253",
                        help="git revision judged beside this checkout ('': this checkout only)")
    parser.add_argument("--model", default="local")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "swap-verdicts")
    args = parser.parse_args()
    print("| set | lang | code | false | caught | true | passed | true judged false | unverified "
          "| calls/segment | s/segment |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, data in sets(args.pairs, args.felm, args.runs).items():
        codes = [("before", args.before)] if args.before else []
        for code, revision in [*codes, ("after", None)]:
            run_dir = args.runs / f"{code}-{name.replace(' ', '-')}"
            for lang, row in sorted(counts(_bench(run_dir, data, WIKI, args.model, revision)).items()):
                segments = row["true"] + row["false"]
                print(f"| {name} | {lang} | {code} | {row['false']:.0f} | {row['caught']:.0f} "
                      f"| {row['true']:.0f} "
                      f"| {row['passed']:.0f} | {row['true judged false']:.0f} | {row['unverified']:.0f} "
                      f"| {row['calls'] / segments:.2f} | {row['seconds'] / segments:.0f} |")


if __name__ == "__main__":
    main()
