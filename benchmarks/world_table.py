"""Issue 40's measurements table: world-knowledge reading before and after, from one command.

    python benchmarks/world_table.py --swaps 5 --true 10 --felm 20 --factool 12
    python benchmarks/world_table.py --before 16a9e94 --per-kind 40 --by-language

In one run, with the code of ``--before`` (a temporary git worktree) and with this checkout:

- **article hit@1** (no model call): ``linking.py``'s linking set (``--per-kind`` articles of each
  way of naming a subject, en/es/fr) and the gold articles of Mu-SHROOM val (en/es/fr) and FELM
  world knowledge;
- **verdicts** of the embedded judge's default without a context (``evidence`` over the packaged
  Wikipedia), through ``factjudge bench``: a newcomer's short answers
  (``benchmarks/data/newcomer_answers.jsonl``, ``--answers`` a language from number ``--answers-from`` on,
  each sentence a segment), the
  two value-swap sets (``--swaps`` true/false pairs a language), the true sentences written in other
  words than their lead (``benchmarks/data/true_reworded.jsonl``, ``--true`` a language), FELM world
  knowledge's first ``--felm`` answers and FacTool-QA's first ``--factool`` answers (its claims the
  segments): false segments caught, true ones passed, true ones judged false (what a newcomer sees
  most), those left unverified, segment balanced accuracy (false the positive class, unverified counted
  as not flagged), answers whose every segment got its gold verdict, and model calls (cached ones too)
  and seconds per segment. This checkout runs with each
  ``--silence`` reading (``unverified``, the default: passages that are only silent leave an item
  unverified; ``false``: they make it false).

Every bench writes its run under ``--runs``, in a folder named for the package's git tree (so code that
changed is measured again, never read from an older run) and resumed when it is there: an interrupted
run loses nothing, a larger limit judges only what is new, and the call cache makes a rerun free.
Seconds per segment are over the items that made every model call they needed (an item that read one
from the cache, made there by the other code or an earlier run, took cache-read time and is left out;
how many segments were timed is in brackets); a resumed item keeps the time of the run that judged it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from linking import _bench, _run_at, _table, gold_sets, linking_set
from linking import run as read_articles
from read_values import SWAPS, SWAPS_IN_LEAD, WIKI, _write, factool_rows, swap_rows
from wiki_evidence import felm_slice

from factjudge.eval import metrics
from factjudge.eval.datasets import load_dataset
from factjudge.eval.report import markdown_table
from factjudge.eval.select import select_examples
from factjudge.eval.tables.lines import as_result, gold_segment_labels

ROOT = Path(__file__).resolve().parents[1]
TRUE_REWORDED = ROOT / "benchmarks" / "data" / "true_reworded.jsonl"
NEWCOMER = ROOT / "benchmarks" / "data" / "newcomer_answers.jsonl"
EVERY = 10**9  # a set is written whole; the limits choose from it (so one run folder serves every limit)


@dataclass(frozen=True)
class VerdictSet:
    """A dataset judged for the table: how its rows are written, and the bench filter its limit is."""

    name: str
    rows: Callable[[], list[dict[str, Any]]]
    limit_flag: str  # "--per-language" or "--limit"
    per_unit: int  # examples a unit of the option is (a swap pair is two)


def newcomer_rows(first: int = 0) -> list[dict[str, Any]]:
    """The newcomer's short answers from number ``first`` of each language on (a trial's: "newcomer-en-112"),
    their sentences the segments judged."""
    rows = [json.loads(line) for line in NEWCOMER.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if int(r["id"].rsplit("-", 1)[1]) >= first]
    return [{"id": r["id"], "dataset": f"newcomer-{r['lang']}", "language": r["lang"],
             "question": r["question"], "answer": " ".join(r["segments"]), "segments": r["segments"],
             "segment_labels": r["labels"]} for r in rows]


SETS = {
    "newcomer": VerdictSet("newcomer answers", newcomer_rows, "--per-language", 1),
    "true": VerdictSet("true reworded", lambda: swap_rows(EVERY, TRUE_REWORDED, "true-reworded"),
                       "--per-language", 1),
    "swaps": VerdictSet("swaps (another article's value)", lambda: swap_rows(EVERY, SWAPS, "swap"),
                        "--per-language", 2),
    "in_lead": VerdictSet("swaps (the same lead's value)",
                          lambda: swap_rows(EVERY, SWAPS_IN_LEAD, "in-lead"), "--per-language", 2),
    "felm": VerdictSet("FELM wk", lambda: felm_slice({"wk": EVERY}), "--limit", 1),
    "factool": VerdictSet("FacTool-QA", lambda: factool_rows(EVERY), "--limit", 1),
}


def package_tree(revision: str | None) -> str:
    """A short name of the package's code at ``revision`` (None: this checkout, uncommitted changes too)."""
    def git(*argv: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *argv], check=True, capture_output=True,
                              text=True).stdout

    if revision:
        return git("rev-parse", "--short=10", f"{revision}:factjudge").strip()
    tree = git("rev-parse", "--short=10", "HEAD:factjudge").strip()
    changed = git("diff", "HEAD", "--", "factjudge")
    untracked = git("ls-files", "--others", "--exclude-standard", "--", "factjudge").split()
    if not changed and not untracked:
        return tree
    digest = hashlib.sha256(changed.encode())
    for name in untracked:
        digest.update(name.encode() + (ROOT / name).read_bytes())
    return f"{tree}+{digest.hexdigest()[:8]}"


