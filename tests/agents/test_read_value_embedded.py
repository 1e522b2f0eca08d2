"""The embedded model reads the value a passage gives (issue 32's probes): marked, one model load."""

from __future__ import annotations

import pytest

from factjudge.records import Evidence

CANADA = Evidence("wikipedia", "Canada is a country in North America. Its capital is Ottawa, and its three "
                  "largest metropolitan areas are Toronto, Montreal, and Vancouver.", title="Canada")
HUGO = Evidence("wikipedia", "Les Misérables est un roman de Victor Hugo paru en 1862.",
                title="Les Misérables")


@pytest.mark.local_model
def test_the_embedded_model_reads_ottawa_where_the_answer_says_toronto() -> None:
    pytest.importorskip("llama_cpp")
    from factjudge.agents.read_value import check_values
    from factjudge.llm.registry import make_model

    model = make_model("local", cache_path=False)
    question = "What is the capital of Canada?"
    [wrong] = check_values(model, "The capital of Canada is Toronto.", [CANADA], question=question)
    [right] = check_values(model, "The capital of Canada is Ottawa.", [CANADA], question=question)
    assert (wrong.check.read, wrong.check.outcome) == ("Ottawa", "contradicted")
    assert right.check.outcome == "confirmed"
    [zola] = check_values(model, "Les Misérables est un roman d'Émile Zola.", [HUGO],
                          question="Qui a écrit Les Misérables ?", lang="fr")
    assert zola.check.outcome == "contradicted" and "Hugo" in (zola.check.read or "")
