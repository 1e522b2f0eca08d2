"""A country's currency, official languages, land neighbours and largest town, by its record (CLDR, GeoNames),
against what an item states."""

from __future__ import annotations

import pytest

from factjudge.text.country_facts import checks, record


def _checked(item: str, country: str, lang: str) -> list[tuple[str, str, bool]]:
    return [(c.stated, c.read, c.confirmed) for ev in record(item, [country], lang) for c in checks(item, ev)]


def test_the_record_is_one_sentence_in_the_items_language_with_a_page_to_check_it() -> None:
    [ev] = record("Su moneda es el peso.", ["Venezuela"], "es")
    assert ev.text == "La moneda de Venezuela: bolívar venezolano (VES)."
    assert (ev.source, ev.url) == ("geonames", "https://www.geonames.org/countries/VE/")
    [borders] = record("Limita con Brasil.", ["Chile"], "es")
    assert borders.text == "Chile tiene fronteras terrestres con Perú, Bolivia y Argentina."


@pytest.mark.parametrize(("item", "country", "lang", "found"), [
    ("Su moneda es el peso.", "Venezuela", "es", [("peso", "bolívar venezolano (VES)", False)]),
    ("Su moneda es el bolívar.", "Venezuela", "es", [("bolívar", "bolívar venezolano (VES)", True)]),
    ("Sa monnaie est la drachme.", "Grèce", "fr", [("drachme", "euro (EUR)", False)]),
    ("Its currency is the yen.", "Japan", "en", [("yen", "Japanese Yen (JPY)", True)]),
    ("Its currency is the US dollar.", "Australia", "en", [("US dollar", "Australian Dollar (AUD)", False)]),
    # A country with two legal tenders: either bears the item out, any other currency contradicts it.
    ("Su moneda oficial es el peso.", "Panamá", "es",
     [("peso", "balboa panameño (PAB) y dólar estadounidense (USD)", False)]),
    ("Its currency is the US dollar.", "Panama", "en",
     [("US dollar", "Panamanian Balboa (PAB) and US Dollar (USD)", True)]),
    # A currency no country has, by the word heading several currencies' names.
    ("Su moneda es el peso paraguayo.", "Paraguay", "es",
     [("peso paraguayo", "guaraní paraguayo (PYG)", False)]),
    # No currency's name, history, a negation: nothing settled.
    ("Its currency is strong.", "Japan", "en", []),
    ("Its currency was the peseta.", "Spain", "en", []),
    ("Its currency is not the dollar.", "Japan", "en", []),
])
def test_a_currency_named_is_the_countrys_or_another(item: str, country: str, lang: str,
                                                     found: list[tuple[str, str, bool]]) -> None:
    assert _checked(item, country, lang) == found


@pytest.mark.parametrize(("item", "country", "lang", "found"), [
    ("Its official language is Spanish.", "Peru", "en", [("Spanish", "Spanish and Quechua", True)]),
    ("Its official language is Portuguese.", "Peru", "en", [("Portuguese", "Spanish and Quechua", False)]),
    ("Su idioma oficial es el español.", "Perú", "es", [("español", "español y quechua", True)]),
    ("Les langues officielles sont le néerlandais et le français.", "Belgique", "fr",
     [("néerlandais", "néerlandais, français et allemand", True),
      ("français", "néerlandais, français et allemand", True)]),
    # What "but" begins is no longer said official; a language official in a region only is not settled.
    ("Sa langue officielle est l'anglais, mais on y parle espagnol.", "France", "fr",
     [("anglais", "français", False)]),
    ("The official languages are English and Spanish.", "United States", "en",
     [("English", "English", True)]),
    # A language spoken, not said official, is no record's.
    ("Spanish is widely spoken there.", "Peru", "en", []),
])
def test_a_language_said_official_is_the_countrys_or_has_no_standing_there(
        item: str, country: str, lang: str, found: list[tuple[str, str, bool]]) -> None:
    assert _checked(item, country, lang) == found
    if found:
        [ev] = record(item, [country], lang)
        assert ev.text.endswith(f"{found[0][1]}.")


