"""``factjudge bench``: run a labelled dataset through a grid of set-ups, resumably.

Every (example, set-up) result is appended to ``results.jsonl`` as soon as it is
done; ``--resume`` reads that file back and skips what is there, and the model-call
cache makes the calls of items that were in flight at a kill free the second time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from factjudge import explain
from factjudge.checking.checker import Checker, run
from factjudge.checking.model_pool import ModelPool
from factjudge.checking.plan import Plan, plan_check
from factjudge.config import CheckConfig
from factjudge.errors import FactJudgeError, InputError, ModelError
from factjudge.eval.datasets import Example
from factjudge.eval.grid import setup_name
from factjudge.eval.results import ResultWriter, read_json, read_lines, utf8_json
from factjudge.eval.run_lock import RunLock
from factjudge.eval.setup_name import MANIFEST_KEY, SetupName
from factjudge.llm.base import ChatModel
from factjudge.prompts import load_prompt
from factjudge.records import CheckResult, Evidence, Usage
from factjudge.version import package_version

RESULTS = "results.jsonl"
ERRORS = "errors.jsonl"
MANIFEST = "manifest.json"
# Stop a run whose endpoint is plainly down instead of failing every remaining item.
MAX_CONSECUTIVE_FAILURES = 10


@dataclass(frozen=True)
class Setup:
    """One point of the grid: its id, the configuration it stands for and, for a grid set-up, its
    name as data (a set-up named by hand has none: its id is what a person reads)."""

    id: str
    config: CheckConfig
    name: SetupName | None = None

    @classmethod
    def named(cls, name: SetupName, config: CheckConfig) -> Setup:
        """A grid set-up, keyed by its name's id."""
        return cls(name.id, config, name)


@dataclass
class RunSummary:
    """What one invocation did."""

    done: int = 0
    skipped: int = 0
    failed: int = 0
    usage: Usage = field(default_factory=Usage)
    interrupted: bool = False
    first_errors: dict[str, str] = field(default_factory=dict)  # set-up id -> its first failure


def plan_example(config: CheckConfig, example: Example, model_name: str | None = None) -> Plan:
    """Plan one example as bench checks it: a grounding is the only evidence, read grounded; a TRUE pair
    is judged whole, an answer the dataset cut into sentences (RAGTruth) sentence by sentence, as a check
    does."""
    config = config.replace(domain=example.domain or config.domain,
                            language=example.language or config.language)
    if example.grounding:
        return plan_check(config, example.question, example.answer,
                          segments=list(example.segments) or [example.answer],
                          context=list(example.passages) or [Evidence("context", example.grounding)],
                          judge_all=not example.segments,
                          model_name=model_name)
    return plan_check(config, example.question, example.answer,
                      segments=list(example.segments) or None, refs=example.refs,
                      ref_texts=example.ref_contents, model_name=model_name)


def planned_for(config: CheckConfig, examples: Sequence[Example], model_name: str,
                ) -> dict[str, list[str]]:
    """The strategies and granularities the planner decides for ``examples``, most frequent first."""
    counts: dict[str, Counter[str]] = {"strategy": Counter(), "granularity": Counter()}
    for example in examples:
        try:
            plan = plan_example(config, example, model_name)
        except InputError:
            continue  # refused before the run (impossible_setups) or failed with its reason
        counts["strategy"][plan.strategy.name] += 1
        counts["granularity"][plan.granularity] += 1
    return {key: [name for name, _ in count.most_common()] for key, count in counts.items()}


def name_setups(configs: Sequence[CheckConfig], keys: Sequence[str], examples: Sequence[Example],
                model_name: Callable[[CheckConfig], str]) -> list[Setup]:
    """Set-ups named by what the planner decides they run on ``examples`` (``grid.setup_name``)."""
    names = [setup_name(c, keys, planned_for(c, examples, model_name(c))) for c in configs]
    ids = [name.id for name in names]
    if twice := next((i for i in ids if ids.count(i) > 1), None):
        raise InputError(f"two set-ups run the same thing ({twice}): leave one out")
    return [Setup.named(name, c) for name, c in zip(names, configs, strict=True)]


