"""The strategy registry: every record is consistent, so a new one cannot point at nothing."""

from __future__ import annotations

import pytest

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.judges.decision import DecisionJudge
from factjudge.judges.list_judge import ListJudge
from factjudge.judges.scorer_judge import ScorerJudge
from factjudge.judges.strategies import STRATEGIES, strategy_named
from factjudge.llm.registry import model_info
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.prompts import load_prompt


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_each_record_names_registered_strategies_and_builds_its_judge(name: str) -> None:
    strategy = STRATEGIES[name]
    assert strategy.name == name
    for other in (strategy.with_context, strategy.with_open_context, strategy.without_refs,
                  strategy.without_evidence):
        assert other is None or other in STRATEGIES
    assert (strategy.max_tokens is not None) == strategy.uses_model  # a model call needs a budget
    assert not strategy.needs_evidence or strategy.reads_passages  # it could never get any
    judge = strategy.judge(ScriptedChatModel([], name="m"), CheckConfig())
    assert judge.name == (f"{name}@m" if strategy.uses_model else name)
    assert isinstance(judge, ScorerJudge) != strategy.uses_model
    if isinstance(judge, ListJudge):  # its templates exist, at both granularities
        assert {load_prompt(f"judge_{t}_{judge.prompt}").name for t in ("segment", "claim")}
    elif isinstance(judge, DecisionJudge):
        assert load_prompt(judge.prompt).placeholders == {"passages", "statement"}


def test_names_and_the_model_default() -> None:
    assert model_info("local").default_strategy in STRATEGIES
    assert model_info("openai:gpt-4o-mini").default_strategy in STRATEGIES
    assert strategy_named("cot").max_tokens == 1000
    with pytest.raises(InputError, match="unknown strategy 'guess'; choose from vanilla, cot"):
        strategy_named("guess")
