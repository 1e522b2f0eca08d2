"""`factjudge index` and `check --evidence kb`: knowledge bases from the command line."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.pipeline import Checker

FIXTURE = Path(__file__).parent / "fixtures" / "kb_multilingual.jsonl"
DUMP = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xml:lang="en">
<siteinfo><sitename>Test</sitename></siteinfo>
<page><title>Arctic Ocean</title><ns>0</ns><id>1</id><revision><id>2</id><text xml:space="preserve">
The '''Arctic Ocean''' is the smallest of the [[ocean|oceans]], about 14 million km2.{{cite web|x=1}}
</text></revision></page>
</mediawiki>"""


def test_build_info_and_search_from_jsonl_folder_and_dump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "everest.md").write_text("Mount Everest is 8,849 metres high, on the Nepal–China border.")
    (tmp_path / "wiki.xml.bz2").write_bytes(bz2.compress(DUMP.encode()))
    kb = str(tmp_path / "kb.sqlite")
    assert main(["index", "build", kb, str(FIXTURE), str(folder), str(tmp_path / "wiki.xml.bz2")]) == 0
    assert main(["index", "info", kb]) == 0
    assert main(["index", "search", kb, "How high is Mount Everest?", "--k", "1", "--json"]) == 0
    out = capsys.readouterr().out
    hits = json.loads(out[out.rindex("[\n"):])
    assert hits[0]["title"] == "everest" and "8,849" in hits[0]["text"]
    assert main(["index", "search", kb, "smallest ocean", "--k", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)[0]["title"] == "Arctic Ocean" and "{{" not in out


def test_bad_sources_are_one_line_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "x"}\n')
    assert main(["index", "build", str(tmp_path / "kb.sqlite"), str(bad)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err
    assert main(["index", "search", str(tmp_path / "none.sqlite"), "q"]) == 2


def test_check_uses_kb_evidence_per_claim(tmp_path: Path) -> None:
    kb = str(tmp_path / "kb.sqlite")
    assert main(["index", "build", kb, str(FIXTURE)]) == 0
    model = ScriptedChatModel(lambda m: "True")
    config = CheckConfig(strategy="fact", evidence=("kb",), kb=kb, k=2)
    result = Checker(config, model).check("Who was Marie Curie?", "Marie Curie discovered radium.")
    evidence = result.segment_verdicts[0].evidence
    assert evidence and evidence[0].source == "kb" and "radium" in evidence[0].text
    assert "radium" in model.calls[0][0]["content"].split("<passages>")[-1]


def test_a_large_knowledge_base_gets_its_bm25s_index_at_build_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from factjudge.retrieval import kb as kb_module

    monkeypatch.setattr(kb_module, "BM25S_FROM", 1)  # as if the fixture were past the threshold
    kb = tmp_path / "kb.sqlite"
    assert main(["index", "build", str(kb), str(FIXTURE)]) == 0
    assert "bm25s index:" in capsys.readouterr().out
    assert (tmp_path / "kb.sqlite.bm25s" / "meta.json").is_file()
    assert main(["index", "search", str(kb), "Who discovered radium?", "--k", "1", "--json"]) == 0
    assert "radium" in json.loads(capsys.readouterr().out)[0]["text"]
