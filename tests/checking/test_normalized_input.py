"""Issue 40, kinds 4 and 5 through the checker on the scripted model: text that looks the same is read the
same (a Cyrillic letter, a zero-width joiner), values written otherwise compare right ("cent mètres" is
100 m), one verdict a language that was wrong before; and every offset speaks of the text as given."""

from __future__ import annotations

from pathlib import Path

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.checking.render import print_result
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Evidence
from tests.judges.test_read_values import reader
from tests.retrieval.wiki.test_factscore_db import make_db

ZWJ, ZWSP = "\u200d", "\u200b"


def check(question: str, answer: str, context: str, model: ScriptedChatModel, language: str) -> CheckResult:
    config = CheckConfig(strategy="supported", language=language)
    return Checker(config, model).check(question, answer, context=[Evidence("context", context)])


def test_en_a_cyrillic_letter_in_a_name_still_finds_its_article(tmp_path: Path) -> None:
    """Before: "Cаnada" (a Cyrillic а) named no article: unverified, with no call. Now the article is read."""
    db = make_db(tmp_path / "enwiki.db", {"Canada": [
        "Canada is a country in North America. Its capital is Ottawa, and its largest city is Toronto."]})
    config = CheckConfig(strategy="evidence", evidence=("wiki",), wiki=f"factscore:{db}")
    question, answer = "Tell me about C\u0430nada.", "The capital of C\u0430nada is Toronto."  # pasted text
    model = reader("Ottawa")
    result = Checker(config, model).check(question, answer)
    [verdict] = result.segment_verdicts
    assert model.calls and verdict.evidence and verdict.evidence[0].title == "Canada"
    assert verdict.label == "false" and verdict.grounds.rule == "values"
    [span] = verdict.spans
    assert (span.text, answer[span.start:span.end]) == ("Toronto", "Toronto")
    assert result.answer == answer and result.segments[0].text == answer  # the user's text, as given
    assert result.question == question
    [asked, changed] = result.read_as
    assert (asked.where, changed.where) == ("question", "answer")
    assert (changed.written, changed.read, changed.why) == ("C\u0430nada", "Canada", ("cyrillic",))
    assert answer[changed.start:changed.end] == "C\u0430nada"


def test_es_a_zero_width_joiner_inside_a_name_is_read_as_the_name() -> None:
    """Before: "Pa‍rís" split at the joiner: "Pa" against "París" was a contradiction (false). Now true."""
    answer = f"La capital de Francia es Pa{ZWJ}rís."
    result = check("¿Cuál es la capital de Francia?", answer, "París es la capital de Francia.",
                   reader("París"), "es")
    [verdict] = result.segment_verdicts
    assert verdict.label == "true"
    [value] = verdict.grounds.values
    assert value.outcome == "confirmed" and answer[value.start:value.end] == value.stated == f"Pa{ZWJ}rís"
    assert [(r.written, r.read, r.why) for r in result.read_as] == [(f"Pa{ZWJ}rís", "París", ("invisible",))]


def test_fr_a_number_in_words_is_compared_with_the_figure() -> None:
    """Before: "cent mètres" was no number: not stated, the Yes decided (true for 200 m). Now it is 100 m."""
    context, question = "La tour mesure cent mètres de haut.", "Quelle est la hauteur de la tour ?"
    wrong = check(question, "La tour mesure 200 m.", context, reader("cent mètres"), "fr")
    [verdict] = wrong.segment_verdicts
    assert verdict.label == "false" and verdict.grounds.contradicted[0].read == "cent mètres"
    right = check(question, "La tour mesure 100 m.", context, reader("cent mètres"), "fr")
    assert right.segment_verdicts[0].label == "true"
    assert right.segment_verdicts[0].grounds.values[0].outcome == "confirmed"


def test_error_spans_are_offsets_into_the_answer_as_given() -> None:
    # Invisible and compatibility characters before the wrong value: the span still marks "Toronto".
    answer = f"Ｃａｎａｄａ{ZWSP} is big. The capital of Ca{ZWJ}nada is Toronto."
    result = check("What is the capital of Canada?", answer,
                   "Canada is a country. Its capital is Ottawa, and its largest city is Toronto.",
                   reader("Ottawa"), "en")
    [span] = result.spans
    assert answer[span.start:span.end] == span.text == "Toronto"
    assert [answer[s.start:s.end] for s in result.segments] == [s.text for s in result.segments]
    assert [s.text for s in result.segments] == [f"Ｃａｎａｄａ{ZWSP} is big.",
                                                 f"The capital of Ca{ZWJ}nada is Toronto."]
    assert {(r.read, r.why) for r in result.read_as} == {("Canada", ("compatibility",)),
                                                          ("Canada", ("invisible",))}
    assert CheckResult.from_json(explain.result_json(result)).read_as == result.read_as


def test_the_terminal_says_what_was_read(capsys: object) -> None:
    from rich.console import Console

    result = check("What is the capital of Canada?", "The capital of C\u0430nada is Ottawa.",
                   "Its capital is Ottawa.", reader("Ottawa"), "en")
    console = Console(record=True, width=200)
    print_result(result, console)
    out = console.export_text()
    assert "read 'Canada' for 'C\u0430nada' (a Cyrillic letter, U+0430)" in out


def test_plain_text_is_left_as_it_is() -> None:
    result = check("What is the capital of Canada?", "The capital of Canada is Ottawa.",
                   "Its capital is Ottawa.", reader("Ottawa"), "en")
    assert result.read_as == () and result.to_dict()["read_as"] == []


def test_given_segments_are_read_normalised_and_shown_as_given() -> None:
    answer = f"C{ZWJ}anada is big. Its capital is Toronto."
    segments = [f"C{ZWJ}anada is big.", "Its capital is Toronto.", f"Ma{ZWJ}rie is not here."]
    model = reader("Ottawa")
    result = Checker(CheckConfig(strategy="supported"), model).check(
        "What is the capital of Canada?", answer, segments=segments,
        context=[Evidence("context", "Canada is big. Its capital is Ottawa.")])
    assert [(s.text, s.start, s.located) for s in result.segments] == [
        (segments[0], 0, True), (segments[1], answer.index("Its"), True), (segments[2], -1, False)]
    assert [answer[s.start:s.end] for s in result.spans] == ["Toronto"]