def check_example(checker: Checker, example: Example) -> CheckResult:
    """Run one example through a checker, planned by ``plan_example``."""
    return run(plan_example(checker.config, example, checker.model.name), checker.model)


def _unplannable(config: CheckConfig, examples: Sequence[Example]) -> str | None:
    """The planner's reason when no example can be planned with ``config``; None once one can."""
    reason = None
    for example in examples:
        try:
            plan_example(config, example)
            return None
        except InputError as exc:
            reason = reason or str(exc)
    return reason


def impossible_setups(setups: Sequence[Setup], examples: Sequence[Example]) -> dict[str, str]:
    """Set-ups no example can be planned for (a strategy needing evidence on data that has none), each
    with the planner's reason: the checker's own rules, applied before any item runs."""
    reasons = {s.id: _unplannable(s.config, examples) for s in setups}
    return {setup: reason for setup, reason in reasons.items() if reason}


def gold_of(example: Example) -> dict[str, Any]:
    """The human labels a result line carries, so reports need not reload the dataset."""
    segment_labels = list(example.segment_labels)
    if example.grounding and not segment_labels:
        segment_labels = [example.response_label]
    return {
        "segment_labels": segment_labels,
        "response_label": example.response_label,
        "claim_labels": list(example.claim_labels),
        "spans": [list(s) for s in example.spans],
        "soft_spans": [list(s) for s in example.soft_spans],
        # What the report's tables key on: TRUE pairs, FELM's error types, parallel items.
        "grounded": bool(example.grounding),
        "error_types": list(example.meta.get("error_types") or []),
        "span_types": list(example.meta.get("span_types") or []),  # RAGTruth's, one per span
        "parallel_id": example.meta.get("parallel_id"),
    }


def prompt_hashes() -> dict[str, str]:
    """Hash of every packaged prompt, so a run says exactly which prompts produced it."""
    from importlib import resources

    names = sorted(p.name[:-4] for p in resources.files("factjudge.prompts").iterdir()
                   if p.name.endswith(".txt"))
    return {name: load_prompt(name).hash for name in names}


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """A run directory's manifest, None when it has none; one that bench did not write is an InputError."""
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    manifest = read_json(path)
    if not (isinstance(manifest.get("setups", {}), dict) and isinstance(manifest.get("sessions", []), list)):
        raise InputError(f"cannot read {path}: its setups or sessions are not what bench writes")
    return manifest


def resumed_setups(run_dir: Path, manifest: Mapping[str, Any], asked: Sequence[Setup] | None) -> list[Setup]:
    """The set-ups ``bench --resume`` continues: the manifest's, or those ``asked`` for, each one of them.

    A resumed run never gains a set-up: one it was not started with is refused, with the choices.
    """
    recorded: Mapping[str, Any] = manifest.get("setups") or {}
    if asked is None:
        try:
            return [Setup(name, CheckConfig.from_dict(dict(config))) for name, config in recorded.items()]
        except (InputError, TypeError) as exc:
            raise InputError(f"cannot read the set-ups of {run_dir / MANIFEST}: {exc}") from None
    new = [s.id for s in asked if s.id not in recorded]
    if new:
        them = "it" if len(new) == 1 else "them"
        raise InputError(
            f"{run_dir} was started with the set-ups {'; '.join(sorted(recorded))}, and --resume continues "
            "those: "
            f"{'; '.join(new)} is not one of them. Resume without --grid and setting flags to continue "
            f"them all (or give a grid naming some of them), or start {them} in a new --run-dir")
    return list(asked)


