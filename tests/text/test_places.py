"""Continents and countries named in en/es/fr."""

from __future__ import annotations

import pytest

from factjudge.text.places import is_continent, is_country, is_place, lies_in, renderings, same_place


@pytest.mark.parametrize(("value", "continent"), [
    ("Asia", True), ("l'Amérique du Sud", True), ("Southeast Asia", True), ("Sub-Saharan Africa", True),
    ("South Africa", False), ("Afrique du Sud", False), ("United States of America", False), ("China", False),
])
def test_a_continent_or_a_part_of_one_is_told_from_a_land_named_after_one(value: str,
                                                                           continent: bool) -> None:
    assert is_continent(value) is continent


def test_a_continent_is_rendered_in_the_three_languages() -> None:
    assert "south america" in renderings("Sudamérica")
    assert "amerique du sud" in renderings("la América del Sur")
    assert renderings("China") == ()


@pytest.mark.parametrize(("value", "country"), [
    ("Francia", True), ("the United States", True), ("Royaume-Uni", True), ("l'Espagne", True),
    ("Burma", True), ("Inglaterra", True), ("Mougins", False), ("New York", False), ("Asia", False),
])
def test_countries_are_known_by_their_names_in_en_es_fr(value: str, country: bool) -> None:
    assert is_country(value) is country


@pytest.mark.parametrize(("inner", "outer", "held"), [
    ("Málaga", "Spain", True),
    ("Mougins", "la France", True),
    ("Argentina, Chile y Perú", "América del Sur", True),
    ("China", "Asia", True),
    ("Málaga", "Francia", False),
    ("Brazil", "Africa", False),
    # Not known: a part of a continent, a town too small for the list, a range, a continent inside a country.
    ("China", "Southeast Asia", None),
    ("La Higuera", "Cuba", None),
    ("Himalaya", "China", None),
    ("Asia", "China", None),
])
def test_geonames_tells_whether_a_place_lies_in_another(inner: str, outer: str, held: bool | None) -> None:
    assert lies_in(inner, outer) is held


@pytest.mark.parametrize(("inner", "outer"), [("La Paz", "Bolivia"), ("Le Havre", "France"),
                                              ("Los Angeles", "Estados Unidos")])
def test_a_town_whose_name_opens_with_an_article_is_known(inner: str, outer: str) -> None:
    assert lies_in(inner, outer) is True


@pytest.mark.parametrize(("one", "other", "same"), [
    ("Londres", "London", True), ("Venise", "Venice", True), ("Múnich", "Munich", True),
    ("Nueva Delhi", "New Delhi", True), ("La Habana", "Havana", True),
    ("Royaume-Uni", "United Kingdom", True),
    ("Vienna", "London", False), ("Paris", "Parish", False), ("Royaume-Uni", "Angleterre", False),
    ("Amboise", "Rome", False), ("Londres", "Lyonesse", False),  # a name GeoNames does not know
])
def test_one_place_is_known_by_its_names_in_other_languages(one: str, other: str, same: bool) -> None:
    assert same_place(one, other) is same


def test_a_place_is_a_country_or_a_known_town() -> None:
    assert is_place("Santiago de Cuba") and is_place("Cuba") and is_place("la Ciudad de México")
    assert not is_place("Marie Curie") and not is_place("Miguel de Cervantes")


def test_a_continent_is_one_in_two_languages_and_may_lie_inside_another() -> None:
    assert same_place("Sudamérica", "América del Sur")
    assert not same_place("Asia", "Europa")
    assert lies_in("Amérique du Sud", "Amérique latine") is True
    assert lies_in("Asia", "Europe") is False
    assert lies_in("Amérique latine", "Amérique du Sud") is None  # part of it lies there, part not


def test_a_countrys_capital_is_known_by_any_of_its_names() -> None:
    from factjudge.text.places import is_capital

    assert is_capital("Vienna") and is_capital("Viena") and is_capital("Vienne")
    assert not is_capital("Marseille") and not is_capital("Sydney")


def test_a_sea_is_told_from_a_land_and_a_town_named_after_one() -> None:
    from factjudge.text.places import is_sea, town_population
    assert is_sea("l'Atlantique Nord") and is_sea("the Caribbean Sea") and is_sea("mar Caribe")
    assert not is_sea("Europe") and not is_sea("Islande")
    assert town_population("Bogotá")[:2] == ("Bogotá", 7674366)
    assert town_population("Córdoba") is None  # Argentina's and Spain's
