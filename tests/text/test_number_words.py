"""Numbers written in words in en, es and fr: whole numbers in the language given, fractions, signs."""

from __future__ import annotations

import time

import pytest

from factjudge.text.number_words import spelled_numbers


@pytest.mark.parametrize(("text", "lang", "found"), [
    ("It orbits every twenty-nine and a half days.", "en", [("twenty-nine and a half", 29.5)]),
    ("It is half a mile away.", "en", [("half a", 0.5)]),
    ("three quarters of it, a quarter of a mile", "en", [("three quarters", 0.75), ("a quarter", 0.25)]),
    ("minus forty degrees", "en", [("minus forty", -40)]),
    ("Mide medio kilómetro.", "es", [("medio", 0.5)]),
    ("dos y medio, treinta y dos", "es", [("dos y medio", 2.5), ("treinta y dos", 32)]),
    ("tres cuartos, menos cuarenta grados", "es", [("tres cuartos", 0.75), ("menos cuarenta", -40)]),
    ("Ganó once medallas.", "es", [("once", 11)]),
    ("un demi-kilomètre", "fr", [("un demi-", 0.5)]),
    ("trois cent trente mètres, deux tiers", "fr", [("trois cent trente", 330), ("deux tiers", 2 / 3)]),
    ("deux et demi, moins quarante", "fr", [("deux et demi", 2.5), ("moins quarante", -40)]),
    ("onze médailles, quatre-vingt-dix ans", "fr", [("onze", 11), ("quatre-vingt-dix", 90)]),
])
def test_numbers_in_words_and_their_fractions(text: str, lang: str, found: list[tuple[str, float]]) -> None:
    assert [(text[n.start:n.end], pytest.approx(n.value)) for n in spelled_numbers(text, lang)] == found


def test_a_word_is_a_number_only_in_its_language() -> None:
    # "once" is eleven in Spanish, "sept" seven in French; in English neither is a number.
    assert spelled_numbers("He once said it.", "en") == []
    assert [n.value for n in spelled_numbers("Ganó once medallas.", "es")] == [11]
    assert [n.value for n in spelled_numbers("Il a sept ans.", "fr")] == [7]
    assert spelled_numbers("Il a sept ans.", "de") == []  # a language it does not know: none


def test_an_article_or_a_part_alone_needs_a_unit_to_be_a_number() -> None:
    lone = {"one": "en", "una": "es", "une": "fr", "medio": "es", "une demi-": "fr", "half a": "en"}
    for text, lang in lone.items():
        [number] = spelled_numbers(f"{text} x", lang)
        assert number.needs_unit, text
    assert not spelled_numbers("two x", "en")[0].needs_unit


def test_fractions_are_exact_whole_numbers_rounded_to_one() -> None:
    assert [n.step for n in spelled_numbers("cent, un demi-, trois quarts", "fr")] == [1.0, 0.0, 0.0]


def test_a_long_text_is_read_in_bounded_time() -> None:
    started = time.perf_counter()
    spelled_numbers("the cat sat on the mat and one two three " * 2_000, None)
    assert time.perf_counter() - started < 5.0


def test_spanish_some_before_a_figure_is_no_number_one() -> None:
    assert [n.value for n in spelled_numbers("Cuenta con unos 2 millones de habitantes.", "es")] == [1000000]
