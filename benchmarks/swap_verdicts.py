"""Swaps caught, true sentences passed and true sentences judged false: the default before and after a change.

    python benchmarks/swap_verdicts.py --pairs 8 --felm 8 --before 10f1253
    python benchmarks/swap_verdicts.py --words      # no model: what the passages' own words settle

The embedded judge's default (``evidence`` over the packaged Wikipedia, no context) through
``factjudge bench`` on the first ``--pairs`` pairs a language (en, es, fr) of the in-lead swap set
(``value_swaps_in_lead.jsonl``: a value swapped for one the same lead states elsewhere) and of the
swap set (``value_swaps.jsonl``: a value from another article), and on the first ``--felm`` answers
of FELM's world-knowledge domain; with the code of git revision ``--before`` (a temporary worktree)
and with this checkout. Per set, language and code: false segments caught (judged false), true ones
passed (judged true), true ones judged false, segments left unverified, and model calls (cache
reads included: what a fresh run makes) and seconds per segment. Runs resume and share the call
cache, so a second run reads it.

``--words`` runs no model: over every pair of both swap sets (the lead of the pair's title) and
every FELM world-knowledge segment (the article Wikipedia reading finds for it), the items whose
values the passages' own words contradict (``read_without_a_call``: a value between the item's own
words in a lead sentence) — the part of the reading that needs no call, on whole sets.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

from linking import _bench
from read_values import SWAPS, SWAPS_IN_LEAD, WIKI, _jsonl, _write, swap_rows
from wiki_evidence import felm_slice

ROOT = Path(__file__).resolve().parents[1]


def sets(pairs: int, felm: int, runs: Path) -> dict[str, Path]:
    """The data files judged, by set name."""
    return {"in-lead swaps": _write(runs / "in_lead.jsonl", swap_rows(2 * pairs, SWAPS_IN_LEAD, "in-lead")),
            "swaps": _write(runs / "swaps.jsonl", swap_rows(2 * pairs, SWAPS, "swap")),
            "felm wk": _write(runs / "felm_wk.jsonl", felm_slice({"wk": felm}))}


def counts(lines: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per language (FELM: ``en``): segments caught, passed, true judged false, unverified, calls (cache
    reads included), seconds."""
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
        usage = line["result"]["usage"]
        row["calls"] += usage["calls"] + usage["cached_calls"]  # a cache read is a call a fresh run makes
        row["seconds"] += line.get("seconds") or 0.0
    return table


def words_part() -> None:
    """Items a value of which the passages' own words contradict, with no model: swap sets and FELM wk."""
    from factjudge.agents.read_value import read_without_a_call
    from factjudge.records import Evidence
    from factjudge.retrieval.wiki import open_wiki
    from factjudge.retrieval.wiki.topic import Subjects
    from factjudge.text.values import value_spans

    wiki = open_wiki("packaged")

    def contradicted(item: str, passages: list[Evidence], question: str, lang: str) -> bool:
        readings = (read_without_a_call(passages, item, span, lang=lang, question=question)
                    for span in value_spans(item, question=question, lang=lang))
        return any(r is not None and r.check.outcome == "contradicted" for r in readings)

    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for name, path in (("in-lead swaps", SWAPS_IN_LEAD), ("swaps", SWAPS)):
        for row in _jsonl(path):
            counted = table[(name, row["lang"])]
            article = wiki.find_article(row["title"], row["lang"])
            key = "true" if row["label"] else "false"
            counted[key] += 1
            if article is not None:
                counted[f"{key} read"] += 1
                passages = [Evidence("wikipedia", article.text, title=article.title)]
                counted[f"{key} contradicted"] += contradicted(row["item"], passages, row["question"],
                                                               row["lang"])
    for answer in felm_slice({"wk": 10_000}):
        if not isinstance(answer["response"], str):
            continue
        question = answer["prompt"] if isinstance(answer["prompt"], str) else ""
        subjects = Subjects.of(question, answer["response"])
        for segment, label in zip(answer["segmented_response"], answer["labels"], strict=True):
            counted = table[("felm wk", "en")]
            key = "true" if label else "false"
            counted[key] += 1
            reading = wiki.read(segment, 3, subjects=subjects)
            if reading.evidence:
                counted[f"{key} read"] += 1
                passages = list(reading.evidence)
                counted[f"{key} contradicted"] += contradicted(segment, passages, question, "en")
    print("| set | lang | false | false with an article | contradicted | true | true with an article "
          "| true contradicted |")
    print("|---|---|---|---|---|---|---|---|")
    for (name, lang), c in table.items():
        print(f"| {name} | {lang} | {c['false']} | {c['false read']} | {c['false contradicted']} "
              f"| {c['true']} | {c['true read']} | {c['true contradicted']} |")


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
    parser.add_argument("--words", action="store_true", help="no model: what the passages' words settle")
    args = parser.parse_args()
    if args.words:
        words_part()
        return
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
