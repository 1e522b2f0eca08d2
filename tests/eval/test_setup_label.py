"""Set-up names a person reads in the report (issue #26, point 11): ids stay keys, labels are shown."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from factjudge.config import CheckConfig
from factjudge.eval.grid import expand, parse_grid, setup_id
from factjudge.eval.report import bar_frame, write_report
from factjudge.eval.report_html import item_record
from factjudge.eval.setup_label import readable_setups, setup_label
from factjudge.eval.summary import OVERALL
from tests.eval.report_fixtures import line, true_pair, write_run


@pytest.mark.parametrize(("setup", "label"), [
    ("granularity=segment,model=local,strategy=fact", "fact · segment · local"),
    ("granularity=segment,strategy=bm25", "bm25 · segment · no model"),
    ("granularity=segment,model=local,strategy=fact→fact/supported",
     "fact → fact or supported · segment · local"),
    ("evidence=kb+llm,granularity=claim,grounded=False,model=local,strategy=evidence",
     "evidence · claim · local · evidence kb+llm · context and knowledge"),
    ("ensemble of granularity=segment,strategy=bm25 + granularity=segment,strategy=token_f1",
     "ensemble of bm25 + token_f1 (segment · no model)"),
    ("ensemble of granularity=segment,model=local,strategy=fact + granularity=claim,model=local,strategy=fact"
     " + granularity=segment,strategy=bm25",
     "ensemble of fact · segment + fact · claim + bm25 · segment"),
    ("judge: segment 1 false", "judge: segment 1 false"),  # a name given by hand stays as it is
    ("human labels", "human labels"),
])
def test_a_setup_id_reads_as_one_line(setup: str, label: str) -> None:
    assert setup_label(setup) == label


def test_every_grid_setup_gets_a_distinct_label_without_key_value_terms() -> None:
    grid = parse_grid(["strategy=fact,supported,bm25", "granularity=segment,claim", "grounded=true,false"])
    ids = [setup_id(c, list(grid)) for c in expand(CheckConfig(), grid)]
    labels = [setup_label(i) for i in ids]
    assert len(set(labels)) == len(set(ids))
    assert not any("=" in label or "," in label for label in labels)


def test_tables_show_labels_and_keep_other_columns() -> None:
    index = pd.Index(["granularity=segment,strategy=bm25"], name="setup")
    by_index = pd.DataFrame({"wk": [1.0]}, index=index)
    assert list(readable_setups(by_index).index) == ["bm25 · segment · no model"]
    by_column = pd.DataFrame({"setup": ["granularity=claim,model=local,strategy=fact"], "n": [3]})
    assert readable_setups(by_column).to_dict("records") == [{"setup": "fact · claim · local", "n": 3}]


def test_the_chart_legend_names_only_setups_that_draw_a_bar() -> None:
    rows = pd.DataFrame([
        {"setup": "granularity=segment,strategy=bm25", "domain": "wk", "segment_ba": 60.0},
        {"setup": "granularity=segment,strategy=bm25", "domain": OVERALL, "segment_ba": 60.0},
        {"setup": "granularity=segment,model=local,strategy=fact", "domain": "wk", "segment_ba": None},
        {"setup": "granularity=segment,model=local,strategy=fact", "domain": OVERALL, "segment_ba": 55.0},
    ])
    assert list(bar_frame(rows, "domain", "segment_ba").columns) == ["bm25 · segment · no model"]


def test_the_report_names_setups_readably_and_its_csv_keeps_the_ids(tmp_path: Path) -> None:
    ids = ["granularity=segment,strategy=bm25", "granularity=segment,strategy=token_f1"]
    lines = [true_pair(f"t{k}", setup, k % 2 == 0, (k * (i + 3)) % 7 / 7, "begin")
             for i, setup in enumerate(ids) for k in range(8)]
    paths = write_report(write_run(tmp_path / "run", lines, "h"))
    markdown, page = paths["markdown"].read_text(), paths["html"].read_text()
    assert "ensemble of bm25 + token_f1 (segment · no model)" in markdown
    for text in (markdown, page.split("id=report-data")[0]):  # the tables, not the page's data
        assert "granularity=" not in text
    assert "granularity=segment,strategy=bm25" in paths["roc_auc"].read_text()  # the run's key


def test_each_segment_shows_its_error_score_and_why_it_got_its_label() -> None:
    judged = line("e1", "s", ["true", "false", "unparseable", "not_checkable"])
    verdicts = judged["result"]["segment_verdicts"]
    verdicts[1].update(raw_reply="False", judge="fact@local", error_score=0.93)
    verdicts[2].update(raw_reply="Maybe?")
    segments = item_record(judged, 0, 0)["segments"]
    assert [s["es"] for s in segments] == ["0.10", "0.93", "", ""]
    assert segments[0]["why"] == ""  # a line written by hand: no grounds, no reply
    assert segments[1]["why"] == "the model replied “False”"
    assert segments[2]["why"] == "the model's reply could not be read as a verdict: “Maybe?”"
    assert segments[3]["why"] == "a personal statement or opinion, not a checkable fact"
    # A line written now: the words come from its grounds.
    verdicts[1].update(grounds={"rule": "cut", "score": 0.93, "true_below": 0.41, "false_from": 0.41},
                       evidence=[{"source": "context", "text": "It opened in 1937."}])
    assert item_record(judged, 0, 0)["segments"][1]["why"] == "the context does not support it"
