"""Who made a work, as the opening sentence of its own article says it (en/es/fr)."""

from __future__ import annotations

import pytest

from factjudge.text.makers import made_by, made_verb, what_was_made


@pytest.mark.parametrize(("sentence", "verb", "makers"), [
    ("Moby-Dick; or, The Whale is an 1851 epic novel by American writer Herman Melville.", "wrote",
     ("Herman Melville",)),
    ("Moby Dick es una novela del escritor Herman Melville publicada por primera vez en 1851.", "escribió",
     ("Herman Melville",)),
    ("Les Misérables est un roman de Victor Hugo publié en 1862.", "écrit", ("Victor Hugo",)),
    # Where it is kept comes between the work's word and its maker; "del Prado" is no maker.
    ("Las Meninas is a 1656 oil painting in the Museo del Prado in Madrid, by Diego Velázquez.", "pintó",
     ("Diego Velázquez",)),
    ("The Starry Night is an oil-on-canvas painting by the Dutch Post-Impressionist painter Vincent van "
     "Gogh.", "painted", ("Vincent van Gogh",)),
    ("The School of Athens is a fresco by the Italian Renaissance artist Raphael.", "painted", ("Raphael",)),
    ("Le Radeau de La Méduse est une peinture à l'huile sur toile, réalisée entre 1818 et 1819 par le "
     "peintre et lithographe romantique français Théodore Géricault.", "peint", ("Théodore Géricault",)),
    ("Vingt Mille Lieues sous les mers est un roman d'aventures de Jules Verne, paru en 1869.", "écrit",
     ("Jules Verne",)),
    ("Don Giovanni is an opera in two acts with music by Wolfgang Amadeus Mozart to an Italian libretto by "
     "Lorenzo Da Ponte.", "composed", ("Wolfgang Amadeus Mozart",)),
    ("The Wealth of Nations is a book by the Scottish economist and moral philosopher Adam Smith.", "wrote",
     ("Adam Smith",)),
])
def test_the_maker_a_works_opening_sentence_names_is_read(sentence: str, verb: str,
                                                         makers: tuple[str, ...]) -> None:
    assert made_by(sentence, verb) == makers


@pytest.mark.parametrize(("sentence", "verb"), [
    # Another kind of work than the verb makes: the film's maker is its director, the musical's its composer.
    ("Les Misérables is a 2012 film directed by Tom Hooper.", "wrote"),
    ("The Phantom of the Opera is a musical with music by Andrew Lloyd Webber.", "wrote"),
    # No person after "de": an era, a place, a possessive.
    ("La Joconde est un tableau de la Renaissance italienne.", "peint"),
    ("La Gran Esfinge es una estatua colosal de El Cairo.", "esculpió"),
    ("The Principia is a book by Isaac Newton's followers.", "wrote"),
    # The sentence calls its subject no work.
    ("Herman Melville was an American novelist.", "wrote"),
    ("Guernica is a town in Biscay, Spain.", "painted"),
])
def test_no_maker_is_read_where_the_sentence_names_none_for_the_verb(sentence: str, verb: str) -> None:
    assert made_by(sentence, verb) == ()


def test_what_was_made_is_the_value_just_after_the_verb_not_its_maker() -> None:
    item = "He wrote Moby-Dick."
    assert made_verb(item) == "wrote"
    assert what_was_made(item, item.index("Moby"))
    assert what_was_made("Il a écrit Les Misérables.", len("Il a écrit "))
    passive = "Moby-Dick was written by Herman Melville."
    assert not what_was_made(passive, passive.index("Herman"))
    assert made_verb("He was born in 1819.") is None
