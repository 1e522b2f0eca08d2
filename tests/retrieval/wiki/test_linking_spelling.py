"""A subject written otherwise than its title still finds its article: after an elided article
("l'Odyssée"), an initial without its full stop, a letter missing, two names in one run, a first
name of the question that has no article; a name nobody has an article about still finds none."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.linking import AliasIndex, Entry
from factjudge.retrieval.wiki.names import Names
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import summary_files

LEADS = [
    ("Booker T. Washington", "en", "American educator (1856–1915)", "People",
     "Booker Taliaferro Washington was an American educator and author."),
    ("Booker T. Washington", "fr", "éducateur américain (1856–1915)", "Personnalités",
     "Booker Taliaferro Washington est un éducateur et écrivain américain."),
    ("Laurence Olivier", "en", "English actor (1907–1989)", "People",
     "Laurence Kerr Olivier, Baron Olivier, was an English actor and director."),
    ("Plato", "en", "Greek philosopher (c. 428–348 BC)", "People",
     "Plato was an ancient Greek philosopher of the Classical period."),
    ("Odyssée", "fr", "poème épique grec", "Arts",
     "L'Odyssée est une épopée grecque antique attribuée à Homère. Elle compte vingt-quatre chants."),
    ("Galicia (Spain)", "en", "Autonomous community in the northwest of Spain", "Geography",
     "Galicia is an autonomous community of Spain and historic nationality under Spanish law."),
    ("Galicia (Eastern Europe)", "en", "Historical area of Poland and Ukraine", "Geography",
     "Galicia is a historical and geographic area in Eastern Europe, between Poland and Ukraine."),
    ("Clifford Geertz", "en", "American anthropologist (1926–2006)", "People",
     "Clifford James Geertz was an American anthropologist."),
    ("Jean-Sébastien Bach", "fr", "compositeur allemand (1685–1750)", "Personnalités",
     "Jean-Sébastien Bach est un compositeur et musicien allemand de la période baroque."),
    ("Johann Sebastian Bach", "en", "German composer (1685–1750)", "People",
     "Johann Sebastian Bach was a German composer and musician of the late Baroque period."),
    ("Arquitectura mudéjar de Aragón", "es", "estilo artístico", "Arte",
     "La arquitectura mudéjar de Aragón es una corriente estética del arte mudéjar."),
    ("Arquitectura", "es", "arte de proyectar edificios", "Arte",
     "La arquitectura es el arte y la técnica de proyectar y construir edificios."),
    ("Bibliothèque nationale de France", "fr", "bibliothèque publique française", "Arts",
     "La Bibliothèque nationale de France est la bibliothèque nationale de la République française."),
    ("Bibliothèque", "fr", "lieu où est conservée une collection de livres", "Arts",
     "Une bibliothèque est un lieu où est conservée une collection organisée de livres."),
    ("Clara Schumann", "en", "German pianist and composer (1819–1896)", "People",
     "Clara Josephine Schumann was a German pianist, composer and piano teacher of the Romantic era."),
    ("Robert Schumann", "en", "German composer (1810–1856)", "People",
     "Robert Schumann was a German composer, pianist, and music critic of the early Romantic era."),
    ("David Hilbert", "fr", "mathématicien allemand (1862–1943)", "Personnalités",
     "David Hilbert est un mathématicien allemand."),
    ("Espace de Hilbert", "fr", "notion mathématique", "Sciences",
     "Un espace de Hilbert est un espace vectoriel étudié par le mathématicien allemand David Hilbert."),
    ("Spanish colonization of the Americas", "en", "Colonial history", "History",
     "The Spanish colonization of the Americas began in 1493 on the Caribbean island of Hispaniola."),
]
ENTRIES = [Entry(*lead) for lead in LEADS]


@pytest.fixture(scope="module")
def index() -> AliasIndex:
    return AliasIndex.build(ENTRIES)


def test_a_name_after_an_elided_article_is_a_name_and_an_elided_article_opening_a_sentence_is_none() -> None:
    asked = "Quels chants de l’Odyssée correspondent aux récits ?"
    assert [r.name for r in Names.of(asked).runs] == ["Odyssée"]
    # A question word opening the question is none of the name after it.
    asked = "Quand Cholokhov a-t-il reçu le prix Nobel ?"
    assert [r.name for r in Names.of(asked).runs] == ["Cholokhov", "Nobel"]
    assert [r.name for r in Names.of("Un roi d'Espagne.").runs] == ["Espagne"]
    # "L'invitation" opens the sentence with an elided article: no name, and the name after it is no
    # name opening the sentence.
    runs = Names.of("L'invitation de Booker T. Washington est marquante.").runs
    assert [(r.name, r.initial) for r in runs] == [("Booker T. Washington", False)]
    assert [r.name for r in Names.of("L'Odyssée compte vingt-quatre chants.").runs] == ["L'Odyssée"]
    # A name with an apostrophe of its own is no elision.
    assert [r.name for r in Names.of("Xi'an est une ville. Qu'est-ce que Xi'an ?").runs][-1] == "Xi'an"
    # English writes its pronoun "I" in capitals: no name; a letter that names something is one.
    assert [r.name for r in Names.of("What should I know about C?").runs] == ["C"]


@pytest.mark.parametrize(("name", "context", "language", "title"), [
    # An initial without its full stop, as people type it.
    ("Booker T Washington", "Booker T Washington était un éducateur.", "fr", "Booker T. Washington"),
    # A letter left out of a long word of a name of several words.
    ("Laurence Oliver", "Laurence Oliver was an actor.", "en", "Laurence Olivier"),
])
def test_a_name_written_otherwise_than_its_title_links(index: AliasIndex, name: str, context: str,
                                                       language: str, title: str) -> None:
    link = index.link_one(name, context, language)
    assert link is not None and (link.title, link.lang) == (title, language)


@pytest.mark.parametrize(("name", "context", "language", "title"), [
    # Both leads share more words than the score counts: the one sharing more is the one meant.
    ("Schumann", "Schumann was a German composer, pianist, and music critic of the early Romantic era.",
     "en", "Robert Schumann"),
    # A surname, and a notion named after the person: the person, when the words tie.
    ("Hilbert", "Hilbert est un mathématicien allemand.", "fr", "David Hilbert"),
])
def test_homonyms_the_scores_tie_on_are_told_apart_by_more_words_then_by_whom_they_name(
        index: AliasIndex, name: str, context: str, language: str, title: str) -> None:
    link = index.link_one(name, context, language)
    assert link is not None and (link.title, link.lang) == (title, language)
    # Nothing in the item: still no link.
    assert index.link_one(name, f"{name}.", language) is None


def test_a_name_one_letter_away_from_no_name_of_as_many_words_is_not_linked(index: AliasIndex) -> None:
    assert index.link_one("Clifford Geert", "an actor", "en") is not None  # one letter: the anthropologist
    assert index.link_one("Clifford Gertz", "an actor", "en") is not None
    assert index.link_one("Clifford Goertzel", "an actor", "en") is None  # more than one letter
    assert index.link_one("Laurence Oli", "an actor", "en") is None  # a short word is no misspelling
    assert index.link_one("Olivier", "an actor", "en") is not None  # (the surname, as before)
    assert index.near("Olivier") == []  # one word is never read as a misspelling


def _files(folder: Path) -> dict[str, Path]:
    return summary_files(folder, LEADS)


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", _files(tmp_path))


@pytest.mark.parametrize(("question", "answer", "article"), [
    ("Quels chants de l’Odyssée correspondent aux récits chez Alcinoos ?",
     "Dans l'Odyssée, ce sont les chants 7 à 12.", "Odyssée"),
    ("En quoi l’invitation de Booker T Washington à la Maison Blanche est-elle marquante ?",
     "L'invitation de Booker T. Washington à la Maison Blanche fut la première.", "Booker T. Washington"),
    # The first name of the question has no article ("Spanish"): the next one that has is read, and
    # the question's words choose which Galicia.
    ("What is the population of the Spanish region of Galicia?",
     "The region has about 2.7 million people.", "Galicia (Spain)"),
    # The answer names the topic in full where only the topic's article is in the answer's language.
    ("À quelle date Bach s’installe-t-il à Leipzig ?",
     "Johann Sebastian Bach s'est installé à Leipzig en 1723.", "Jean-Sébastien Bach"),
    # The words before "de"/"of" of a longer title, however written: not the title of their first word.
    ("Háblame de Arquitectura mudéjar.", "La arquitectura mudéjar es una corriente estética del arte.",
     "Arquitectura mudéjar de Aragón"),
    ("Parle-moi de Bibliothèque nationale.", "La Bibliothèque nationale est la bibliothèque de la "
     "République française.", "Bibliothèque nationale de France"),
    ("Tell me about the Spanish colonization.", "It began in 1493 on the island of Hispaniola.",
     "Spanish colonization of the Americas"),
    # One run that joins two names: the first with an article is read.
    ("Plato and Laurence Oliver had a close relationship?", "There is no evidence of it.", "Plato"),
])
def test_a_subject_written_otherwise_reads_its_article(wiki: PackagedWiki, question: str, answer: str,
                                                       article: str) -> None:
    assert wiki.read(answer, 3, subjects=Subjects.of(question, answer)).article == article


def test_a_person_nobody_knows_stays_unverified_though_a_part_of_the_name_is_someones(
        wiki: PackagedWiki) -> None:
    answer = "Du Geertz is a retired actor born in 1951."
    reading = wiki.read(answer, 3, subjects=Subjects.of("Who is Du Geertz?", answer))
    assert reading.article is None and reading.evidence == ()