def judged(args: argparse.Namespace, key: str, limit: int, runs: dict[str, tuple[str | None, list[str]]]
           ) -> list[dict[str, Any]]:
    """One set judged by every code of ``runs`` (name → revision, grid); its selected result lines, each
    with ``set``, ``code`` and ``silence``."""
    spec = SETS[key]
    data = _write(args.runs / "data" / f"{key}.jsonl", spec.rows())
    count = limit * spec.per_unit
    selection = [spec.limit_flag, str(count)]
    # The examples this limit takes, chosen as bench chooses them: a run folder may hold more.
    option = spec.limit_flag.lstrip("-").replace("-", "_")
    chosen = {e.id for e in select_examples(load_dataset(str(data)), str(data), **{option: count})}
    lines = []
    for code, (revision, grid) in runs.items():
        run_dir = args.runs / f"{code}-{package_tree(revision)}" / key
        print(f"[{key}] {code}: {run_dir}", file=sys.stderr, flush=True)
        configs: dict[str, dict[str, Any]] = {}
        for line in _bench(run_dir, data, grid, args.model, revision, *selection):
            if line["example_id"] not in chosen:
                continue  # judged for a larger limit before
            if not configs:
                configs = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))["setups"]
            silence = configs[line["setup"]].get("silence")
            lines.append({**line, "set": spec.name, "code": code, "silence": silence or "—"})
    return lines


