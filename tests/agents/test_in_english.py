"""A name excused as another language's, put in English by the model: the same thing, or two."""

from __future__ import annotations

from factjudge import explain
from factjudge.agents.in_english import read_in_english
from factjudge.agents.read_value import ValueReading
from factjudge.grounds import Grounds, ValueCheck
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence, Verdict

TOKYO = "Tokyo is the capital and most populous city of Japan."


def _excused(stated: str, read: str, item: str, sentence: str = TOKYO) -> ValueReading:
    start = item.index(stated)
    check = ValueCheck(stated, "name", f"{item[:start]}___ (a name).", read, "not_stated", start,
                       start + len(stated), sentence, excused="other_language")
    return ValueReading(check, "cloze", 1, read, None, calls=1)


def test_a_name_english_writes_otherwise_than_the_one_read_is_a_contradiction() -> None:
    item = "La capitale du Japon est Kyoto."
    model = ScriptedChatModel(["Kyoto"])
    reading = read_in_english(model, _excused("Kyoto", "Tokyo", item), item, "fr")
    check = reading.check
    assert (check.outcome, check.excused, check.in_english) == ("contradicted", None, "Kyoto")
    assert reading.calls == 2
    assert "<title>\nKyoto\n</title>" in model.calls[0][0]["content"]


def test_a_name_english_writes_as_the_one_read_is_confirmed_and_the_reason_says_both() -> None:
    item = "La capitale du Portugal est Lisbonne."
    reading = read_in_english(ScriptedChatModel(["Lisbon"]), _excused("Lisbonne", "Lisbon", item), item, "fr")
    assert (reading.check.outcome, reading.check.in_english) == ("confirmed", "Lisbon")
    item = "La capital de Turquía es Estambul."
    wrong = read_in_english(ScriptedChatModel(["Istanbul"]), _excused("Estambul", "Ankara", item), item, "es")
    verdict = Verdict("segment", 1, "false", 0.7, "judge", (Evidence("wikipedia", TOKYO, title="Turkey"),),
                      Grounds("values", values=(wrong.check,)))
    assert "the passage says Ankara; the answer says Estambul (Istanbul in English)" in explain.why(verdict)


def test_no_title_or_no_other_language_leaves_the_reading_as_it_was() -> None:
    item = "La capitale du Japon est Kyoto."
    excused = _excused("Kyoto", "Tokyo", item)
    assert read_in_english(ScriptedChatModel([""] * 3), excused, item, "fr") == excused
    # Read in the answer's own language: nothing to put in English, no call.
    own = ValueReading(ValueCheck("Kyoto", "name", "", "Tokyo", "contradicted"), "cloze", 0, "Tokyo", None)
    model = ScriptedChatModel([])
    assert read_in_english(model, own, item, "fr") == own and not model.calls


def test_an_english_items_name_read_in_another_language_is_put_in_english_itself() -> None:
    item = "The capital of Australia is Sydney."
    sentence = "Camberra o Canberra es la capital de Australia, situada en el Territorio de la Capital."
    model = ScriptedChatModel(["Canberra"])
    reading = read_in_english(model, _excused("Sydney", "Camberra", item, sentence), item, "en")
    check = reading.check
    assert (check.outcome, check.excused, check.read_in_english) == ("contradicted", None, "Canberra")
    assert "<title>\nCamberra\n</title>" in model.calls[0][0]["content"]
    evidence = (Evidence("wikipedia", sentence, title="Camberra"),)
    verdict = Verdict("segment", 1, "false", 0.7, "judge", evidence, Grounds("values", values=(check,)))
    assert "the passage says Camberra (Canberra in English); the answer says Sydney" in explain.why(verdict)
    # The same thing in two languages: confirmed.
    item = "Berlin is the capital of Germany."
    sentence = "Berlín es la capital de Alemania y una de las ciudades más pobladas de la Unión Europea."
    excused = _excused("Germany", "Alemania", item, sentence)
    same = read_in_english(ScriptedChatModel(["Germany"]), excused, item, "en")
    assert (same.check.outcome, same.check.read_in_english) == ("confirmed", "Germany")


def test_a_name_put_in_english_that_opens_as_the_one_read_does_is_no_swap() -> None:
    # "Vénétie" put in English as "Venetia" where the lead writes "Veneto": two renderings, left excused.
    item = "C'est la capitale de la Vénétie."
    veneto = "Venice is a coastal city in northeastern Italy and the capital of the region of Veneto."
    excused = _excused("Vénétie", "Veneto", item, veneto)
    reading = read_in_english(ScriptedChatModel(["Venetia"]), excused, item, "fr")
    assert (reading.check.outcome, reading.check.excused) == ("not_stated", "other_language")
