"""The embedded judge against a context that contradicts the answer outright (issue 26, point 2).

``benchmarks/local_judge.py --parts cases`` prints these cases with the rest; here the ones the
judge gets right are kept right. "Buzz Aldrin was the first person to walk on the Moon" against a
context naming both men is still judged supported: a known miss, printed by the benchmark.
"""

from __future__ import annotations

import pytest

CANADA = "Ottawa is the capital city of Canada. It stands on the Ottawa River in the province of Ontario."


@pytest.mark.local_model
def test_a_capital_the_context_contradicts_is_false_and_the_right_one_true() -> None:
    pytest.importorskip("llama_cpp")
    from factjudge import Verifier

    verifier = Verifier()
    wrong = verifier.verify("What is the capital of Canada?", "The capital of Canada is Toronto.",
                            context=[CANADA])
    right = verifier.verify("What is the capital of Canada?", "The capital of Canada is Ottawa.",
                            context=[CANADA])
    assert wrong.strategy == right.strategy == "supported"
    assert [v.label for v in wrong.segment_verdicts] == ["false"]
    assert [v.label for v in right.segment_verdicts] == ["true"]
    assert not wrong.is_successful() and right.is_successful()