def test_each_country_named_as_a_neighbour_is_one_or_not() -> None:
    assert _checked("Limita con Brasil.", "Chile", "es") == [("Brasil", "Perú, Bolivia y Argentina", False)]
    assert [confirmed for _, _, confirmed in _checked("It borders the United States and Guatemala.", "Mexico",
                                                      "en")] == [True, True]
    # A sea is no country, and a negation says no border.
    assert _checked("Elle est bordée par la mer du Nord.", "Autriche", "fr") == []
    assert _checked("Chile no limita con Brasil.", "Chile", "es") == []
    # A country's long name is not read as the country a word of it names ("the Congo").
    rwanda = "Rwanda is bordered by Uganda, Burundi, and the Democratic Republic of the Congo to the west."
    assert all(confirmed for _, _, confirmed in _checked(rwanda, "Rwanda", "en"))
    # An island shared is a land border.
    shared = _checked("Comparte la isla con Jamaica.", "República Dominicana", "es")
    assert shared == [("Jamaica", "Haití", False)]
    assert _checked("It shares the island of Hispaniola with Haiti.", "Dominican Republic", "en") == \
        [("Haiti", "Haiti", True)]


def test_no_record_where_it_would_not_be_closed() -> None:
    # France borders Brazil through French Guiana, which GeoNames lists as a country of its own.
    assert record("La France a une frontière avec le Brésil.", ["France"], "fr") == []
    # An island has no land neighbour; a place that is no country has no record.
    assert record("It borders Norway.", ["Iceland"], "en") == []
    assert record("Its currency is the euro.", ["Paris"], "en") == []


@pytest.mark.parametrize(("item", "country", "found"), [
    ("Canberra is its largest city.", "Australia", [("Canberra", "Sydney", False)]),
    ("Its largest city is Osaka.", "Japan", [("Osaka", "Tokyo", False)]),
    ("Istanbul is its largest city.", "Turkey", [("Istanbul", "Istanbul", True)]),
    ("Paris est la plus grande ville de France.", "France", [("Paris", "Paris", True)]),
    # GeoNames' populations too close to tell (a town proper, an area), another clause's town, a second.
    ("Melbourne is its largest city.", "Australia", []),
    ("Karachi es la ciudad más grande de Pakistán.", "Pakistán", []),
    ("Canberra is the capital, and Sydney its largest city.", "Australia", []),
    ("Lyon est la deuxième plus grande ville de France.", "France", []),
])
def test_the_largest_town_is_settled_only_where_geonames_populations_tell_it_surely(
        item: str, country: str, found: list[tuple[str, str, bool]]) -> None:
    assert _checked(item, country, "en") == found


@pytest.mark.parametrize(("item", "place", "lang", "found"), [
    ("Tiene unos 500.000 habitantes.", "Bogotá", "es", [("500.000", "7,674,366", False)]),
    ("Mexico has a population of 50 million.", "Mexico", "en", [("50 million", "126,190,788", False)]),
    # Within the town's limits or its urban area, and another year's count, are not wrong.
    ("Paris has about 12 million inhabitants.", "Paris", "en", []),
    ("La France compte 68 millions d'habitants.", "France", "fr", []),
    ("In 1900 Paris had 2.7 million inhabitants.", "Paris", "en", []),
    ("Its metropolitan area has 500,000 inhabitants.", "Bogotá", "en", []),
    # A town's name that several towns bear tells none apart.
    ("Córdoba tiene 300.000 habitantes.", "Córdoba", "es", []),
])
def test_a_population_many_times_off_geonames_is_contradicted(item: str, place: str, lang: str,
                                                              found: list[tuple[str, str, bool]]) -> None:
    assert _checked(item, place, lang) == found


def test_the_population_read_is_of_the_place_the_item_writes() -> None:
    [ev] = record("Sydney has 5 million inhabitants.", ["Australia", "Sydney"], "en")
    assert ev.text.startswith("The population of Sydney (GeoNames): ")
    both = "Bogotá, the capital of Colombia, has 500,000 inhabitants."
    assert record(both, ["Bogotá", "Colombia"], "en") == []
    [ev] = record("Tiene unos 500.000 habitantes.", ["Bogotá"], "es")
    assert ev.text == "La población de Bogotá (GeoNames): 7.674.366 habitantes."


def test_the_largest_town_unnamed_is_the_article_the_item_is_read_in() -> None:
    item = "Es la ciudad más grande de España."
    [towns] = record(item, ["Valencia", "España"], "es")
    assert [(c.stated, c.read, c.confirmed) for c in checks(item, towns, "Valencia")] == \
        [("ciudad más grande", "Madrid", False)]
    assert checks(item, towns, "Madrid") == []
