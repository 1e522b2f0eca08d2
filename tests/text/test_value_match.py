"""Comparing the value read from the passages with the value stated: numbers, dates, names."""

from __future__ import annotations

import pytest

from factjudge.text.value_match import (
    aligned_value,
    amounts,
    compare_values,
    held_name,
    passage_form,
    passage_with,
    place_form,
    same_value,
    times,
)


@pytest.mark.parametrize(("stated", "read", "kind", "outcome"), [
    # The probes: the passage's value against the answer's.
    ("Toronto", "Ottawa", "name", "contradicted"),
    ("Rio de Janeiro", "Brasília", "name", "contradicted"),
    ("Saturn", "Jupiter", "name", "contradicted"),
    ("Émile Zola", "Victor Hugo", "person", "contradicted"),
    ("Ottawa", "Ottawa", "name", "confirmed"),
    # Shorter and longer forms of one name, case and accents, near spellings across languages.
    ("Hugo", "Victor Hugo", "person", "confirmed"),
    ("Toronto", "Toronto, Ontario", "place", "confirmed"),
    ("Brasilia", "BRASÍLIA", "place", "confirmed"),
    ("Moscou", "Moscow", "place", "confirmed"),
    ("Múnich", "Munich", "place", "confirmed"),
    # A year against a full date, a date against a year, centuries, eras.
    ("1937", "May 27, 1937", "year", "confirmed"),
    ("1920", "31 March 1889", "year", "contradicted"),
    ("1867", "7 novembre 1867", "year", "confirmed"),
    ("27 de mayo de 1937", "1937", "date", "confirmed"),
    ("1er octobre 1935", "October 1, 1935", "date", "confirmed"),
    ("2 October 1935", "October 1, 1935", "date", "contradicted"),
    ("19th century", "1869", "century", "confirmed"),
    ("XIXe siècle", "1969", "century", "contradicted"),
    # A decade holds its ten years; "the 1800s" is a century, all its hundred.
    ("1800s", "mid-1480s", "decade", "contradicted"),
    ("1800s", "1850", "decade", "confirmed"),
    ("1480s", "1486", "decade", "confirmed"),
    ("années 1920", "1931", "decade", "contradicted"),
    ("44 BC", "44 BC", "year", "confirmed"),
    # Numbers: tolerance, separators, scale words, units.
    ("384,000 km", "384,400 kilometres", "number", "confirmed"),
    ("4,200 metres", "1,280 metres", "number", "contradicted"),
    ("2.8 million people", "2,794,356", "number", "confirmed"),
    ("67 millones", "67 millions", "number", "confirmed"),
    ("1 280 m", "1.280 m", "number", "confirmed"),
    ("5 km", "5,000 metres", "number", "confirmed"),
    ("3", "three", "number", "confirmed"),
    ("72 years", "seventy-two", "number", "confirmed"),  # the whole number in words, never its "two"
    ("2 years", "seventy-two", "number", "contradicted"),
    # A nationality's compound is the nationality, in a list or alone.
    ("Polish-born", "Polish and naturalised-French", "name", "confirmed"),
    ("German-born", "Polish", "name", "contradicted"),
])
def test_outcomes(stated: str, read: str, kind: str, outcome: str) -> None:
    assert compare_values(stated, read, kind) == outcome  # type: ignore[arg-type]


@pytest.mark.parametrize(("stated", "read", "kind"), [
    ("1937", "27", "year"),  # a day of the month is no year (a false alarm seen in the issue)
    ("Toronto", "the largest city", "name"),  # a description is no name
    ("Danubio", "2850 km", "name"),  # nor is a figure, read from another slot
    ("5 km", "5 kg", "number"),  # a mass answers no question about a length
    ("Toronto", "NOT STATED", "name"),
    ("Toronto", "The passages do not say.", "name"),
    ("Toronto", None, "name"),
])
def test_a_reply_that_is_no_value_of_the_kind_is_not_stated_never_a_contradiction(
        stated: str, read: str | None, kind: str) -> None:
    assert compare_values(stated, read, kind) == "not_stated"  # type: ignore[arg-type]


