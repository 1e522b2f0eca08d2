"""A contradiction is confirmed before it is called: the item with the value read put in, asked against
the passage sentence it was read from, must be what the sentence says (world knowledge, ``evidence``)."""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.agents.read_value import given_to_another, gives_it_too, relation_said
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.judges.decision import put_in
from factjudge.llm.base import Completion, Message
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.text.values import value_spans
from tests.judges.test_evidence_judge import yes_no

BURJ = Evidence("wikipedia", "The Burj Khalifa is a megatall skyscraper in Dubai. It has been the tallest "
                             "building in the world since its topping out in 2009.", title="Burj Khalifa")


def _model(confirm_p_no: float | str) -> ScriptedChatModel:
    """Reads 2009 for the blank, doubts the item (P(No) 0.7), and doubts the item with 2009 put in, asked
    against the sentence alone, ``confirm_p_no`` (a string: a reply that is no answer)."""

    def reply(messages: list[Message]) -> Completion | str:
        # A retry repeats the conversation: the statement is the first message's.
        statement = next(m["content"] for m in messages if m["role"] == "user").rsplit("<statement>", 1)[-1]
        if "___" in statement:
            return "2009"
        if "2009" in statement:
            return confirm_p_no if isinstance(confirm_p_no, str) else yes_no(confirm_p_no, LOCAL_DEFAULT)
        return yes_no(0.7, LOCAL_DEFAULT)

    return ScriptedChatModel(reply, name=LOCAL_DEFAULT)


def _check(model: ScriptedChatModel, strategy: str = "evidence") -> object:
    config = CheckConfig(strategy=strategy)
    return Checker(config, model).check("When did the Burj Khalifa open?", "The Burj Khalifa opened in 2010.",
                                        context=[BURJ])


def test_a_value_read_from_a_sentence_that_says_it_of_another_thing_contradicts_nothing() -> None:
    model = _model(0.55)
    result = _check(model)
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "unverified" and verdict.grounds.rule == "silent"
    [value] = verdict.grounds.values
    assert (value.read, value.outcome, value.excused) == ("2009", "not_stated", "unconfirmed")
    assert value.confirm == "The Burj Khalifa opened in 2009."
    assert value.confirm_doubt is not None and abs(value.confirm_doubt - 0.55) < 1e-9
    # Asked against the sentence the value was read from, alone, and kept in the transcript.
    [confirm] = [t for t in result.traces if t.step == "confirm"]  # type: ignore[attr-defined]
    asked = confirm.messages[-1]["content"]
    assert "since its topping out in 2009" in asked and "megatall" not in asked
    assert "The Burj Khalifa opened in 2009." in asked
    assert explain.checks(verdict) == [
        "2010: read 2009, no contradiction: the passage sentence does not say “The Burj Khalifa opened in "
        "2009.” (P(No) 0.55) (asked: “The Burj Khalifa opened in ___ (a year).”)"]


def test_a_value_the_sentence_states_of_the_same_thing_is_a_contradiction_with_its_reason() -> None:
    result = _check(_model(0.1))
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "false" and verdict.grounds.rule == "values"
    [value] = verdict.grounds.values
    assert (value.outcome, value.excused, value.confirm) == ("contradicted", None,
                                                              "The Burj Khalifa opened in 2009.")
    assert explain.why(verdict).startswith("the passage says 2009; the answer says 2010")


def test_a_confirmation_that_is_no_answer_is_asked_again_then_leaves_the_reading_as_it_was() -> None:
    model = _model("Perhaps.")
    result = _check(model)
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "false" and verdict.grounds.values[0].confirm is None
    confirms = [t for t in result.traces if t.step == "confirm"]  # type: ignore[attr-defined]
    assert len(confirms) == 3 and all(t.error for t in confirms)  # every attempt reported


def test_a_callers_context_is_not_asked_again() -> None:
    model = _model(0.55)
    result = _check(model, strategy="supported")
    [verdict] = result.segment_verdicts  # type: ignore[attr-defined]
    assert verdict.label == "false" and verdict.grounds.values[0].confirm is None
    assert not [t for t in result.traces if t.step == "confirm"]  # type: ignore[attr-defined]


