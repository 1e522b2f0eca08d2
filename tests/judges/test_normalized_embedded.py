"""Issue 40, kinds 4 and 5 with the embedded model and the packaged Wikipedia: "Cаnada" written with a
Cyrillic а (pasted text) is read as Canada, its article found (before: unverified, no call), the
swap still caught naming the passage's value, and the terminal says what was read; a temperature
given in Fahrenheit is compared with the context's Celsius figure."""

from __future__ import annotations

import pytest

from tests.judges.test_read_values_embedded import _needs_the_embedded_judge_and_wikipedia
from tests.test_cli import NO_HURRY, checked, run_cli

CANADA = "C\u0430nada"  # the second letter Cyrillic


@pytest.mark.local_model
def test_a_cyrillic_letter_in_the_subject_still_finds_its_article() -> None:
    _needs_the_embedded_judge_and_wikipedia()
    question = f"What is the capital of {CANADA}?"
    wrong = run_cli("check", question, f"The capital of {CANADA} is Toronto.", *NO_HURRY)
    assert wrong.returncode == 0, wrong.stderr
    out = " ".join(wrong.stdout.decode().split())
    assert "the passage says Ottawa; the answer says Toronto" in out and "evidence: wikipedia · Canada" in out
    assert f"read 'Canada' for '{CANADA}' (a Cyrillic letter, U+0430)" in out


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
