"""What one check may cost (issue 34.3): at most ``max_items`` items judged and ``max_calls`` model calls."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from factjudge.checking.api import check
from factjudge.cli import main
from factjudge.config import DEFAULT_MAX_CALLS, DEFAULT_MAX_ITEMS, CheckConfig
from factjudge.errors import InputError, TooMuchWork
from factjudge.flags import add_config_flags, config_from_flags
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.deadline import admit_call, call_budget, calls_made
from factjudge.llm.scripted import ScriptedChatModel


def sentences(n: int) -> str:
    return " ".join(f"Bridge {i} opened in {1900 + i}." for i in range(n))


def test_the_caps_have_documented_defaults_and_must_be_positive() -> None:
    assert (CheckConfig().max_items, CheckConfig().max_calls) == (DEFAULT_MAX_ITEMS, DEFAULT_MAX_CALLS)
    assert (DEFAULT_MAX_ITEMS, DEFAULT_MAX_CALLS) == (200, 1000)  # the README says so
    for cap in ("max_items", "max_calls"):
        with pytest.raises(InputError, match=f"{cap} must be at least 1, not 0"):
            CheckConfig(**{cap: 0})


def test_the_caps_are_toml_keys_and_flags(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[check]\nmax_items = 30\nmax_calls = 90\n", encoding="utf-8")
    assert (CheckConfig.from_toml(path).max_items, CheckConfig.from_toml(path).max_calls) == (30, 90)
    parser = argparse.ArgumentParser()
    add_config_flags(parser)
    args = parser.parse_args(["--config", str(path), "--max-calls", "12"])
    assert (config_from_flags(args).max_items, config_from_flags(args).max_calls) == (30, 12)


def test_an_answer_over_the_item_cap_is_refused_before_any_model_call() -> None:
    model = ScriptedChatModel(lambda messages: "True")
    refused = "the answer has 201 segments to judge; one check judges at most 200"
    with pytest.raises(TooMuchWork, match=refused):
        check("Bridges?", sentences(201), CheckConfig(strategy="fact", use_cache=False), model=model)
    assert model.calls == []
    result = check("Bridges?", sentences(200), CheckConfig(strategy="fact", use_cache=False), model=model)
    assert len(result.segment_verdicts) == 200 and len(model.calls) == 200


def test_claims_over_the_item_cap_are_refused_before_they_are_judged() -> None:
    answer = ("Paris is the capital of France and has the Louvre and lies on the Seine. "
              "Rome is the capital of Italy and has the Colosseum and lies on the Tiber.")
    extraction = ("Segment 1:\nClaim 1. Paris is the capital of France.\nClaim 2. Paris has the Louvre.\n"
                  "Claim 3. Paris lies on the Seine.\nSegment 2:\nClaim 1. Rome is the capital of Italy.\n"
                  "Claim 2. Rome has the Colosseum.\nClaim 3. Rome lies on the Tiber.")
    model = ScriptedChatModel([extraction])
    config = CheckConfig(strategy="fact", granularity="claim", max_items=5, use_cache=False)
    with pytest.raises(TooMuchWork, match="the answer has 6 items to judge; one check judges at most 5"):
        check("Capitals?", answer, config, model=model)
    assert len(model.calls) == 1  # the extraction, no judge call


def test_a_check_makes_no_more_model_calls_than_its_budget() -> None:
    model = ScriptedChatModel(lambda messages: "True")
    config = CheckConfig(strategy="fact", max_calls=4, use_cache=False)
    with pytest.raises(TooMuchWork, match="the check needs more than 4 model calls"):
        check("Bridges?", sentences(10), config, model=model)
    assert len(model.calls) == 4


def test_cached_calls_count_against_the_budget_too(tmp_path: Path) -> None:
    inner = ScriptedChatModel(lambda messages: "True")
    model = CachedChatModel(inner, tmp_path / "calls.sqlite")
    check("Bridges?", sentences(10), CheckConfig(strategy="fact"), model=model)
    assert len(inner.calls) == 10
    # The same request is over its caps or not whatever the cache holds.
    with pytest.raises(TooMuchWork, match="more than 4 model calls"):
        check("Bridges?", sentences(10), CheckConfig(strategy="fact", max_calls=4), model=model)
    assert len(inner.calls) == 10


def test_a_budget_counts_the_calls_of_its_own_check_only() -> None:
    assert calls_made() is None
    with call_budget(2):
        admit_call()
        with call_budget(5):  # a check inside another (a tool calling factjudge) has its own
            admit_call()
            admit_call()
            assert calls_made() == 2
        assert calls_made() == 1
        admit_call()
        with pytest.raises(TooMuchWork):
            admit_call()
    admit_call()  # no budget outside a check


def test_the_cli_refuses_an_answer_over_the_cap_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "Bridges?", sentences(30), "--max-items", "25", "--strategy", "token_f1",
                 "--model", "openai:unused", "--base-url", "http://127.0.0.1:9/v1",
                 "--context", "Bridge 1 opened in 1901."])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "the answer has 30 segments to judge; one check judges at most 25" in err
