"""Issue 40 with the embedded model and the packaged Wikipedia, in en, es and fr: a subject named the way
people speak is read in its own article (in the answer's language), a true sentence the lead does not
state is never judged false, and a club listed beside the stated one is no contradiction."""

from __future__ import annotations

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import checked

# (language, question, answer, the article it must be read in, its Wikipedia's host)
LINKED = [
    ("en", "Who was Cervantes?", "Cervantes wrote Don Quixote.", "Miguel de Cervantes", "en"),
    ("es", "Háblame de la Gran Muralla.", "La Gran Muralla se encuentra en China.", "Gran Muralla china",
     "es"),
    ("fr", "Parle-moi du Louvre.", "Le Louvre est un musée situé à Paris.", "Musée du Louvre", "fr"),
]
# True sentences the subject's lead does not state: not enough evidence, never false.
SILENT = [
    ("en", "Tell me about Canada.", "Canada's national animal is the beaver."),
    ("es", "Háblame de Francia.", "Francia es famosa por sus quesos."),
    ("fr", "Parle-moi du Canada.", "Le castor est l'animal national du Canada."),
]


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "answer", "article", "host"), LINKED,
                         ids=["en", "es", "fr"])
def test_a_subject_said_the_way_people_say_it_is_read_in_its_article(
        language: str, question: str, answer: str, article: str, host: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    # No --language: the answer's own is guessed, and its Wikipedia read first.
    [verdict] = checked(question, answer).segment_verdicts
    assert verdict.evidence and verdict.evidence[0].title == article
    assert (verdict.evidence[0].url or "").startswith(f"https://{host}.wikipedia.org/")
    assert verdict.label != "false"


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "answer"), SILENT, ids=["en", "es", "fr"])
def test_a_true_sentence_its_lead_does_not_state_is_never_false(language: str, question: str,
                                                                answer: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    [verdict] = checked(question, answer).segment_verdicts
    assert verdict.evidence, verdict.evidence_note
    assert verdict.label != "false", explain.why(verdict)
