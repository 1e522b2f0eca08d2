"""benchmarks/data: the committed dev files load as TRUE pairs; their converters map labels as documented."""

from __future__ import annotations

import argparse
import csv
import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from factjudge.eval.datasets import load_dataset

BENCH_DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


def converter(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH_DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_faithdial_audit_file_loads_as_true_pairs() -> None:
    examples = load_dataset(BENCH_DATA / "faithdial_audit_dev.jsonl")
    assert len(examples) == 737
    assert sum(e.response_label is True for e in examples) == 248
    assert sum(e.response_label is False for e in examples) == 489
    assert {e.dataset for e in examples} == {"faithdial-audit"}
    assert all(e.grounding.strip() and e.answer.strip() for e in examples)
    assert {e.meta["system"] for e in examples} == {"gold", "gpt2", "doha", "ctrl"}
    # A --limit prefix is a mixed sample, not one system or one label.
    head = examples[:100]
    assert {e.response_label for e in head} == {True, False} and len({e.meta["system"] for e in head}) == 4


def _write(path: Path, header: list[str], rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def test_faithdial_audit_converter_maps_begin_labels(tmp_path: Path) -> None:
    module = converter("convert_faithdial_audit")
    _write(tmp_path / "data-audit/gold/wow.csv", ["evidence", "history", "response", "BEGIN", "VRM"], [
        ["K1", "h", "entailed", "Entailment", "Edification"],
        ["K2", "h", "partly made up", "Partial Hallucination", "Disclosure"],
        ["K3", "h", "cool!", "Generic", "Acknowledgement"],
        ["K4", "h", "no labels", "", ""],
    ])
    for system in ("gpt2", "doha", "ctrl"):
        folder = {"gpt2": "GPT2", "doha": "DoHA", "ctrl": "CTRL"}[system]
        _write(tmp_path / f"data-audit/{folder}/{system}_processed_wow.csv",
               ["knowledge", "history", system, "begin_label", "vrm_label"], [
                   ["K", "h", f"{system} entailed", "entailmentt, uncooperative", "edification"],
                   ["K", "h", f"{system} mixed", "entailment,hallucination", "edification"],
                   ["K", "h", f"{system} mixed", "entailment,hallucination", "edification"],
                   ["K", "h", f"{system} off", "uncooperative", "question"],
               ])
    rows, dropped = module.convert(tmp_path, "HEAD")
    labels = {row["answer"]: row["response_label"] for row in rows}
    assert labels == {"entailed": True, "partly made up": False, "gpt2 entailed": True, "gpt2 mixed": False,
                      "doha entailed": True, "doha mixed": False, "ctrl entailed": True, "ctrl mixed": False}
    assert dropped == {"unlabelled": 1, "generic or uncooperative": 4, "duplicate pair": 3,
                       "conflicting duplicate": 0}
    out = tmp_path / "out.jsonl"
    out.write_text("".join(module.json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert {e.response_label for e in load_dataset(out)} == {True, False}


def test_faithdial_audit_converter_refuses_an_unknown_label(tmp_path: Path) -> None:
    module = converter("convert_faithdial_audit")
    with pytest.raises(SystemExit, match="unknown BEGIN label"):
        module.begin_labels("Entailment, contradiction")


def _fake_bench(calls: list[tuple[str, Path, tuple[str, ...]]]) -> Callable[..., list[dict[str, Any]]]:
    """A stand-in for local_judge.bench: scripted error scores on the real examples, no model."""

    def bench(run_dir: Path, dataset: Path, grid: list[str], model: str, *extra: str) -> list[dict[str, Any]]:
        calls.append((run_dir.name, dataset, extra))
        examples = load_dataset(dataset)
        if "--limit" in extra:
            examples = examples[:int(extra[extra.index("--limit") + 1])]
        lines = []
        for strategy in ("supported", "token_f1"):
            for number, example in enumerate(examples):
                # Mostly right, with every seventh pair wrong, so the AUC is high but not perfect.
                error = (not example.response_label) != (number % 7 == 0)
                score = 0.3 + 0.4 * error + 0.01 * (number % 5)
                lines.append({"setup": f"strategy={strategy}", "dataset": example.dataset,
                              "example_id": example.id,
                              "gold": {"response_label": example.response_label, "segment_labels": []},
                              "result": {"question": example.question, "answer": example.answer,
                                         "segments": [], "claims": [], "strategy": strategy,
                                         "error_score": score, "score": None, "model": model,
                                         "granularity": "segment", "domain": "",
                                         "label": "false" if score >= 0.5 else "true",
                                         "segment_verdicts": [], "claim_verdicts": []}})
        return lines

    return bench


def test_local_judge_true_part_covers_the_faithdial_audit(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.syspath_prepend(str(BENCH_DATA.parent))
    local_judge = pytest.importorskip("local_judge")
    if not (local_judge.DATA / "begin_dev_wow.tsv").exists():
        pytest.skip(f"{local_judge.DATA} is not here")
    calls: list[tuple[str, Path, tuple[str, ...]]] = []
    monkeypatch.setattr(local_judge, "bench", _fake_bench(calls))
    args = argparse.Namespace(data=local_judge.DATA, bench_data=BENCH_DATA, runs=Path("unused"), model="m",
                              true_limit=40, q2_all=False, extra_limit=60, list_judge=False)
    local_judge.true_part(args)
    assert calls[-1] == ("faithdial", BENCH_DATA / "faithdial_audit_dev.jsonl", ("--limit", "60"))
    out = capsys.readouterr().out
    assert "faithdial-audit" in out  # a row of the ROC AUC table
    assert "tuned on begin+q2+faithdial" in out
    assert "faithdial: balanced accuracy" in out and "tuned on begin+q2 alone" in out
