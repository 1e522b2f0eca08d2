"""Graded error scores read from token log-probabilities."""

from __future__ import annotations

import math

import pytest

from factjudge.judges.confidence import decision_error_score, id_list_error_scores
from factjudge.llm.base import TokenLogprob


def tok(token: str, p: float, **top: float) -> TokenLogprob:
    return TokenLogprob(token, math.log(p), {k: math.log(v) for k, v in top.items()})


def test_listed_and_unlisted_ids_get_the_probability_mass_put_on_them() -> None:
    tokens = [tok("Answer", 0.99), tok(":", 0.99), tok(" 2", 0.7, **{" ALL": 0.2, " 1": 0.1}),
              tok(",", 0.5), tok(" 3", 0.6, **{" 1": 0.3})]
    scores = id_list_error_scores(tokens, 3)
    assert scores == pytest.approx({1: 0.3, 2: 0.7, 3: 0.6})


def test_ids_in_a_thought_before_the_answer_do_not_count() -> None:
    tokens = [tok("Thought", 0.9), tok(" 1", 0.9), tok(" ok", 0.9), tok("Answer", 0.9), tok(":", 0.9),
              tok(" ALL", 0.8, **{" 2": 0.15})]
    assert id_list_error_scores(tokens, 2) == pytest.approx({1: 0.0, 2: 0.15})


def test_no_logprobs_means_no_graded_score() -> None:
    assert id_list_error_scores(None, 3) is None
    assert decision_error_score([]) is None


def test_true_false_score_is_the_normalised_probability_of_false() -> None:
    assert decision_error_score([tok("True", 0.6, **{"False": 0.2})]) == pytest.approx(0.25)
    assert decision_error_score([tok("**", 0.9), tok("False", 0.9, **{"True": 0.1})]) == pytest.approx(0.9)


def test_judges_ask_for_the_output_contract_as_a_grammar() -> None:
    from factjudge.agents.extractor import claims_grammar
    from factjudge.judges.list_judge import id_list_grammar
    from factjudge.llm.local import choice_grammar

    assert 'id ::= "3" | "2" | "1"' in id_list_grammar(3) and "wrong ::= id" in id_list_grammar(3)
    assert id_list_grammar(2, thought=True).startswith('root ::= "Thought: "')
    assert choice_grammar(("True", "False")) == 'root ::= "True" | "False"\n'  # local fallback
    assert '"Segment 2:\\n" claims' in claims_grammar(2)
