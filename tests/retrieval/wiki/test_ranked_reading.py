"""An item naming the largest (longest, highest …) of a place reads the sentence of the thing's own lead that
ranks it, where the place's lead never names it: the same superlative ("Vänern is the largest lake in
Sweden") or a lower rank ("Vättern is the second largest"), in the English lead where the answer's
language says none; a superlative said of another scope is not read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.packaged import PackagedWiki
from tests.retrieval.wiki.leads import read_passages, summary_files

VANERN = "Vänern is the largest lake in Sweden and the third-largest lake in Europe."
VATTERN = "Vättern is the second largest lake by surface area in Sweden, after Vänern."
LEADS = [
    ("Sweden", "en", "country in Northern Europe", "Geography",
     "Sweden is a Nordic country in Northern Europe. Its capital is Stockholm."),
    ("Vänern", "en", "lake in Sweden", "Geography", f"{VANERN} It lies in the west of the country."),
    ("Vättern", "en", "lake in Sweden", "Geography", VATTERN),
    ("Australia", "en", "country in Oceania", "Geography",
     "Australia is a country comprising the mainland of the Australian continent."),
    ("Melbourne", "en", "city in Victoria, Australia", "Geography",
     "Melbourne is the capital and most populous city of Victoria, and the second-most populous city in "
     "Australia."),
    ("País", "es", "territorio", "Geografía", "Un país es un territorio con características propias."),
    ("Canadá", "es", "país de América del Norte", "Geografía",
     "Canadá es un país soberano ubicado en América del Norte. Su capital es Ottawa."),
    ("Canada", "en", "country in North America", "Geography",
     "Canada is a country in North America. It is the second-largest country by total area."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


@pytest.mark.parametrize(("item", "sentence"), [
    ("Sweden's biggest lake is Vänern.", ("Vänern", VANERN)),
    ("Sweden's biggest lake is Vättern.", ("Vättern", VATTERN)),
    ("The largest lake in Sweden is Vänern.", ("Vänern", VANERN)),
])
def test_the_things_own_sentence_ranking_it_is_read_beside_the_places_lead(wiki: PackagedWiki, item: str,
                                                                          sentence: tuple[str, str]) -> None:
    read = read_passages(wiki, "What is the largest lake in Sweden?", item, item)
    assert read[0][0] == "Sweden"
    assert sentence in read
    assert len(read) == 2


def test_a_superlative_of_another_scope_in_the_things_lead_is_not_read(wiki: PackagedWiki) -> None:
    item = "The most populous city in Australia is Melbourne."
    read = read_passages(wiki, "What is the most populous city in Australia?", item, item)
    # Nor is the country's record: GeoNames gives Sydney and Melbourne too close a population to tell.
    assert {title for title, _ in read} == {"Australia"}


def test_the_rank_is_read_in_the_english_lead_where_its_language_says_none(wiki: PackagedWiki) -> None:
    item = "El país más grande del mundo es Canadá."
    read = read_passages(wiki, "¿Cuál es el país más grande del mundo?", item, item)
    assert ("Canada", "It is the second-largest country by total area.") in read