def test_amounts_and_times_are_read_in_every_language() -> None:
    assert amounts("about 4,200 metres") == [(4200.0, "m")]
    assert amounts("1.280,5 km") == [(1280500.0, "m")]
    assert amounts("67 millones de habitantes") == [(67e6, "people")]
    assert times("le 17 janvier 1899") == [(1899, 1899, 1, 17)]
    assert times("from 1643 to 1715") == [(1643, 1643, None, None), (1715, 1715, None, None)]


def test_a_value_is_read_only_from_a_passage_that_holds_it() -> None:
    passages = ["Canada is a country in North America.",
                "Its capital is Ottawa; its largest city is Toronto."]
    assert passage_with("Ottawa", passages) == 1
    assert passage_with("the city of Ottawa", passages) == 1
    assert passage_with("Vancouver", passages) is None
    assert passage_with("384,400 km", ["The Moon is 384 400 km away."]) == 0
    # A short figure is written only as a number of its own: "4" is no part of "40th" or "1974" (a count the
    # model made up, "the passage says 4", for "tres veces").
    peron = ["He was the 29th and 40th president of Argentina, from 1946 to 1955 and from 1973 to 1974."]
    assert passage_with("4", peron) is None
    assert passage_with("40", peron) == passage_with("29th", peron) == passage_with("1974", peron) == 0
    assert passage_with("2.3 million", ["It has 2.3 million people."]) == 0
    assert passage_with("1,280 metres", ["Its span is 1280 metres long."]) == 0


def test_a_read_value_that_echoes_another_value_of_the_item() -> None:
    from factjudge.text.value_match import echoes_other

    assert echoes_other("1527", "year", ["1527", "1789"])
    assert echoes_other("1.6 million", "number", ["1.6\u00a0million", "2.5\u00a0million"])
    assert not echoes_other("Ottawa", "name", ["Canada"])
    # A place named after the item's other value is another thing: the city, not the country.
    assert echoes_other("México", "name", ["México"])
    assert not echoes_other("Ciudad de México", "name", ["México"])
    assert not echoes_other("Mexico City", "name", ["Mexico"])


def test_the_birthplace_a_person_is_named_after_is_no_echo_where_the_passage_writes_it_as_a_place() -> None:
    from factjudge.agents.read_value import value_outcome
    from factjudge.text.value_match import place_in_a_name

    passage = "Ignace de Loyola, né en 1491 à Loiola et mort le 31 juillet 1556 à Rome, est un prêtre."
    assert place_in_a_name("Loiola", ["Ignacio de Loyola"], passage)
    assert place_in_a_name("Vinci", ["Leonardo da Vinci"], "He was born in Vinci, in Tuscany.")
    # The name itself, not a place the passage writes: the model read the subject back.
    assert not place_in_a_name("Loyola", ["Ignacio de Loyola"], "Ignacio de Loyola fue un soldado.")
    assert not place_in_a_name("Rome", ["Ignacio de Loyola"], passage)
    assert value_outcome("Madrid", "Loiola", "place", held=True, others=["Ignacio de Loyola"],
                         passage=passage) == "contradicted"
    assert value_outcome("Madrid", "Loyola", "place", held=True, others=["Ignacio de Loyola"],
                         passage="Ignacio de Loyola fue un soldado.") == "not_stated"


def test_a_figure_read_without_its_scale_word_is_the_same_figure() -> None:
    assert compare_values("35 millions", "35", "number") == "confirmed"
    assert compare_values("35 millions", "50 millions", "number") == "contradicted"
    assert compare_values("35 millions", "12", "number") == "contradicted"


