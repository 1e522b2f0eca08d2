"""What the service tells a client of its own faults (issue 44.6 and the low points): a source it was set
up with that cannot be opened is a 500 without the path (logged on the server), a 503 says when to retry,
and a check that ends after its 504 leaves no "Future exception was never retrieved" in the log."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from factjudge.config import CheckConfig
from factjudge.errors import ModelError
from factjudge.integrations.http import create_app
from factjudge.llm.scripted import ScriptedChatModel
from tests.integrations.samples import ANSWER, QUESTION, second_is_wrong

LOCAL = "http://localhost"


@pytest.mark.parametrize("source", ["kb", "zim"])
def test_a_source_the_service_cannot_open_is_a_500_without_its_path(
        tmp_path: Path, source: str, caplog: pytest.LogCaptureFixture) -> None:
    if source == "kb":
        path = tmp_path / "missing.sqlite"
        config = CheckConfig(evidence=("kb",), kb=str(path), strategy="token_f1")
    else:
        pytest.importorskip("libzim")
        path = tmp_path / "wikipedia_en_all_maxi_2024-01.zim"
        path.write_bytes(b"not a zim file " * 100)
        config = CheckConfig(evidence=("wiki",), wiki=f"zim:{path}", strategy="token_f1")
    app = create_app(model=ScriptedChatModel(second_is_wrong), config=config)
    with TestClient(app, base_url=LOCAL) as client, caplog.at_level(logging.ERROR):
        response = client.post("/v1/check", json={"question": QUESTION, "answer": ANSWER})
    assert response.status_code == 500, response.text
    assert response.json()["error"]["code"] == "source_unavailable"
    assert str(tmp_path) not in response.text
    assert str(path) in caplog.text  # the operator reads it in the log


def test_a_503_says_when_to_retry() -> None:
    app = create_app(model=ScriptedChatModel(second_is_wrong, delay=1.0), timeout=0.3, max_concurrency=1)
    body = {"question": QUESTION, "answer": ANSWER, "context": ["Some context."]}

    async def two_at_once() -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=LOCAL) as c:
            first = asyncio.create_task(c.post("/v1/check", json=body))
            await asyncio.sleep(0.05)
            second = await c.post("/v1/check", json=body)
            await first
            return second

    busy = asyncio.run(two_at_once())
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"


def test_a_check_ending_after_its_504_leaves_no_unretrieved_future_in_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    def fails_late(messages: object) -> str:
        time.sleep(0.6)
        raise ModelError("the endpoint failed after the client was answered")

    app = create_app(model=ScriptedChatModel(fails_late), timeout=0.2)
    body = {"question": QUESTION, "answer": ANSWER, "context": ["Some context."]}
    with caplog.at_level(logging.ERROR), TestClient(app, base_url=LOCAL) as client:
        assert client.post("/v1/check", json=body).status_code == 504
        time.sleep(1.5)  # the check runs on past its deadline, then fails
        assert client.get("/healthz").status_code == 200
        gc.collect()
    assert "never retrieved" not in caplog.text
