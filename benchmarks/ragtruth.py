"""RAGTruth (ACL 2024) through bench: does the judge find the hallucinated RAG answers, and their words?

    python benchmarks/ragtruth.py --limit 4                      # today's default (embedded model) and
                                                                 # the model-free scorers, 4 pairs a task
    python benchmarks/ragtruth.py --setups token_f1,bm25 --limit 50   # the model-free scorers: a quick run
    python benchmarks/ragtruth.py --model scripted --limit 2     # smoke test: a scripted model, seconds
    python benchmarks/ragtruth.py --setups default --before 10f1253 --limit 6 --cache --run-dir DIR
                                 # what this checkout ships beside the default at 10f1253, same pairs

The data is FaithJudge's copy of RAGTruth's summary and data2txt tasks in ``../shared/data`` (our dev
data; RAGTruth's QA task is kept apart for measuring, and is never read here). Each task gives
``--limit`` pairs (source, answer), half of them hallucinated, chosen by a hash of their ids so a run is
the same every time. Every set-up runs as ``factjudge bench`` does (``factjudge.evaluate``), in its own
run directory (``factjudge report DIR`` writes its full report). The table: response-level precision,
recall and F1 of "hallucinated", character-level span F1, balanced accuracy and ROC AUC, model calls
(cache answers too) and seconds per pair (of the pairs the cache answered no call of: how many in
brackets), then recall per RAGTruth error type, with LettuceDetect's published figures beside (on
RAGTruth's full test set, all three tasks: not the same answers). ``--before REV`` adds the default as
it was at git revision REV (this script run there, in a temporary git worktree, on the same pairs and in
``DIR/before-REV``), scored by this checkout's tables beside this checkout's set-ups.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from linking import _code_of

from factjudge.checking.model_pool import build_model
from factjudge.config import CheckConfig
from factjudge.eval.datasets import Example, load_dataset
from factjudge.eval.evaluate import evaluate
from factjudge.eval.results import read_results
from factjudge.eval.summary import OVERALL
from factjudge.eval.tables.ragtruth import rag_rows, rag_type_rows
from factjudge.judges.strategies import strategy_named
from factjudge.llm.base import ChatModel, Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TASKS = ("summary", "data2txt")
# Today's default is the config's own (the embedded model, its default strategy); the scorers need no model.
SETUPS: dict[str, CheckConfig] = {
    "default": CheckConfig(),
    # The grounding read in one window of the sentences sharing most words with each judged sentence.
    "focus": CheckConfig(focus=True),
    "token_f1": CheckConfig(strategy="token_f1"),
    "bm25": CheckConfig(strategy="bm25"),
}
# Published on RAGTruth's full test set (all three tasks): response-level F1, span-level F1.
PUBLISHED = (("LettuceDetect-large", 79.2, 58.9), ("lettucedect-v2-qwen-2b", 81.8, None),
             ("RAG-HAT", 83.9, None), ("GPT-4 prompted", 63.4, None))


def balanced_sample(examples: Sequence[Example], n: int) -> list[Example]:
    """``n`` examples, half of them hallucinated (the odd one too), in the order of a hash of their ids."""
    def key(example: Example) -> str:
        return hashlib.sha256(example.id.encode("utf-8")).hexdigest()

    bad = sorted((e for e in examples if e.response_label is False), key=key)
    good = sorted((e for e in examples if e.response_label is True), key=key)
    half = (n + 1) // 2
    return bad[:half] + good[: n - half]


def scripted_reply(messages: list[Message]) -> Completion:
    """The smoke test's judge, at once: every statement supported (Yes, P(No) 0.1), no value stated."""
    if any(m["content"].startswith("You read passages") for m in messages):  # read_value_* prompts
        return Completion("NOT STATED", model=LOCAL_DEFAULT)
    top = {"Yes": math.log(0.9), "No": math.log(0.1)}
    return Completion("Yes", logprobs=(TokenLogprob("Yes", top["Yes"], top),), model=LOCAL_DEFAULT)


def model_factory(scripted: bool) -> Callable[[CheckConfig], ChatModel]:
    """The model each set-up judges with: a scripted one (smoke test), none for a model-free scorer
    (never called), else the one its config names."""
    def build(config: CheckConfig) -> ChatModel:
        if scripted:
            return ScriptedChatModel(scripted_reply, name=LOCAL_DEFAULT)
        if config.strategy and not strategy_named(config.strategy).uses_model:
            return ScriptedChatModel([], name="none")
        return build_model(config)

    return build


def sample(data: Path, limit: int) -> list[Example]:
    """The pairs of every task a run judges: ``limit`` a task, half of them hallucinated."""
    return [e for task in TASKS
            for e in balanced_sample(load_dataset(data / f"ragtruth_{task}.jsonl"), limit)]


