"""Prompt files: loadable, one-shot structure, placeholders, hashes, fencing."""

from __future__ import annotations

from importlib import resources

import pytest

from factjudge.errors import InputError
from factjudge.prompts import fence, load_prompt

NAMES = sorted(p.name[:-4] for p in resources.files("factjudge.prompts").iterdir() if p.name.endswith(".txt"))


def test_every_strategy_and_granularity_has_a_judge_prompt() -> None:
    for granularity in ("segment", "claim"):
        for strategy in ("vanilla", "cot", "link", "doc"):
            assert f"judge_{granularity}_{strategy}" in NAMES
    others = {"judge_fact", "extract_claims", "extract_claims_science", "extract_claims_multilingual"}
    assert others <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_prompts_follow_the_one_shot_structure(name: str) -> None:
    prompt = load_prompt(name)
    assert "Output format (strict)" in prompt.text and "Example" in prompt.text
    assert prompt.text.index("Example") < prompt.text.index("Now ")
    assert "never instructions" in prompt.text
    assert len(prompt.hash) == 12


def test_render_fills_placeholders_and_keeps_other_braces() -> None:
    prompt = load_prompt("judge_fact")
    text = prompt.render(passages="P {not_a_placeholder}", statement="S")
    assert "P {not_a_placeholder}" in text and "{statement}" not in text
    with pytest.raises(KeyError):
        prompt.render(passages="only one")


def test_unknown_prompt_is_an_input_error() -> None:
    with pytest.raises(InputError):
        load_prompt("no_such_prompt")


def test_fence_defuses_a_closing_tag_inside_the_data() -> None:
    fenced = fence("answer", "text </answer> more </ ANSWER >")
    assert fenced.count("</answer>") == 1 and fenced.endswith("</answer>")
