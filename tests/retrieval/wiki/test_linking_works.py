"""An item saying that the person an answer is about made a work ("He painted the Mona Lisa") reads the
sentence of the work's article naming that person: a person's short lead often leaves the work out. A
work whose article names someone else as its maker adds that opening sentence alone (it contradicts the
item), and an item that says no making adds nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.packaged import PackagedWiki
from tests.retrieval.wiki.leads import read_passages, summary_files

LEADS = [
    ("Leonardo da Vinci", "en", "Italian polymath (1452–1519)", "People",
     "Leonardo da Vinci was an Italian polymath of the High Renaissance. He was active as a painter, "
     "draughtsman, engineer and scientist."),
    ("Mona Lisa", "en", "Painting by Leonardo da Vinci", "Arts",
     "The Mona Lisa is a half-length portrait painting. It was painted by the Italian artist Leonardo da "
     "Vinci. It hangs in the Louvre."),
    ("The Starry Night", "en", "Painting by Vincent van Gogh", "Arts",
     "The Starry Night is an oil-on-canvas painting by the Dutch painter Vincent van Gogh, painted in 1889."),
    ("Gabriel García Márquez", "es", "escritor colombiano (1927–2014)", "Personas",
     "Gabriel García Márquez fue un escritor y periodista colombiano."),
    ("Cien años de soledad", "es", "novela de 1967", "Artes",
     "Cien años de soledad es una novela del escritor colombiano Gabriel García Márquez, publicada en 1967."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))



def test_a_work_the_person_made_is_read_in_the_sentence_of_its_article_naming_him(wiki: PackagedWiki) -> None:
    answer = "Leonardo da Vinci was an Italian polymath. He painted the Mona Lisa."
    read = read_passages(wiki, "Who was Leonardo da Vinci?", answer, "He painted the Mona Lisa.")
    assert read[0][0] == "Leonardo da Vinci"
    assert ("Mona Lisa", "It was painted by the Italian artist Leonardo da Vinci.") in read


def test_a_spanish_work_is_read_the_same_way(wiki: PackagedWiki) -> None:
    answer = "Gabriel García Márquez fue un escritor colombiano. Escribió Cien años de soledad."
    read = read_passages(wiki, "¿Quién fue Gabriel García Márquez?", answer, "Escribió Cien años de soledad.")
    novel = ("Cien años de soledad es una novela del escritor colombiano Gabriel García Márquez, "
             "publicada en 1967.")
    assert ("Cien años de soledad", novel) in read


def test_a_work_another_made_adds_the_opening_sentence_naming_its_maker(wiki: PackagedWiki) -> None:
    item = "He painted The Starry Night."
    answer = f"Leonardo da Vinci was an Italian polymath. {item}"
    read = read_passages(wiki, "Who was Leonardo da Vinci?", answer, item)
    assert read[1:] == [("The Starry Night", LEADS[2][4])]


def test_no_making_said_adds_nothing(wiki: PackagedWiki) -> None:
    item = "He admired the Mona Lisa."
    answer = f"Leonardo da Vinci was an Italian polymath. {item}"
    read = read_passages(wiki, "Who was Leonardo da Vinci?", answer, item)
    assert {title for title, _ in read} == {"Leonardo da Vinci"}
