"""Values a country's record or a work's own lead settles by their words: no model asked."""

from __future__ import annotations

from factjudge.agents.read_value import check_values
from factjudge.agents.settled import settled
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.text.country_facts import record

DICKENS = Evidence("wikipedia", "Charles John Huffam Dickens was an English novelist and social critic. He "
                   "created some of the best-known fictional characters.", title="Charles Dickens")
MOBY_DICK = Evidence("wikipedia", "Moby-Dick; or, The Whale is an 1851 epic novel by American writer Herman "
                     "Melville.", title="Moby-Dick")


def test_a_work_its_own_lead_credits_to_another_contradicts_the_subject_as_its_maker() -> None:
    [(check, where)] = settled("He wrote Moby-Dick.", [DICKENS, MOBY_DICK])
    assert (check.stated, check.read, check.outcome, check.kind, where) == \
        ("Charles Dickens", "Herman Melville", "contradicted", "maker", 1)
    assert check.passage == MOBY_DICK.text


def test_the_maker_may_be_the_subject_under_another_name_or_named_by_the_item() -> None:
    greco = Evidence("wikipedia", "Doménikos Theotokópoulos, conocido como El Greco, fue un pintor.",
                     title="El Greco")
    work = Evidence("wikipedia", "El expolio es un cuadro del pintor Doménikos Theotokópoulos.",
                    title="El expolio")
    assert settled("Pintó El expolio.", [greco, work]) == []
    assert settled("He praised Moby-Dick, which Herman Melville wrote.", [DICKENS, MOBY_DICK]) == []
    melville = Evidence("wikipedia", "Herman Melville was an American novelist.", title="Herman Melville")
    assert settled("He wrote Moby-Dick.", [melville, MOBY_DICK]) == []


def test_a_peer_the_subjects_lead_names_after_its_opening_sentence_is_another_maker() -> None:
    flaubert = Evidence("wikipedia", "Gustave Flaubert est un écrivain français, né à Rouen. Considéré comme "
                        "l'un des plus grands romanciers, aux côtés de Victor Hugo, il se distingue.",
                        title="Gustave Flaubert")
    work = Evidence("wikipedia", "Les Misérables est un roman de Victor Hugo publié en 1862.",
                    title="Les Misérables")
    [(check, _)] = settled("Il a écrit Les Misérables.", [flaubert, work])
    assert (check.stated, check.read, check.outcome) == ("Gustave Flaubert", "Victor Hugo", "contradicted")


def test_a_records_value_is_settled_without_asking_the_model() -> None:
    model = ScriptedChatModel([])  # any call would find no reply
    passages = [Evidence("wikipedia", "Venezuela es un país de América del Sur.", title="Venezuela"),
                *record("Su moneda es el peso.", ["Venezuela"], "es")]
    [reading] = check_values(model, "Su moneda es el peso.", passages, lang="es")
    check = reading.check
    assert (check.stated, check.read, check.outcome, check.kind, reading.calls, reading.passage) == \
        ("peso", "bolívar venezolano (VES)", "contradicted", "record", 0, 1)
    assert not model.calls

