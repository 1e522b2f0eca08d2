"""The service bounds the work one request may cost (issue 34.3): over a cap is a clear 413."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from factjudge.config import CheckConfig
from factjudge.integrations.http import create_app
from factjudge.llm.scripted import ScriptedChatModel

LOCAL = "http://localhost"
CONTEXT = ["The bridges of the town opened between 1900 and 1950."]


def sentences(n: int) -> str:
    return " ".join(f"Bridge {i} opened in {1900 + i}." for i in range(n))


def error_of(response: object) -> dict[str, object]:
    assert response.headers["content-type"].startswith("application/json")  # type: ignore[attr-defined]
    return response.json()["error"]  # type: ignore[attr-defined,no-any-return]


def test_an_answer_over_the_item_cap_is_a_413_before_any_model_call() -> None:
    model = ScriptedChatModel(lambda messages: "Yes", name="scripted:judge")
    with TestClient(create_app(model=model), base_url=LOCAL) as client:
        response = client.post("/v1/check", json={"answer": sentences(201), "context": CONTEXT})
        assert response.status_code == 413, response.text
        error = error_of(response)
        assert error["code"] == "too_much_work"
        assert "the answer has 201 segments to judge; one check judges at most 200" in str(error["message"])
        assert model.calls == []
        assert client.post("/v1/check", json={"answer": sentences(3), "context": CONTEXT}).status_code == 200


def test_a_request_needing_more_calls_than_the_budget_is_a_413_after_at_most_the_budget() -> None:
    model = ScriptedChatModel(lambda messages: "Yes", name="scripted:judge")
    app = create_app(model=model, config=CheckConfig(strategy="fact", max_calls=5))  # a call an item
    with TestClient(app, base_url=LOCAL) as client:
        response = client.post("/v1/check", json={"answer": sentences(8), "context": CONTEXT})
        assert response.status_code == 413, response.text
        assert "the check needs more than 5 model calls" in str(error_of(response)["message"])
        assert len(model.calls) == 5


def test_a_request_cannot_raise_the_services_caps() -> None:
    with TestClient(create_app(model=ScriptedChatModel(lambda m: "Yes")), base_url=LOCAL) as client:
        for option in ("max_items", "max_calls", "deadline"):
            body = {"answer": sentences(2), "context": CONTEXT, "options": {option: 10**6}}
            response = client.post("/v1/check", json=body)
            assert response.status_code == 422 and option in str(error_of(response)["message"])