def test_a_figure_read_without_its_unit_is_the_figure_in_the_unit_asked_for() -> None:
    # The blank asked for "a number of years" or "of kilómetros": the model answers with the figure.
    assert compare_values("90,000 years", "90,000", "number") == "confirmed"
    assert compare_values("16 000 kilómetros", "16000", "number") == "confirmed"
    assert compare_values("16 000 kilómetros", "17 000", "number") == "contradicted"
    assert compare_values("4,200 metres", "1,280 m", "number") == "contradicted"


def test_a_full_date_read_in_another_language_is_found_in_the_passage_that_writes_it() -> None:
    from factjudge.text.value_match import passage_with

    passage = "Marie Stuart, née le 8 décembre 1542 et morte le 8 février 1587 à Fotheringhay."
    assert passage_with("8 February 1587", [passage]) == 0
    assert passage_with("9 February 1587", [passage]) is None  # another day: the model's own
    assert passage_with("February 1587", ["Elle meurt en 1587."]) is None  # no full date to match


def test_a_name_read_in_another_language_is_found_as_the_passage_writes_it() -> None:
    french = ["Osiris est un roi mythique de l'Égypte antique."]
    assert passage_form("Egypt", french) == "Égypte"
    assert passage_form("Egypt", french, stated="Nil") == "Égypte"
    assert passage_form("Egypt", french, stated="Egypt") is None  # the stated value read from belief
    assert passage_form("Sweden", french) is None
    assert passage_form("1587", ["mort en 1587"]) is None  # figures are found by passage_with
    # Two runs spelled alike: which one the reply stands for is unknown.
    assert passage_form("Marie", ["Marie et Mario arrivent."]) is None


def test_a_place_read_in_another_language_is_found_as_the_passage_writes_it() -> None:
    french = ["Sigmund Freud, né le 6 mai 1856 à Freiberg, et mort en 1939 à Londres (Royaume-Uni)."]
    assert passage_form("London", french) is None  # spelled too far apart to be the same word
    assert place_form("London", french) == "Londres"
    assert place_form("United Kingdom", french) == "Royaume-Uni"
    assert place_form("Vienna", french) is None
    assert place_form("London", ["He lived in Parish Street."]) is None


@pytest.mark.parametrize(("stated", "read", "kind", "same"), [
    ("London", "Londres", "place", True), ("Venice", "Venise", "name", True),
    ("Vienna", "Londres", "place", False), ("Florence", "Firenze", "person", False),  # a person is no place
])
def test_a_place_each_language_names_its_own_way_is_one_value(stated: str, read: str, kind: str,
                                                              same: bool) -> None:
    assert same_value(stated, read, kind) is same


def test_the_value_a_passage_gives_between_the_items_own_words() -> None:
    passage = ["La última cena es una pintura de Leonardo, realizada entre 1495 y 1498. Fue declarada "
               "Patrimonio de la Humanidad en 1980."]
    item = "La última cena es una pintura de Leonardo, realizada entre 1495 y 1980."
    start = item.rindex("1980")
    assert aligned_value(item, start, start + 4, passage) == (0, passage[0].split(" Fue")[0], "1498")
    # Too few of the item's words before it, or no word after it nor the sentence's end: no alignment.
    item = "The capital of Canada is Toronto."
    start = item.index("Toronto")
    assert aligned_value(item, start, start + 7, ["Canada is a country."]) is None
    item = "It was founded between 1495 and 1980 by monks."
    start = item.index("1980")
    found = aligned_value(item, start, start + 4, ["It was founded between 1495 and 1498 by monks."])
    assert found is not None and found[2] == "1498"
    assert aligned_value(item, start, start + 4, ["It was founded between 1495 and 1498 by a king."]) is None
    # Two sentences with two values in that place: which one is meant is unknown.
    two = ["It was founded between 1495 and 1498 by monks. It was founded between 1495 and 1500 by monks."]
    assert aligned_value(item, start, start + 4, two) is None
    # A value in brackets closing the sentence: the bracket is no word after it.
    item = "Later novels include A Man of the People (1966) and Anthills of the Savannah (1964)."
    start = item.index("1964")
    lead = ["His Arrow of God (1964) completes a trilogy. Later novels include A Man of the People (1966) "
            "and Anthills of the Savannah (1987)."]
    found = aligned_value(item, start, start + 4, lead)
    assert found is not None and found[2] == "1987"