def test_a_date_the_sentence_gives_another_named_thing_is_excused_unasked() -> None:
    # The judge, asked, once took "co-founded … AT&T in 1885" for "inventing the telephone in 1885".
    company = Evidence("wikipedia", "The Burj Khalifa opened in 2010. Its builder founded Emaar Properties "
                                    "in 2009.", title="Burj Khalifa")
    model = _model(0.1)
    result = Checker(CheckConfig(strategy="evidence"), model).check(
        "When did the Burj Khalifa open?", "The Burj Khalifa was finished in 2010.", context=[company])
    [verdict] = result.segment_verdicts
    [value] = verdict.grounds.values
    assert verdict.label != "false" and (value.read, value.excused) == ("2009", "other_event")
    assert not [t for t in result.traces if t.step == "confirm"]


@pytest.mark.parametrize(("item", "read", "sentence", "another"), [
    ("Alexander Graham Bell is credited with inventing the telephone in 1876.", "1885",
     "He also co-founded the American Telephone and Telegraph Company (AT&T) in 1885.", True),
    # A name the item says a word of: the same thing ("Nobel Prize in Literature" of "Nobel Prize").
    ("Toni Morrison received the Nobel Prize in 1990.", "1993",
     "Morrison won the Nobel Prize in Literature in 1993.", False),
    # No name a few words before the date.
    ("The Eiffel Tower was completed in 1899.", "1889",
     "It was constructed from 1887 to 1889 as the centerpiece of the World's Fair.", False),
    # Who did it, where, and the date's own month are no other thing dated.
    ("Il a été créé en 1950.", "1875",
     "The opera was first performed by the Opéra-Comique in Paris on 3 March 1875.", False),
    # A work's maker after its noun is who made it, not another dated thing.
    ("Il a été peint en 1920.", "1863",
     "Le Déjeuner sur l'herbe est un tableau d'Édouard Manet achevé en 1863.", False),
])
def test_a_date_given_to_another_named_thing(item: str, read: str, sentence: str, another: bool) -> None:
    assert given_to_another(item, read, sentence, ["Alexander Graham Bell", "Toni Morrison"]) is another


def test_a_sentence_that_says_the_relation_in_the_items_words_is_not_asked_again() -> None:
    # "opened" and the item's other year are in the sentence: the contradiction stands with no call more.
    opened = Evidence("wikipedia", "The Burj Khalifa opened in 2009, a year after its topping out in 2008.",
                      title="Burj Khalifa")
    model = _model(0.9)
    result = Checker(CheckConfig(strategy="evidence"), model).check(
        "When did the Burj Khalifa open?", "The Burj Khalifa opened in 2010.", context=[opened])
    [verdict] = result.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.values[0].confirm is None
    assert not [t for t in result.traces if t.step == "confirm"]


