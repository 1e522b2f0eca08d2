"""A superlative the passage ranks lower, read from the words (en/es/fr)."""

from __future__ import annotations

import pytest

from factjudge.text.rank import counted_otherwise, ranked_first, ranked_lower

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
    # A continent's scope said in another language; the pronoun opening the clause is no name of it.
    ("Es el país más grande de Sudamérica.", "Argentina",
     "It covers 2,780,085 km2, making it the second-largest country in South America after Brazil.",
     True, "second-largest"),
    ("C'est le plus long fleuve d'Amérique du Sud.", "Amazone",
     "It is the second-longest river in South America.", True, "second-longest"),
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


@pytest.mark.parametrize(("clause", "name", "sentence", "own", "first"), [
    ("Sweden's biggest lake is Vänern.", "Vänern", VANERN, True, "largest"),
    ("The biggest lake lying wholly inside Canada is Great Bear Lake.", "Great Bear Lake",
     "Great Bear Lake in the boreal forest of Canada is the largest lake entirely in Canada, the "
     "fourth-largest in North America, and the eighth-largest in the world.", True, "largest"),
    ("The highest mountain in Africa is Kilimanjaro.", "Kilimanjaro",
     "It is the highest mountain in Africa and the highest free-standing mountain above sea level.", True,
     "highest"),
    ("El río más largo de España es el Tajo.", "Tajo",
     "El Tajo es el río más largo de la península ibérica y de España.", True, "más largo"),
    # "Extenso" says size as "grande" does.
    ("El país más grande del mundo es Rusia.", "Rusia", "Es el país más extenso del mundo.", True,
     "más extenso"),
    # The pronoun opens the clause after a phrase; "América" is "the Americas" in English.
    ("La montaña más alta de América es el Aconcagua.", "Aconcagua",
     "With a summit elevation of 6,967 metres, it is the highest mountain in the Americas, the highest "
     "outside Asia.", True, "highest"),
])
def test_the_same_superlative_in_the_things_own_lead_is_read(clause: str, name: str, sentence: str,
                                                             own: bool, first: str) -> None:
    found = ranked_first(clause, 0, name, sentence, own_article=own)
    assert found is not None and found.ranked == first
    assert clause[found.start:found.end] == found.said


@pytest.mark.parametrize(("clause", "name", "sentence", "own"), [
    # Ranked lower, not first.
    ("Sweden's biggest lake is Vättern.", "Vättern", VATTERN, True),
    # The superlative is said with another scope: the most populous city of Victoria, not of Australia.
    ("The most populous city in Australia is Melbourne.", "Melbourne",
     "Melbourne is the capital and most populous city of Victoria, and the second-most populous city in "
     "Australia.", True),
    # Another sort: the largest by size is not the most populous.
    ("The largest city in Australia is Melbourne.", "Melbourne",
     "Melbourne is the most populous city of Australia.", True),
    # The sentence is about another thing, named after the superlative.
    ("The largest lake in Sweden is Vänern.", "Vänern", "The largest lake in Sweden is larger than Vänern.",
     True),
    # Another article's sentence that does not name the thing before the superlative.
    ("Sweden's biggest lake is Mälaren.", "Mälaren", VANERN, False),
])
def test_a_superlative_said_of_another_scope_or_thing_is_not_read(clause: str, name: str, sentence: str,
                                                                  own: bool) -> None:
    assert ranked_first(clause, 0, name, sentence, own_article=own) is None


def test_a_rank_by_size_said_without_a_superlative_is_read() -> None:
    sentence = ("Sa superficie de 82 400 000 km2, soit 16 % de la surface totale de la Terre, en fait le "
                "deuxième par la taille, derrière l'océan Pacifique.")
    clause = "Le plus grand océan est l'océan Atlantique."
    rank = ranked_lower(clause, 0, "Atlantique", sentence, own_article=True)
    assert rank is not None and (rank.said, rank.ranked) == ("plus grand", "deuxième par la taille")
    # Size is not length.
    assert ranked_lower("Le plus long fleuve est la Loire.", 0, "Loire",
                        "La Loire est la deuxième par la taille.", own_article=True) is None


JEFFERSON = ("Thomas Jefferson was a Founding Father and the third president of the United States from 1801 "
             "to 1809.")


@pytest.mark.parametrize(("clause", "name", "sentence", "counted"), [
    ("The first president of the United States was Thomas Jefferson.", "Thomas Jefferson", JEFFERSON,
     "third president"),
    ("El primer presidente de los Estados Unidos fue Thomas Jefferson.", "Thomas Jefferson",
     "Thomas Jefferson fue el tercer presidente de los Estados Unidos.", "tercer presidente"),
    ("Le 16e président des États-Unis fut Thomas Jefferson.", "Thomas Jefferson",
     "Thomas Jefferson est le troisième président des États-Unis.", "troisième président"),
])
def test_a_count_the_passage_gives_otherwise_is_read(clause: str, name: str, sentence: str,
                                                     counted: str) -> None:
    found = counted_otherwise(clause, 0, name, sentence, own_article=True)
    assert found is not None and found.ranked == counted
    assert clause[found.start:found.end].split()[-1] in ("president", "presidente", "président")


@pytest.mark.parametrize(("clause", "name", "sentence", "own"), [
    # The same count.
    ("Thomas Jefferson was the third president of the United States.", "Thomas Jefferson", JEFFERSON, True),
    # The stated count among others ("the 22nd and 24th president").
    ("Grover Cleveland was the 24th president of the United States.", "Grover Cleveland",
     "Grover Cleveland was the 22nd and 24th president of the United States.", True),
    # Another noun counted ("the first woman" beside "the first person").
    ("She was the first woman to win a Nobel Prize.", "Marie Curie",
     "She was the first person to win a Nobel Prize twice.", True),
    # The clause's other names (its scope) are not all in the sentence.
    ("The first president of France was Thomas Jefferson.", "Thomas Jefferson", JEFFERSON, True),
    # Neither the thing's own article nor naming it before the count.
    ("The first president of the United States was Thomas Jefferson.", "Thomas Jefferson",
     "Adams was the second president of the United States, after Washington.", False),
])
def test_a_count_is_left_open_where_the_sentence_does_not_say_otherwise(clause: str, name: str, sentence: str,
                                                                        own: bool) -> None:
    assert counted_otherwise(clause, 0, name, sentence, own_article=own) is None

