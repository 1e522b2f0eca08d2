"""An item about a topic that is no person, naming a person besides it or opening with a pronoun, is read
in that person's article too: "Penicillin was discovered by Alexander Fleming in 1928" in *Penicillin*
and *Alexander Fleming*, "He won the Nobel Prize in 1945" in *Alexander Fleming* first. An answer
about a person reads its items in that person's article alone, whoever else they name."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.base import Article
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.reading import TopicReader
from tests.retrieval.wiki.leads import read_titles, summary_files

LEADS = [
    ("Penicillin", "en", "Group of antibiotics", "Biology and health sciences",
     "Penicillins are a group of β-lactam antibiotics originally obtained from Penicillium moulds."),
    ("Alexander Fleming", "en", "Scottish physician (1881–1955)", "People",
     "Sir Alexander Fleming was a Scottish physician and microbiologist. He shared the 1945 Nobel Prize "
     "in Physiology or Medicine. His discovery in 1928 of benzylpenicillin has been described as the "
     "single greatest victory ever achieved over disease."),
    ("Louis Pasteur", "en", "French chemist (1822–1895)", "People",
     "Louis Pasteur was a French chemist known for his discoveries of the principles of vaccination."),
    ("Nobel Prize", "en", "Set of annual international awards", "Society",
     "The Nobel Prizes are awards given each year since 1901."),
    ("Marie Curie", "en", "Polish-French physicist (1867–1934)", "People",
     "Marie Curie was a Polish and naturalised-French physicist and chemist. She married Pierre Curie in "
     "1895."),
    ("Pierre Curie", "en", "French physicist (1859–1906)", "People",
     "Pierre Curie was a French physicist, born in Paris in 1859."),
    ("Pénicilline", "fr", "antibiotique", "Sciences",
     "Les pénicillines sont des antibiotiques de la classe des bêta-lactamines."),
    ("Alexander Fleming", "fr", "médecin britannique", "Personnalités",
     "Alexander Fleming est un médecin britannique, né le 6 août 1881 à Darvel. Il découvre la "
     "pénicilline en 1928 et reçoit le prix Nobel en 1945."),
    ("Teléfono", "es", "dispositivo de telecomunicación", "Tecnología",
     "El teléfono es un dispositivo de telecomunicación creado para transmitir señales acústicas."),
    ("Antonio Meucci", "es", "inventor italiano", "Personas",
     "Antonio Meucci fue un inventor italiano. En 1854 construyó el primer prototipo de teléfono."),
    ("Alexander Fleming", "es", "médico británico", "Personas",
     "Alexander Fleming fue un médico británico, descubridor de la penicilina. En 1945 se le concedió el "
     "Premio Nobel de Medicina."),
    ("Penicilina", "es", "antibiótico", "Ciencias", "La penicilina es un antibiótico."),
    ("Le Déjeuner sur l'herbe", "fr", "tableau d'Édouard Manet", "Arts et culture",
     "Le Déjeuner sur l'herbe est un tableau d'Édouard Manet achevé en 1863."),
    ("Édouard Manet", "fr", "peintre français", "Personnalités",
     "Édouard Manet, né le 23 janvier 1832 à Paris, est un peintre français. Il peint Le Déjeuner sur "
     "l'herbe."),
    ("Juan de la Cruz", "es", "religioso y poeta español (1542-1591)", "Personas",
     "Juan de la Cruz fue un religioso y poeta místico del Renacimiento español."),
    # Uncategorised, with no lifespan in its description: his lead goes on about him as "He".
    ("George Washington", "en", "U.S. Founding Father and president from 1789 to 1797", "Uncategorized",
     "George Washington was a Founding Father and the first president of the United States, serving from "
     "1789 to 1797. He commanded the Continental Army."),
    ("United States", "en", "Country in North America", "Uncategorized",
     "The United States of America is a country in North America."),
    ("Constitution of the United States", "en", "Supreme law of the United States", "History",
     "The Constitution of the United States is the supreme law of the United States. It was the first "
     "such law, in force since 1789."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


ANSWER = "Penicillin was discovered by Alexander Fleming in 1928. He won the Nobel Prize in 1945."


def test_a_person_an_item_names_besides_its_topic_is_read_after_the_topic(wiki: PackagedWiki) -> None:
    item = "Penicillin was discovered by Alexander Fleming in 1928."
    assert read_titles(wiki, "Who discovered penicillin?", ANSWER, item) == [
        "Penicillin", "Alexander Fleming"]


def test_a_person_whose_article_says_nothing_of_the_topic_is_not_read(wiki: PackagedWiki) -> None:
    # Read, his lead would only show the judge a man known for discoveries: a swap passed as true.
    item = "Penicillin was discovered by Louis Pasteur in 1928."
    assert read_titles(wiki, "Who discovered penicillin?", item, item) == ["Penicillin"]


def test_a_pronoun_stands_for_the_person_named_before_it_not_for_a_topic_that_is_no_person(
        wiki: PackagedWiki) -> None:
    # "Nobel Prize", which the item names, is no person: the pronoun is Fleming, read first.
    item = "He won the Nobel Prize in 1945."
    assert read_titles(wiki, "Who discovered penicillin?", ANSWER, item) == [
        "Alexander Fleming", "Penicillin"]


@pytest.mark.parametrize(("question", "answer", "item", "read"), [
    ("Qui a découvert la pénicilline ?",
     "La pénicilline a été découverte par Alexander Fleming en 1928. Il a reçu le prix Nobel en 1945.",
     "Il a reçu le prix Nobel en 1945.", ["Alexander Fleming", "Pénicilline"]),
    ("¿Quién inventó el teléfono?",
     "El teléfono fue inventado por Antonio Meucci en 1854.",
     "El teléfono fue inventado por Antonio Meucci en 1854.", ["Teléfono", "Antonio Meucci"]),
    # Spanish leaves the pronoun out: the verb opening the sentence stands for it.
    ("¿Quién descubrió la penicilina?",
     "La penicilina fue descubierta por Alexander Fleming. Ganó el Premio Nobel en 1945.",
     "Ganó el Premio Nobel en 1945.", ["Alexander Fleming", "Penicilina"]),
])
def test_people_are_read_in_their_own_language(wiki: PackagedWiki, question: str, answer: str, item: str,
                                               read: list[str]) -> None:
    assert read_titles(wiki, question, answer, item) == read


def test_an_answer_about_a_person_reads_its_items_in_that_persons_article_alone(wiki: PackagedWiki) -> None:
    # Pierre Curie's birth year must not be read for hers.
    answer = "Marie Curie was a physicist. She married Pierre Curie in 1895. She was born in 1867."
    for item in ("She married Pierre Curie in 1895.", "She was born in 1867."):
        assert read_titles(wiki, "Tell me a bio of Marie Curie.", answer, item) == ["Marie Curie"]


def test_a_person_with_no_article_is_not_read_in_the_article_of_one_whose_name_ends_alike(
        wiki: PackagedWiki) -> None:
    # "Juana Inés de la Cruz" is one name: not "Juana Inés" and "Cruz", the latter *Juan de la Cruz*.
    answer = "Sor Juana Inés de la Cruz fue una escritora novohispana. Fue monja."
    for item in ("Sor Juana Inés de la Cruz fue una escritora novohispana.", "Fue monja."):
        assert read_titles(wiki, "¿Quién fue Juana Inés de la Cruz?", answer, item) == []
    item = "Juan de la Cruz fue un poeta místico."
    assert read_titles(wiki, "¿Quién fue Juan de la Cruz?", item, item) == ["Juan de la Cruz"]


def test_a_pronoun_a_making_is_done_to_is_the_work_not_its_maker(wiki: PackagedWiki) -> None:
    answer = "Le Déjeuner sur l'herbe a été peint par Édouard Manet. Il a été peint en 1863."
    assert read_titles(wiki, "Qui a peint Le Déjeuner sur l'herbe ?", answer, "Il a été peint en 1863.") == [
        "Le Déjeuner sur l'herbe"]
    answer = "Le Déjeuner sur l'herbe a été peint par Édouard Manet. Il est né en 1832."
    assert read_titles(wiki, "Qui a peint Le Déjeuner sur l'herbe ?", answer, "Il est né en 1832.")[0] == \
        "Édouard Manet"


def test_a_pronoun_with_no_person_before_it_stays_with_the_topic(wiki: PackagedWiki) -> None:
    answer = "Penicillin is an antibiotic. It was among the first such medicines."
    item = "It was among the first such medicines."
    assert read_titles(wiki, "What is penicillin?", answer, item) == ["Penicillin"]


@pytest.mark.parametrize(("text", "person"), [
    ("Sir Alexander Fleming was a Scottish physician. He shared the 1945 Nobel Prize.", True),
    ("Ingrid Bergman, née le 29 août 1915 à Stockholm, est une actrice suédoise.", True),
    ("Miguel de Cervantes (1547-1616) fue un novelista español.", True),
    ("Penicillins are a group of antibiotics.", False),
    ("Les pénicillines sont des antibiotiques de la classe des bêta-lactamines.", False),
])
def test_a_source_without_categories_tells_a_person_by_the_articles_opening(text: str, person: bool) -> None:
    assert TopicReader().is_person(Article("X", text)) is person



def test_an_uncategorised_article_whose_lead_goes_on_as_he_is_a_persons(wiki: PackagedWiki) -> None:
    answer = "George Washington was the first President of the United States. He served from 1789 to 1797."
    item = "He served from 1789 to 1797."
    assert read_titles(wiki, "Who was the first President of the United States?", answer, item) == [
        "George Washington", "United States"]
    assert not wiki.is_person(Article("United States", "", lang="en"))


def test_a_pronoun_stands_for_the_person_named_before_it_where_the_topic_has_no_article(
        wiki: PackagedWiki) -> None:
    answer = "Alexander Fleming discovered the Fifth Antibiotic. He won the Nobel Prize in 1945."
    item = "He won the Nobel Prize in 1945."
    assert read_titles(wiki, "Who discovered the Fifth Antibiotic?", answer, item) == ["Alexander Fleming"]
