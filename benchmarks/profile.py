"""Issue 42's table: four checks, each a fresh ``factjudge check --no-cache`` process, and where time went.

    python benchmarks/profile.py                      # today (--before 10f1253) beside this tree, median of 3
    python benchmarks/profile.py --before none --runs 1 --checks wk,context
    python benchmarks/profile.py --model openai:scripted --before none --runs 1   # smoke run, seconds

Each run is ``benchmarks/profile_runner.py`` around ``factjudge.cli.main`` (whole-process wall seconds
measured here, from start to exit); the runner says how much of it was model load, retrieval (the
evidence gatherer: the packaged Wikipedia), prompt evaluation (tokens evaluated, reused from the live
context, restored from the prefix store), generation, other model work (tokenising, reading logits)
and the rest (imports, Python), the model calls by step, and the process's CPU seconds (what a run
cost on a machine shared with other jobs, where wall time says little). The run with the median wall
time is the one profiled. ``--before COMMIT`` runs the same checks on that commit, checked out in a
temporary ``git worktree``. The floor is what llama.cpp alone needs for the tokens a check evaluated: those
tokens ÷ this machine's prompt tokens a second (one 512-token prompt from scratch, measured first).
Point 4 of the issue adds two rows: ``factjudge check --help`` and the world-knowledge check (else the
first one) answered from a primed call cache. Every run reads a call cache of its own
(``$FACTJUDGE_CACHE`` in a temporary folder), never the user's. Every process measured is kept in
``--runs-file`` (runs/profile.jsonl), keyed by the package's last commit and the check: a rerun
measures only what is missing, and ``--print-only`` prints the tables from what is there.

The checks: the README's two demos (the Makefile's WK_* and QUESTION/ANSWER/CONTEXT), the Golden Gate
context padded to 2,000 words with BEGIN's other groundings (as ``local_judge.py --parts long`` pads
them) under two true sentences and one false, and a RAG answer of six sentences on about 250 words:
RAGTruth's QA task is held out and not on this machine, so it is the first pair of the shared RAGTruth
summary file (file order) whose source has 200–300 words and whose response is six sentences as
factjudge's segmenter cuts them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from linking import _code_of

ROOT = Path(__file__).resolve().parents[1]
RUNNER = Path(__file__).resolve().with_name("profile_runner.py")
DATA = ROOT.parent / "shared" / "data"
TODAY = "10f1253"
LONG_WORDS = 2000
LONG_ANSWER = ("The Golden Gate Bridge opened in 1937. Its main span is 1,280 metres long. "
               "It was the longest suspension bridge span in the world until 1990.")
RAG_WORDS = (200, 300)
RAG_SENTENCES = 6
# A user's earlier check on other text: what --new-text runs first, so the measured check finds the
# prompts' instructions saved on disk (as on any machine that has checked once) but not its own passages.
EARLIER_WK = ("Who painted the Mona Lisa, and where is it?",
              "The Mona Lisa was painted by Leonardo da Vinci. It hangs in the Prado in Madrid.")
EARLIER_CONTEXT = ("When did the Sydney Harbour Bridge open?",
                   "The Sydney Harbour Bridge opened in 1932. Its arch is 1,000 metres long.",
                   "--context", "The Sydney Harbour Bridge is a steel arch bridge across Sydney Harbour. "
                   "It opened in March 1932. Its arch spans 503 metres.")


@dataclass(frozen=True)
class Check:
    """One row of the table: the arguments after ``factjudge check``, and the issue's goal in seconds."""

    name: str
    label: str
    argv: tuple[str, ...]
    goal: float | None


def makefile_inputs(root: Path = ROOT) -> dict[str, str]:
    """The Makefile's ``NAME ?= value`` settings (the README's demo inputs)."""
    text = (root / "Makefile").read_text(encoding="utf-8")
    return dict(re.findall(r"^(\w+) \?= (.*)$", text, flags=re.M))


def long_context(context: str, data: Path, words: int = LONG_WORDS, seed: int = 0) -> str:
    """``context`` set at a random place among BEGIN's groundings until the text is ``words`` long."""
    from factjudge.eval.datasets import load_dataset

    pool = list(dict.fromkeys(e.grounding for e in load_dataset(data / "begin_dev_wow.tsv") if e.grounding))
    rng = random.Random(seed)
    passages: list[str] = []
    while sum(len(p.split()) for p in passages) + len(context.split()) < words:
        passages.append(rng.choice([p for p in pool if p not in passages]))
    passages.insert(rng.randrange(len(passages) + 1), context)
    return "\n\n".join(passages)


