"""Issue 40, swaps the default used to leave unverified, with the embedded model and the packaged Wikipedia
(en, es, fr; pairs of benchmarks/data/value_swaps_in_lead.jsonl): a value swapped for one the same lead
states elsewhere is false, naming the value the lead gives between the answer's own words, and the
sentence as the lead writes it is true."""

from __future__ import annotations

import pytest

from factjudge import explain
from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import checked

# (language, question, the lead's sentence, the value swapped in, the value the lead gives there)
SWAPS = [
    ("en", "Tell me about Lê dynasty.",
     "The Lê dynasty, also known in historiography as the Later Lê dynasty, was the longest-ruling "
     "Vietnamese dynasty, having ruled Đại Việt from 1428 to 1789 with an interregnum between 1527 and 1533.",
     "1592", "1527"),
    ("es", "Háblame de La Última Cena (Leonardo).",
     "La última cena es una pintura mural obra de Leonardo da Vinci, realizada entre 1495 y 1498.",
     "1980", "1498"),
    ("fr", "Parle-moi de Osiris.",
     "Osiris est un dieu du panthéon égyptien et un roi mythique de l'Égypte antique.", "Nil", "Égypte"),
]


@pytest.mark.local_model
@pytest.mark.parametrize(("language", "question", "sentence", "swapped", "says"), SWAPS,
                         ids=["en", "es", "fr"])
def test_a_value_swapped_for_one_the_lead_states_elsewhere_is_false_and_the_lead_sentence_true(
        language: str, question: str, sentence: str, swapped: str, says: str) -> None:
    _needs_the_embedded_judge_and_wikipedia()
    at = sentence.rindex(says)
    wrong = sentence[:at] + swapped + sentence[at + len(says):]
    [verdict] = checked(question, wrong, "--language", language).segment_verdicts
    assert verdict.label == "false" and verdict.grounds.rule == "values", explain.why(verdict)
    [value] = verdict.grounds.contradicted
    assert (value.stated, value.read) == (swapped, says)
    assert value.passage and says in value.passage and value.passage in verdict.evidence[0].text
    [kept] = checked(question, sentence, "--language", language).segment_verdicts
    assert kept.label == "true", explain.why(kept)
