"""A superlative the passage ranks lower, read from the words (en/es/fr)."""

from __future__ import annotations

import pytest

from factjudge.text.rank import ranked_lower

VATTERN = ("Vättern is the second largest lake by surface area in Sweden, after Vänern, and the sixth "
           "largest lake in Europe.")
VANERN = "Vänern is the largest lake in Sweden, the largest lake in the EU and the third largest in Europe."


@pytest.mark.parametrize(("clause", "name", "sentence", "own", "ranked"), [
    ("El océano más grande es el Atlántico.", "Atlántico",
     "El océano Atlántico es la segunda más grande de las cinco divisiones oceánicas del globo terráqueo.",
     True, "segunda más grande"),
    ("Sweden's biggest lake is Vättern.", "Vättern", VATTERN, True, "second largest"),
    # The scope picks the rank it is said of.
    ("Vättern is the largest lake in Europe.", "Vättern", VATTERN, True, "sixth largest"),
    ("Le Rhône est le plus long fleuve de Suisse.", "Rhône",
     "Le Rhône est le deuxième plus long fleuve de Suisse.", True, "deuxième plus long"),
    ("El río más largo de Europa es el Danubio.", "Danubio",
     "Con 2850 km es el 2.º río más largo de Europa —tras el Volga—, el 26.º primario.", True,
     "2.º río más largo"),
    ("Lagos is the most populous city in Africa.", "Lagos",
     "Lagos is the second most populous city in Africa, after Cairo.", True, "second most populous"),
])
def test_a_superlative_ranked_lower_for_the_thing_named_is_read(clause: str, name: str, sentence: str,
                                                                  own: bool, ranked: str) -> None:
    rank = ranked_lower(clause, 0, name, sentence, own_article=own)
    assert rank is not None and rank.ranked == ranked
    assert clause[rank.start:rank.end] == rank.said


@pytest.mark.parametrize(("clause", "name", "sentence", "own"), [
    # A plain superlative of the same sort beside the rank: the scope is open.
    ("Sweden's biggest lake is Vänern.", "Vänern", VANERN, True),
    ("The Amazon is the longest river in the world.", "Amazon",
     "The Amazon River is the second-longest or longest river system in the world.", True),
    # Another scope than the sentence's.
    ("K2 is the highest mountain in Pakistan.", "K2", "K2 is the second-highest mountain on Earth.", True),
    # The thing named is the first, after which the other is ranked.
    ("Sweden's biggest lake is Vänern.", "Vänern", VATTERN, False),
    # The answer gives a rank itself.
    ("Vättern is the second largest lake in Sweden.", "Vättern", VATTERN, True),
    # Another article's sentence that does not name the thing before the rank.
    ("Sweden's biggest lake is Mälaren.", "Mälaren", VATTERN, False),
    # No rank of the same sort.
    ("The Nile is the longest river in Africa.", "Nile", "The Nile is the second largest river by discharge.",
     True),
])
def test_a_rank_that_leaves_it_open_is_no_contradiction(clause: str, name: str, sentence: str,
                                                         own: bool) -> None:
    assert ranked_lower(clause, 0, name, sentence, own_article=own) is None


def test_a_rank_by_size_said_without_a_superlative_is_read() -> None:
    sentence = ("Sa superficie de 82 400 000 km2, soit 16 % de la surface totale de la Terre, en fait le "
                "deuxième par la taille, derrière l'océan Pacifique.")
    clause = "Le plus grand océan est l'océan Atlantique."
    rank = ranked_lower(clause, 0, "Atlantique", sentence, own_article=True)
    assert rank is not None and (rank.said, rank.ranked) == ("plus grand", "deuxième par la taille")
    # Size is not length.
    assert ranked_lower("Le plus long fleuve est la Loire.", 0, "Loire",
                        "La Loire est la deuxième par la taille.", own_article=True) is None
