"""Model specs select backends; unknown ones are input errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.cost import estimate_cost
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.registry import make_model, model_note


def test_openai_spec_with_cache(tmp_path: Path) -> None:
    model = make_model("openai:gpt-4o-mini", base_url="http://127.0.0.1:1/v1", cache_path=tmp_path / "c")
    assert isinstance(model, CachedChatModel) and isinstance(model.inner, OpenAIChatModel)
    assert model.name == "openai:gpt-4o-mini" and model_note(model.name) is None


@pytest.mark.parametrize("spec", ["gpt-4o", "openai", "openai:", "anthropic:claude"])
def test_unknown_specs_are_input_errors(spec: str) -> None:
    with pytest.raises(InputError):
        make_model(spec, cache_path=False)


def test_cost_estimate_matches_dated_variants() -> None:
    assert estimate_cost("openai:gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert estimate_cost("gpt-4o-2024-08-06", 1_000_000, 0) == pytest.approx(2.5)
    assert estimate_cost("local:smollm2-135m", 10**6, 10**6) == 0.0
