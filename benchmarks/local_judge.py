"""The embedded model measured on the shared dev data: the figures of the README's
"Measured with the embedded model" section, and the command that reproduces them.

    python benchmarks/local_judge.py                      # every part, the README's slices
    python benchmarks/local_judge.py --parts true --true-limit 50

Each part runs ``factjudge bench`` into its own run directory (resumable: a rerun or an
interrupted run pays only for what is missing, and the call cache makes repeated calls
free), then prints tables computed by the same code as ``factjudge report``:
- TRUE (BEGIN dev, Q² memnet, and the FaithDial audit of benchmarks/data/): ROC AUC with a
  bootstrap interval per strategy, the model-free scorers beside them, and the balanced
  accuracy of each judge's own labels; for the calibrated `supported` judge, the threshold
  tuned on the pooled dev sets (the registry's was tuned on BEGIN+Q²) and each set's balanced
  accuracy with the threshold tuned on the other sets only.
- FELM: segment- and response-level balanced accuracy per domain, all four strategies at
  both granularities, plus the embedded model's default (`fact`).
- Mu-SHROOM: span IoU per language against marking every character.
- The grounded judge's set-ups, each against today's `supported` on the same pairs with bootstrap
  intervals and paired p-values: `decompose` (the text whole or per sentence), `long` (BEGIN
  groundings padded with off-topic passages, read whole, in windows or in focus, after tuning how far
  the threshold rises with what the judge read; FaithDial padded as a check), `combine` (`supported`
  averaged with a model-free scorer), `claims` (claims against sentences); `cases`, plain RAG cases.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.report import markdown_table
from factjudge.eval.summary import felm_table, metric_rows, roc_auc_intervals, span_rows
from factjudge.judges.strategies import SUPPORTED_BAND, SUPPORTED_THRESHOLD
from factjudge.records import Evidence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
BENCH_DATA = ROOT / "benchmarks" / "data"  # dev sets converted by this repository (see its README)
SCORERS = ("token_f1", "bm25", "embedding")
# The list judge (slower, and at chance) runs on a slice; Q²'s file lists its 150 consistent
# pairs first, so its slice reaches 50 inconsistent ones.
# The FaithDial file is in hashed order, so its first 100 mix systems and labels.
LIST_SLICES = {"begin": 100, "q2": 200, "faithdial": 100}
# Each TRUE set's short name -> the dataset name its examples carry.
TRUE_DATASETS = {"begin": "begin-wow", "q2": "q2-memnet", "faithdial": "faithdial-audit"}


def bench(run_dir: Path, dataset: Path, grid: list[str], model: str, *extra: str) -> list[dict[str, Any]]:
    """Run (or resume) one bench and return its result lines."""
    # A figure is about verdicts, not speed: a loaded machine must not cut a check short (the embedded
    # model honours a check's deadline, 120 s by default).
    deadline = [] if "--deadline" in extra else ["--deadline", "3600"]
    command = [sys.executable, "-m", "factjudge.cli", "bench", str(dataset), "--grid", *grid,
               "--model", model, "--concurrency", "1", "--no-progress", "--run-dir", str(run_dir), *deadline,
               *extra]
    if (run_dir / "manifest.json").exists():
        command.append("--resume")
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, text=True, capture_output=True)
    if done.returncode != 0:
        sys.exit(f"bench failed ({' '.join(command)}):\n{done.stderr}")
    print(f"[{run_dir.name}] {done.stdout.strip()} ({time.perf_counter() - started:.0f} s)", flush=True)
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def show(title: str, table: pd.DataFrame) -> None:
    """Print a table as markdown under a title."""
    print(f"\n### {title}\n")
    print(markdown_table(table))


def _scored(lines: list[dict[str, Any]], setup: str) -> tuple[list[bool], list[float]]:
    pairs = [(ln["gold"]["response_label"], ln["result"]["error_score"]) for ln in lines
             if ln["setup"] == setup and ln["result"]["error_score"] is not None
             and ln["gold"]["response_label"] is not None]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _labels_at_default(labels: list[bool], scores: list[float]) -> str:
    """Balanced accuracy of the labels at today's threshold (TRUE's labels: True = consistent)."""
    flagged = [s >= SUPPORTED_THRESHOLD for s in scores]
    at_default = metrics.balanced_accuracy([not v for v in labels], flagged)
    return f"labels at {SUPPORTED_THRESHOLD}: {100 * (at_default or 0):.1f}"


def _labels_given(mine: list[dict[str, Any]]) -> str:
    """Balanced accuracy of the labels the tool gave (TRUE's labels: True = consistent)."""
    judged = [(ln["gold"]["response_label"], ln["result"]["label"]) for ln in mine
              if ln["gold"]["response_label"] is not None]
    given = metrics.balanced_accuracy([not gold for gold, _ in judged],
                                      [label != "true" for _, label in judged])
    return f"labels given: {100 * (given or 0):.1f}"


def _labels_and_cost(mine: list[dict[str, Any]], setup: str) -> str:
    """Balanced accuracy of a set-up's labels at today's threshold, and its calls and seconds per pair."""
    return f"{_labels_at_default(*_scored(mine, setup))}; {_cost(mine)}"


def _cost(mine: list[dict[str, Any]]) -> str:
    """Model calls and seconds per pair (a cached call is counted, and free)."""
    seconds = [ln["seconds"] for ln in mine if ln.get("seconds") is not None]
    calls = [ln["result"]["usage"]["calls"] + ln["result"]["usage"]["cached_calls"] for ln in mine]
    return (f"{sum(calls) / max(len(calls), 1):.2f} model calls and "
            f"{sum(seconds) / max(len(seconds), 1):.2f} s per pair (cached calls are free)")


def true_sets(args: argparse.Namespace) -> dict[str, tuple[Path, list[str]]]:
    """The TRUE-style dev sets, each with the bench flags that pick its slice."""
    return {"begin": (args.data / "begin_dev_wow.tsv", ["--limit", str(args.true_limit)]),
            "q2": (args.data / "q2_memnet", [] if args.q2_all else ["--limit", str(args.true_limit)]),
            "faithdial": (args.bench_data / "faithdial_audit_dev.jsonl",
                          ["--limit", str(args.extra_limit)] if args.extra_limit else [])}


def chosen_sets(args: argparse.Namespace) -> dict[str, tuple[Path, list[str]]]:
    """The TRUE sets --decompose-sets names."""
    names = args.decompose_sets.split(",")
    return {name: value for name, value in true_sets(args).items() if name in names}


def per_sentence_run(args: argparse.Namespace, name: str, path: Path, limit: list[str],
                     ) -> list[dict[str, Any]]:
    """`supported` on one TRUE set judged whole and per sentence (the run every grounded part compares to)."""
    return bench(args.runs / f"per-sentence-{name}", path, ["strategy=supported", "per_sentence=false,true"],
                 args.model, *limit)


def per_sentence_lines(args: argparse.Namespace, name: str, path: Path, limit: list[str],
                       ) -> list[dict[str, Any]]:
    """The per-sentence half of ``per_sentence_run``: today's `supported`."""
    return [ln for ln in per_sentence_run(args, name, path, limit) if "per_sentence=True" in ln["setup"]]


def true_part(args: argparse.Namespace) -> None:
    """ROC AUC and label accuracy on BEGIN dev, Q² memnet and the FaithDial audit."""
    sets = true_sets(args)
    lines: list[dict[str, Any]] = []
    list_lines: list[dict[str, Any]] = []
    for name, (path, limit) in sets.items():
        lines += bench(args.runs / name, path, [f"strategy={','.join(('supported', *SCORERS))}"],
                       args.model, *limit)
        if args.list_judge:
            list_lines += bench(args.runs / f"{name}-list", path, ["strategy=grounded"], args.model,
                                "--limit", str(LIST_SLICES[name]))
    rows = metric_rows(lines + list_lines, group="dataset")
    rows = rows[rows["dataset"] != "overall"]
    # The ensemble row averages the judges run on the same pairs: the list judge ran on fewer.
    aucs = pd.concat([roc_auc_intervals(part, n=1000) for part in (lines, list_lines) if part])
    table = aucs.merge(rows[["setup", "dataset", "response_ba", "unparseable"]], on=["setup", "dataset"],
                       how="left").rename(columns={"response_ba": "label_ba"})
    show("TRUE: ROC AUC for detecting inconsistent pairs, balanced accuracy of the labels", table)

    setup = next(ln["setup"] for ln in lines if ln["result"]["strategy"] == "supported")
    per_set = {name: _scored([ln for ln in lines if ln["dataset"] == TRUE_DATASETS[name]], setup)
               for name in sets}
    for line in threshold_lines(per_set):
        print(line)


def threshold_lines(per_set: dict[str, tuple[list[bool], list[float]]]) -> list[str]:
    """The `supported` threshold tuned on the pooled sets, and each set judged at the others' threshold."""
    pooled = _pool(per_set.values())
    if not pooled[0]:
        return []
    lines = [f"\nsupported: P(No) threshold tuned on {'+'.join(per_set)} by sqrt(TPR·(1−FPR)): "
             f"{metrics.tune_threshold(*pooled):.3f} (the registry holds {SUPPORTED_THRESHOLD})"]
    for name, (labels, scores) in per_set.items():
        others = [other for other in per_set if other != name]
        rest = _pool(per_set[other] for other in others)
        if labels and rest[0]:
            th = metrics.tune_threshold(*rest)
            crossed = metrics.balanced_accuracy([not v for v in labels], [s >= th for s in scores]) or 0.0
            lines.append(f"  {name}: balanced accuracy {100 * crossed:.1f} at the threshold tuned on "
                         f"{'+'.join(others)} alone ({th:.3f}), instead of the pooled one")
    return lines


def _pool(parts: Iterable[tuple[list[bool], list[float]]]) -> tuple[list[bool], list[float]]:
    """Labels and scores of several sets, concatenated."""
    labels: list[bool] = []
    scores: list[float] = []
    for part_labels, part_scores in parts:
        labels += part_labels
        scores += part_scores
    return labels, scores


def felm_part(args: argparse.Namespace) -> None:
    """FELM's table on a per-domain slice."""
    lines = bench(args.runs / "felm-slice", args.data / "felm_all.jsonl",
                  ["granularity=segment,claim", "strategy=vanilla,cot,link,doc,fact"], args.model,
                  "--per-domain", str(args.per_domain))
    rows = metric_rows(lines, group="domain")
    show(f"FELM segment-level balanced accuracy ({args.per_domain} answers per domain)",
         felm_table(rows, "segment_ba"))
    show("FELM response-level balanced accuracy", felm_table(rows, "response_ba"))
    show("unparseable items", felm_table(rows, "unparseable"))


def mushroom_part(args: argparse.Namespace) -> None:
    """Error spans against Mu-SHROOM's annotators."""
    lines = bench(args.runs / "mushroom", args.data / "mushroom_val", ["strategy=vanilla,fact"], args.model,
                  "--per-language", str(args.per_language))
    spans = span_rows(lines)
    show(f"Mu-SHROOM span IoU ({args.per_language} answers per language)",
         spans.pivot(index="setup", columns="language", values="span_iou"))


def decompose_part(args: argparse.Namespace) -> None:
    """`supported` on TRUE pairs judged whole (``per_sentence=False``, TRUE's protocol) against judged
    sentence by sentence (``per_sentence=True``, the strictest sentence decides): ROC AUC, labels at
    today's threshold and at thresholds tuned on the other sets, slices by the response's sentence
    count and the grounding's length, and the cost per pair."""
    from factjudge.eval.datasets import load_dataset
    from factjudge.text.segmenter import segment

    sets = chosen_sets(args)
    lines: list[dict[str, Any]] = []
    for name, (path, limit) in sets.items():
        lines += per_sentence_run(args, name, path, limit)
    show("TRUE: whole response against its strictest sentence (ROC AUC, interval, p against the best)",
         roc_auc_intervals(lines, n=1000))
    examples = {(e.dataset, e.id): e for path, _ in sets.values() for e in load_dataset(path)}
    for setup in sorted({ln["setup"] for ln in lines}):
        mine = [ln for ln in lines if ln["setup"] == setup]
        print(f"\n{setup}")
        per_set = {name: _scored([ln for ln in mine if ln["dataset"] == TRUE_DATASETS[name]], setup)
                   for name in sets}
        for name, (labels, scores) in per_set.items():
            print(f"  {name}: {_labels_at_default(labels, scores)}")
        for line in threshold_lines(per_set):
            print(line)
        slices: dict[str, tuple[list[bool], list[float]]] = {}
        for ln in mine:
            example = examples.get((ln["dataset"], ln["example_id"]))
            if example is None or ln["result"]["error_score"] is None:
                continue
            sentences = "one sentence" if len(segment(example.answer)) == 1 else "several sentences"
            words = len(example.grounding.split())
            length = "grounding < 20 words" if words < 20 else "20–29 words" if words < 30 else "30+ words"
            for key in (f"{ln['dataset']}, {sentences}", f"{ln['dataset']}, {length}"):
                labels, scores = slices.setdefault(key, ([], []))
                labels.append(ln["gold"]["response_label"])  # TRUE: True = consistent
                scores.append(ln["result"]["error_score"])
        for key, (labels, scores) in sorted(slices.items()):
            auc = metrics.roc_auc(labels, scores)
            low, high = metrics.bootstrap_ci(metrics.roc_auc, labels, scores)
            shown = "n/a" if auc is None else (f"{100 * auc:.1f} "
                                               f"({100 * (low or 0):.1f}–{100 * (high or 0):.1f})")
            print(f"  ROC AUC, {key}: {shown}, n={len(labels)}")
        print(f"  cost: {_cost(mine)}")


def padded(source: Path, out: Path, pairs: range, words: int) -> Path:
    """A TRUE set's ``pairs``, each grounding set at a random place among other dialogues' groundings
    (the set's pairs past ``pairs``) until it is ``words`` long: a RAG context of several passages of
    which one bears on the response. Labels hold, as the added passages are off topic."""
    from factjudge.eval.datasets import load_dataset

    examples = load_dataset(source)
    pool = list(dict.fromkeys(e.grounding for e in examples[pairs.stop:]))
    with out.open("w", encoding="utf-8") as handle:
        for n in pairs:
            example, rng = examples[n], random.Random(n)
            passages = [example.grounding]
            while sum(len(p.split()) for p in passages) < words:
                passages.append(rng.choice([p for p in pool if p not in passages]))
            own = passages.pop(0)
            passages.insert(rng.randrange(len(passages) + 1), own)
            row = {"id": example.id, "question": example.question, "answer": example.answer,
                   "grounding": "\n\n".join(passages), "response_label": example.response_label,
                   "domain": example.domain, "dataset": f"{example.dataset}-padded"}
            handle.write(json.dumps(row) + "\n")
    return out


def padded_runs(args: argparse.Namespace, prefix: str, source: Path, pairs: range, lengths: str,
                whole: int) -> list[dict[str, Any]]:
    """`supported` on ``pairs`` of a TRUE set padded to each of ``lengths`` (comma-separated words), read
    whole (up to ``whole`` words), in windows and in focus: one run each under ``prefix``-WORDS, each line
    named by its length and reading."""
    window = f"chunk_tokens={args.long_chunk}"
    readings = {"read whole": ["strategy=supported", "chunk_tokens=none"],
                "in windows": ["strategy=supported", window],
                "in focus": ["strategy=supported", window, "focus=true"]}
    lines: list[dict[str, Any]] = []
    for words in map(int, lengths.split(",")):
        run = args.runs / f"{prefix}-{words}"
        run.mkdir(parents=True, exist_ok=True)
        padded_set = padded(source, run / "padded.jsonl", pairs, words)
        for reading, grid in readings.items():
            if reading == "read whole" and words > whole:
                continue
            found = bench(run / reading.replace(" ", "-"), padded_set, grid, args.model)
            lines += [{**ln, "setup": f"{words} words, {reading}"} for ln in found]
    return lines


def long_tune(args: argparse.Namespace) -> None:
    """The rise of `supported`'s threshold for long reads, tuned as the threshold itself was (TRUE's
    sqrt(TPR·(1−FPR)), the lower on a tie) on BEGIN pairs past the ones --parts long reports
    (--long-tune of them), padded to --long-tune-words and read in windows and in focus, each read
    labelled at the band its own length gives."""
    pairs = range(args.long_limit, args.long_limit + args.long_tune)
    lines = padded_runs(args, "long-tune", args.data / "begin_dev_wow.tsv", pairs, args.long_tune_words, 0)
    # A contradicted value makes a read false whatever its doubt.
    reads = [(ln["gold"]["response_label"], verdict["grounds"]["rule"] == "values", verdict["error_score"],
              [Evidence.from_dict(ev) for ev in verdict["evidence"]])
             for ln in lines for verdict in ln["result"]["segment_verdicts"][:1]
             if verdict["error_score"] is not None]

    def fit(rise: float) -> float:
        band = dataclasses.replace(SUPPORTED_BAND, rise=rise)
        flagged = [by_value or band.reading(evidence).label(score) == "false"
                   for _, by_value, score, evidence in reads]
        golds = [read[0] for read in reads]
        tpr = sum(f for f, gold in zip(flagged, golds, strict=True) if not gold) / golds.count(False)
        fpr = sum(f for f, gold in zip(flagged, golds, strict=True) if gold) / golds.count(True)
        return (tpr * (1 - fpr)) ** 0.5

    rises = [r / 100 for r in range(31)]
    best = max(rises, key=lambda r: (fit(r), -r))
    print(f"\nsupported on BEGIN pairs {pairs.start}–{pairs.stop - 1} padded to {args.long_tune_words} "
          f"words, {len(reads)} reads: the threshold's rise over the ramp {SUPPORTED_BAND.ramp} tokens "
          f"tuned by sqrt(TPR·(1−FPR)): {best:.2f} (at it {fit(best):.3f}, without it {fit(0.0):.3f}; "
          f"the registry holds {SUPPORTED_BAND.rise})")


def long_part(args: argparse.Namespace) -> None:
    """`supported` on BEGIN pairs whose grounding is padded with off-topic passages to each of
    --long-words: read whole (up to --long-whole words), in windows (today's default: the best-supporting
    of the three windows sharing most words with each sentence) and in focus (one window of the
    sentences bearing on it), beside the same pairs with their own grounding (the per-sentence run of
    --parts decompose): ROC AUC, the labels the tool gave (its threshold rises with what it read) and
    at the short-grounding threshold, how far each pair's score drifts from its own-grounding score,
    and calls and seconds per pair. The threshold's rise is tuned first (``long_tune``); FaithDial's
    first --long-limit pairs at --long-check-words check it on another set."""
    long_tune(args)
    sets = true_sets(args)
    padded_report(args, "begin", sets["begin"][0], args.long_words, args.long_whole)
    if args.long_check_words:  # not read whole: FaithDial's responses run to several sentences
        padded_report(args, "faithdial", sets["faithdial"][0], args.long_check_words, 0)


def padded_report(args: argparse.Namespace, name: str, source: Path, lengths: str, whole: int) -> None:
    """The table of ``long_part`` for one TRUE set padded to each of ``lengths`` (comma-separated words),
    read whole up to ``whole`` words, beside the same --long-limit pairs with their own grounding."""
    lines = [{**ln, "dataset": name}
             for ln in padded_runs(args, f"long-{name}", source, range(args.long_limit), lengths, whole)]
    ids = {ln["example_id"] for ln in lines}
    short = [{**ln, "setup": "own grounding", "dataset": name}
             for ln in per_sentence_lines(args, name, source, ["--limit", str(args.long_limit)])
             if ln["example_id"] in ids]
    show(f"{name}, first {len(ids)} pairs, padded with other dialogues' groundings", roc_auc_intervals(
        short + lines, n=1000))
    base = {ln["example_id"]: ln["result"]["error_score"] for ln in short}
    print(f"own grounding: {_labels_given(short)}; {_labels_and_cost(short, 'own grounding')}")
    for setup in dict.fromkeys(ln["setup"] for ln in lines):
        mine = [ln for ln in lines if ln["setup"] == setup]
        drift = [abs(ln["result"]["error_score"] - base[ln["example_id"]]) for ln in mine
                 if ln["result"]["error_score"] is not None and base.get(ln["example_id"]) is not None]
        print(f"{setup}: mean |score − own-grounding score| {sum(drift) / max(len(drift), 1):.3f}; "
              f"{_labels_given(mine)}; {_labels_and_cost(mine, setup)}")


def claims_part(args: argparse.Namespace) -> None:
    """`supported` on the response's claims (one extraction call, then a question per claim, the
    falsest claim decides) against its sentences (per_sentence), on the first --claims-limit pairs of
    each chosen TRUE set: ROC AUC with intervals and paired p-values, labels at today's threshold, cost."""
    for name, (path, limit) in chosen_sets(args).items():
        claims = bench(args.runs / f"claims-{name}", path, ["strategy=supported", "granularity=claim"],
                       args.model, "--limit", str(args.claims_limit))
        ids = {ln["example_id"] for ln in claims}
        sentences = [ln for ln in per_sentence_lines(args, name, path, limit) if ln["example_id"] in ids]
        for setup, mine in (("claims", claims), ("sentences", sentences)):
            for ln in mine:
                ln["setup"] = setup
        show(f"{name}: supported on claims and on sentences", roc_auc_intervals(claims + sentences, n=1000))
        for setup, mine in (("claims", claims), ("sentences", sentences)):
            print(f"  {setup}: {_labels_and_cost(mine, setup)}")


def combine_part(args: argparse.Namespace) -> None:
    """`supported` (per sentence) alone against its mean with a model-free scorer's error score
    (TRUE's ensemble, no weight tuned) on each TRUE set: ROC AUC with intervals and the paired
    p-value against the best. A combination is worth keeping only if it wins on every set."""
    for name, (path, limit) in chosen_sets(args).items():
        judged = per_sentence_lines(args, name, path, limit)
        for ln in judged:
            ln["setup"] = "supported"
        for scorer in args.combine_with.split(","):
            other = bench(args.runs / f"{scorer}-{name}", path, [f"strategy={scorer}"], args.model, *limit)
            for ln in other:
                ln["setup"] = scorer
            show(f"{name}: supported, {scorer}, and their mean", roc_auc_intervals(judged + other, n=1000))


# Plain cases a RAG user met (issue 26): a contradiction the context states outright, the same
# answer made true, and an opinion beside a fact (not checkable, never judged against the context).
CASES = [
    ("What is the capital of Canada?", "The capital of Canada is Toronto.",
     "Ottawa is the capital city of Canada. It stands on the Ottawa River in the province of Ontario.",
     ["false"]),
    ("What is the capital of Canada?", "The capital of Canada is Ottawa.",
     "Ottawa is the capital city of Canada. It stands on the Ottawa River in the province of Ontario.",
     ["true"]),
    ("Who first walked on the Moon?", "Buzz Aldrin was the first person to walk on the Moon.",
     "Neil Armstrong was the first person to walk on the Moon, on 20 July 1969; Buzz Aldrin joined him "
     "about twenty minutes later.", ["false"]),
    ("Who was Marie Curie?", "Marie Curie won two Nobel Prizes. She is my favourite scientist!",
     "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.",
     ["true", "not_checkable"]),
]


def cases_part(args: argparse.Namespace) -> None:
    """The grounded judge (the Verifier's default with a context) on the plain cases above."""
    from factjudge import CheckConfig, Verifier

    verifier = Verifier(CheckConfig(model=args.model))
    right = 0
    for question, answer, context, expected in CASES:
        result = verifier.verify(question, answer, context=[context])
        got = [v.label for v in result.segment_verdicts]
        scores = ", ".join("n/a" if v.error_score is None else f"{v.error_score:.2f}"
                           for v in result.segment_verdicts)
        right += got == expected
        print(f"{'ok  ' if got == expected else 'MISS'} {result.strategy}: {answer!r} → {got} "
              f"(error scores {scores}; expected {expected})")
    print(f"{right} of {len(CASES)} cases as expected")


PARTS = {"cases": cases_part, "true": true_part, "felm": felm_part, "mushroom": mushroom_part,
         "decompose": decompose_part, "long": long_part, "combine": combine_part,
         "claims": claims_part}


def main() -> None:
    """Parse flags, run the chosen parts, print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="cases,true,felm,mushroom",
                        help="comma-separated: cases, true, felm, mushroom, decompose, long, combine, claims")
    parser.add_argument("--model", default="local")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--bench-data", type=Path, default=BENCH_DATA,
                        help="this repository's converted dev sets (benchmarks/data)")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "local-judge")
    parser.add_argument("--true-limit", type=int, default=200, help="BEGIN pairs (dataset order)")
    parser.add_argument("--q2-all", action=argparse.BooleanOptionalAction, default=True,
                        help="all 300 Q² pairs (else --true-limit)")
    parser.add_argument("--extra-limit", type=int, default=300,
                        help="FaithDial audit pairs (its hashed order; 0 = all 737)")
    parser.add_argument("--list-judge", action=argparse.BooleanOptionalAction, default=True,
                        help="also run the FELM-style list judge on TRUE's slices (slow)")
    parser.add_argument("--decompose-sets", default="begin,q2,faithdial",
                        help="the TRUE sets --parts decompose, combine and claims run on")
    parser.add_argument("--claims-limit", type=int, default=100, help="pairs per set --parts claims runs on")
    parser.add_argument("--combine-with", default="embedding,bm25",
                        help="the model-free scorers --parts combine averages with supported")
    parser.add_argument("--long-limit", type=int, default=40, help="BEGIN pairs --parts long pads")
    parser.add_argument("--long-words", default="200,500,1000,2000",
                        help="--parts long: the padded groundings' lengths in words")
    parser.add_argument("--long-whole", type=int, default=500,
                        help="--parts long: the longest grounding also read whole (slow: one long prompt)")
    parser.add_argument("--long-tune", type=int, default=40,
                        help="--parts long: BEGIN pairs past --long-limit its threshold's rise is tuned on")
    parser.add_argument("--long-tune-words", default="500",
                        help="--parts long: the lengths those pairs are padded to")
    parser.add_argument("--long-check-words", default="500",
                        help="--parts long: FaithDial's lengths (a check on a set not tuned on; empty: none)")
    parser.add_argument("--long-chunk", type=int, default=200, help="the window --parts long reads in")
    parser.add_argument("--per-domain", type=int, default=2)
    parser.add_argument("--per-language", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    for part in args.parts.split(","):
        PARTS[part.strip()](args)


if __name__ == "__main__":
    main()
