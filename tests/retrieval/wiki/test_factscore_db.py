from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.retrieval.wiki.factscore_db import SEPARATOR, FactScoreWiki

DOCUMENTS = {
    "Marie Curie": [
        "Marie Curie was a Polish and naturalised-French physicist and chemist.",
        "She was the first woman to win a Nobel Prize, in 1903, shared with Pierre Curie.",
        "Curie died in 1934 at a sanatorium in Passy, of aplastic anaemia.",
    ],
    "Pierre Curie": ["Pierre Curie was a French physicist and a pioneer in crystallography."],
    "Nobel Prize": ["The Nobel Prizes are awarded in physics, chemistry, medicine, literature and peace."],
}


def make_db(path: Path, documents: dict[str, list[str]] = DOCUMENTS) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE documents (title PRIMARY KEY, text)")
        db.executemany("INSERT INTO documents VALUES (?, ?)",
                       [(title, SEPARATOR.join(parts)) for title, parts in documents.items()])
    db.close()
    return path


def test_the_topic_article_passages_come_as_stored_best_first(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    found = wiki.search("Marie Curie won the Nobel Prize in 1903.", 5, topics=["Marie Curie"])
    assert [e.title for e in found] == ["Marie Curie"] * 3  # the topic's passages, no others
    assert found[0].text == DOCUMENTS["Marie Curie"][1]
    assert {e.text for e in found} == set(DOCUMENTS["Marie Curie"])
    assert found[0].url == "https://en.wikipedia.org/wiki/Marie_Curie"
    assert str(wiki.spec) == f"factscore:{tmp_path / 'enwiki.db'}"


def test_a_topic_in_another_case_still_finds_its_article(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    found = wiki.search("She died in 1934.", 2, topics=["marie curie"])
    assert found[0].title == "Marie Curie"
    assert found[0].text == DOCUMENTS["Marie Curie"][2]


def test_without_a_topic_in_the_file_names_in_the_query_are_looked_up(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    found = wiki.search("Pierre Curie was a pioneer in crystallography.", 2, topics=["Someone Else"])
    assert found[0].title == "Pierre Curie"


def test_no_title_found_means_no_evidence(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    assert wiki.search("the first woman to win a physics prize", 3) == []


def test_the_file_is_opened_read_only(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        wiki._db.execute("DELETE FROM documents")


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100])
def test_a_file_that_is_not_that_database_is_one_input_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "enwiki.db"
    path.write_bytes(content)
    with pytest.raises(InputError, match="is not a FActScore wiki database"):
        FactScoreWiki(path)


def test_another_schema_and_a_missing_file_are_input_errors(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE pages (name, body)")
    db.close()
    with pytest.raises(InputError, match="no such table: documents"):
        FactScoreWiki(other)
    with pytest.raises(InputError, match="no FActScore wiki database at"):
        FactScoreWiki(tmp_path / "missing.db")


def test_a_row_of_bad_utf8_or_a_blob_is_read_not_fatal(tmp_path: Path) -> None:
    path = make_db(tmp_path / "enwiki.db")
    with sqlite3.connect(path) as db:
        # TEXT holding bytes that are not UTF-8 (written as a BLOB, then cast), and a BLOB article.
        db.execute("INSERT INTO documents VALUES ('Ada Lovelace', CAST(? AS TEXT))",
                   (b"Ada Lovelace was a mathematician \xff\xfe born in 1815.",))
        db.execute("INSERT INTO documents VALUES ('Alan Turing', ?)",
                   (SEPARATOR.join(["Alan Turing was a mathematician.", "He was born in 1912."]).encode(),))
    db.close()
    wiki = FactScoreWiki(path)
    ada = wiki.search("She was born in 1815.", 1, topics=["Ada Lovelace"])
    assert ada[0].text == "Ada Lovelace was a mathematician \ufffd\ufffd born in 1815."
    turing = wiki.search("He was born in 1912.", 2, topics=["Alan Turing"])
    assert turing[0].text == "He was born in 1912." and not turing[0].text.startswith("b'")
    assert {e.title for e in turing} == {"Alan Turing"}
