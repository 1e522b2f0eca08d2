"""The service tells clients what kind of upstream failure happened, never where or what it said;
its access log keeps no query string (issue 14 item 10)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from factjudge.integrations.http import create_app
from factjudge.llm.openai_backend import OpenAIChatModel
from factjudge.llm.retry import RetryPolicy
from factjudge.testing.live import loopback_socket
from factjudge.testing.openai_server import OpenAIServer, Step
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[2]
BODY = {"question": QUESTION, "answer": ANSWER, "context": CONTEXT}
SECRET_BODY = {"error": {"message": "db=postgres://admin:hunter2@10.0.0.5 stack: Traceback ..."}}


@pytest.mark.parametrize(("steps", "kind"), [
    ([Step(500, body=SECRET_BODY)] * 2, "HTTP 500"),
    ([Step(401, body=SECRET_BODY)], "HTTP 401"),
    ([Step(fault="garbage")] * 2, "not a usable reply"),
])
def test_a_502_names_the_kind_of_failure_not_the_endpoint_nor_its_body(
        steps: list[Step], kind: str, caplog: pytest.LogCaptureFixture) -> None:
    with OpenAIServer(steps) as server:
        model = OpenAIChatModel("m", base_url=server.base_url,
                                retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.01))
        app = create_app(model=model)
        with TestClient(app, base_url="http://localhost") as client, caplog.at_level(logging.WARNING):
            response = client.post("/v1/check", json=BODY)
    assert response.status_code == 502
    assert response.json()["error"] == {"status": 502, "code": "upstream_error", "message":
                                        f"the model endpoint failed: {kind} (details in the service's log)"}
    port = server.base_url.split(":")[-1].split("/")[0]
    for leak in ("127.0.0.1", port, "hunter2", "upstream proxy error", "Traceback"):
        assert leak not in response.text
    assert server.base_url.rstrip("/") in caplog.text  # the operator still sees what failed


def test_the_access_log_records_no_query_string(tmp_path: Path) -> None:
    with loopback_socket() as probe:
        port = probe.getsockname()[1]
    env = {**os.environ, "FACTJUDGE_CACHE": str(tmp_path / "calls.sqlite"), "PYTHONUNBUFFERED": "1"}
    env.pop("FACTJUDGE_API_KEY", None)
    server = subprocess.Popen([sys.executable, "-m", "factjudge.cli", "serve", "--port", str(port),
                               "--strategy", "token_f1"], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + HANG_GUARD  # starting may be slow on a loaded machine, never this slow
        while True:
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, "the service did not start"
                time.sleep(0.1)
        assert httpx.get(f"{base}/healthz?api_key=sk-SECRET-123&x=1", timeout=5).status_code == 200
        assert httpx.post(f"{base}/v1/check?key=sk-SECRET-456", json=BODY, timeout=30).status_code == 200
    finally:
        server.send_signal(signal.SIGINT)
        log, _ = server.communicate(timeout=30)
    assert '"GET /healthz HTTP/1.1" 200' in log and '"POST /v1/check HTTP/1.1" 200' in log, log
    assert "SECRET" not in log and "api_key" not in log and "key=" not in log