def verdict_rows(lines: list[dict[str, Any]], by_language: bool) -> list[dict[str, Any]]:
    """Per set, code and silence (and language): caught, passed, true judged false, unverified, balanced
    accuracy, calls and seconds per segment."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for line in lines:
        languages = ["all", line.get("language") or "en"] if by_language else ["all"]
        for lang in dict.fromkeys(languages):
            groups.setdefault((line["set"], lang, line["code"], line["silence"]), []).append(line)
    rows = []
    for (name, lang, code, silence), group in groups.items():
        gold: list[bool] = []
        labels: list[str] = []
        right_answers = 0  # answers whose every labelled segment got its gold verdict
        calls = seconds = 0.0
        timed = 0  # segments of items that made every call they needed (none read from the cache)
        for line in group:
            result = as_result(line["result"])
            pairs = [(label, verdict.label) for label, verdict
                     in zip(gold_segment_labels(line), result.segment_verdicts, strict=False)
                     if label is not None and verdict.label != "unparseable"]
            gold += [label for label, _ in pairs]
            labels += [verdict for _, verdict in pairs]
            right_answers += all(verdict == ("true" if label else "false") for label, verdict in pairs)
            calls += result.usage.calls + result.usage.cached_calls
            if not result.usage.cached_calls:
                seconds += line.get("seconds") or 0.0
                timed += len(result.segment_verdicts)
        wrong, right = gold.count(False), gold.count(True)
        caught = sum(not g and v == "false" for g, v in zip(gold, labels, strict=True))
        passed = sum(g and v == "true" for g, v in zip(gold, labels, strict=True))
        judged_false = sum(g and v == "false" for g, v in zip(gold, labels, strict=True))
        balanced = metrics.balanced_accuracy([not g for g in gold], [v == "false" for v in labels])
        segments = max(1, len(gold))
        rows.append({
            "set": name, "lang": lang, "code": code, "silence": silence,
            "segments": len(gold),
            "answers fully right": f"{right_answers}/{len(group)}",
            "caught": f"{caught}/{wrong}" if wrong else "—",
            "passed": f"{passed}/{right}" if right else "—",
            "true judged false": f"{judged_false}/{right}" if right else "—",
            "unverified": f"{labels.count('unverified')}/{len(gold)}",
            "segment BA": f"{100 * balanced:.1f}" if wrong and right and balanced is not None else "—",
            "calls/seg": f"{calls / segments:.2f}",
            "s/seg (segments timed)": f"{seconds / timed:.1f} ({timed})" if timed else "— (0)",
        })
    return rows


def main() -> None:
    """Hit@1 before and after, then every set judged before and after; the tables as markdown."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="16a9e94",
                        help="git revision measured beside this checkout ('': none)")
    parser.add_argument("--per-kind", type=int, default=40, help="linking-set articles a kind a language")
    parser.add_argument("--swaps", type=int, default=5, help="pairs a language of each swap set (0: none)")
    parser.add_argument("--true", type=int, default=10, help="reworded true sentences a language (0: none)")
    parser.add_argument("--answers", type=int, default=8, help="newcomer answers a language (0: none)")
    parser.add_argument("--answers-from", type=int, default=0,
                        help="the newcomer answers numbered from this on (the latest trials: 104)")
    parser.add_argument("--felm", type=int, default=20, help="FELM world-knowledge answers (0: none)")
    parser.add_argument("--factool", type=int, default=12, help="FacTool-QA answers (0: none)")
    parser.add_argument("--silence", default="unverified,false",
                        help="this checkout's silence readings ('' : its default only)")
    parser.add_argument("--by-language", action="store_true", help="verdict rows per language too")
    parser.add_argument("--model", default="local")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "world-table")
    args = parser.parse_args()

    cases = linking_set(args.per_kind) + gold_sets()
    print("### Article hit@1 (no model call)\n")
    hits = {"after": read_articles(cases)}
    _table({"before": _run_at(args.before, cases), **hits} if args.before else hits, kinds=False)

    after = [*WIKI, f"silence={args.silence}"] if args.silence else WIKI
    runs: dict[str, tuple[str | None, list[str]]] = {"after": (None, after)}
    if args.before:
        runs = {"before": (args.before, WIKI), **runs}
    newcomer = "newcomer"
    if args.answers_from:
        # Another selection is another data file, and so another run folder.
        newcomer = f"newcomer-from-{args.answers_from}"
        SETS[newcomer] = VerdictSet(f"newcomer answers from {args.answers_from}",
                                    lambda: newcomer_rows(args.answers_from), "--per-language", 1)
    limits = {newcomer: args.answers, "true": args.true, "in_lead": args.swaps, "swaps": args.swaps,
              "felm": args.felm, "factool": args.factool}
    lines = [line for key, limit in limits.items() if limit for line in judged(args, key, limit, runs)]
    before = f"before: {args.before}; " if args.before else ""
    print(f"\n### Verdicts ({before}after: this checkout, whose default is silence=unverified)\n")
    print(markdown_table(pd.DataFrame(verdict_rows(lines, args.by_language))))


if __name__ == "__main__":
    main()