@pytest.mark.parametrize(("item", "start", "read", "sentence", "said"), [
    # The item's word for the relation, by its first letters: "discovered", "discovery".
    ("Ugarit was discovered in 1930.", 25, "1928", "Since its discovery in 1928, the site has revealed much.",
     True),
    ("It opened in 2010.", 13, "2009", "It has been the tallest since its topping out in 2009.", False),
    # The clause's other year, or two years around it, must be in the sentence too.
    ("Hamlet was written by Christopher Marlowe around 1600.", 22, "William Shakespeare",
     "Hamlet is a tragedy written by William Shakespeare sometime between 1599 and 1601.", True),
    ("Il a fondé la Cinquième République en 1958.", 14, "France libre",
     "Pendant la guerre, de Gaulle fonde la France libre ; il préside le gouvernement de 1944 à 1946.",
     False),
    # A span of years says when its subject began and ended: "fell" is its end, "built" its start.
    ("The Berlin Wall fell in 1991.", 24, "1989",
     "The Berlin Wall was a guarded concrete barrier that encircled West Berlin from 1961 to 1989.", True),
    ("The Berlin Wall was built in 1965.", 29, "1961",
     "The Berlin Wall was a guarded concrete barrier that encircled West Berlin from 1961 to 1989.", True),
    ("It fell in 1991.", 11, "1961", "It was a barrier that encircled West Berlin from 1961 to 1989.", False),
    ("La Primera Guerra Mundial terminó en 1919.", 37, "1918",
     "La Primera Guerra Mundial fue un conflicto bélico que se desarrolló de 1914 a 1918.", True),
    # Other words for one relation: the highest summit is the culminating point.
    ("Il est le plus haut sommet des Pyrénées.", 31, "Alpes",
     "Le mont Blanc est le point culminant de la chaîne des Alpes.", True),
    ("It is the highest peak of the Alps.", 30, "Himalayas", "It lies in the Alps, near Chamonix.", False),
    # So is a river's mouth: "se jette dans" where it "flows … into".
    ("Il se jette dans la mer Baltique.", 20, "Black Sea",
     "It flows through Central Europe, from the Black Forest of Germany into the Black Sea.", True),
    ("Il se jette dans la mer Baltique.", 20, "Black Forest", "It rises in the Black Forest of Germany.",
     False),
    # So are a mountain's height measured and a work's first performance, in another language.
    ("Il mesure 6 000 mètres.", 10, "8,848.86", "Its height was most recently measured in 2020 through a "
     "joint survey as 8,848.86 m.", True),
    ("Il a été créé en 1950.", 17, "1875", "The opera was first performed by the Opéra-Comique in Paris on "
     "3 March 1875.", True),
    ("Se estrenó en 1950.", 14, "1875", "It was written in 1875.", False),
    # A noun naming what the item is about says no relation: "roman" of "Le roman a été publié".
    ("Le roman a été publié en 1857.", 25, "1856", "Madame Bovary est un roman de Gustave Flaubert paru en "
     "1857, après une préparution en 1856 dans la Revue de Paris.", False),
    # A lifespan's brackets open with the birth's year and close with the death's.
    ("He was born in 1664.", 15, "1564", "Galileo Galilei (1564–1642), Italian physicist and astronomer.",
     True),
    ("He died in 1650.", 11, "1642", "Galileo Galilei (1564–1642), Italian physicist and astronomer.", True),
    ("He died in 1600.", 11, "1564", "Galileo Galilei (1564–1642), Italian physicist and astronomer.", False),
    ("He was born in 1640.", 15, "1643", "He reigned from 1643 to 1715.", False),
    # So does a word for a birth or a death just before the value, in another language than the item's.
    ("Nació en Chile.", 9, "Junín", "María Eva Duarte de Perón, née le 7 mai 1919 à Junín ou Los Toldos et "
     "morte le 26 juillet 1952 à Buenos Aires, est une actrice.", True),
    ("Il est mort à Tahiti.", 14, "Atuona", "Paul Gauguin, né le 7 juin 1848 à Paris et mort le 8 mai 1903 "
     "à Atuona aux îles Marquises, est un peintre.", True),
    ("Murió en Santiago.", 9, "Junín", "María Eva Duarte de Perón, née le 7 mai 1919 à Junín ou Los Toldos "
     "et morte le 26 juillet 1952 à Buenos Aires, est une actrice.", False),
    # A word of a name the sentence gives is not the relation: "Telephone" of a company's name.
    ("Alexander Graham Bell is credited with inventing the telephone in 1876.", 66, "1885",
     "He also co-founded the American Telephone and Telegraph Company (AT&T) in 1885.", False),
    ("Bell invented the telephone in 1876.", 31, "1875", "Bell invented the telephone in 1875.", True),
    # A span of years whose ends are dates: "hasta el 9 de noviembre de 1989" is when it fell.
    ("El Muro de Berlín cayó en 1991.", 26, "1989",
     "El Muro de Berlín fue un muro desde el 13 de agosto de 1961 hasta el 9 de noviembre de 1989.", True),
])
def test_a_sentence_says_the_relation_by_the_items_words_and_years(item: str, start: int, read: str,
                                                                   sentence: str, said: bool) -> None:
    [span] = [s for s in value_spans(item) if s.start == start]
    assert relation_said(item, span.start, span.end, read, sentence, ["Ugarit", "Hamlet"]) is said


BOVARY = Evidence("wikipedia", "Madame Bovary est un roman de Gustave Flaubert paru en 1857, après une "
                               "préparution en 1856 dans la Revue de Paris.", title="Madame Bovary")


