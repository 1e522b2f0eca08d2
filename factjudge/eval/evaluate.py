"""``factjudge.evaluate(dataset, setups)``: the bench from Python, results as pandas DataFrames.

The same runner as ``factjudge bench`` (``BenchRun``), so a run directory written here can be
resumed by either, and ``factjudge report`` reads it; set-ups get the ids bench gives them.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import pandas as pd

from factjudge.checking.model_pool import ModelPool
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.eval.compare import difference_rows, interval_columns
from factjudge.eval.datasets import Example, dataset_hash, load_dataset, load_rows
from factjudge.eval.grid import expand, parse_grid
from factjudge.eval.results import read_lines
from factjudge.eval.runner import ERRORS, RESULTS, BenchRun, RunSummary, name_setups
from factjudge.eval.setup_name import SetupLabels
from factjudge.eval.summary import OVERALL, common_groups, gold_segment_labels, metric_rows
from factjudge.eval.tables.lines import failed_items
from factjudge.llm.base import ChatModel
from factjudge.llm.registry import model_name

DatasetArg: TypeAlias = str | os.PathLike[str] | Sequence[Example | Mapping[str, Any]] | pd.DataFrame
SetupsArg: TypeAlias = CheckConfig | Sequence[CheckConfig] | Mapping[str, Any]
ModelArg: TypeAlias = ChatModel | Callable[[CheckConfig], ChatModel] | None


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate`` returns: per-item results, one summary row per set-up, and where they live."""

    results: pd.DataFrame
    summary: pd.DataFrame
    run_dir: Path
    run: RunSummary

    def compare(self, a: str, b: str) -> pd.DataFrame:
        """A minus B for every metric, on the answers both judged: both values, the difference with its
        bootstrap 95% interval and the paired-bootstrap p-value, and the n of answers.

        ``a`` and ``b`` are set-up ids (``results.setup``) or their readable names (``summary.name``).
        """
        ids = {**{label: s for s, label in zip(self.summary["setup"], self.summary["name"], strict=True)},
               **{s: s for s in self.summary["setup"]}}
        for name in (a, b):
            if name not in ids:
                raise InputError(f"no set-up {name!r} in this evaluation; its set-ups: "
                                 f"{', '.join(map(repr, self.summary['name']))}")
        lines = [{"example_id": r.example_id, "setup": r.setup, "domain": r.domain, "result": r.result,
                  "gold": r.gold, "dataset": r.dataset} for r in self.results.itertuples()]
        rows = metric_rows(lines)
        table = pd.DataFrame(difference_rows(lines, ids[a], ids[b], averaged_domains(rows)))
        if not table.empty:
            names = dict(zip(self.summary["setup"], self.summary["name"], strict=True))
            table[["a", "b"]] = table[["a", "b"]].map(names.__getitem__)
        return table

    def report(self) -> dict[str, Path]:
        """Write the tables, plots and HTML page of ``factjudge report`` for this run; return their paths."""
        from factjudge.eval.report import write_report

        return write_report(self.run_dir)


def _examples(dataset: DatasetArg) -> tuple[list[Example], str, str]:
    """The examples, a name for the manifest and a content hash (resuming checks it).

    Rows that are not Examples (dicts, a DataFrame's records) are read by ``load_rows``: the
    loader ``load_dataset`` picks for a file with those columns.
    """
    if isinstance(dataset, (str, os.PathLike)):
        return load_dataset(os.fspath(dataset)), os.fspath(dataset), dataset_hash(os.fspath(dataset))
    rows = dataset.to_dict("records") if isinstance(dataset, pd.DataFrame) else list(dataset)
    if not rows:
        raise InputError("the dataset is empty")
    examples = rows if all(isinstance(row, Example) for row in rows) else load_rows(
        [row.to_dict() if isinstance(row, Example) else row for row in rows], "item")
    text = json.dumps([e.to_dict() for e in examples], sort_keys=True, ensure_ascii=False, default=str)
    return examples, "python", hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _grid_terms(grid: Mapping[str, Any]) -> list[str]:
    """A grid dict as bench's ``--grid`` terms, so values convert and ids come out as bench's do."""
    terms = []
    for key, values in grid.items():
        values = values if isinstance(values, (list, tuple)) else [values]
        terms.append(f"{key}=" + ",".join("none" if v is None else str(v) for v in values))
    return terms


def _configs(setups: SetupsArg, base: CheckConfig) -> tuple[list[CheckConfig], list[str]]:
    """The set-ups' configs and the keys that vary between them (what their names show)."""
    if isinstance(setups, Mapping):
        grid = parse_grid(_grid_terms(setups))
        return expand(base, grid), list(grid)
    configs = [setups] if isinstance(setups, CheckConfig) else list(setups)
    if not configs or not all(isinstance(c, CheckConfig) for c in configs):
        raise InputError("setups must be a CheckConfig, a list of them, or a grid dict such as "
                         "{'strategy': ['vanilla', 'cot']}")
    dicts = [c.to_dict() for c in configs]
    if len({json.dumps(d, sort_keys=True) for d in dicts}) != len(dicts):
        raise InputError("two of the set-ups are the same configuration")
    return configs, [k for k in dicts[0] if len({json.dumps(d[k], sort_keys=True) for d in dicts}) > 1]


