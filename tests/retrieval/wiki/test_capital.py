"""An item about a country's capital, where the country's lead never says "capital", reads the sentence of
the capital's own lead that says it is ("Canberra est la capitale de l'Australie"); a sentence that opens by
describing another named thing ("La capitale du Japon est …") is read in that thing's article."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.records import Evidence
from factjudge.retrieval.wiki.capital import capital_sentence, geonames_capital
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.text.described import described_at
from factjudge.text.values import value_spans
from tests.retrieval.wiki.leads import read_passages, summary_files

LEADS = [
    ("Australie", "fr", "pays d'Océanie", "Géographie",
     "L'Australie est un pays d'Océanie, situé entre les océans Pacifique et Indien."),
    ("Canberra", "fr", "capitale de l'Australie", "Géographie",
     "Canberra est la capitale de l'Australie et du Territoire de la capitale australienne. La ville est "
     "située au sud-est du pays."),
    ("Adélaïde (Australie)", "fr", "ville d'Australie", "Géographie",
     "Adélaïde est la capitale de l'Australie-Méridionale."),
    ("Sydney", "fr", "ville d'Australie", "Géographie",
     "Sydney est la plus grande ville d'Australie et la capitale de l'État de Nouvelle-Galles du Sud."),
    ("Japon", "fr", "pays d'Asie de l'Est", "Géographie",
     "Le Japon est un pays insulaire de l'Asie de l'Est. Sa capitale est Tokyo."),
    ("Bolivie", "fr", "pays d'Amérique du Sud", "Géographie",
     "La Bolivie est un pays d'Amérique du Sud."),
    ("Sucre", "fr", "ville de Bolivie", "Géographie", "Sucre est la capitale de la Bolivie."),
    ("La Paz", "fr", "ville de Bolivie", "Géographie", "La Paz est la capitale de la Bolivie."),
    ("Inde", "fr", "pays d'Asie du Sud", "Géographie", "L'Inde est un pays d'Asie du Sud."),
    ("Delhi", "fr", "territoire de l'Inde", "Géographie",
     "Delhi est un territoire de l'Inde, qui contient New Delhi, la capitale de l'Inde."),
    ("Pérou", "fr", "pays d'Amérique du Sud", "Géographie", "Le Pérou est un pays d'Amérique du Sud."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))



def test_a_capital_the_countrys_lead_leaves_out_is_read_in_the_capitals_lead(wiki: PackagedWiki) -> None:
    item = "La capitale de l'Australie est Sydney."
    read = read_passages(wiki, "Quelle est la capitale de l'Australie ?", item, item)
    assert read[0][0] == "Australie"
    # Adélaïde's "capitale de l'Australie-Méridionale" names another place.
    assert ("Canberra", "Canberra est la capitale de l'Australie et du Territoire de la capitale "
                        "australienne.") in read
    assert {title for title, _ in read} == {"Australie", "Canberra"}


def test_a_lead_that_names_the_capital_or_two_capitals_add_nothing(wiki: PackagedWiki) -> None:
    for country, item in [("Japon", "La capitale du Japon est Osaka."),
                          ("Bolivie", "La capitale de la Bolivie est Sucre.")]:
        read = read_passages(wiki, "Quelle est sa capitale ?", item, item)
        assert {title for title, _ in read} == {country}


def test_an_item_describing_another_named_thing_is_read_in_its_article(wiki: PackagedWiki) -> None:
    answer = "La capitale de l'Australie est Canberra. La capitale du Japon est Tokyo."
    item = "La capitale du Japon est Tokyo."
    read = read_passages(wiki, "Quelle est la capitale de l'Australie ?", answer, item)
    assert [title for title, _ in read] == ["Japon"]


@pytest.mark.parametrize(("sentence", "name"), [
    ("La capitale du Japon est Tokyo.", "Japon"),
    ("The population of Paris is about two million.", "Paris"),
    ("El río más largo de España es el Tajo.", "España"),
    ("La ciudad de México es enorme.", None),  # the city's own kind: the city, not the country
    ("La ciudad más poblada de México es la Ciudad de México.", "México"),
    ("The largest lake in Sweden is Vänern.", "Sweden"),
    ("El hombre llegó a la Luna en 1969.", None),
    ("The abbey stands in Lyon.", None),  # "in" follows a superlative only
    ("Paris is the capital of France.", None),
    # A pronoun is no determiner, though "Elles" opens as "el" does: the name after the verb is a value.
    ("Elles sont originaires d'Asie du Sud-Est.", None),
])
def test_the_name_a_sentence_opens_by_describing(sentence: str, name: str | None) -> None:
    at = described_at(sentence)
    assert (sentence[at:].split()[0] if at is not None else None) == name


def test_the_described_name_is_what_the_item_is_about_not_a_value_to_read() -> None:
    question = "Quelle est la capitale de l'Australie ?"
    spans = value_spans("La capitale de l'Italie est Rome.", question=question)
    assert [s.text for s in spans] == ["Rome"]


@pytest.mark.parametrize(("names", "text", "found"), [
    (["Australia"], "Canberra is the capital city of Australia. It was founded in 1913.", True),
    (["Australia"], "Canberra is the capital and largest city of Australia.", True),
    (["Bolivia"], "Sucre es la capital constitucional de Bolivia.", False),  # a qualified capital
    (["Brasil"], "Río de Janeiro fue la capital de Brasil.", False),  # no longer
    (["Australia"], "Adelaide is the capital of South Australia.", False),
])
def test_a_capitals_sentence_is_unqualified_and_present(names: list[str], text: str, found: bool) -> None:
    title = text.split(" es ")[0].split(" is ")[0].split(" fue ")[0]
    lead = Evidence("wikipedia", text, title=title)
    assert (capital_sentence(names, [lead]) is not None) is found


def test_a_capital_no_lead_names_is_the_one_geonames_gives(wiki: PackagedWiki) -> None:
    item = "La capitale de l'Inde est Bombay."
    read = read_passages(wiki, "Quelle est la capitale de l'Inde ?", item, item)
    assert read == [("Inde", "L'Inde est un pays d'Asie du Sud."),
                    ("India (GeoNames)", "The capital of India is New Delhi.")]
    # Two capitals GeoNames gives as one, no lead naming one: nothing to read.
    assert geonames_capital("Bolivie") is None and geonames_capital("Bretagne") is None
    told = geonames_capital("Pérou")
    assert told is not None and (told.source, told.text) == ("geonames", "The capital of Peru is Lima.")


def test_a_town_said_to_be_a_countrys_capital_reads_the_capital_geonames_gives(wiki: PackagedWiki) -> None:
    # Sydney's lead says what it is the capital of: a state's, not the country's.
    item = "C'est la capitale de l'Australie."
    read = read_passages(wiki, "Qu'est-ce que Sydney ?", item, item)
    assert read[0][0] == "Sydney"
    assert ("Australia (GeoNames)", "The capital of Australia is Canberra.") in read
    # A country's own article is no town: nothing is added for it.
    assert not any(title.endswith("(GeoNames)") for title, _ in
                   read_passages(wiki, "Qu'est-ce que le Japon ?", "Il est la capitale du Japon.",
                                 "Il est la capitale du Japon."))