@pytest.mark.parametrize(("as_stated", "label", "excused"), [
    # The sentence gives the stated year too and supports the item as stated: it states both.
    (0.2, "true", "both_said"),
    # It does not support the item as stated: the contradiction stands.
    (0.7, "false", None),
])
def test_a_sentence_that_gives_the_stated_value_too_and_supports_it_states_both(
        as_stated: float, label: str, excused: str | None) -> None:
    def reply(messages: list[Message]) -> Completion | str:
        statement = next(m["content"] for m in messages if m["role"] == "user").rsplit("<statement>", 1)[-1]
        if "___" in statement:
            return "1856" if "(a year)" in statement else "Gustave Flaubert"
        # The item with the value read put in is supported by the sentence; the item as stated, as given.
        return yes_no(0.2 if "1856" in statement else as_stated, LOCAL_DEFAULT)

    model = ScriptedChatModel(reply, name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(strategy="evidence"), model).check(
        "Quand Madame Bovary a-t-il été publié ?",
        "Madame Bovary a été écrit par Gustave Flaubert et publié en 1857.", context=[BOVARY])
    [verdict] = result.segment_verdicts
    [value] = [v for v in verdict.grounds.values if v.stated == "1857"]
    assert (verdict.label, value.excused) == (label, excused)
    assert len([t for t in result.traces if t.step == "confirm"]) == 2
    if excused:
        assert any("the passage sentence gives 1857 too" in line for line in explain.checks(verdict))


@pytest.mark.parametrize(("item", "stated", "sentence", "too"), [
    ("Madame Bovary a été écrit par Gustave Flaubert et publié en 1857.", "1857",
     "Un roman de Gustave Flaubert paru en 1857, après une préparution en 1856.", True),
    # The maker after the work's noun is not the dated thing, though the item never names him.
    ("Le roman a été publié en 1857.", "1857",
     "Madame Bovary est un roman de Gustave Flaubert paru en 1857, après une préparution en 1856.", True),
    # The stated year is another named thing's: the Pulitzer's, the prize in physics.
    ("Toni Morrison ganó el Premio Nobel de Literatura en 1988.", "1988",
     "Ganadora del Premio Pulitzer en 1988 y del Premio Nobel de Literatura en 1993.", False),
    ("Marie Curie won the Nobel Prize in Chemistry in 1903.", "1903",
     "She won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.", False),
    ("It opened in 2010.", "2010", "It has been the tallest since 2009.", False),
])
def test_a_sentence_gives_the_stated_value_too_unless_as_another_named_things(
        item: str, stated: str, sentence: str, too: bool) -> None:
    assert gives_it_too(item, stated, sentence) is too


def test_a_name_is_given_too_where_the_sentence_writes_it() -> None:
    sentence = "Sagrada Família is a Catholic church in the Eixample district of Barcelona, Catalonia, Spain."
    item = "La Sagrada Familia es una basílica de Barcelona."
    assert gives_it_too(item, "Barcelona", sentence, "place")
    assert not gives_it_too(item, "Madrid", sentence, "place")


SAGRADA = Evidence("wikipedia", "Basílica de la Sagrada Família is a Catholic church in the Eixample "
                                "district of Barcelona, Catalonia, Spain.", title="Sagrada Família")


@pytest.mark.parametrize(("as_stated", "label"), [(0.2, "true"), (0.7, "false")])
def test_a_name_the_sentence_gives_in_another_slot_than_the_one_read_is_asked_as_stated(
        as_stated: float, label: str) -> None:
    # "Catholic" was read for "una basílica de ___"; the sentence says "Basílica", the relation, and gives
    # Barcelona too: the item as stated is asked against it before the contradiction is called.
    def reply(messages: list[Message]) -> Completion | str:
        statement = next(m["content"] for m in messages if m["role"] == "user").rsplit("<statement>", 1)[-1]
        if "___" in statement or "qué" in statement:
            return "Catholic"
        return yes_no(as_stated if "Barcelona" in statement else 0.2, LOCAL_DEFAULT)

    model = ScriptedChatModel(reply, name=LOCAL_DEFAULT)
    result = Checker(CheckConfig(strategy="evidence"), model).check(
        "¿Qué es la Sagrada Familia?", "La Sagrada Familia es una basílica de Barcelona.", context=[SAGRADA])
    [verdict] = result.segment_verdicts
    [value] = verdict.grounds.values
    assert (verdict.label, value.excused) == (label, "both_said" if label == "true" else None)


@pytest.mark.parametrize(("item", "stated", "read", "asked"), [
    ("It rises in the Alps.", "Alps", "The Black Forest", "It rises in the Black Forest."),
    ("Il se jette dans la Manche.", "Manche", "la mer du Nord", "Il se jette dans la mer du Nord."),
    ("It rises in Bavaria.", "Bavaria", "the Black Forest", "It rises in the Black Forest."),
])
def test_the_value_read_is_put_in_without_a_second_article(item: str, stated: str, read: str,
                                                           asked: str) -> None:
    start = item.index(stated)
    assert put_in(item, start, start + len(stated), read) == asked
