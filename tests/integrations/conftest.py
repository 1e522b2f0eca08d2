"""Fixtures for the integration tests."""

from __future__ import annotations

import pytest

from factjudge.llm.scripted import ScriptedChatModel
from tests.integrations.samples import second_is_wrong


@pytest.fixture
def judge_model() -> ScriptedChatModel:
    """A scripted judge, fresh per test, that records the prompts it saw."""
    return ScriptedChatModel(second_is_wrong, name="scripted:judge")
