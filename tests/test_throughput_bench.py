"""The throughput benchmark's scripted endpoint speaks factjudge's contracts, and reruns are free."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.testing.openai_server import OpenAIServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
throughput = pytest.importorskip("throughput")

ANSWER = "Paris is the capital of France, and it lies on the Seine. The Moon is made of green cheese."


def test_realistic_replies_parse_and_a_rerun_makes_no_request(tmp_path: Path) -> None:
    with OpenAIServer(responder=throughput.realistic_reply, latency=0.01) as server:
        model = CachedChatModel(OpenAIChatModel("m", base_url=server.base_url), tmp_path / "c.sqlite")
        for batch_size in (None, 1):
            config = CheckConfig(granularity="claim", batch_size=batch_size)
            result = Checker(config, model).check("q", ANSWER)
            assert result.granularity == "claim" and len(result.claims) >= 3
            assert {v.label for v in result.claim_verdicts} <= {"true", "false"}
        made = len(server.requests)
        again = Checker(CheckConfig(granularity="claim"), model).check("q", ANSWER)
        assert len(server.requests) == made and again.usage.calls == 0 and again.usage.cached_calls == 2