def result_frame(lines: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per judged (example, set-up): gold and predicted labels, scores, cost, the full result."""
    rows = []
    for line in lines:
        result, gold = line["result"], line["gold"]
        predicted = result["label"] if result["label"] in ("true", "false") else None
        rows.append({
            "example_id": line["example_id"], "setup": line["setup"], "domain": line.get("domain"),
            "language": line.get("language"), "gold_label": gold["response_label"],
            "label": result["label"], "error_score": result["error_score"], "score": result["score"],
            "correct": None if gold["response_label"] is None or predicted is None
            else (predicted == "true") == gold["response_label"],
            "gold_segment_labels": gold_segment_labels(line),
            "segment_labels": [v["label"] for v in result["segment_verdicts"]],
            "model": result["model"], "strategy": result["strategy"], "granularity": result["granularity"],
            "calls": result["usage"]["calls"], "cached_calls": result["usage"]["cached_calls"],
            "cost_usd": result["usage"]["cost_usd"], "seconds": line.get("seconds"), "result": result,
            "gold": gold, "dataset": line.get("dataset"),
        })
    return pd.DataFrame(rows)


def summary_frame(lines: Sequence[dict[str, Any]], setups: Sequence[str], examples: int,
                  failures: Sequence[Mapping[str, Any]] = (), labels: SetupLabels | None = None,
                  ) -> pd.DataFrame:
    """One row per set-up: its readable ``name`` (by ``labels``; none: its id), the report's overall
    metrics, the items judged and failed, ``missing`` (neither a result nor a failure: an interrupted
    run), and for each metric its bootstrap 95% interval and paired-bootstrap p-value against the best
    set-up (``compare``)."""
    labels = labels or SetupLabels()
    rows = metric_rows(lines, "domain", failures=failures)
    if rows.empty:
        overall = pd.DataFrame({"setup": list(setups), "items": 0, "failed": 0})
    else:
        overall = rows[rows["domain"] == OVERALL].drop(columns="domain")
    overall = overall.set_index("setup").reindex(list(setups))
    for count in ("items", "failed"):
        overall[count] = overall[count].fillna(0).astype(int)
    overall["missing"] = examples - overall["items"] - overall["failed"]
    overall.insert(0, "name", [labels(s) for s in overall.index])
    if not rows.empty:
        complete = [s for s in setups if overall.loc[s, "unscored_answers"] == 0]
        overall = overall.join(interval_columns(lines, list(setups), averaged_domains(rows), complete))
    return overall.reset_index()


def averaged_domains(rows: pd.DataFrame) -> dict[str, list[str] | None]:
    """The domains each overall balanced accuracy of ``metric_rows`` averages (ROC AUC pools all)."""
    return {"segment_ba": common_groups(rows, "segment_ba"),
            "response_ba": common_groups(rows, "response_ba"), "roc_auc": None}


def evaluate(
    dataset: DatasetArg,
    setups: SetupsArg,
    *,
    base: CheckConfig | None = None,
    model: ModelArg = None,
    run_dir: str | os.PathLike[str] | None = None,
    concurrency: int = 4,
    show_progress: bool = False,
    limit: int | None = None,
) -> Evaluation:
    """Judge every example with every set-up, as ``factjudge bench`` does; results as DataFrames.

    ``dataset``: a dataset path, or Examples, dicts (``answer`` at least) or a DataFrame of them.
    ``setups``: a CheckConfig, a list of them, or a grid dict (``{"strategy": ["vanilla", "cot"]}``
    applied to ``base``). ``model``: a chat model (or config → model) to use instead of the one
    each config names. With ``run_dir`` the run is resumable: items already there are not redone.
    ``limit``: only the first N examples (``factjudge bench --limit``).
    """
    if concurrency < 1:
        raise InputError("concurrency must be at least 1")
    if limit is not None and limit < 1:
        raise InputError(f"limit must be at least 1, not {limit}")
    examples, name, digest = _examples(dataset)
    examples = examples[:limit]
    configs, varied = _configs(setups, base or CheckConfig())
    factory = (lambda config: model) if isinstance(model, ChatModel) else model
    # Set-ups are named by what they run, so by the model that will judge: built once, here.
    pool = ModelPool(factory) if factory else None
    named = name_setups(configs, varied, examples,
                        (lambda c: pool.get(c).name) if pool else (lambda c: model_name(c.model)))
    path = Path(run_dir) if run_dir is not None else Path(tempfile.mkdtemp(prefix="factjudge-eval-"))
    bench = BenchRun(path, examples, named, model_factory=pool.get if pool else None, dataset=name,
                     dataset_hash=digest, concurrency=concurrency)
    summary = bench.run(resume=True, show_progress=show_progress)
    wanted_setups = {s.id: i for i, s in enumerate(named)}
    wanted_examples = {e.id: i for i, e in enumerate(examples)}
    # One line per (example, set-up), the last written winning; only what was asked for this time.
    latest = {(ln["example_id"], ln["setup"]): ln for ln in read_lines(path / RESULTS)
              if ln["setup"] in wanted_setups and ln["example_id"] in wanted_examples}
    order = sorted(latest, key=lambda key: (wanted_setups[key[1]], wanted_examples[key[0]]))
    lines = [latest[key] for key in order]
    failures = [f for f in failed_items(read_lines(path / ERRORS), lines)
                if f["setup"] in wanted_setups and f["example_id"] in wanted_examples]
    labels = SetupLabels({s.id: s.name for s in named if s.name is not None})
    table = summary_frame(lines, list(wanted_setups), len(examples), failures, labels)
    return Evaluation(result_frame(lines), table, path, summary)
