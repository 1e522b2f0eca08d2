"""Set-up names (issue #26 point 11, issue 33 point 4): a set-up's settings are data, recorded in the run's
manifest; its id (the run's key) and the label a person reads are both made from them, never parsed back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from factjudge.config import CheckConfig
from factjudge.eval.datasets import Example
from factjudge.eval.grid import expand, parse_grid, setup_name
from factjudge.eval.report import bar_frame, write_report
from factjudge.eval.report_html import item_record
from factjudge.eval.results import read_json
from factjudge.eval.runner import MANIFEST, BenchRun, Setup, name_setups, read_manifest, resumed_setups
from factjudge.eval.setup_name import MANIFEST_KEY, Planned, SetupLabels, SetupName, ensemble_id
from factjudge.eval.summary import OVERALL
from factjudge.llm.scripted import ScriptedChatModel
from tests.eval.report_fixtures import line, true_pair, write_run

BM25 = setup_name(CheckConfig(strategy="bm25"), ["strategy"])
TOKEN_F1 = setup_name(CheckConfig(strategy="token_f1"), ["strategy"])
FACT = setup_name(CheckConfig(strategy="fact"), ["strategy"])
FACT_ON_CLAIMS = setup_name(CheckConfig(strategy="fact", granularity="claim"), ["strategy", "granularity"])


@pytest.mark.parametrize(("config", "keys", "planned", "setup", "label"), [
    (CheckConfig(strategy="fact"), ["strategy"], None,
     "granularity=segment,model=local,strategy=fact", "fact · segment · local"),
    (CheckConfig(strategy="bm25"), ["strategy"], None, "granularity=segment,strategy=bm25",
     "bm25 · segment · no model"),
    (CheckConfig(strategy="fact"), ["strategy"], {"strategy": ["fact", "supported"]},
     "granularity=segment,model=local,strategy=fact→fact/supported",
     "fact → fact or supported · segment · local"),
    (CheckConfig(), [], {"strategy": ["fact", "supported"], "granularity": ["claim", "segment"]},
     "granularity=segment→claim/segment,model=local,strategy=fact/supported",
     "fact or supported · segment → claim or segment · local"),
    (CheckConfig(strategy="evidence", granularity="claim", evidence=("wiki", "llm"), grounded=False),
     ["evidence", "grounded", "strategy"],
     None, "evidence=wiki+llm,granularity=claim,grounded=False,model=local,strategy=evidence",
     "evidence · claim · local · evidence wiki+llm · context and knowledge"),
    (CheckConfig(strategy="vanilla", batch_size=None, use_refs=False, timeout=30.0),
     ["batch_size", "strategy", "timeout", "use_refs"], None,
     "batch_size=None,granularity=segment,model=local,strategy=vanilla,timeout=30.0,use_refs=False",
     "vanilla · segment · local · batch size None · timeout 30.0 · no refs"),
])
def test_a_setup_is_named_from_its_settings(config: CheckConfig, keys: list[str], planned: Any, setup: str,
                                            label: str) -> None:
    name = setup_name(config, keys, planned)
    assert (name.id, name.label) == (setup, label)  # the ids are byte for byte those runs resume by
    recorded = SetupName.from_dict(json.loads(json.dumps(name.to_dict())))
    assert recorded == name and (recorded.id, recorded.label) == (setup, label)


def test_a_planned_setting_keeps_what_was_asked_and_what_ran() -> None:
    name = setup_name(CheckConfig(strategy="fact"), ["strategy"], {"strategy": ["fact", "supported"]})
    assert name.settings["strategy"] == Planned("fact", ("fact", "supported"))
    assert name.to_dict()["strategy"] == {"asked": "fact", "ran": ["fact", "supported"]}


def test_an_ensemble_is_keyed_by_its_members_ids_and_named_from_their_settings() -> None:
    pair = ensemble_id([BM25.id, TOKEN_F1.id])
    assert pair == "ensemble of granularity=segment,strategy=bm25 + granularity=segment,strategy=token_f1"
    three = ensemble_id([FACT.id, FACT_ON_CLAIMS.id, BM25.id])
    assert three == ("ensemble of granularity=segment,model=local,strategy=fact + "
                     "granularity=claim,model=local,strategy=fact + granularity=segment,strategy=bm25")
    by_hand = ensemble_id(["judge", BM25.id])
    labels = SetupLabels({n.id: n for n in (BM25, TOKEN_F1, FACT, FACT_ON_CLAIMS)}).with_ensembles(
        {pair: (BM25.id, TOKEN_F1.id), three: (FACT.id, FACT_ON_CLAIMS.id, BM25.id),
         by_hand: ("judge", BM25.id)})
    assert labels(pair) == "ensemble of bm25 + token_f1 (segment · no model)"
    assert labels(three) == "ensemble of fact · segment + fact · claim + bm25 · segment"
    assert labels(by_hand) == by_hand  # a member with no recorded settings: the ensemble keeps its id


def test_labels_come_from_recorded_settings_and_a_setup_without_them_keeps_its_id() -> None:
    labels = SetupLabels.recorded({MANIFEST_KEY: {FACT.id: FACT.to_dict()}})
    assert labels(FACT.id) == "fact · segment · local"
    # Named by hand, or recorded before settings were: shown as it is, never parsed.
    for setup in ("judge: segment 1 false", "human labels", BM25.id):
        assert labels(setup) == setup
    assert SetupLabels.recorded({})(FACT.id) == FACT.id


def test_every_grid_setup_gets_a_distinct_label_without_key_value_terms() -> None:
    grid = parse_grid(["strategy=fact,supported,bm25", "granularity=segment,claim", "grounded=true,false"])
    names = [setup_name(c, list(grid)) for c in expand(CheckConfig(), grid)]
    labels = [n.label for n in names]
    assert len(set(labels)) == len({n.id for n in names}) == len(names)
    assert not any("=" in label or "," in label for label in labels)


def test_tables_show_labels_and_keep_other_columns() -> None:
    labels = SetupLabels({n.id: n for n in (BM25, FACT_ON_CLAIMS)})
    by_index = pd.DataFrame({"wk": [1.0]}, index=pd.Index([BM25.id], name="setup"))
    assert list(labels.tables(by_index).index) == ["bm25 · segment · no model"]
    by_column = pd.DataFrame({"setup": [FACT_ON_CLAIMS.id], "n": [3]})
    assert labels.tables(by_column).to_dict("records") == [{"setup": "fact · claim · local", "n": 3}]


def test_the_chart_legend_names_only_setups_that_draw_a_bar() -> None:
    rows = pd.DataFrame([
        {"setup": BM25.id, "domain": "wk", "segment_ba": 60.0},
        {"setup": BM25.id, "domain": OVERALL, "segment_ba": 60.0},
        {"setup": FACT.id, "domain": "wk", "segment_ba": None},
        {"setup": FACT.id, "domain": OVERALL, "segment_ba": 55.0},
    ])
    labels = SetupLabels({n.id: n for n in (BM25, FACT)})
    assert list(bar_frame(rows, "domain", "segment_ba", labels).columns) == ["bm25 · segment · no model"]


def _two_scorers() -> list[dict[str, Any]]:
    return [true_pair(f"t{k}", name.id, k % 2 == 0, (k * (i + 3)) % 7 / 7, "begin")
            for i, name in enumerate((BM25, TOKEN_F1)) for k in range(8)]


def test_the_report_names_setups_from_the_recorded_settings_and_its_csv_keeps_the_ids(tmp_path: Path) -> None:
    paths = write_report(write_run(tmp_path / "run", _two_scorers(), "h", names=[BM25, TOKEN_F1]))
    markdown, page = paths["markdown"].read_text(), paths["html"].read_text()
    assert "ensemble of bm25 + token_f1 (segment · no model)" in markdown
    assert "| bm25 · segment · no model |" in markdown
    for text in (markdown, page.split("id=report-data")[0]):  # the tables, not the page's data
        assert "granularity=" not in text
    assert '"setup_labels":["bm25 · segment · no model","token_f1 · segment · no model"]' in page
    assert BM25.id in paths["roc_auc"].read_text()  # the run's key


def test_a_run_recorded_without_settings_shows_its_ids(tmp_path: Path) -> None:
    markdown = write_report(write_run(tmp_path / "old", _two_scorers(), "h"))["markdown"].read_text()
    assert f"| {BM25.id} |" in markdown and f"| {ensemble_id([BM25.id, TOKEN_F1.id])} |" in markdown
    assert "·" not in markdown.split("## ")[1]


def test_bench_records_each_grid_setups_settings_and_a_resume_keeps_them(tmp_path: Path) -> None:
    examples = [Example(id=f"e{k}", question="Q?", answer=f"Answer {k}.", segment_labels=(k % 2 == 0,),
                        response_label=k % 2 == 0, dataset="hand") for k in range(4)]
    grid = parse_grid(["strategy=always_true,always_false"])
    setups = [*name_setups(expand(CheckConfig(), grid), list(grid), examples, lambda c: "local"),
              Setup("judge: by hand", CheckConfig(strategy="always_true", granularity="claim"))]
    run_dir = tmp_path / "run"
    no_calls = ScriptedChatModel([])
    BenchRun(run_dir, examples, setups, model_factory=lambda c: no_calls, dataset="hand",
             dataset_hash="h").run(show_progress=False)
    recorded = read_json(run_dir / MANIFEST)[MANIFEST_KEY]
    assert recorded == {s.id: s.name.to_dict() for s in setups if s.name is not None}
    assert set(recorded) == {"granularity=segment,strategy=always_true",
                             "granularity=segment,strategy=always_false"}
    markdown = write_report(run_dir)["markdown"].read_text()
    assert "| always_true · segment · no model |" in markdown and "| judge: by hand |" in markdown
    # Resumed from the manifest, the set-ups carry no names; the recorded ones stay.
    manifest = read_manifest(run_dir)
    assert manifest is not None
    BenchRun(run_dir, examples, resumed_setups(run_dir, manifest, None), model_factory=lambda c: no_calls,
             dataset="hand", dataset_hash="h").run(resume=True, show_progress=False)
    assert read_json(run_dir / MANIFEST)[MANIFEST_KEY] == recorded


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
