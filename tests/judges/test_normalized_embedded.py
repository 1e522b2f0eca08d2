"""Issue 40, kinds 4 and 5 with the embedded model, in en, es and fr: a subject written with a letter
of another alphabet or an invisible joiner inside it (pasted text) is read as the word it copies,
its article found (before: unverified, no call), the swap still caught naming the passage's value,
and the terminal says what was read; a value written so is the passage's value, not a contradiction;
a temperature given in Fahrenheit is compared with the context's Celsius figure."""

from __future__ import annotations

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import NO_HURRY, checked, run_cli

CYRILLIC_A, CYRILLIC_CAPITAL_EM, ZWJ = "\u0430", "\u041c", "\u200d"

# (language, question, wrong answer, what the passage says, its article, what the terminal says was read)
SUBJECTS = [
    ("en", f"What is the capital of C{CYRILLIC_A}nada?", f"The capital of C{CYRILLIC_A}nada is Toronto.",
     "Ottawa", "Canada", f"read 'Canada' for 'C{CYRILLIC_A}nada' (a Cyrillic letter, U+0430)"),
    ("es", f"¿Cuál es la capital de Can{ZWJ}adá?", f"La capital de Can{ZWJ}adá es Toronto.", "Ottawa",
     "Canadá", "read 'Canadá' for 'Can\\u200dadá' (an invisible character, U+200D)"),
    ("fr", f"Qui a écrit Les {CYRILLIC_CAPITAL_EM}isérables ?",
     f"Les {CYRILLIC_CAPITAL_EM}isérables est un roman d'Émile Zola.", "Victor Hugo", "Les Misérables",
     f"read 'Misérables' for '{CYRILLIC_CAPITAL_EM}isérables' (a Cyrillic letter, U+041C)"),
]
# (language, question, context, a right answer whose value is written with a look-alike letter or a joiner)
VALUES = [
    ("en", "What is the capital of Canada?", "Ottawa is the capital city of Canada.",
     "The capital of Canada is \u041ettawa."),  # a Cyrillic О
    ("es", "¿Cuál es la capital de Canadá?", "Ottawa es la capital de Canadá.",
     f"La capital de Canadá es Ott{ZWJ}awa."),
    ("fr", "Quelle est la capitale de l'Autriche ?", "Vienne est la capitale de l'Autriche.",
     "La capitale de l'Autriche est V\u0456enne."),  # a Cyrillic і
]


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "wrong", "says", "article", "read"), SUBJECTS,
                         ids=["en", "es", "fr"])
def test_a_look_alike_letter_in_the_subject_still_finds_its_article(
        language: str, question: str, wrong: str, says: str, article: str, read: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    done = run_cli("check", question, wrong, *NO_HURRY)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.decode().split())
    assert f"the passage says {says}" in out and f"evidence: wikipedia · {article}" in out, out
    assert read in out
    [swapped] = checked(question, wrong).segment_verdicts  # the same calls, now cached
    assert swapped.label == "false" and swapped.grounds.rule == "values", explain.why(swapped)
    # Offsets are the user's text: the value contradicted is as they wrote it.
    [value] = swapped.grounds.contradicted
    assert wrong[value.start:value.end] == value.stated and says in (value.read or "")


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "context", "answer"), VALUES, ids=["en", "es", "fr"])
def test_a_value_that_looks_right_is_read_as_the_passages(language: str, question: str, context: str,
                                                          answer: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    result = checked(question, answer, "--context", context)
    [verdict] = result.segment_verdicts
    assert verdict.label == "true", explain.why(verdict)
    assert not verdict.grounds.contradicted
    [changed] = [r for r in result.read_as if r.where == "answer"]
    assert answer[changed.start:changed.end] == changed.written and changed.read in context


@pytest.mark.local_model
def test_a_temperature_in_fahrenheit_is_the_contexts_celsius() -> None:
    _needs_the_embedded_judge_and_wikipedia()
    context = "At sea level, water boils at 100 °C and freezes at 0 °C."
    results = [checked("At what temperature does water boil?", answer, "--context", context)
               for answer in ("At sea level, water boils at 212 °F.", "At sea level, water boils at 100 °F.")]
    right, wrong = (r.segment_verdicts[0] for r in results)
    # The value read is compared across scales: confirmed for 212 °F, contradicted for 100 °F (the
    # Yes/No doubt still decides a confirmed item's label).
    assert [v.outcome for v in right.grounds.values] == ["confirmed"] and right.grounds.rule != "values"
    assert wrong.label == "false" and wrong.grounds.rule == "values"
    assert wrong.grounds.contradicted[0].stated == "100 °F"
