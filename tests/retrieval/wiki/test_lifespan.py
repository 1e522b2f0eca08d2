"""A person's lifespan, which the summaries' leads drop and their short description keeps ("English
polymath (1642–1727)"), is read as a passage for an item that speaks of a birth or a death; a thing's span
of years, in words, for an item that speaks of its start or end."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.base import Article
from factjudge.retrieval.wiki.linking import same_life
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import summary_files

LEADS = [
    ("Isaac Newton", "en", "English polymath (1642–1727)", "People",
     "Sir Isaac Newton was an English polymath active as a mathematician, physicist, astronomer and author."),
    ("Pericles", "en", "Athenian general and statesman (c. 495–429 BC)", "People",
     "Pericles was a Greek politician and general during the Golden Age of Athens."),
    ("Nelson Mandela", "en", "President of South Africa from 1994 to 1999", "Uncategorized",
     "Nelson Rolihlahla Mandela was a South African anti-apartheid activist. He served as President of South "
     "Africa from 1994 to 1999."),
    ("Alexander Fleming", "en", "Scottish physician (1881–1955)", "People",
     "Sir Alexander Fleming was a Scottish physician and microbiologist."),
    ("Alexander Fleming", "fr", "médecin britannique", "Personnalités",
     "Alexander Fleming est un médecin britannique. Il découvre la pénicilline en 1928."),
    ("Berlin Wall", "en", "Cold War barrier around West Berlin (1961–1989)", "History",
     "The Berlin Wall was a guarded concrete barrier that encircled West Berlin from 1961 to 1989."),
    ("Johann Sebastian Bach", "en", "German composer (1685–1750)", "People",
     "Johann Sebastian Bach was a German composer and musician of the late Baroque period."),
    ("Jean-Sébastien Bach", "fr", "compositeur allemand", "Personnalités",
     "Jean-Sébastien Bach est un compositeur allemand né le 21 mars 1685 à Eisenach et mort le 28 juillet "
     "1750 à Leipzig. Il est surnommé le « Cantor de Leipzig »."),
    # Another Bach, of other years, whose title shares the name too.
    ("Carl Philipp Emanuel Bach", "fr", "compositeur allemand", "Personnalités",
     "Carl Philipp Emanuel Bach, né le 8 mars 1714 à Weimar et mort le 14 décembre 1788 à Hambourg, est un "
     "compositeur allemand, fils de Jean-Sébastien Bach (1685-1750)."),
    # Uncategorised, with a span of years in its description: a conflict's, no life.
    ("World War II", "en", "Global conflict (1939–1945)", "Uncategorized",
     "World War II, or the Second World War, was a global conflict between two coalitions."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


def _texts(wiki: PackagedWiki, question: str, item: str) -> list[str]:
    return [ev.text for ev in wiki.read(item, 4, subjects=Subjects.of(question, item)).evidence]


@pytest.mark.parametrize(("question", "item", "passage"), [
    ("Who was Isaac Newton?", "Isaac Newton was born in 1643.",
     "Isaac Newton (1642–1727), English polymath."),
    ("Who was Pericles?", "Pericles died in 429 BC.",
     "Pericles (c. 495–429 BC), Athenian general and statesman."),
])
def test_an_item_of_a_birth_or_a_death_reads_the_lifespan_of_the_description(
        wiki: PackagedWiki, question: str, item: str, passage: str) -> None:
    texts = _texts(wiki, question, item)
    assert texts[-1] == passage and texts[0] != passage  # after the lead, which it does not replace


def test_a_french_item_reads_the_lifespan_of_the_english_description(wiki: PackagedWiki) -> None:
    # The French description gives no years; the English lead read after the French one comes with its own.
    texts = _texts(wiki, "Qui était Alexander Fleming ?", "Alexander Fleming est mort en 1955.")
    assert texts[0].startswith("Alexander Fleming est un médecin")
    assert "Alexander Fleming (1881–1955), Scottish physician." in texts


def test_an_item_of_no_birth_or_death_and_a_description_without_a_lifespan_read_none(
        wiki: PackagedWiki) -> None:
    assert not any("(1642–1727)" in t for t in _texts(wiki, "Who was Isaac Newton?",
                                                       "Isaac Newton was an English polymath."))
    texts = _texts(wiki, "Who was Nelson Mandela?", "Nelson Mandela was born in 1918.")
    assert all("President of South Africa from 1994 to 1999" not in t for t in texts[1:])


def test_another_categorys_span_of_years_is_no_life(wiki: PackagedWiki) -> None:
    assert not wiki.is_person(Article("Berlin Wall", "", lang="en"))
    assert wiki.is_person(Article("Isaac Newton", "", lang="en"))
    assert not any("(1961–1989)" in t for t in _texts(wiki, "What was the Berlin Wall?",
                                                       "The Berlin Wall died in 1989."))


@pytest.mark.parametrize("item", ["World War II began in 1939.", "World War II ended in 1946."])
def test_a_things_span_is_read_in_words_for_an_item_of_its_start_or_end(wiki: PackagedWiki,
                                                                         item: str) -> None:
    assert not wiki.is_person(Article("World War II", "", lang="en"))
    texts = _texts(wiki, "When was World War II?", item)
    assert texts[-1] == "World War II, Global conflict, from 1939 to 1945."
    # An item of neither reads none.
    neither = _texts(wiki, "What was World War II?", "World War II was a global conflict.")
    assert not any("from 1939 to 1945" in t for t in neither)


def test_a_persons_french_lead_of_another_title_is_found_by_the_years_of_the_life(
        wiki: PackagedWiki) -> None:
    texts = _texts(wiki, "Who was Johann Sebastian Bach?", "He died in Vienna.")
    assert texts[-1] == ("Jean-Sébastien Bach est un compositeur allemand né le 21 mars 1685 à Eisenach et "
                         "mort le 28 juillet 1750 à Leipzig.")
    # Not for an item of neither a birth nor a death.
    assert not any("Leipzig" in t for t in _texts(wiki, "Who was Johann Sebastian Bach?",
                                                    "He was a German composer."))


@pytest.mark.parametrize(("title", "other_title", "other_lead", "same"), [
    ("Leonardo da Vinci", "Léonard de Vinci",
     "Léonard de Vinci, né le 14 avril 1452 à Vinci et mort le 2 mai 1519 à Amboise, est un peintre.", True),
    # The years, but no name word alike; a name alike, but the years in a later sentence only.
    ("Leonardo da Vinci", "La Joconde", "La Joconde est un tableau peint entre 1452 et 1519.", False),
    ("Leonardo da Vinci", "Léonard de Vinci", "Léonard de Vinci est un peintre. Il vécut de 1452 à 1519.",
     False),
    # A relative's years, after the subject's own.
    ("Leonardo da Vinci", "Francesco da Vinci",
     "Francesco da Vinci, né en 1436 et mort en 1506, oncle de Léonard de Vinci (1452-1519).", False),
])
def test_one_life_in_two_editions_is_told_by_its_years_and_a_name(title: str, other_title: str,
                                                                  other_lead: str, same: bool) -> None:
    assert same_life(title, "Italian polymath (1452–1519)", other_title, other_lead) is same
