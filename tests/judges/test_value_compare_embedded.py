"""Issue 40, kind 4 with the embedded model, in en, es and fr: values compared right. A number in words
is the passage's figure and a fraction in words its decimal; a value that differs by its sign, its
unit or a few letters of a name ("Austria", "Australia") is a contradiction naming the passage's
value. Read in the packaged Wikipedia (no context) and in a given context, so a failure here is
about comparing, not about finding the article."""

from __future__ import annotations

import re

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import checked

# (language, question, right answer, wrong answer, the value stated wrong, what the passage says);
# every value here is stated by the packaged lead of the article the question is about.
WIKIPEDIA = [
    ("en", "How long does the Moon take to orbit Earth?",
     "The Moon completes an orbit every twenty-nine and a half days.",
     "The Moon completes an orbit every nineteen and a half days.", "nineteen and a half days", "29.5"),
    ("es", "¿Cuántas provincias tiene Canadá?", "Canadá tiene 10 provincias.", "Canadá tiene 12 provincias.",
     "12", "diez"),
    ("fr", "Quelle est la hauteur de la tour Eiffel ?", "La tour Eiffel mesure trois cent trente mètres.",
     "La tour Eiffel mesure un demi-kilomètre.", "un demi-kilomètre", "330"),
]
# What the passage says is a pattern: the Spanish answer is read in the French lead of Canberra, even
# with --language es (a linking miss, issue 40 kind 1), and "Austria" must not be "Australie" either.
NAMES = [
    ("en", "Which country is Vienna the capital of?", "Vienna is the capital of Austria.",
     "Vienna is the capital of Australia.", "Australia", "Austria"),
    ("es", "¿De qué país es capital Canberra?", "Canberra es la capital de Australia.",
     "Canberra es la capital de Austria.", "Austria", "Australi[ae]"),
    ("fr", "De quel pays Canberra est-elle la capitale ?", "Canberra est la capitale de l'Australie.",
     "Canberra est la capitale de l'Autriche.", "Autriche", "Australie"),
]
# (language, question, context, right answer, wrong answer, the value stated wrong)
CONTEXT = [
    ("en", "How cold does Yakutsk get in January?", "In January, the temperature in Yakutsk falls to −40 °C.",
     "In January, the temperature in Yakutsk falls to minus forty degrees Celsius.",
     "In January, the temperature in Yakutsk falls to 40 °C.", "40 °C"),
    ("es", "¿A qué temperatura hierve el agua?",
     "A nivel del mar, el agua hierve a 100 °C y se congela a 0 °C.",
     "A nivel del mar, el agua hierve a cien grados.", "A nivel del mar, el agua hierve a 100 °F.", "100 °F"),
    ("fr", "À quelle température l'eau gèle-t-elle ?",
     "Au niveau de la mer, l'eau bout à 100 °C et gèle à 0 °C.",
     "Au niveau de la mer, l'eau gèle à trente-deux degrés Fahrenheit.",
     "Au niveau de la mer, l'eau gèle à 32 °C.", "32 °C"),
]


def _right_and_wrong(question: str, right: str, wrong: str, stated: str, says: str, *args: str) -> None:
    """The right answer is not false and the wrong one is, by its value: ``stated`` contradicted by
    the passage's ``says``."""
    kept, swapped = (checked(question, answer, *args).segment_verdicts[0] for answer in (right, wrong))
    assert kept.label != "false" and not kept.grounds.contradicted, explain.why(kept)
    assert swapped.label == "false" and swapped.grounds.rule == "values", explain.why(swapped)
    [value] = swapped.grounds.contradicted
    assert value.stated == stated and wrong[value.start:value.end] == stated
    assert re.search(says, value.read or "") or re.search(says, value.passage or ""), value


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "right", "wrong", "stated", "says"), WIKIPEDIA,
                         ids=["en", "es", "fr"])
def test_a_number_in_words_or_figures_is_the_leads(language: str, question: str, right: str, wrong: str,
                                                   stated: str, says: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    _right_and_wrong(question, right, wrong, stated, says)


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "right", "wrong", "stated", "says"), NAMES,
                         ids=["en", "es", "fr"])
def test_a_name_is_compared_by_its_words_not_its_first_letters(language: str, question: str, right: str,
                                                               wrong: str, stated: str, says: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    _right_and_wrong(question, right, wrong, stated, says, "--language", language)


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "context", "right", "wrong", "stated"), CONTEXT,
                         ids=["en", "es", "fr"])
def test_a_signed_or_converted_value_is_compared_with_the_contexts(
        language: str, question: str, context: str, right: str, wrong: str, stated: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    _right_and_wrong(question, right, wrong, stated, "", "--context", context)