def run(data: Path, limit: int, setups: Sequence[str], scripted: bool, run_root: Path,
        use_cache: bool, deadline: float | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every set-up over the sample of every task: the result lines, each set-up's named by its key, and
    how many pairs of each set-up failed (no result: in its run's errors.jsonl)."""
    examples = sample(data, limit)
    lines: list[dict[str, Any]] = []
    failed: dict[str, int] = {}
    for name in setups:
        config = SETUPS[name].replace(use_cache=use_cache)
        if deadline is not None:
            config = config.replace(deadline=deadline)
        local = scripted or not config.strategy
        done = evaluate(examples, config, model=model_factory(scripted), run_dir=run_root / name,
                        concurrency=1 if local else 2)
        lines += [{"example_id": r.example_id, "setup": name, "domain": r.domain, "dataset": r.dataset,
                   "gold": r.gold, "result": r.result, "seconds": r.seconds}
                  for r in done.results.itertuples()]
        failed[name] = len(examples) - len(done.results)
    return lines, failed


def run_before(revision: str, data: Path, limit: int, scripted: bool, run_root: Path, use_cache: bool,
               deadline: float | None = None) -> tuple[list[dict[str, Any]], int]:
    """The default set-up as it was at ``revision``: this script at that commit, in a temporary worktree,
    on the same pairs; its result lines (set-up named ``default @ REV``) and how many pairs failed."""
    run_dir = run_root / f"before-{revision}"
    argv = [sys.executable, "benchmarks/ragtruth.py", "--setups", "default", "--limit", str(limit),
            "--data", str(data.resolve()), "--run-dir", str(run_dir.resolve())]
    argv += ["--model", "scripted"] if scripted else []
    argv += ["--cache"] if use_cache else []
    argv += ["--deadline", str(deadline)] if deadline is not None else []
    with _code_of(revision) as (tree, env):
        done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the run at {revision} failed ({shlex.join(argv)}):\n{done.stderr[-4000:]}")
    wanted = {e.id for e in sample(data, limit)}
    results = run_dir / "default" / "results.jsonl"
    found = read_results(results) if results.is_file() else []
    lines = [{"example_id": ln["example_id"], "setup": f"default @ {revision}", "domain": ln.get("domain"),
              "dataset": ln.get("dataset"), "gold": ln["gold"], "result": ln["result"],
              "seconds": ln.get("seconds")} for ln in found if ln["example_id"] in wanted]
    return lines, len(wanted) - len(lines)


def _cell(value: Any) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:g}"


def table(lines: Sequence[dict[str, Any]]) -> str:
    """The measurements as markdown: per set-up and task, per error type, and the published figures."""
    rows = rag_rows(lines)
    out = ["| set-up | task | pairs | P | R | F1 | span F1 | BA | ROC AUC | calls/pair (median) "
           "| s/pair (median) [pairs timed] |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows.itertuples():
        out.append(f"| {row.setup} | {row.domain} | {row.answers} | {_cell(row.precision)} "
                   f"| {_cell(row.recall)} | {_cell(row.f1)} | {_cell(row.span_f1)} "
                   f"| {_cell(row.balanced_accuracy)} "
                   f"| {_cell(row.roc_auc)} | {_cell(row.calls)} ({_cell(row.calls_median)}) "
                   f"| {_cell(row.seconds)} ({_cell(row.seconds_median)}) [{row.timed}] |")
    types = rag_type_rows(lines)
    out += ["", "| set-up | error type | answers | response recall | gold chars | span recall |",
            "|---|---|---|---|---|---|"]
    for row in types.itertuples():
        out.append(f"| {row.setup} | {row.error_type} | {row.answers} | {_cell(row.response_recall)} "
                   f"| {row.chars} | {_cell(row.span_recall)} |")
    out += ["", "Published, on RAGTruth's full test set (all three tasks, 2,700 answers), not these pairs:",
            "",
            "| detector | response F1 | span F1 |", "|---|---|---|"]
    out += [f"| {name} | {f1:g} | {_cell(span)} |" for name, f1, span in PUBLISHED]
    return "\n".join(out) + "\n"


def overall(lines: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Each set-up's overall row (every task pooled)."""
    rows = rag_rows(lines)
    return rows[rows["domain"] == OVERALL].reset_index(drop=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the set-ups and print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="the folder of ragtruth_summary.jsonl and "
                        "ragtruth_data2txt.jsonl (default ../shared/data)")
    parser.add_argument("--limit", type=int, default=4, help="pairs per task, half hallucinated (default 4)")
    parser.add_argument("--setups", default=",".join(SETUPS), help=f"comma-separated, of {', '.join(SETUPS)}")
    parser.add_argument("--model", choices=("config", "scripted"), default="config",
                        help="scripted: every set-up judges with a scripted model that says Yes (smoke test)")
    parser.add_argument("--run-dir", type=Path, help="keep the runs there (one folder per set-up; a rerun "
                        "resumes); default a temporary folder")
    parser.add_argument("--deadline", type=float, help="seconds a check may take (default: the config's); a "
                        "pair past it fails and is counted apart")
    parser.add_argument("--before", metavar="REV", help="also run the default as it was at git revision REV "
                        "(e.g. 10f1253, the default before issue 43), on the same pairs")
    parser.add_argument("--cache", action="store_true", help="reuse cached model calls (seconds then "
                        "understate a pair's cost)")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.setups.split(",") if n.strip()]
    unknown = [n for n in names if n not in SETUPS]
    if unknown or not names or args.limit < 1:
        parser.error(f"set-ups are {', '.join(SETUPS)} and --limit at least 1")
    root = args.run_dir or Path(tempfile.mkdtemp(prefix="ragtruth-"))
    lines: list[dict[str, Any]] = []
    failed: dict[str, int] = {}
    if args.before:
        lines, failed[f"default @ {args.before}"] = run_before(args.before, args.data, args.limit,
                                                               args.model == "scripted", root, args.cache,
                                                               args.deadline)
    after, failed_after = run(args.data, args.limit, names, args.model == "scripted", root, args.cache,
                              args.deadline)
    lines += after
    failed.update(failed_after)
    print(f"$ python benchmarks/ragtruth.py {shlex.join(argv if argv is not None else sys.argv[1:])}")
    print(f"runs in {root}\n")
    print(table(lines))
    for name, count in failed.items():
        if count:
            folder = root / f"before-{args.before}" / "default" if "@" in name else root / name
            print(f"{name}: {count} pairs failed and are in no number above ({folder}/errors.jsonl)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
