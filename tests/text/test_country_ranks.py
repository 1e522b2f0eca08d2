"""A country said to be the first or the last of the world or a continent, against GeoNames' figures."""

from __future__ import annotations

import pytest

from factjudge.text.country_facts import checks, record


def _checked(item: str, country: str, lang: str) -> list[tuple[str, str]]:
    return [(c.stated, c.read) for ev in record(item, [country], lang) for c in checks(item, ev)
            if not c.confirmed]


def test_a_country_far_from_the_first_or_the_last_it_is_said_to_be_is_contradicted() -> None:
    [(stated, read)] = _checked("C'est le plus petit pays d'Afrique.", "Algérie", "fr")
    assert stated == "plus petit pays"
    assert read.endswith("plus que 57 des 58 pays et territoires d'Afrique")
    [(stated, read)] = _checked("Chad is the most populous country in Africa.", "Chad", "en")
    assert (stated, read.split("; ")[1]) == ("most populous country",
                                              "the most populous in Africa: Nigeria (195,874,740)")
    [(_, read)] = _checked("Es el país más pequeño de América del Sur.", "Brasil", "es")
    assert read.startswith("8.511.965 km², más que 13 de los 14 países")


@pytest.mark.parametrize(("item", "country"), [
    ("Algeria is the largest country in Africa.", "Algeria"),
    ("Brazil is the largest country in South America.", "Brazil"),
    # Near the first by GeoNames' figures, which are not today's.
    ("India is the most populous country in the world.", "India"),
    ("China is the most populous country in the world.", "China"),
    ("Germany is the most populous country in Europe.", "Germany"),
    # On two continents, ranked with one only.
    ("Russia is the largest country in Asia.", "Russia"),
    # Not the first, one of several, or a scope that is no continent.
    ("Canada is the second-largest country in the world.", "Canada"),
    ("Chad is one of the largest countries in Africa.", "Chad"),
    ("Panama is the smallest country in Central America.", "Panama"),
    ("Chad is the largest country.", "Chad"),
])
def test_a_rank_near_its_figures_or_not_the_first_alone_is_left_to_the_lead(item: str, country: str) -> None:
    assert _checked(item, country, "en") == []