class BenchRun:
    """A run directory: manifest, results and errors of one dataset × grid."""

    def __init__(
        self,
        run_dir: Path,
        examples: Sequence[Example],
        setups: Sequence[Setup],
        *,
        model_factory: Callable[[CheckConfig], ChatModel] | None = None,
        dataset: str,
        dataset_hash: str,
        concurrency: int = 4,
        selection: Mapping[str, Any] | None = None,
    ) -> None:
        ids = [e.id for e in examples]
        if len(set(ids)) != len(ids):
            raise InputError("the dataset has duplicate example ids; results could not be told apart")
        self.run_dir = run_dir
        self.examples = examples
        self.setups = setups
        self.models = ModelPool(model_factory)
        self.dataset = dataset
        self.dataset_hash = dataset_hash
        self.concurrency = max(1, concurrency)
        self.selection = selection  # the example filters that chose ``examples`` (None: kept as recorded)

    def done_keys(self) -> set[tuple[str, str]]:
        """(example id, set-up id) pairs already in the results file."""
        return {(r["example_id"], r["setup"]) for r in read_lines(self.run_dir / RESULTS)}

    def _manifest(self, resume: bool) -> dict[str, Any]:
        manifest = read_manifest(self.run_dir) or {}
        if manifest:
            if manifest.get("dataset_hash") != self.dataset_hash:
                raise InputError(f"{self.run_dir} holds a run on another dataset (hash differs); "
                                 "use a new --run-dir")
            if not resume:
                raise InputError(f"{self.run_dir} already holds a run: pass --resume to continue it, "
                                 "or choose another --run-dir")
        manifest.update({
            "dataset": self.dataset,
            "dataset_hash": self.dataset_hash,
            "examples": len(self.examples),
            "setups": {s.id: s.config.to_dict() for s in self.setups}
            | manifest.get("setups", {}),
            # What the report labels set-ups from (a run written before names were has none).
            MANIFEST_KEY: {s.id: s.name.to_dict() for s in self.setups if s.name is not None}
            | manifest.get(MANIFEST_KEY, {}),
            # Which examples a bench --resume without filters runs again (select.select_examples).
            "selection": manifest.get("selection", {}) if self.selection is None else dict(self.selection),
            "prompt_hashes": prompt_hashes(),
            "version": package_version(),
        })
        manifest.setdefault("sessions", []).append({"started": _now(), "finished": None})
        return manifest

    def _write_manifest(self, manifest: dict[str, Any]) -> None:
        path = self.run_dir / MANIFEST
        tmp = path.with_suffix(".tmp")
        try:
            tmp.write_text(utf8_json(manifest, indent=2), encoding="utf-8")
            tmp.replace(path)  # atomic: a kill never leaves half a manifest
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise FactJudgeError(f"cannot write {path}: {exc.strerror or exc}") from None

    def _end_session(self, manifest: dict[str, Any], summary: RunSummary,
                     error: BaseException | None) -> None:
        """Record how this session ended; a manifest that cannot be written only adds to ``error``."""
        session = manifest["sessions"][-1]
        session.update({"finished": _now(), "done": summary.done, "failed": summary.failed,
                        "interrupted": summary.interrupted, "usage": summary.usage.to_dict()})
        if error is not None:
            session["error"] = str(error) if isinstance(error, FactJudgeError) else type(error).__name__
        try:
            self._write_manifest(manifest)
        except FactJudgeError:
            if error is None:
                raise

    def _one(self, example: Example, setup: Setup) -> dict[str, Any]:
        config = setup.config.replace(domain=example.domain or setup.config.domain,
                                      language=example.language or setup.config.language)
        started = time.perf_counter()
        result = check_example(Checker(config, self.models.get(config)), example)
        return {
            "example_id": example.id,
            "setup": setup.id,
            "dataset": example.dataset,
            "domain": example.domain,
            "language": example.language,
            "gold": gold_of(example),
            "result": explain.result_dict(result),
            "seconds": round(time.perf_counter() - started, 3),
        }

    def run(self, *, resume: bool = False, show_progress: bool = True) -> RunSummary:
        """Run every pending (example, set-up) pair; safe to interrupt and resume.

        A set-up that cannot run on any example is refused before anything is written.
        """
        refused = impossible_setups(self.setups, self.examples)
        if refused:
            named = "; ".join(f"{setup} ({reason})" for setup, reason in refused.items())
            them = "it" if len(refused) == 1 else "them"
            raise InputError(f"no example can be checked by {named}: leave {them} out of the grid")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with RunLock(self.run_dir):
            return self._run(resume, show_progress)

    def _run(self, resume: bool, show_progress: bool) -> RunSummary:
        manifest = self._manifest(resume)
        self._write_manifest(manifest)
        done = self.done_keys()
        pending = [(e, s) for s in self.setups for e in self.examples if (e.id, s.id) not in done]
        summary = RunSummary(skipped=len(self.examples) * len(self.setups) - len(pending))
        results = ResultWriter(self.run_dir / RESULTS)
        errors = ResultWriter(self.run_dir / ERRORS)
        error: BaseException | None = None
        try:
            self._work(pending, results, errors, summary, show_progress)
        except BaseException as exc:
            error = exc
            raise
        finally:
            for writer in (results, errors):
                try:
                    writer.close()
                except FactJudgeError as exc:
                    error = error or exc
            self._end_session(manifest, summary, error)
        if error is not None:  # only a failure to close the files gets here
            raise error
        return summary

    def _work(self, pending: list[tuple[Example, Setup]], results: ResultWriter, errors: ResultWriter,
              summary: RunSummary, show_progress: bool) -> None:
        """Check every pending item, ``concurrency`` at a time, writing each as it finishes."""
        progress = Progress(
            TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[cost]}"),
            disable=not show_progress,
        )
        with progress, ThreadPoolExecutor(self.concurrency) as pool:
            bar = progress.add_task("bench", total=len(pending), cost="")
            queue = iter(pending)
            running: dict[Future[dict[str, Any]], tuple[Example, Setup]] = {}

            def submit_next() -> None:
                for example, setup in queue:
                    running[pool.submit(self._one, example, setup)] = (example, setup)
                    return

            for _ in range(self.concurrency * 2):
                submit_next()
            try:
                self._drain(running, submit_next, results, errors, summary, progress, bar)
            except KeyboardInterrupt:
                summary.interrupted = True
                for future in running:
                    future.cancel()  # in-flight calls finish into the cache; queued ones never start
            except FactJudgeError:
                for future in running:
                    future.cancel()  # a run that cannot go on starts nothing more
                raise

    def _drain(
        self,
        running: dict[Future[dict[str, Any]], tuple[Example, Setup]],
        submit_next: Callable[[], None],
        results: ResultWriter,
        errors: ResultWriter,
        summary: RunSummary,
        progress: Progress,
        bar: Any,
    ) -> None:
        """Collect finished items, write them, and keep the pool fed until nothing runs."""
        consecutive = 0
        while running:
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                example, setup = running.pop(future)
                try:
                    record = future.result()
                except FactJudgeError as exc:
                    summary.failed += 1
                    consecutive += 1
                    error = f"{type(exc).__name__}: {exc}"
                    summary.first_errors.setdefault(setup.id, error)
                    errors.write({"example_id": example.id, "setup": setup.id, "dataset": example.dataset,
                                  "domain": example.domain, "language": example.language,
                                  "error": error, "at": _now()})
                    if consecutive >= MAX_CONSECUTIVE_FAILURES:
                        raise ModelError(f"{consecutive} items failed in a row, last: {exc}") from exc
                else:
                    consecutive = 0
                    results.write(record)
                    summary.done += 1
                    summary.usage += Usage.from_dict(record["result"]["usage"])
                progress.update(bar, advance=1, cost=_cost_text(summary.usage))
                submit_next()


def _cost_text(usage: Usage) -> str:
    return f"{usage.calls} calls, {usage.cached_calls} cached, ${usage.cost_usd:.4f}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
