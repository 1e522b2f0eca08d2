"""Where a word cannot be a common noun: inside a locution, or (es, fr) with no determiner before it."""

from __future__ import annotations

import pytest

from factjudge.text.noun_slots import locution_spans, not_nouns


def _said(text: str, language: str) -> list[str]:
    return [text[start:end] for start, end in not_nouns(text, language)]


@pytest.mark.parametrize(("text", "language", "locutions"), [
    ("Which birds can add up numbers just as well as humans?", "en", ["as well as"]),
    ("Crossing the Channel on foot, at least once, of course.", "en", ["on foot", "at least", "of course"]),
    ("I married my mother's daughter-in-law.", "en", ["daughter-in-law"]),
    ("It lasts as long as the war, as good as new.", "en", ["as long as", "as good as"]),
    ("Sin embargo, por supuesto, dio a luz en Lima.", "es", ["Sin embargo", "por supuesto", "dio a luz"]),
    ("Il est en train de lire, bien que la fête ait eu lieu.", "fr", ["en train de", "bien que"]),
    ("C'est tout à fait vrai, en effet ; peut-être.", "fr", ["tout à fait", "en effet", "peut-être"]),
    # Another language's locutions are not looked for.
    ("The train went en effet.", "en", []),
])
def test_locutions_are_found_in_their_language(text: str, language: str, locutions: list[str]) -> None:
    assert [text[a:b] for a, b in locution_spans(text, language)] == locutions


def test_a_spanish_or_french_singular_word_needs_a_determiner_before_it_to_be_a_noun() -> None:
    said = _said("¿Cuándo fue creada la comuna suiza de la serie de televisión?", "es")
    assert "suiza" in said and "televisión" in said  # an adjective after its noun, a noun's complement
    assert "comuna" not in said and "serie" not in said  # after their article
    said = _said("Il a présidé l'état vietnamien, au stade du grand lac, et les antennes.", "fr")
    assert "vietnamien" in said
    # An elided article, a preposition joined to one, an adjective said before the noun, a plural.
    assert not {"l'état", "stade", "lac", "antennes"} & set(said)
    # English says its nouns bare ("is cannabis legal?"): only its locutions are no nouns.
    assert _said("Is cannabis legal as well as safe?", "en") == ["as well as"]
    assert not_nouns("¿Qué es?", None) == []
