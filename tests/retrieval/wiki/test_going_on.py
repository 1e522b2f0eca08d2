"""A topic the question goes on with in lower case after "de" or "of" ("l'Arc de triomphe") is that whole
name where its first word alone names only things told apart by brackets (*Arc (arme)*): no article then,
and says so, rather than the weapon's; a name that is a title itself keeps its article."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import read_titles, summary_files

LEADS = [
    ("Arc (arme)", "fr", "arme de trait", "Technique",
     "L'arc est une arme de trait destinée à lancer des flèches."),
    ("Arc (architecture)", "fr", "élément d'architecture", "Architecture",
     "L'arc est l'élément d'ossature qui enjambe l'espace ouvert entre deux piliers."),
    ("Paris", "fr", "capitale de la France", "Géographie", "Paris est la capitale de la France."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


def test_a_name_going_on_in_lower_case_is_not_read_as_its_first_words_homonym(wiki: PackagedWiki) -> None:
    question = "Qu'est-ce que l'Arc de triomphe ?"
    answer = "L'Arc de triomphe se trouve à Paris. Il a été construit sur ordre de Napoléon."
    for item in answer.split(". "):
        reading = wiki.read(item, 4, subjects=Subjects.of(question, answer))
        assert not reading.evidence
        assert reading.note is not None and "Arc de triomphe" in reading.note


def test_a_name_that_is_a_title_keeps_its_article_whatever_follows(wiki: PackagedWiki) -> None:
    answer = "Paris est la capitale de la France."
    assert read_titles(wiki, "Que sait-on de Paris de nuit ?", answer, answer) == ["Paris"]
