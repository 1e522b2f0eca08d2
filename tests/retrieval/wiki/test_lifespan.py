"""A person's lifespan, which the summaries' leads drop and their short description keeps ("English
polymath (1642–1727)"), is read as a passage for an item that speaks of a birth or a death; a thing's span
of years, in words, for an item that speaks of its start or end."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.base import Article
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