def rag_pair(path: Path) -> tuple[str, str, str]:
    """The first RAGTruth summary pair of the stated shape: (where, source, response)."""
    from factjudge.text.segmenter import split_sentences

    for line_number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        row = json.loads(line)
        if not RAG_WORDS[0] <= len(row["source"].split()) <= RAG_WORDS[1]:
            continue
        for n, response in enumerate(row["responses"]):
            if len(split_sentences(response["response"])) == RAG_SENTENCES:
                return f"{path.name} line {line_number}, response {n} ({response['model']})", \
                    row["source"], response["response"]
    raise SystemExit(f"no pair of {RAG_WORDS} words and {RAG_SENTENCES} sentences in {path}")


def checks(names: list[str], data: Path = DATA) -> list[Check]:
    """The checks named, built from the Makefile and the shared data."""
    make = makefile_inputs()
    made: list[Check] = []
    for name in names:
        if name == "wk":
            made.append(Check(name, "the README's world-knowledge demo (3 sentences, packaged Wikipedia)",
                              (make["WK_QUESTION"], make["WK_ANSWER"]), 10))
        elif name == "context":
            made.append(Check(name, "the README's context demo (3 sentences, a 59-token context)",
                              (make["QUESTION"], make["ANSWER"], "--context", make["CONTEXT"]), 6))
        elif name == "long":
            text = long_context(make["CONTEXT"], data)
            made.append(Check(name, f"a {len(text.split()):,}-word context, 3 sentences",
                              (make["QUESTION"], LONG_ANSWER, "--context", text), 30))
        elif name == "rag":
            where, source, response = rag_pair(data / "ragtruth_summary.jsonl")
            made.append(Check(name, f"a RAG answer of {RAG_SENTENCES} sentences on {len(source.split())} "
                              f"words ({where})", ("", response, "--context", source), 15))
        else:
            raise SystemExit(f"unknown check {name!r}: wk, context, long, rag")
    return made


@dataclass(frozen=True)
class Run:
    """One process: its wall seconds and what the runner wrote."""

    wall: float
    profile: dict[str, Any]


def cold_models(folder: Path) -> Path:
    """A models folder holding this machine's model files and no saved prompt prefix: a new machine's."""
    from factjudge.environment import models_dir

    cold = folder / "models"
    cold.mkdir()
    for path in models_dir().iterdir():
        if path.is_file():
            (cold / path.name).symlink_to(path)
    return cold


