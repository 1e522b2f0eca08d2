"""What an answer is about: its topic, found once, and the names it spells out."""

from __future__ import annotations

import pytest

from factjudge.retrieval.wiki.names import Names
from factjudge.retrieval.wiki.topic import Subjects


@pytest.mark.parametrize(("question", "answer", "topic"), [
    ("Question: Tell me a bio of Lanny Flaherty.", "Lanny Flaherty is an American actor.", "Lanny Flaherty"),
    ("Where is the Eiffel Tower, and when was it finished?", "It is in Paris.", "Eiffel Tower"),
    ("", "Sure! The Golden Gate Bridge opened in 1937. It spans the Golden Gate.", "Golden Gate Bridge"),
    ("Who wrote it?", "It was written by Gabriel García Márquez in 1967.", "Gabriel García Márquez"),
    ("What is the largest mammal?", "The blue whale is the largest mammal.", None),
    ("Tell me a bio of James B. Donovan.", "Donovan was a lawyer.", "James B. Donovan"),  # an initial
    # A work's title in sentence case runs to the question's end, lower-case words and all.
    ("¿Quién pintó El jardín de las delicias?", "Lo pintó el Bosco.", "El jardín de las delicias"),
    ("Qui a peint Le Radeau de La Méduse ?", "Théodore Géricault.", "Le Radeau de La Méduse"),
    ("¿Quién pintó el Guernica?", "Picasso.", "Guernica"),
])
def test_the_topic_is_the_questions_subject_else_the_answers_first_name(
        question: str, answer: str, topic: str | None) -> None:
    assert Subjects.of(question, answer).topic == topic


def test_a_lone_word_opening_a_sentence_is_only_maybe_a_name() -> None:
    subjects = Subjects.of("Canberra was founded when?", "Canberra was founded in 1913. Sure.")
    assert subjects.topic is None
    assert subjects.maybe == ("Canberra", "Sure")  # the source decides: an article, or no name
    assert Subjects.of("Tell me a bio of Ada Lovelace.", "Yes.").maybe == ("Yes",)


def test_an_item_names_the_topic_by_a_part_of_its_name() -> None:
    subjects = Subjects.of("Tell me a bio of Lanny Flaherty.", "")
    assert subjects.mentions_topic(Names.of("Flaherty has also worked in theater."))
    assert subjects.mentions_topic(Names.of("Lanny Flaherty's first film came in 1979."))
    assert not subjects.mentions_topic(Names.of("He has appeared in The Sopranos."))
    assert not Subjects.of("Tell me about New York City.", "").mentions_topic(Names.of("New Jersey is near."))


def test_a_part_of_a_name_is_spelt_out_as_the_answer_spelt_it() -> None:
    subjects = Subjects.of("Who wrote One Hundred Years of Solitude?",
                           "Gabriel García Márquez wrote it. Márquez was born in Aracataca.")
    lead = Names.of("Márquez was born in Aracataca.").leading()
    assert lead is not None
    assert subjects.spelt_out(lead) == ("Márquez", "Gabriel García Márquez")  # own title first


def test_thousands_of_capitals_are_no_topic() -> None:
    answer = " ".join(f"Name{i}" for i in range(500))
    assert Subjects.of("", answer).topic is None and Subjects.of("", answer).names == ()


def test_a_disambiguated_topic_is_looked_up_as_wikipedia_titles_it_first() -> None:
    subjects = Subjects.of("Tell me a bio of Ronaldo (Brazilian footballer).", "Ronaldo is retired.")
    assert subjects.topic == "Ronaldo"
    assert subjects.topic_titles("Ronaldo") == ("Ronaldo (Brazilian footballer)", "Ronaldo")


def test_a_title_whose_later_words_are_lower_case_is_read_as_the_question_writes_it() -> None:
    subjects = Subjects.of("Tell me about Amino acid.", "Over 500 amino acids exist in nature.")
    assert subjects.topic_titles("Amino") == ("Amino acid", "Amino")
    # Words a title never ends with are not tried; a question mark ends the name.
    assert Subjects.of("Who wrote Les Misérables in 1862?", "").topic_titles("Les Misérables") == (
        "Les Misérables in 1862", "Les Misérables")
    assert Subjects.of("What is the capital of Canada?", "").topic_titles("Canada") == ("Canada",)


def test_a_request_opening_the_question_is_no_part_of_its_topic() -> None:
    spanish = Subjects.of("Háblame de Monstruo del lago Ness.", "Es un críptido.")
    assert spanish.topic == "Monstruo"
    assert spanish.topic_titles("Monstruo") == ("Monstruo del lago Ness", "Monstruo del lago", "Monstruo")
    assert Subjects.of("Parle-moi de Leontyne Price.", "").topic == "Leontyne Price"
    assert Subjects.of("Parlami di Roma.", "").topic == "Roma"
    # A request written just before the name, with no article between them.
    assert Subjects.of("Describe Lake Baikal.", "").topic == "Lake Baikal"
    assert Subjects.of("Explica Machu Picchu.", "").topic == "Machu Picchu"
    # A name that opens the question and is joined by "of" keeps its first word.
    assert Subjects.of("Jerome of Prague?", "").topic == "Jerome of Prague"
    assert Subjects.of("Statue of Liberty: how tall?", "").topic == "Statue of Liberty"
