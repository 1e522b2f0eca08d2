"""Under ``factjudge serve`` with the embedded llama.cpp model, a request that outlasts its time stops
and frees its slot (issue 34.1): the next request is answered, not refused with 503 for minutes."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("llama_cpp")

from factjudge.config import CheckConfig
from factjudge.integrations.http import create_app
from factjudge.testing.live import serve_in_thread
from tests.support.timing import HANG_GUARD

pytestmark = pytest.mark.local_model


def test_a_timed_out_check_on_the_local_model_frees_the_only_slot_for_the_next_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    monkeypatch.setenv("FACTJUDGE_THREADS", "1")  # llama.cpp's threads stall each other on a busy machine
    # 100 sentences against a context read in windows: minutes of SmolLM2 calls, one check slot.
    answer = " ".join(f"The bridge number {i} opened in {1900 + i} and is {100 + i} metres long."
                      for i in range(100))
    context = [" ".join(f"The bridge number {i} was built of stone by the river guild in the year "
                        f"{1890 + i}, and carts crossed it every market day." for i in range(j, j + 20))
               for j in range(0, 100, 20)]
    small = {"answer": "Bridge 1 opened in 1901.", "context": ["Bridge 1 opened in 1901."]}
    app = create_app(config=CheckConfig(model="local:smollm2"), timeout=20.0, max_concurrency=1)
    with serve_in_thread(app) as base, httpx.Client(base_url=base, timeout=HANG_GUARD) as client:
        warm = client.post("/v1/check", json=small)
        assert warm.status_code == 200, warm.text  # the model is loaded: what follows is checking
        first = client.post("/v1/check", json={"answer": answer, "context": context})
        if first.status_code == 504:
            assert first.json()["error"]["code"] == "timeout"
        else:  # a checker that keeps what was judged in time names the rest
            assert first.status_code == 200 and "deadline" in first.text, first.text
        # Before the fix the check held the slot for every one of its 100 sentences: 503 here.
        second = client.post("/v1/check", json=small)
        assert second.status_code == 200, second.text
        assert second.json()["model"] == "local:smollm2-135m"