def run_once(tree: Path, argv: list[str], cache: Path, *, cold: bool = False,
             earlier: list[str] | None = None) -> Run:
    """``factjudge ARGV`` through the runner with ``tree`` on PYTHONPATH, as a fresh process (``cold``:
    with no prompt prefix saved by an earlier process; ``earlier``: saved only by that check, run first
    and not measured)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "profile.json"
        env = {**os.environ, "PYTHONPATH": str(tree), "FACTJUDGE_CACHE": str(cache)}
        if cold or earlier:
            env["FACTJUDGE_MODELS"] = str(cold_models(Path(folder)))
        if earlier:
            first = subprocess.run([sys.executable, "-m", "factjudge.cli", *earlier], env=env, cwd=folder,
                                   capture_output=True, text=True)
            if first.returncode != 0:
                raise SystemExit(f"the earlier check failed in {tree} ({first.returncode}):\n"
                                 f"{first.stderr[-3000:]}")
        started, used = time.perf_counter(), _children_cpu()
        done = subprocess.run([sys.executable, str(RUNNER), str(out), *argv], env=env, cwd=folder,
                              capture_output=True, text=True)
        wall = time.perf_counter() - started
        if done.returncode != 0 or not out.is_file():
            raise SystemExit(f"factjudge {' '.join(argv[:2])} … failed in {tree} ({done.returncode}):\n"
                             f"{done.stderr[-3000:]}")
        # CPU seconds say what a run cost on a machine shared with other jobs, where wall time says little.
        profile = json.loads(out.read_text(encoding="utf-8"))
        return Run(wall, {**profile, "cpu_seconds": _children_cpu() - used})


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Runs:
    """Each process measured, one JSON line apiece in ``path``: a rerun measures only what is missing."""

    def __init__(self, path: Path, *, print_only: bool = False) -> None:
        self.path = path
        self.print_only = print_only
        self.done: dict[str, list[Run]] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                self.done.setdefault(row["key"], []).append(Run(row["wall"], row["profile"]))

    def median(self, key: str, runs: int, measure: Callable[[], Run]) -> Run | None:
        """The run of median wall time among ``runs`` under ``key``, measuring those still missing
        (with ``print_only``, among those there are; None if none)."""
        done = self.done.setdefault(key, [])
        if self.print_only and not done:
            return None
        while len(done) < runs and not self.print_only:
            run = measure()
            print(f"  {key}: {run.wall:.1f} s", file=sys.stderr)
            done.append(run)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({"key": key, "wall": run.wall, "profile": run.profile}) + "\n")
        ordered = sorted(done[:runs], key=lambda r: r.wall)
        return ordered[(len(ordered) - 1) // 2]


def package_commit(name: str) -> str:
    """The last commit at or before ``name`` that changed the package: the runs' key, so that a commit
    changing only benchmarks or documents measures nothing again."""
    return subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h", name, "--", "factjudge"],
                          capture_output=True, text=True, check=True).stdout.strip()


def dirty() -> bool:
    """Whether this tree's package differs from its commit (its runs are then not keyed as the commit's)."""
    return bool(subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "factjudge"],
                               capture_output=True, text=True, check=True).stdout.strip())


def machine_rate(tree: Path) -> dict[str, float]:
    """This machine's prompt tokens a second and seconds of a one-token pass ({} when it has no
    embedded model to measure)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rate.json"
        done = subprocess.run([sys.executable, str(RUNNER), str(out), "--rate"], capture_output=True,
                              text=True, env={**os.environ, "PYTHONPATH": str(tree)})
        if done.returncode != 0:
            print(f"no prompt rate measured: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return {}
        return dict(json.loads(out.read_text(encoding="utf-8")))


def measure(tree: Path, side: str, made: list[Check], args: argparse.Namespace, runs: Runs) -> dict[str, Run]:
    """Every check's median run in ``tree``, then ``check --help`` and a cached world-knowledge check."""
    extra = ["--model", args.model] if args.model else []
    results: dict[str, Run | None] = {}
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "calls.sqlite"
        for check in made:
            argv = ["check", *check.argv, "--no-cache", *extra]
            other = EARLIER_WK if check.name == "wk" else EARLIER_CONTEXT
            earlier = ["check", *other, "--no-cache", *extra] if args.new_text else None
            mode = " cold" * args.cold + " new-text" * args.new_text
            results[check.name] = runs.median(
                f"{side} {check.name} {args.model}{mode}", args.runs,
                lambda argv=argv, earlier=earlier: run_once(tree, argv, cache, cold=args.cold,
                                                            earlier=earlier))
        results["help"] = runs.median(f"{side} help", args.runs,
                                      lambda: run_once(tree, ["check", "--help"], cache))
        primed = next((c for c in made if c.name == "wk"), made[0] if made else None)
        if primed is not None:
            argv = ["check", *primed.argv, *extra]

            def cached() -> Run:
                if not cache.is_file():
                    run_once(tree, argv, cache)  # primes the cache
                return run_once(tree, argv, cache)

            results["cached"] = runs.median(f"{side} cached {primed.name} {args.model}", args.runs, cached)
    return {name: run for name, run in results.items() if run is not None}


def _calls(profile: dict[str, Any]) -> str:
    by_step = profile.get("calls", {})
    shown = ", ".join(f"{step} {n}" for step, n in sorted(by_step.items(), key=lambda kv: -kv[1]))
    return f"{sum(by_step.values())} ({shown})" if by_step else "0"


def _evaluated(run: Run) -> int:
    counters = run.profile.get("counters", {})
    return int(counters.get("prompt_tokens", 0) - counters.get("reused_tokens", 0))


def _passes(run: Run) -> str:
    batches = run.profile.get("batches")
    return f"{batches.get('passes', 0):,}" if batches is not None else "–"


def summary_table(made: list[Check], sides: dict[str, dict[str, Run]], rate: dict[str, float]) -> list[str]:
    """The issue's table: seconds per side, the goal, and the calls and floor of the last side measured."""
    names = list(sides)
    seconds = " | ".join(f"seconds, {n}" for n in names)
    lines = [f"| check | calls | {seconds} | goal | tokens evaluated, forward passes | llama.cpp floor |",
             "| --- | --- | " + " | ".join("---" for _ in names) + " | --- | --- | --- |"]
    rows = [(c.name, c.label, f"≤ {c.goal:g}" if c.goal else "") for c in made]
    primed = next((c for c in made if c.name == "wk"), made[0] if made else None)
    rows += [("help", "`factjudge check --help`", ""),
             ("cached", f"{primed.label if primed else ''}, from the call cache", "")]
    per_second = rate.get("tokens_per_second")
    for name, label, goal in rows:
        measured = [side[name] for side in sides.values() if name in side]
        if not measured:
            continue
        run = measured[-1]
        walls = " | ".join(f"{sides[n][name].wall:.1f}" if name in sides[n] else "" for n in names)
        evaluated = _evaluated(run)
        floor = f"{evaluated / per_second:.1f}" if per_second and evaluated else "–"
        lines.append(f"| {label} | {_calls(run.profile)} | {walls} | {goal} | "
                     f"{evaluated:,}, {_passes(run)} | {floor} |")
    return lines


def profile_table(sides: dict[str, dict[str, Run]]) -> list[str]:
    """Where each median run's time went, seconds and tokens."""
    lines = ["| check | side | wall | CPU | imports | retrieval, model load begin at | model load | "
             "retrieval | prompt eval | prefix store | tokens evaluated / reused / restored (passes) | "
             "generation (tokens) | other model | rest |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for side, results in sides.items():
        for name, run in results.items():
            spent, counters = run.profile["seconds"], run.profile.get("counters", {})
            rest = run.wall - sum(spent.values()) - run.profile["import_seconds"]
            cpu = f"{run.profile['cpu_seconds']:.1f}" if "cpu_seconds" in run.profile else "–"
            began = " / ".join(f"{run.profile['first'][s]:.1f}" if s in run.profile.get("first", {}) else "–"
                               for s in ("retrieval", "load"))
            store = f"{spent['prefix_store']:.1f}" if "prefix_store" in spent else "–"
            lines.append(
                f"| {name} | {side} | {run.wall:.1f} | {cpu} | {run.profile['import_seconds']:.2f} | "
                f"{began} | {spent['load']:.1f} | {spent['retrieval']:.1f} | {spent['prompt']:.1f} | "
                f"{store} | "
                f"{_evaluated(run):,} / {counters.get('reused_tokens', 0):,} / "
                f"{counters.get('restored_tokens', 0):,} ({_passes(run)}) | "
                f"{spent['generation']:.1f} ({counters.get('generated_tokens', 0):,}) | "
                f"{spent['model_other']:.1f} | {rest:.1f} |")
    return lines


def main() -> int:
    """Measure, then print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default=TODAY, help=f"the commit to compare with (default {TODAY}, "
                        "today's main); 'none' for this tree only")
    parser.add_argument("--runs", type=int, default=3, help="processes per check; the median is shown")
    parser.add_argument("--checks", default="wk,context,long,rag",
                        help="comma-separated: wk, context, long, rag")
    parser.add_argument("--runs-file", type=Path, default=ROOT / "runs" / "profile.jsonl",
                        help="every process measured, one line each: a rerun measures only what is missing "
                        "(keyed by the package's commit and the check; remove it to measure again)")
    parser.add_argument("--print-only", action="store_true",
                        help="measure nothing: the tables from what --runs-file holds")
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data (BEGIN, RAGTruth)")
    parser.add_argument("--model", help="a model spec for every check (default: the embedded one)")
    parser.add_argument("--cold", action="store_true",
                        help="every check as on a new machine: no prompt prefix saved by an earlier process "
                        "(else the prefix store is the user's, as an earlier run left it)")
    parser.add_argument("--new-text", action="store_true",
                        help="every check as a user's next check on text not seen before: a new machine's "
                        "prefix store after one check of the same kind on other text (the instructions "
                        "saved, not this check's passages)")
    args = parser.parse_args()
    if args.cold and args.new_text:
        parser.error("--cold and --new-text are two ways of starting: choose one")
    made = checks([c for c in args.checks.split(",") if c], args.data)
    runs = Runs(args.runs_file, print_only=args.print_only)
    measured = None if args.model else runs.median("rate", 1, lambda: Run(0.0, machine_rate(ROOT)))
    rate = measured.profile if measured else {}
    sides: dict[str, dict[str, Run]] = {}
    if args.before != "none":
        with _code_of(None if args.print_only else args.before) as (tree, _):
            sides[args.before] = measure(tree, package_commit(args.before), made, args, runs)
    sides["after"] = measure(ROOT, package_commit("HEAD") + ("+" if dirty() else ""), made, args, runs)
    load = os.getloadavg() if hasattr(os, "getloadavg") and not args.print_only else None
    print(f"median of {args.runs} fresh processes each; load average {load[0]:.2f} at the end" if load
          else f"median of {args.runs} fresh processes each")
    if rate.get("tokens_per_second"):
        one = f"; a one-token forward pass {rate['pass_seconds']:.2f} s" if "pass_seconds" in rate else ""
        print(f"prompt evaluation here: {rate['tokens_per_second']:.0f} tokens/s (one 512-token prompt from "
              f"scratch){one}; the floor is a check's tokens evaluated ÷ that rate")
    print()
    print("\n".join(summary_table(made, sides, rate)))
    print()
    print("\n".join(profile_table(sides)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
