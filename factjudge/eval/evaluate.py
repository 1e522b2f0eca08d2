"""``factjudge.evaluate()``: a labelled dataset through judge set-ups, results as pandas tables.

The Python face of ``factjudge bench`` + ``factjudge report``, in the style of Ragas'
and DeepEval's ``evaluate``: the same runner (so the same resumable run directory and
model-call cache) and the same metric rows as the report.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.eval.datasets import Example, dataset_hash, load_dataset
from factjudge.eval.datasets.table import example_from_row
from factjudge.eval.grid import expand, grid_from_mapping, setup_id, varied_keys
from factjudge.eval.results import read_lines, read_results
from factjudge.eval.runner import ERRORS, RESULTS, BenchRun, RunSummary, Setup
from factjudge.eval.summary import metric_rows
from factjudge.eval.tables.lines import failed_items, gold_segment_labels
from factjudge.llm.base import ChatModel
from factjudge.llm.registry import check_model_spec

DatasetArg = str | Path | Sequence[Example | Mapping[str, Any]]
SetupsArg = CheckConfig | Sequence[CheckConfig] | Mapping[str, Any] | None


@dataclass(frozen=True)
class Evaluation:
    """What ``evaluate`` returns: per-item results, the report's metric rows and the run behind them."""

    results: pd.DataFrame
    summary: pd.DataFrame
    failures: list[dict[str, Any]]
    run_dir: Path
    run: RunSummary


def _examples(dataset: DatasetArg) -> tuple[list[Example], str, str]:
    """The examples, a name and a content hash (the run directory refuses another dataset by it)."""
    if isinstance(dataset, (str, Path)):
        return load_dataset(dataset), str(dataset), dataset_hash(dataset)
    if isinstance(dataset, Mapping) or not isinstance(dataset, Sequence):
        raise InputError("dataset must be a path or a list of Example records or dicts, "
                         f"not {type(dataset).__name__}")
    examples = []
    for i, item in enumerate(dataset):
        if isinstance(item, Example):
            examples.append(item)
        elif isinstance(item, Mapping):
            examples.append(example_from_row(item, f"dataset item {i}", f"example-{i}"))
        else:
            raise InputError(f"dataset item {i} is a {type(item).__name__}, not an Example or a dict")
    if not examples:
        raise InputError("the dataset has no examples")
    text = json.dumps([e.to_dict() for e in examples], sort_keys=True, ensure_ascii=False, default=str)
    return examples, "in-memory", hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _setups(setups: SetupsArg, base: CheckConfig | None) -> list[Setup]:
    """Named set-ups from a config, a list of configs, or a grid over ``base``."""
    if setups is None or isinstance(setups, CheckConfig):
        return [Setup(setup_id(setups or base or CheckConfig(), []), setups or base or CheckConfig())]
    if isinstance(setups, Mapping):
        grid = grid_from_mapping(setups)
        return [Setup(setup_id(c, list(grid)), c) for c in expand(base or CheckConfig(), grid)]
    if isinstance(setups, (str, bytes)) or not isinstance(setups, Sequence) or not setups:
        raise InputError("setups must be a CheckConfig, a non-empty list of them, or a grid dict "
                         'such as {"strategy": ["vanilla", "cot"]}')
    bad = [type(c).__name__ for c in setups if not isinstance(c, CheckConfig)]
    if bad:
        raise InputError(f"setups holds a {bad[0]}, not a CheckConfig")
    keys = varied_keys(setups)
    named = [Setup(setup_id(c, keys), c) for c in setups]
    if len({s.id for s in named}) != len(named):
        raise InputError("setups holds the same set-up twice")
    return named


def results_frame(lines: Sequence[dict[str, Any]], keys: Sequence[str] = ()) -> pd.DataFrame:
    """One row per result line: ids, gold and predicted labels, scores, and the set-up's ``keys``."""
    rows = []
    for line in lines:
        result, gold = line["result"], line["gold"]
        rows.append({
            "example_id": line["example_id"],
            "setup": line["setup"],
            **{key: line.get("config", {}).get(key) for key in keys},
            "dataset": line.get("dataset"),
            "domain": line.get("domain"),
            "language": line.get("language"),
            "gold_label": gold["response_label"],
            "predicted_label": result["label"],
            "score": result["score"],
            "error_score": result["error_score"],
            "gold_segment_labels": gold_segment_labels(line),
            "predicted_segment_labels": [v["label"] for v in result["segment_verdicts"]],
            "strategy_run": result["strategy"],
            "fallback": result["fallback"],
            "seconds": line.get("seconds"),
        })
    return pd.DataFrame(rows)


def evaluate(
    dataset: DatasetArg,
    setups: SetupsArg = None,
    *,
    config: CheckConfig | None = None,
    run_dir: str | Path | None = None,
    group: str = "domain",
    model_factory: Callable[[CheckConfig], ChatModel] | None = None,
    concurrency: int = 4,
    show_progress: bool = True,
) -> Evaluation:
    """Judge every example with every set-up, as ``factjudge bench`` does, and tabulate the results.

    ``setups`` is a CheckConfig, a list of them, or a grid such as ``{"strategy": ["vanilla",
    "cot"]}`` over ``config``. Given a ``run_dir``, a second call continues the run there and
    skips what is done; without one the run goes to a new temporary directory.
    """
    if group not in ("domain", "language", "dataset"):
        raise InputError(f"group must be domain, language or dataset, not {group!r}")
    if concurrency < 1:
        raise InputError("concurrency must be at least 1")
    examples, name, digest = _examples(dataset)
    named = _setups(setups, config)
    if model_factory is None:
        for model in dict.fromkeys(s.config.model for s in named):
            check_model_spec(model)  # a bad name fails here, not once per item
    directory = Path(run_dir) if run_dir is not None else Path(tempfile.mkdtemp(prefix="factjudge-eval-"))
    run = BenchRun(directory, examples, named, model_factory=model_factory, dataset=name,
                   dataset_hash=digest, concurrency=concurrency)
    summary = run.run(resume=True, show_progress=show_progress)
    return _tabulate(directory, examples, named, group, summary)


def _tabulate(directory: Path, examples: Sequence[Example], setups: Sequence[Setup], group: str,
              summary: RunSummary) -> Evaluation:
    """This call's (example, set-up) pairs from the run directory, in dataset order per set-up."""
    order = {(e.id, s.id): (j, i) for i, e in enumerate(examples) for j, s in enumerate(setups)}
    configs = {s.id: s.config.to_dict() for s in setups}
    lines = sorted((dict(ln, config=configs[ln["setup"]]) for ln in read_results(directory / RESULTS)
                    if (ln["example_id"], ln["setup"]) in order),
                   key=lambda ln: order[(ln["example_id"], ln["setup"])])
    failures = [f for f in failed_items(read_lines(directory / ERRORS), lines)
                if (f["example_id"], f["setup"]) in order]
    keys = varied_keys([s.config for s in setups])
    return Evaluation(results_frame(lines, keys), metric_rows(lines, group, failures=failures),
                      failures, directory, summary)
