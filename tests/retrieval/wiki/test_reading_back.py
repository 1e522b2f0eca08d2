"""An item opening with no capitalised name is about the topic unless it opens with a name said partly in
lower case ("Le mont Blanc est …") or with a pronoun standing for the thing the sentence before it is
about ("Mount Kilimanjaro is the highest mountain in Africa. It is in Tanzania."); a person a pronoun
stands for is found as before, and a person called by a name and where from is linked by the name."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.packaged import PackagedWiki
from tests.retrieval.wiki.leads import read_titles, summary_files

LEADS = [
    ("Mount Kilimanjaro", "en", "Mountain in Tanzania", "Geography",
     "Mount Kilimanjaro is a large dormant volcano in Tanzania. It is the highest mountain in Africa."),
    ("Africa", "en", "Continent", "Geography", "Africa is the world's second-largest continent."),
    ("William Shakespeare", "en", "English playwright (1564–1616)", "People",
     "William Shakespeare was an English playwright, poet and actor."),
    ("Hamlet", "en", "Tragedy by William Shakespeare", "Arts",
     "Hamlet is a tragedy written by William Shakespeare sometime between 1599 and 1601."),
    ("Mont Blanc", "fr", "plus haut sommet des Alpes", "Géographie",
     "Le mont Blanc est le point culminant de la chaîne des Alpes, à 4 806 mètres."),
    ("Blanc", "fr", "couleur", "Arts", "Le blanc est une couleur."),
    ("Marie-Antoinette d'Autriche", "fr", "reine de France", "Personnalités",
     "Marie-Antoinette Josèphe Jeanne de Habsbourg-Lorraine est reine de France de 1774 à 1791."),
    ("Charles de Gaulle", "fr", "homme d'État français", "Personnalités",
     "Charles de Gaulle est un militaire et homme d'État français."),
    ("Australia", "en", "Country in Oceania", "Geography", "Australia is a country in Oceania."),
    ("Tour Eiffel", "fr", "tour de Paris", "Géographie",
     "La tour Eiffel est une tour de fer puddlé de 330 m de hauteur située à Paris."),
    ("Gustave Eiffel", "fr", "ingénieur français", "Personnalités",
     "Gustave Eiffel, né le 15 décembre 1832 à Dijon, est un ingénieur français."),
    ("Elizabeth II", "en", "Queen of the United Kingdom from 1952 to 2022", "People",
     "Elizabeth II was Queen of the United Kingdom from 1952 until her death in 2022."),
    ("Canberra", "en", "Capital city of Australia", "Geography",
     "Canberra is the capital city of Australia. Founded in 1913, it is the largest inland city."),
    ("Alpes", "fr", "chaîne de montagnes", "Géographie", "Les Alpes sont une chaîne de montagnes d'Europe."),
    ("Lime (fruit)", "fr", "agrume", "Sciences", "La lime est un agrume originaire d'Asie du Sud-Est."),
    ("Asie du Sud-Est", "fr", "région d'Asie", "Géographie", "L'Asie du Sud-Est est une région d'Asie."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


def test_it_stands_for_the_thing_the_sentence_before_is_about(wiki: PackagedWiki) -> None:
    answer = "Mount Kilimanjaro is the highest mountain in Africa. It is in Tanzania. It is a volcano."
    question = "What is the highest mountain in Africa?"
    assert read_titles(wiki, question, answer, "It is in Tanzania.") == ["Mount Kilimanjaro"]
    # Back past a sentence that opens with a pronoun too.
    assert read_titles(wiki, question, answer, "It is a volcano.") == ["Mount Kilimanjaro"]


def test_it_stands_for_the_name_a_description_is_given(wiki: PackagedWiki) -> None:
    question = "What is the capital of Australia?"
    answer = "The capital of Australia is Canberra. It was founded in 1913."
    assert read_titles(wiki, question, answer, "It was founded in 1913.") == ["Canberra"]
    # "Its capital": the pronoun is the country's, and so is the next one.
    answer = "Its capital is Canberra. It has 27 million people."
    assert read_titles(wiki, question, answer, "It has 27 million people.") == ["Australia"]


def test_it_stands_for_no_person(wiki: PackagedWiki) -> None:
    answer = "Shakespeare wrote Hamlet. It was first performed around 1600."
    assert read_titles(wiki, "Who wrote Hamlet?", answer, "It was first performed around 1600.") == ["Hamlet"]


def test_a_name_said_partly_in_lower_case_opens_an_item_and_a_pronoun_after_it(wiki: PackagedWiki) -> None:
    answer = "Le mont Blanc est le plus haut sommet des Alpes. Il culmine à 4 806 mètres."
    question = "Quelle est la plus haute montagne des Alpes ?"
    assert read_titles(wiki, question, answer, "Le mont Blanc est le plus haut sommet des Alpes.") == [
        "Mont Blanc", "Alpes"]
    assert read_titles(wiki, question, answer, "Il culmine à 4 806 mètres.") == ["Mont Blanc"]


def test_an_item_opening_with_no_name_is_still_the_topics(wiki: PackagedWiki) -> None:
    answer = "Le blanc est une couleur des Alpes. La neige couvre les sommets."
    assert read_titles(wiki, "Que sais-tu des Alpes ?", answer, "La neige couvre les sommets.") == ["Alpes"]


@pytest.mark.parametrize(("name", "title"), [
    ("Marie-Antoinette", "Marie-Antoinette d'Autriche"),
    # "de" joins a surname as often as a land: "Charles" is none of de Gaulle's names.
    ("Charles", None),
])
def test_a_person_called_by_a_name_and_where_from_is_linked_by_the_name(wiki: PackagedWiki, name: str,
                                                                         title: str | None) -> None:
    link = wiki.link([name], f"Qui était {name} ? {name} était reine de France.", "fr")
    assert (link.title if link is not None else None) == title


def test_a_title_before_a_persons_name_is_no_part_of_it(wiki: PackagedWiki) -> None:
    answer = "Elizabeth II was Queen of the United Kingdom from 1952 to 2022."
    assert read_titles(wiki, "Who was Queen Elizabeth II?", answer, answer) == ["Elizabeth II"]


def test_a_pronoun_that_may_stand_for_a_person_stands_for_the_one_named_before(wiki: PackagedWiki) -> None:
    answer = "La tour Eiffel doit son nom à Gustave Eiffel. Il est né à Dijon en 1832."
    titles = read_titles(wiki, "Qui a construit la tour Eiffel ?", answer, "Il est né à Dijon en 1832.")
    assert titles[0] == "Gustave Eiffel"


def test_a_pronoun_after_a_sentence_about_a_thing_stands_for_the_thing(wiki: PackagedWiki) -> None:
    # "C'est une tour." speaks of the tower: "Il" after it is the tower, not the man named before.
    answer = "La tour Eiffel doit son nom à Gustave Eiffel. C'est une tour. Il a été construit en 1889."
    titles = read_titles(wiki, "Qu'est-ce que la tour Eiffel ?", answer, "Il a été construit en 1889.")
    assert titles[0] == "Tour Eiffel"


def test_a_plural_pronoun_stands_for_the_thing_before_and_a_place_after_the_verb_is_no_subject(
        wiki: PackagedWiki) -> None:
    # "Elles" had opened as if "El" were an article, and "d'Asie du Sud-Est" was read as what the item
    # describes.
    question = "Parle-moi de Lime (fruit)."
    assert read_titles(wiki, question, "Elles sont originaires d'Asie du Sud-Est.",
                       "Elles sont originaires d'Asie du Sud-Est.") == ["Lime (fruit)"]
    answer = "Les Alpes sont des montagnes. Elles se trouvent en Europe."
    asked = "Qu'est-ce que le mont Blanc ?"
    assert read_titles(wiki, asked, answer, "Elles se trouvent en Europe.") == ["Alpes"]
