"""Mu-SHROOM through the bench: per-language table with span scores beside the floors."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from factjudge.config import CheckConfig
from factjudge.eval.datasets import load_dataset
from factjudge.eval.report import write_report
from factjudge.eval.runner import BenchRun, Setup
from factjudge.llm.scripted import ScriptedChatModel
from tests.eval.test_felm_table import reply

MUSHROOM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "mushroom_val"
pytestmark = pytest.mark.skipif(not MUSHROOM.is_dir(), reason="needs ../shared/data")


def test_per_language_report_with_span_scores_and_baselines(tmp_path: Path) -> None:
    examples = load_dataset(str(MUSHROOM))
    languages = sorted({e.language for e in examples})
    picked = [e for lang in languages for e in [x for x in examples if x.language == lang][:3]]
    model = ScriptedChatModel(reply)
    run = BenchRun(tmp_path / "run", picked, [Setup("scripted", CheckConfig(model="scripted"))],
                   model_factory=lambda c: model, dataset=str(MUSHROOM), dataset_hash="m")
    assert run.run(show_progress=False).done == len(picked)
    paths = write_report(tmp_path / "run")
    table = pd.read_csv(paths["per_language"])
    assert len(languages) == 10
    assert set(table["setup"]) == {"scripted", "baseline: mark all", "baseline: mark none"}
    ours = table[table["setup"] == "scripted"].set_index("language")
    assert list(ours.index) == languages
    assert ours["span_iou"].between(0, 100).all() and ours["segment_ba"].notna().any()
    assert (ours["facts_per_answer"] > 0).all()
    spans = pd.read_csv(paths["spans_by_language"])
    none = spans[spans["setup"] == "baseline: mark none"]
    assert none["span_iou"].between(0, 100).all()
    assert "Mu-SHROOM span IoU by language" in paths["markdown"].read_text()
