"""Issue 32's must-show, with the embedded model and the packaged Wikipedia: a value swap is false and names
the value the passage gives; the right answer is true; in en (through the CLI's defaults), es and fr."""

from __future__ import annotations

import pytest

from tests.test_cli import NO_HURRY, checked, run_cli

SWAPS = [  # (language, question, wrong answer, what the passage says, right answer)
    ("es", "¿Cuál es la capital de Francia?", "La capital de Francia es Lyon.", "Par",
     "La capital de Francia es París."),
    ("fr", "Qui a écrit Les Misérables ?", "Les Misérables est un roman d'Émile Zola.", "Hugo",
     "Les Misérables est un roman de Victor Hugo."),
]


def _needs_the_embedded_judge_and_wikipedia() -> None:
    pytest.importorskip("llama_cpp")
    from factjudge.retrieval.wiki import best_offline_wiki

    if best_offline_wiki() is None:
        pytest.skip("the packaged Wikipedia (the wiki extra) is not installed")


@pytest.mark.local_model
def test_the_capital_of_canada_is_not_toronto_with_the_defaults() -> None:
    _needs_the_embedded_judge_and_wikipedia()
    question = "What is the capital of Canada?"
    wrong = run_cli("check", question, "The capital of Canada is Toronto.", *NO_HURRY)
    assert wrong.returncode == 0, wrong.stderr
    out = " ".join(wrong.stdout.decode().split())
    assert "✘ false [1] The capital of Canada is Toronto." in out
    assert "the passage says Ottawa; the answer says Toronto" in out and "evidence: wikipedia · Canada" in out
    assert checked(question, "The capital of Canada is Ottawa.").label == "true"


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "wrong", "says", "right"), SWAPS, ids=["es", "fr"])
def test_a_swapped_value_is_false_and_the_right_one_true(language: str, question: str, wrong: str, says: str,
                                                         right: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    results = [checked(question, answer, "--language", language) for answer in (wrong, right)]
    [swapped], [kept] = (r.segment_verdicts for r in results)
    assert swapped.label == "false" and swapped.grounds.rule == "values"
    [value] = swapped.grounds.contradicted
    assert says in (value.read or "") and wrong[value.start:value.end] == value.stated
    assert kept.label == "true"
