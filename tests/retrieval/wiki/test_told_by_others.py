"""A work counted in words is linked to its numbered title ("la Cinquième Symphonie de Beethoven" →
*Symphonie no 5 de Beethoven*), and a subject with no article of its own is read in the sentences that name
it in the articles of the item's other names ("Il traverse Lyon" of the Rhône: *Lyon* says "au confluent du
Rhône"), never in those articles whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import read_passages, summary_files

LEADS = [
    ("Symphony No. 5 (Beethoven)", "en", "Symphony by Ludwig van Beethoven", "Arts",
     "The Symphony No. 5 in C minor, Op. 67, is a symphony composed by Ludwig van Beethoven between 1804 "
     "and 1808. First performed in Vienna in 1808, the work achieved its reputation not long afterward."),
    ("Symphony No. 2 (Mahler)", "en", "Symphony by Gustav Mahler", "Arts",
     "The Symphony No. 2 in C minor by Gustav Mahler was written between 1888 and 1894."),
    ("Symphonie no 5 de Beethoven", "fr", "symphonie de Beethoven", "Arts",
     "La Symphonie no 5 en ut mineur, op. 67, a été écrite par Ludwig van Beethoven en 1805-1807 et créée le "
     "22 décembre 1808 au Theater an der Wien de Vienne."),
    ("Sinfonía n.º 5 (Beethoven)", "es", "sinfonía de Beethoven", "Artes",
     "La Sinfonía n.º 5 en do menor, Op. 67, fue compuesta por Ludwig van Beethoven entre 1804 y 1808."),
    ("World War II", "en", "Global conflict (1939–1945)", "History",
     "World War II was a global conflict that lasted from 1939 to 1945."),
    ("Lyon", "fr", "commune française", "Géographie",
     "Lyon est une commune du centre-est de la France, au confluent du Rhône et de la Saône. Elle compte "
     "plus de 500 000 habitants."),
    ("Toulouse", "fr", "commune française", "Géographie",
     "Toulouse est une commune du Sud-Ouest de la France, préfecture du département de la Haute-Garonne."),
    ("Düsseldorf", "es", "ciudad de Alemania", "Geografía",
     "Düsseldorf es una ciudad de Alemania, capital del estado federado de Renania del Norte-Westfalia. "
     "Tiene una población de 645 923 habitantes."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


@pytest.mark.parametrize(("question", "item", "title"), [
    ("Quand a-t-elle été créée ?", "La Cinquième Symphonie de Beethoven a été créée à Vienne en 1808.",
     "Symphonie no 5 de Beethoven"),
    ("When did it premiere?", "Beethoven's Fifth Symphony premiered in Vienna in 1808.",
     "Symphony No. 5 (Beethoven)"),
    ("¿Cuándo se compuso?", "La Quinta Sinfonía de Beethoven se compuso entre 1804 y 1808.",
     "Sinfonía n.º 5 (Beethoven)"),
    ("When did it end?", "World War Two ended in 1945.", "World War II"),
])
def test_a_thing_counted_in_words_is_read_in_its_numbered_article(wiki: PackagedWiki, question: str,
                                                                   item: str, title: str) -> None:
    read = read_passages(wiki, question, item, item)
    assert read and read[0][0] == title


def test_the_maker_chooses_among_works_of_the_same_number(wiki: PackagedWiki) -> None:
    item = "Mahler's Second Symphony was written between 1888 and 1894."
    assert read_passages(wiki, "When was it written?", item, item)[0][0] == "Symphony No. 2 (Mahler)"


def test_a_subject_with_no_article_is_read_where_another_named_article_names_it(wiki: PackagedWiki) -> None:
    answer = "Le Rhône est un fleuve qui prend sa source en Suisse. Il traverse Lyon."
    read = read_passages(wiki, "Parle-moi du Rhône.", answer, "Il traverse Lyon.")
    # Only the sentence naming the river, not the article's other sentences.
    lyon = "Lyon est une commune du centre-est de la France, au confluent du Rhône et de la Saône."
    assert read == [("Lyon", lyon)]
    reading = wiki.read("Il traverse Lyon.", 3, subjects=Subjects.of("Parle-moi du Rhône.", answer))
    assert reading.article is None
    assert reading.note == ("no article about Rhône in the packaged Wikipedia summaries; read where Lyon "
                            "names it")


def test_a_subject_named_inside_another_name_or_nowhere_adds_nothing(wiki: PackagedWiki) -> None:
    answer = "La Garonne est un fleuve. Elle traverse Toulouse."
    # "Haute-Garonne" is a department, not the river.
    assert read_passages(wiki, "Parle-moi de la Garonne.", answer, "Elle traverse Toulouse.") == []


def test_a_capital_with_no_article_of_its_region_is_read_in_the_citys(wiki: PackagedWiki) -> None:
    item = "La capital de Renania del Norte-Westfalia es la ciudad alemana de Düsseldorf."
    read = read_passages(wiki, "¿Cuál es la capital de Renania del Norte-Westfalia?", item, item)
    assert read == [("Düsseldorf", "Düsseldorf es una ciudad de Alemania, capital del estado federado de "
                                   "Renania del Norte-Westfalia.")]
