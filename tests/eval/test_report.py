"""TRUE mode with the baselines on BEGIN and Q², the report's tables, and its HTML in Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from factjudge.config import CheckConfig
from factjudge.eval.datasets import dataset_hash, load_dataset
from factjudge.eval.grid import expand, parse_grid, setup_name
from factjudge.eval.report import write_report
from factjudge.eval.runner import BenchRun, Setup
from factjudge.llm.scripted import ScriptedChatModel
from tests.support.browser import chromium, console_errors, needs_chromium

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data")
BASELINES = ["strategy=token_f1,bm25,always_true,always_false"]


def bench(tmp_path: Path, name: str, dataset: str) -> Path:
    grid = parse_grid(BASELINES)
    setups = [Setup.named(setup_name(c, list(grid)), c) for c in expand(CheckConfig(), grid)]
    no_calls = ScriptedChatModel([])  # the baselines must never call a model
    run = BenchRun(tmp_path / name, load_dataset(dataset), setups, model_factory=lambda c: no_calls,
                   dataset=dataset, dataset_hash=dataset_hash(dataset), concurrency=2)
    summary = run.run(show_progress=False)
    assert summary.failed == 0 and not no_calls.calls
    return tmp_path / name


@pytest.fixture(scope="module")
def begin_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench(tmp_path_factory.mktemp("true"), "begin", str(DATA / "begin_dev_wow.tsv"))


def auc_table(run_dir: Path) -> dict[str, float]:
    paths = write_report(run_dir)
    # TRUE's ensemble has a table of its own: no grid asked for it, so it is not a set-up's row.
    table = pd.concat([pd.read_csv(paths["roc_auc"]), pd.read_csv(paths["roc_auc_ensemble"])])
    return {("ensemble" if row.setup.startswith("ensemble") else row.setup.split("strategy=")[1]): row.roc_auc
            for row in table.itertuples()}


def test_true_mode_roc_auc_on_begin_matches_the_known_token_f1_figure(begin_run: Path) -> None:
    auc = auc_table(begin_run)
    assert auc["token_f1"] == pytest.approx(83.2, abs=0.1)  # plain word-token F1: about 83 (issue 4)
    assert auc["bm25"] > auc["token_f1"]
    assert auc["always_true"] == auc["always_false"] == 50.0


def test_true_mode_roc_auc_on_q2_memnet(tmp_path: Path) -> None:
    auc = auc_table(bench(tmp_path, "q2", str(DATA / "q2_memnet")))
    assert auc["token_f1"] == pytest.approx(77.3, abs=0.1)  # about 77 (issue 4)
    assert auc["always_true"] == 50.0
    # TRUE's ensemble (mean of the ranking checkers' scores) beats each of them here
    assert auc["ensemble"] > max(auc["token_f1"], auc["bm25"])


def test_report_writes_felm_shaped_tables_and_plots(begin_run: Path) -> None:
    paths = write_report(begin_run)
    markdown = paths["markdown"].read_text()
    assert "Segment-level balanced accuracy by domain" in markdown
    assert "| setup | dialogue | overall |" in markdown
    table = pd.read_csv(paths["segment_ba_by_domain"], index_col="setup")
    assert table.loc["granularity=segment,strategy=always_true", "overall"] == 50.0
    assert paths["plot1"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "model=local" not in markdown  # model-free set-ups name no model


@needs_chromium
def test_html_report_opens_in_headless_chromium_without_console_errors(begin_run: Path) -> None:
    from selenium.webdriver.common.by import By

    html_path = write_report(begin_run)["html"]
    driver_iter: Iterator[Any] = chromium()
    driver = next(driver_iter)
    try:
        driver.get(html_path.resolve().as_uri())
        assert driver.find_element(By.TAG_NAME, "h1").text.startswith("factjudge report")
        # TRUE pairs get the balanced-accuracy and ROC AUC tables, and no FActScore table (issue 15)
        assert len(driver.find_elements(By.TAG_NAME, "table")) >= 2
        headings = [h.text for h in driver.find_elements(By.TAG_NAME, "h2")]
        assert "Segment-level balanced accuracy by domain" in headings
        assert any(h.startswith("ROC AUC for detecting errors") for h in headings)
        assert not any("FActScore" in h for h in headings)
        images = driver.find_elements(By.TAG_NAME, "img")
        widths = [driver.execute_script("return arguments[0].naturalWidth", i) for i in images]
        assert widths and all(w > 0 for w in widths)
        assert console_errors(driver) == []
    finally:
        driver_iter.close()
