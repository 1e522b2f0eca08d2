"""The planner: one decision per check about the strategy, the granularity and the evidence read."""

from __future__ import annotations

import pytest

from factjudge.checking.checker import Checker, run
from factjudge.checking.plan import plan_check
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.registry import model_info
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

CONTEXT = (Evidence("context", "The Arctic Ocean is the smallest ocean."),)


def strategy_of(config: CheckConfig, **inputs: object) -> str:
    return plan_check(config, "q", "The Arctic Ocean is small.", **inputs).strategy.name  # type: ignore[arg-type]


def test_no_strategy_chosen_means_the_model_default_and_the_result_records_it() -> None:
    assert CheckConfig().strategy is None
    assert model_info("local").default_strategy == "fact"
    assert strategy_of(CheckConfig(wiki="none")) == "fact"
    # With nothing else to read, the embedded judge's default reads Wikipedia where it is installed.
    assert strategy_of(CheckConfig()) == ("evidence" if CheckConfig().wiki_source() else "fact")
    assert model_info("openai:gpt-4o-mini").default_strategy == "vanilla"
    # The judging model's name decides: a scripted (or endpoint) model gets FELM's vanilla.
    result = Checker(CheckConfig(), ScriptedChatModel(["Answer: ALL_CORRECT"])).check("q", "Water is wet.")
    assert result.strategy == "vanilla"


@pytest.mark.parametrize(("chosen", "grounded", "runs"), [
    ("vanilla", True, "grounded"), ("cot", True, "grounded"), ("link", True, "grounded"),
    ("doc", True, "grounded"), ("vanilla", False, "doc"), ("grounded", False, "doc"),
    ("fact", True, "supported"), ("fact", False, "fact"), ("supported", False, "fact"),
    ("bm25", False, "bm25"), ("token_f1", True, "token_f1"),
])
def test_a_context_switches_list_judges_to_a_prompt_that_shows_it(chosen: str, grounded: bool,
                                                                  runs: str) -> None:
    assert strategy_of(CheckConfig(strategy=chosen, grounded=grounded), context=CONTEXT) == runs


def test_felm_fallbacks_without_references() -> None:
    assert strategy_of(CheckConfig(strategy="link")) == "vanilla"
    assert strategy_of(CheckConfig(strategy="link"), refs=["https://example.org"]) == "link"
    assert strategy_of(CheckConfig(strategy="doc")) == "vanilla"
    assert strategy_of(CheckConfig(strategy="doc"), ref_texts=["The Arctic is small."]) == "doc"


def test_doc_whose_references_yield_no_passage_falls_back_when_it_runs() -> None:
    model = ScriptedChatModel(["Answer: ALL_CORRECT"])
    plan = plan_check(CheckConfig(strategy="doc"), "q", "Water is wet.", ref_texts=["   "])
    assert plan.strategy.name == "doc" and plan.read_refs
    result = run(plan, model)
    assert result.strategy == "vanilla" and result.traces[0].prompt_name == "judge_segment_vanilla"


@pytest.mark.parametrize("strategy", ["grounded", "token_f1", "bm25"])
def test_a_strategy_that_needs_evidence_and_can_have_none_fails_before_any_call(strategy: str) -> None:
    with pytest.raises(InputError, match=f"the {strategy} strategy judges against evidence"):
        plan_check(CheckConfig(strategy=strategy), "q", "Water is wet.")
    assert strategy_of(CheckConfig(strategy=strategy, evidence=("llm",))) == strategy


@pytest.mark.parametrize("strategy", ["always_true", "always_false"])
def test_the_constant_floors_run_anywhere_and_gather_nothing(strategy: str) -> None:
    plan = plan_check(CheckConfig(strategy=strategy, evidence=("llm",)), "q", "Water is wet.")
    assert plan.strategy.name == strategy and plan.sources == () and not plan.read_refs
    assert strategy_of(CheckConfig(strategy=strategy)) == strategy


def test_evidence_is_read_only_by_strategies_whose_prompt_shows_it() -> None:
    config = CheckConfig(evidence=("llm",))
    for name, record in STRATEGIES.items():
        plan = plan_check(config.replace(strategy=name), "q", "Water is wet.", refs=["https://x.org"])
        assert plan.sources == (("llm",) if plan.strategy.reads_passages else ())
        assert plan.read_refs == plan.strategy.reads_passages
        assert record.reads_passages or not record.needs_evidence


def test_math_and_reasoning_are_judged_by_segment_and_bad_answers_fail_in_the_plan() -> None:
    claims = CheckConfig(granularity="claim")
    assert plan_check(claims.replace(domain="math"), "q", "1 + 1 = 2.").granularity == "segment"
    assert plan_check(claims, "q", "1 + 1 = 2.").granularity == "claim"
    with pytest.raises(InputError, match="the answer is empty"):
        plan_check(CheckConfig(), "q", "  ")
