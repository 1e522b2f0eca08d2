"""An item about a subject whose article is in Spanish or French reads that subject's English article too,
after it: the packaged Spanish and French leads are often shorter ("Le Canada est un pays d'Amérique
septentrionale …" never names its capital, the English lead does). Only a title or a name a lead gives
its subject links the two; an English item reads English alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.linking import common_words
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import summary_files

LEADS = [
    ("Canada", "fr", "pays d'Amérique du Nord", "Géographie",
     "Le Canada est un pays d'Amérique septentrionale constitué de dix provinces et de trois territoires."),
    ("Canada", "en", "Country in North America", "Geography",
     "Canada is a country in North America. Its capital is Ottawa and its three largest metropolitan "
     "areas are Toronto, Montreal, and Vancouver."),
    ("Río Amazonas", "es", "río de América del Sur", "Geografía",
     "El río Amazonas es un río de América del Sur que atraviesa Perú, Colombia y Brasil."),
    ("Amazon River", "en", "Major river in South America", "Geography",
     "The Amazon River in South America is the largest river by discharge volume of water in the world."),
    ("Mujer Maravilla", "es", "superheroína", "Artes",
     "Mujer Maravilla es una superheroína, princesa de las amazonas, pueblo basado en las amazonas de "
     "la mitología griega."),
    ("Manaos", "es", "ciudad de Brasil", "Geografía",
     "Manaos es una ciudad de Brasil junto al río Negro, cerca de su unión con el Amazonas. Por el "
     "Amazonas llegan los barcos."),
    ("Musée du Louvre", "fr", "musée à Paris", "Arts",
     "Le musée du Louvre est un musée situé dans le 1er arrondissement de Paris."),
    ("Louvre", "en", "Art museum in Paris", "Arts",
     "The Louvre is a national art museum in Paris, France, opened in 1793."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


def _urls(wiki: PackagedWiki, question: str, answer: str) -> list[str | None]:
    reading = wiki.read(answer, 4, subjects=Subjects.of(question, answer))
    return list(dict.fromkeys(ev.url for ev in reading.evidence))


def test_a_french_item_reads_the_english_lead_of_its_subject_after_the_french_one(wiki: PackagedWiki) -> None:
    assert _urls(wiki, "Quelle est la capitale du Canada ?", "La capitale du Canada est Toronto.") == [
        "https://fr.wikipedia.org/wiki/Canada", "https://en.wikipedia.org/wiki/Canada"]


def test_an_english_item_reads_english_alone(wiki: PackagedWiki) -> None:
    assert _urls(wiki, "What is the capital of Canada?", "The capital of Canada is Ottawa.") == [
        "https://en.wikipedia.org/wiki/Canada"]


def test_a_short_form_links_no_english_article(wiki: PackagedWiki) -> None:
    # "Louvre" is only a short form of *Musée du Louvre*; the English *Louvre* may be another thing.
    urls = _urls(wiki, "Qu'est-ce que le Louvre ?", "Le Louvre a ouvert en 1793.")
    assert urls == ["https://fr.wikipedia.org/wiki/Mus%C3%A9e_du_Louvre"]


def test_a_things_last_word_the_leads_write_as_a_name_more_often_than_in_lower_case_names_it(
        wiki: PackagedWiki) -> None:
    # "las amazonas" of the myth, twice in lower case; "río Amazonas" as a name: the river's tail is a name.
    assert "amazonas" not in common_words(lead for *_, lead in LEADS)
    assert "amazonas" in common_words(["las amazonas de la mitología", "las amazonas, guerreras"])
    urls = _urls(wiki, "¿Qué es el Amazonas?", "El Amazonas es el río más caudaloso del mundo.")
    assert urls[0] == "https://es.wikipedia.org/wiki/R%C3%ADo_Amazonas"