def test_a_figure_read_is_held_by_a_passage_that_writes_it_in_words() -> None:
    # The model reads "10" where the lead writes "diez provincias": read, not believed.
    lead = ["Canadá es un país soberano. Su territorio está organizado en diez provincias y tres "
            "territorios."]
    assert passage_with("10", lead) == 0 and passage_with("10 provincias", lead) == 0
    assert passage_with("12", lead) is None
    assert passage_with("330", ["La tour mesure trois cent trente mètres."]) == 0


def test_a_figure_the_passage_writes_as_a_year_of_an_era_counts_no_years() -> None:
    passage = "It was built c. 2600 BC over a period of about 26 years."
    assert compare_values("3,800 years", "2600", "number", passage=passage) == "not_stated"
    assert compare_values("30 years", "26", "number", passage=passage) == "contradicted"


NAPOLEON = ("Napoléon Bonaparte, né le 15 août 1769 à Ajaccio en Corse et mort le 5 mai 1821 à Longwood sur "
            "l’île de Sainte-Hélène, est un militaire et homme d'État français.")


@pytest.mark.parametrize(("read", "stated", "held"), [
    # The model's own words around the names: the first name the passage holds is what it read.
    ("Longwood on the island of Sainte-Hélène", "Paris", "Longwood"),
    # A name held that is written like the stated one (in another language too) leaves it unread.
    ("Longwood on the island of Sainte-Hélène", "Saint Helena", None),
    ("Longwood on the island of Sainte-Hélène", "Sainte-Hélène", None),
    # One name, or none the passage holds: nothing to take from the reply.
    ("Ajaccio", "Paris", None),
    ("Boulogne-sur-Mer in France", "Paris", None),
])
def test_a_name_the_passage_holds_is_taken_from_a_reply_that_says_more(read: str, stated: str,
                                                                       held: str | None) -> None:
    assert held_name(read, [NAPOLEON], stated) == held


def test_an_initialism_read_is_the_name_the_passage_spells_it_out_as() -> None:
    from factjudge.text.value_match import spelled_out
    passage = "He was a French educator, co-founder of the International Olympic Committee (IOC)."
    assert spelled_out("IOC", passage) == "International Olympic Committee"
    assert spelled_out("NASA", "the National Aeronautics and Space Administration (NASA) is") == \
        "National Aeronautics and Space Administration"
    assert spelled_out("EU", passage) == "EU"
    assert spelled_out("Paris", passage) == "Paris"


def test_a_town_read_that_shares_a_word_with_its_country_is_no_echo_of_it() -> None:
    from factjudge.text.value_match import echoes_other
    assert not echoes_other("San Salvador", "name", ["El Salvador"])
    assert echoes_other("Panamá", "name", ["Panamá"])


def test_areas_compare_across_units_and_a_read_is_put_in_the_stated_unit() -> None:
    from factjudge.text.value_match import compare_values, in_stated_unit
    assert compare_values("7 million square kilometres", "2.7 million sq mi", "number") == "confirmed"
    assert compare_values("1 million square kilometres", "2.7 million sq mi", "number") == "contradicted"
    assert compare_values("500 hectares", "5 km2", "number") == "confirmed"
    assert in_stated_unit("2.7 million sq mi", "1 million square kilometres") == \
        "6.99 million square kilometres"
    assert in_stated_unit("4,345 mi", "500 km") == "6990 km"
    assert in_stated_unit("Paris", "Lyon") == "Paris"
