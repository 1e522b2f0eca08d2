"""Issue 40, a Spanish or French lead that says less, with the embedded model and the packaged Wikipedia:
the French *Canada* never names the capital, the English one does ("Its capital is Ottawa"), and is
read after it: a swapped capital is false on that sentence, shown under the English article's address,
and the true one is not false.
"""

from __future__ import annotations

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import checked


@pytest.mark.local_model
def test_a_french_answer_is_read_in_the_english_lead_where_the_french_one_is_silent() -> None:
    _needs_the_embedded_judge_and_wikipedia()
    question = "Quelle est la capitale du Canada ?"
    [false] = checked(question, "La capitale du Canada est Toronto.", "--language", "fr").segment_verdicts
    assert false.label == "false" and false.grounds.rule == "values", explain.why(false)
    [value] = false.grounds.contradicted
    assert (value.stated, value.read) == ("Toronto", "Ottawa")
    assert "en.wikipedia.org/wiki/Canada" in explain.rests_on(false)
    [true] = checked(question, "La capitale du Canada est Ottawa.", "--language", "fr").segment_verdicts
    assert true.label != "false", explain.why(true)
    if true.label == "true":  # shown on the sentence its value was confirmed in
        assert "“Its capital is Ottawa and its three largest" in explain.rests_on(true)
