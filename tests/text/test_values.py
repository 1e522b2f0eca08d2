"""Which values of an item are asked about: kinds, offsets, the item's own subject left out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factjudge.text.values import modifies_a_noun, value_spans


def spans(item: str, question: str = "", **kwargs: object) -> list[tuple[str, str]]:
    found = value_spans(item, question=question, **kwargs)  # type: ignore[arg-type]
    return [(s.text, s.kind) for s in found]


def test_the_capital_not_the_country_the_question_names() -> None:
    assert spans("The capital of Canada is Toronto.", "What is the capital of Canada?") == \
        [("Toronto", "name")]
    assert spans("The capital of Brazil is Rio de Janeiro.", "What is the capital of Brazil?") == \
        [("Rio de Janeiro", "name")]


def test_a_subject_the_question_does_not_name_is_asked_about() -> None:
    # The question is about the Solar System: the wrong planet is the sentence's subject.
    assert spans("Saturn is the largest planet in the Solar System.",
                 "What is the largest planet in the Solar System?") == [("Saturn", "name")]


def test_a_possessive_opening_a_sentence_is_no_subject_to_ask_about() -> None:
    assert spans("Sa capitale est Casablanca.", "Qu'est-ce que le Maroc ?", lang="fr") == \
        [("Casablanca", "name")]
    assert spans("Su capital es Lima.", "¿Qué es Perú?", lang="es") == [("Lima", "name")]


def test_without_a_question_the_name_a_sentence_opens_with_is_its_subject() -> None:
    assert spans("The Eiffel Tower is in Paris.") == [("Paris", "place")]
    assert spans("Canada's capital is Ottawa.") == [("Ottawa", "name")]


def test_a_number_inside_a_name_belongs_to_the_name() -> None:
    found = spans("Apollo 11 landed on the Moon on July 20, 1969 with Neil Armstrong.",
                  "Tell me about Apollo 11.")
    assert ("July 20, 1969", "date") in found and not any(text in ("11", "Apollo") for text, _ in found)
    assert spans("The Boeing 747 first flew in 1969.", "Tell me about the Boeing 747.") == [("1969", "year")]
    assert ("72 years", "number") in spans("He served Louis XIV for 72 years.", "Who was Colbert?")


@pytest.mark.parametrize(("item", "value", "kind"), [
    ("Its main span is about 4,200 metres long.", "4,200 metres", "number"),
    ("The Moon is 384,400 km from Earth.", "384,400 km", "number"),
    ("The city has 2.8 million people.", "2.8 million people", "number"),
    ("It cost $4 billion.", "$4 billion", "number"),
    ("La población es de 67 millones de habitantes.", "67 millones", "number"),
    ("Julie Andrews est née le 1er octobre 1935.", "1er octobre 1935", "date"),
    ("El pacto se firmó el 23 de agosto de 1939.", "23 de agosto de 1939", "date"),
    ("It opened in May 1937.", "May 1937", "date"),
    ("Al Capone a vécu au XXe siècle.", "XXe siècle", "century"),
    ("It was painted in the 1800s.", "1800s", "decade"),
    ("It was painted in the mid-1480s.", "mid-1480s", "decade"),
    ("Il a été peint dans les années 1920.", "années 1920", "decade"),
    ("Se pintó en la década de 1920.", "década de 1920", "decade"),
    ("He died in 44 BC.", "44 BC", "year"),
    ("He was born around 1500 in Florence.", "1500", "year"),
    ("Around 1500 the city grew.", "1500", "year"),
    ("The arsenal had nearly 1000 nuclear warheads.", "1000", "number"),
    ("Llegaron unos 1500 soldados.", "1500", "number"),
    ("Environ 2000 personnes y vivent.", "2000 personnes", "number"),
    ('The novel "War and Peace" is long.', "War and Peace", "title"),
    ('A feature called a "snowplow," which clears snow.', "snowplow", "title"),
    ("Les Misérables is a novel by Victor Hugo.", "Victor Hugo", "person"),
    ("Brézhnev murió en Moscú.", "Moscú", "place"),
    # The lower-case word for a kind of place before its name is a part of it.
    ("Il se jette dans la mer Rouge.", "mer Rouge", "place"),
    ("Desemboca en el océano Atlántico.", "océano Atlántico", "place"),
    ("C'est un roman d'Émile Zola.", "Émile Zola", "name"),
    ("Elle a quitté l'Amérique en 1920.", "Amérique", "name"),
])
def test_kinds_in_english_spanish_and_french(item: str, value: str, kind: str) -> None:
    assert (value, kind) in spans(item)


def test_offsets_point_at_the_value_and_values_do_not_overlap() -> None:
    item = "Marie Curie was born in Warsaw in 1867. She won the Nobel Prize in 1903, 8 years later."
    found = value_spans(item, question="Tell me about Marie Curie.")
    assert all(item[s.start:s.end] == s.text for s in found)
    assert all(a.end <= b.start or b.end <= a.start for a in found for b in found if a is not b)
    assert not any("Curie" in s.text for s in found)


def test_a_place_named_after_the_topic_is_a_value_not_the_topic() -> None:
    question = "¿Cuál es la capital de Cuba?"
    assert [s.text for s in value_spans("La capital de Cuba es Santiago de Cuba.", question=question)] == [
        "Santiago de Cuba"]
    assert value_spans("Cuba es una isla.", question=question) == []


def test_places_dates_and_numbers_come_before_plain_names_and_a_limit_keeps_the_first() -> None:
    item = "Les Misérables is a French historical novel by Émile Zola."
    assert spans(item, "Who wrote Les Misérables?") == [("Émile Zola", "person"), ("French", "name")]
    assert spans(item, "Who wrote Les Misérables?", limit=1) == [("Émile Zola", "person")]


def test_words_that_are_no_value() -> None:
    assert spans("However, it is said that on Monday I went there.") == []
    assert spans("It was finished in 1889 and the main span is long.") == [("1889", "year")]


def test_a_typed_blank_and_a_question_asked_where_the_value_stood() -> None:
    item = "It opened in 1937. Its main span is about 4,200 metres long."
    year, length = value_spans(item)
    assert year.blanked(item) == "It opened in ___ (a year). Its main span is about 4,200 metres long."
    assert year.question(item) == "It opened in which year?"
    assert length.blanked(item).endswith("about ___ (a number of metres) long.")
    assert length.question(item) == "Its main span is about how many metres long?"
    saturn = value_spans("Saturn is the largest planet.", question="Which planet is the largest?")[0]
    assert saturn.question("Saturn is the largest planet.") == "What is the largest planet?"
    es = value_spans("Fue fundada en 1492.")[0]
    assert es.question("Fue fundada en 1492.", "es") == "Fue fundada en qué año?"


@given(st.text(alphabet=st.sampled_from("Ab1 9,.é€%-'\"«»ÉM"), max_size=60))
def test_any_text_gives_located_values(item: str) -> None:
    for span in value_spans(item, question=item[:10]):
        assert item[span.start:span.end] == span.text and span.text.strip()


def test_a_lone_word_opening_a_sentence_is_asked_about_last_or_not_at_all() -> None:
    # "Nearby" opens a sentence capitalised like a name: any other value comes first.
    item = "Nearby lies the Bering Sea."
    spans = value_spans(item, question="Tell me about the Pacific Ocean.")
    assert [s.text for s in spans] == ["Bering Sea", "Nearby"]
    # "Ocupa" before its object's article and noun is a verb: not asked about.
    item = "Ocupa la tercera parte de su superficie y se extiende desde el mar de Bering."
    assert [s.text for s in value_spans(item, question="Háblame de Océano Pacífico.")] == ["Bering"]
    # Written in lower case too, it is a word: "Fortune cookies" asked about "fortune cookies".
    cookies = "Where were fortune cookies invented?"
    assert value_spans("Fortune cookies are popular.", question=cookies) == []
    numbers = "Different sources give different numbers, 94 or 50."
    assert [s.text for s in value_spans(numbers)] == ["94", "50"]


def test_a_name_with_a_slash_is_one_value() -> None:
    # Issue 44 (low): "AC/DC" was read as the two names "AC" and "DC".
    spans = value_spans("The band that made the album was AC/DC.",
                        question="Which band made Highway to Hell?")
    assert [span.text for span in spans] == ["AC/DC"]
    assert [s.text for s in value_spans("In 1914/1918 it grew.")] == ["1914", "1918"]  # numbers stay apart


def test_a_value_is_asked_in_the_language_the_item_is_written_in() -> None:
    # A check's language defaults to English; a Spanish item is still asked in Spanish.
    item = "El agua de este lago hierve a cien grados."
    [span] = value_spans(item, question="¿A qué temperatura hierve el agua de este lago?", lang="en")
    assert span.question(item, "en") == "El agua de este lago hierve a cuántos grados?"


@pytest.mark.parametrize(("item", "lang", "blank", "asked"), [
    ("Water boils at 212 °F.", "en", "Water boils at ___ (a temperature).",
     "Water boils at which temperature?"),
    ("El agua hierve a cien grados centígrados.", "es", "El agua hierve a ___ (a temperature).",
     "El agua hierve a qué temperatura?"),
    ("El ángulo mide noventa grados.", "es", "El ángulo mide ___ (a number of grados).",
     "El ángulo mide cuántos grados?"),  # bare degrees may be an angle
    ("L'eau gèle à trente-deux degrés Fahrenheit.", "fr", "L'eau gèle à ___ (a temperature).",
     "L'eau gèle à quelle température?"),
    ("It is 384,400 km away.", "en", "It is ___ (a number of km) away.", "It is how many km away?"),
])
def test_a_temperature_is_asked_for_in_any_scale(item: str, lang: str, blank: str, asked: str) -> None:
    # Asked for "a number of °F", the model found none in a passage giving °C: the comparison converts.
    [span] = [s for s in value_spans(item, question="x", lang=lang) if s.kind == "number"]
    assert span.blanked(item) == blank and span.question(item, lang) == asked


def test_a_spanish_past_tense_opening_a_sentence_is_a_verb_not_a_name() -> None:
    # "Nació en Génova": the subject is left out; "Miró pintó …" opens with a name.
    assert [s.text for s in value_spans("Nació en Génova.", question="¿Quién fue Colón?")] == ["Génova"]
    assert [s.text for s in value_spans("Ganó el Premio Nobel en 1945.")] == ["1945", "Premio Nobel"]
    # A present tense so opening a sentence: "Desemboca" is no name to ask about.
    spans = value_spans("Desemboca en el océano Pacífico.", question="¿Qué es el Amazonas?")
    assert [s.text for s in spans] == ["océano Pacífico"]
    assert [s.text for s in value_spans("Limita con Francia.", question="¿Qué es España?")] == ["Francia"]
    # So before its object's article and noun: "Comparte la isla", "Forma parte de".
    spans = value_spans("Comparte la isla con Haití.", question="¿Qué es la República Dominicana?")
    assert [s.text for s in spans] == ["Haití"]
    assert [s.text for s in value_spans("Forma parte de Europa.", question="¿Qué es España?")] == ["Europa"]
    # So before a figure: "Tiene unos 100.000 habitantes" asks about the figure only.
    spans = value_spans("Tiene unos 100.000 habitantes.", question="¿Qué es Buenos Aires?")
    assert [s.text for s in spans] == ["100.000 habitantes"]
    assert "Sofía" in [s.text for s in value_spans("Sofía es la capital de Bulgaria.", question="¿Qué es?")]
    # A past tense before a name: "Escribió" is no word of "Don Quijote".
    spans = value_spans("Escribió Don Quijote de la Mancha.", question="¿Quién fue Cervantes?")
    assert [s.text for s in spans] == ["Don Quijote", "Mancha"]
    # An irregular past tense: "Estuvo casada con …" asks about the husband only.
    spans = value_spans("Estuvo casada con Pablo Picasso.", question="¿Quién fue Frida Kahlo?")
    assert [s.text for s in spans] == ["Pablo Picasso"]
    miro = value_spans("Miró pintó Carnaval de Arlequín en 1925.", question="¿Qué pintó?")
    assert "Miró" in [s.text for s in miro]
    # A past tense in "-ió" before a lower-case word: no name ends so.
    assert [s.text for s in value_spans("Murió asesinado en 1923.", question="¿Quién fue Pancho Villa?")] == [
        "1923"]


def test_a_unit_written_with_a_capital_belongs_to_its_number() -> None:
    spans = value_spans("Water boils at 100 degrees Celsius at sea level.", question="When does water boil?")
    assert [(s.text, s.kind) for s in spans] == [("100 degrees Celsius", "number")]
    assert spans[0].temperature()
    assert [s.text for s in value_spans("El agua hierve a 100 grados Celsius.")] == ["100 grados Celsius"]


@pytest.mark.parametrize(("item", "name"), [
    ("He was a student of Plato.", "Plato"),
    ("Il était le fils de Philippe II.", "Philippe II"),
    ("Fue discípulo de Platón.", "Platón"),
])
def test_a_name_a_person_is_tied_to_is_a_persons(item: str, name: str) -> None:
    assert [(s.text, s.kind) for s in value_spans(item)] == [(name, "person")]


@pytest.mark.parametrize(("text", "word", "modifier"), [
    ("Sagrada Família is a Catholic church in Barcelona.", "Catholic", True),
    ("Its capital is Ottawa, and its largest city is Toronto.", "Ottawa", False),
    ("Il a écrit un roman en français.", "Il", False),  # a stop word after it is no noun
    ("The Eiffel Tower is in Paris.", "Eiffel Tower", False),  # several words: a name
])
def test_a_lone_capitalised_word_before_a_noun_is_a_modifier(text: str, word: str, modifier: bool) -> None:
    assert modifies_a_noun(text, word) is modifier


@pytest.mark.parametrize("item", ["Le Machu Picchu se trouve au Pérou. C'est une cité inca.",
                                  "Qu'il soit roi ou non, il règne."])
def test_a_french_word_elided_onto_a_lower_case_one_is_no_name(item: str) -> None:
    spans = value_spans(item, question="Où se trouve le Machu Picchu ?", lang="fr")
    assert not [s for s in spans if "'" in s.text]
    named = value_spans("D'Artagnan est un mousquetaire.", question="Qui ?")
    assert [s.text for s in named] == ["D'Artagnan"]


def test_a_nationality_before_a_noun_is_asked_for_as_one() -> None:
    item = "He was an American astronaut."
    [span] = value_spans(item)
    assert span.blanked(item) == "He was an ___ (a nationality) astronaut."
    church = "It is a Gothic cathedral."
    assert value_spans(church)[0].blanked(church) == "It is a ___ (a name) cathedral."
