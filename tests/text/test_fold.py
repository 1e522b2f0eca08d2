"""One fold: titles, names and values are compared the same way wherever they are found."""

from __future__ import annotations

import pytest

from factjudge.retrieval.wiki import names
from factjudge.text import values
from factjudge.text.fold import fold


@pytest.mark.parametrize(("text", "folded"), [
    ("Émile_Zola", "emile zola"),  # a title as a URL writes it
    ("  Rio   de Janeiro ", "rio de janeiro"),
    ("STRAẞE", "strasse"),
    ("Ciudad de México", "ciudad de mexico"),
])
def test_fold_ignores_case_accents_spacing_and_underscores(text: str, folded: str) -> None:
    assert fold(text) == folded


def test_the_title_finder_and_the_value_finder_share_the_one_fold() -> None:
    assert names.fold is fold and values.fold is fold
