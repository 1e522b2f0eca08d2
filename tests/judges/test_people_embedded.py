"""Issue 40, the wrong article, with the embedded model and the packaged Wikipedia (en, es, fr): an
answer about a thing that names the person behind it ("Penicillin was discovered by Alexander Fleming in
1928"), or speaks of that person by a pronoun next ("Il est né à Dijon en 1832"), is read in the
person's article too, where the thing's own lead is silent: the true sentence passes, and a swap of
the value the person's lead states is false on that value.
"""

from __future__ import annotations

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import checked

# (language, question, answer, the person's article, the last item's stated value, its lead's value)
CASES = [
    ("en", "Who discovered penicillin?", "Penicillin was discovered by Alexander Fleming in {}.",
     "Alexander Fleming", "1938", "1928"),
    ("es", "¿Quién escribió Don Quijote?",
     "Don Quijote de la Mancha es una novela de Miguel de Cervantes. Él publicó su novela Don Quijote en {}.",
     "Miguel de Cervantes", "1625", "1605"),
    ("fr", "Qui a construit la tour Eiffel ?",
     "La tour Eiffel doit son nom à Gustave Eiffel. Il est né à Dijon en {}.",
     "Gustave Eiffel", "1852", "1832"),
]


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "answer", "person", "swapped", "says"), CASES,
                         ids=["en", "es", "fr"])
def test_a_person_named_or_meant_by_a_pronoun_is_read_in_their_own_article(
        language: str, question: str, answer: str, person: str, swapped: str, says: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    true = checked(question, answer.format(says), "--language", language).segment_verdicts[-1]
    assert person in {ev.title for ev in true.evidence}, true.evidence_note
    assert true.label == "true", explain.why(true)
    false = checked(question, answer.format(swapped), "--language", language).segment_verdicts[-1]
    assert false.label == "false" and false.grounds.rule == "values", explain.why(false)
    [value] = false.grounds.contradicted
    assert (value.stated, value.read) == (swapped, says)
