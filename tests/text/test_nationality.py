"""English nationality adjectives: which values are one, and which two name no swap."""

from __future__ import annotations

import pytest

from factjudge.text.nationality import is_nationality, one_nation_within


@pytest.mark.parametrize(("item", "word", "expected"), [
    ("He was an American astronaut.", "American", True),
    ("She is a Japanese singer.", "Japanese", True),
    ("Marie Curie was a Polish physicist.", "Polish", True),
    ("Picasso was a French painter.", "French", True),
    ("He was a Soviet pilot.", "Soviet", True),
    # A faith, an era or a continent is no nation; nor is a nationality with no noun after it.
    ("He was a Christian missionary.", "Christian", False),
    ("It is a Victorian house.", "Victorian", False),
    ("Kenya is an African country.", "African", False),
    ("It is a Gothic cathedral.", "Gothic", False),
    ("He became American.", "American", False),
    ("He moved to the American West.", "American", False),
])
def test_a_nationality_is_an_english_adjective_before_a_noun(item: str, word: str, expected: bool) -> None:
    start = item.index(word)
    assert is_nationality(item, start, start + len(word)) is expected


def test_a_nation_and_the_union_it_was_part_of_are_no_swap() -> None:
    assert one_nation_within("Russian", "Soviet") and one_nation_within("British", "Scottish")
    assert not one_nation_within("American", "Soviet") and not one_nation_within("French", "German")


def test_a_country_read_is_found_where_the_lead_writes_its_nationality() -> None:
    from factjudge.text.nationality import written_nationality
    lead = "Johannes Gutenberg was a German inventor and craftsman. Though movable type was in use, he won."
    assert written_nationality("Germany", lead) == "Johannes Gutenberg was a German inventor and craftsman."
    assert written_nationality("Spain", "He was a Spanish painter.") == "He was a Spanish painter."
    assert written_nationality("Italy", lead) is None
    assert written_nationality("Germany", "The German Empire was founded in 1871.") is None
