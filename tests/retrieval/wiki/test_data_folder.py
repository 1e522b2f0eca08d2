"""What ``auto`` and ``wiki status`` find in the data folder: nothing there may block them (a FIFO
named ``*.db``), and what status flags (an empty or unindexed ZIM, a file of another schema) auto
passes over, and says so (issue 44, points 1, 5 and 12)."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.retrieval.regular import not_regular, read_head
from factjudge.retrieval.wiki.installed import best_for, factscore_dbs, installed_sources, passed_over

ROOT = Path(__file__).resolve().parents[3]


def run_bounded(code: str, env: dict[str, str], seconds: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that must end within ``seconds`` (a hang fails the test)."""
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds,
                              env={**os.environ, "PYTHONPATH": str(ROOT), **env}, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {seconds:g} s: {code}")


@pytest.fixture
def fifo_folder(tmp_path: Path) -> dict[str, str]:
    """A data folder and a cache whose FIFOs are named as every kind of data file."""
    data, cache = tmp_path / "data" / "factjudge" / "wiki", tmp_path / "cache" / "factjudge" / "wiki"
    data.mkdir(parents=True)
    cache.mkdir(parents=True)
    for fifo in (data / "enwiki-20230401.db", data / "wikipedia_en_all_maxi_2024-01.zim",
                 cache / "packaged-0123456789abcdef-v1.sqlite", tmp_path / "kb.sqlite"):
        os.mkfifo(fifo)
    return {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "KB": str(tmp_path / "kb.sqlite")}


def test_a_fifo_named_like_a_data_file_blocks_neither_auto_nor_wiki_status(
        fifo_folder: dict[str, str]) -> None:
    # What a default check (and serve's start-up) asks first: the source auto picks.
    picked = run_bounded("from factjudge.config import CheckConfig\n"
                         "print(CheckConfig(language='en').wiki_source())", fifo_folder)
    assert picked.returncode == 0, picked.stderr
    assert "enwiki-20230401.db" not in picked.stdout and ".zim" not in picked.stdout
    assert "auto passes over factscore:" in picked.stderr and "a FIFO" in picked.stderr
    status = run_bounded("import sys\nfrom factjudge.cli import main\nsys.exit(main(['wiki', 'status']))",
                         fifo_folder)
    assert status.returncode == 0, status.stderr
    # the .db and the .zim
    assert status.stdout.count("not a regular file (a FIFO): auto passes over it") == 2
    assert "auto for en: factscore" not in status.stdout and "auto for en: zim" not in status.stdout


def test_a_fifo_is_no_knowledge_base_and_no_index(fifo_folder: dict[str, str]) -> None:
    opened = run_bounded("import os\nfrom factjudge.retrieval.kb import KnowledgeBase, file_damage\n"
                         "print(file_damage(os.environ['KB']))\n"
                         "try:\n    KnowledgeBase(os.environ['KB'])\nexcept Exception as exc:\n"
                         "    print(type(exc).__name__, exc)", fifo_folder)
    assert opened.returncode == 0, opened.stderr
    said = opened.stdout.splitlines()
    assert said[0] == "not a regular file (a FIFO)"
    assert said[1].startswith("SourceUnusable cannot open knowledge base") and "a FIFO" in said[1]


def test_regular_files_only_are_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "file").write_bytes(b"SQLite format 3\0rest")
    assert not_regular(tmp_path / "pipe") == "not a regular file (a FIFO)"
    assert not_regular(tmp_path) == "not a regular file (a folder)"
    assert not_regular(tmp_path / "missing") == "missing"
    assert not_regular(tmp_path / "file") is None and read_head(tmp_path / "file", 6) == b"SQLite"
    with pytest.raises(OSError, match="a FIFO"):
        read_head(tmp_path / "pipe", 100)  # returns at once: no writer is waited for


def _bad_utf8_db(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        # FActScore's dump has rows like this: TEXT that is not UTF-8
        db.execute("INSERT INTO documents VALUES (?, CAST(? AS TEXT))",
                   ("Aardvark", b"An aardvark \xff\xfe."))
        db.execute("INSERT INTO documents VALUES (?, ?)", ("Paris", "Paris is the capital of France."))
    db.close()
    return path


def test_a_factscore_db_whose_first_row_is_bad_utf8_is_read_and_another_schema_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = _bad_utf8_db(tmp_path / "enwiki-20230401.db")
    with sqlite3.connect(tmp_path / "notes.db") as other:
        other.execute("CREATE TABLE notes (body)")
    other.close()
    assert factscore_dbs(tmp_path) == [db]
    with caplog.at_level(logging.WARNING):
        assert best_for("en", tmp_path) == f"factscore:{db}"
    assert f"auto passes over factscore:{tmp_path / 'notes.db'}: not a FActScore database" in caplog.text
    notes = {s.spec: s.note for s in installed_sources(tmp_path, cache=tmp_path / "cache")}
    assert notes[f"factscore:{db}"] == ""
    assert notes[f"factscore:{tmp_path / 'notes.db'}"].endswith(
        "no such table: documents: auto passes over it")


def test_auto_passes_over_an_empty_or_unindexed_zim_and_says_so(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("libzim.writer")
    from tests.retrieval.wiki.test_zim import make_zim

    empty = tmp_path / "wikipedia_en_all_maxi_2024-05.zim"
    empty.write_bytes(b"")
    plain = make_zim(tmp_path / "wikipedia_en_all_nopic_2024-05.zim", index=False)
    garbage = tmp_path / "wikipedia_en_top_maxi_2024-05.zim"
    garbage.write_bytes(b"not a zim " * 100)
    good = make_zim(tmp_path / "wikipedia_en_top_nopic_2024-01.zim")  # ranked after all three
    with caplog.at_level(logging.WARNING):
        assert best_for("en", tmp_path) == f"zim:{good}"
    told = dict(passed_over("en", tmp_path))
    assert told[f"zim:{empty}"] == "empty (0 bytes)"
    assert told[f"zim:{plain}"] == "no full-text index"
    assert told[f"zim:{garbage}"].startswith("unreadable")
    assert f"auto passes over zim:{plain}: no full-text index" in caplog.text
    notes = {s.spec: s.note for s in installed_sources(tmp_path, cache=tmp_path / "cache")}
    assert notes[f"zim:{empty}"] == "empty (0 bytes): auto passes over it"
    assert notes[f"zim:{good}"] == ""
    good.unlink()
    assert not (best_for("en", tmp_path) or "").startswith("zim:")  # none readable: never a flagged one
