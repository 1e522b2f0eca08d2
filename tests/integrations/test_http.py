"""The HTTP service: routes, JSON errors, auth, size limit, timeout and concurrency limit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from factjudge.config import CheckConfig
from factjudge.errors import ModelError
from factjudge.integrations.http import create_app
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.openai_server import FaultPlan, OpenAIServer
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong

BODY: dict[str, Any] = {"question": QUESTION, "answer": ANSWER, "context": CONTEXT}
LOCAL = "http://localhost"


def client_for(**kwargs: Any) -> TestClient:
    kwargs.setdefault("model", ScriptedChatModel(second_is_wrong, name="scripted:judge"))
    return TestClient(create_app(**kwargs), base_url=LOCAL)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_for() as c:
        yield c


def assert_error(response: httpx.Response, status: int, code: str, text: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["status"] == status and error["code"] == code
    assert text in error["message"]


def test_check_returns_the_check_result(client: TestClient) -> None:
    response = client.post("/v1/check", json=BODY)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["strategy"] == "grounded" and data["label"] == "false"
    assert [v["label"] for v in data["segment_verdicts"]] == ["true", "false", "not_checkable"]
    assert data["segment_verdicts"][1]["evidence"][0]["text"] == CONTEXT[0]


def test_options_and_structured_context_reach_the_pipeline(client: TestClient) -> None:
    body = {**BODY, "context": [{"text": CONTEXT[0], "title": "Museum guide"}],
            "options": {"strategy": "token_f1"}}
    data = client.post("/v1/check", json=body).json()
    assert data["strategy"] == "token_f1" and data["usage"]["calls"] == 0
    assert data["segment_verdicts"][0]["evidence"][0]["title"] == "Museum guide"
    open_mode = client.post("/v1/check", json={**BODY, "options": {"grounded": False}}).json()
    assert open_mode["strategy"] == "doc"
    plain = client.post("/v1/check", json={"question": QUESTION, "answer": ANSWER}).json()
    assert plain["strategy"] == "vanilla"


def test_healthz_info_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    info = client.get("/v1/info").json()
    assert info["model"] == "scripted:judge" and info["model_note"] is None and info["grounded"] is True
    assert "fact" in info["strategies"] and "bm25" in info["model_free_strategies"]
    assert "fact" not in info["model_free_strategies"]
    schema = client.get("/openapi.json").json()
    assert "/v1/check" in schema["paths"] and "CheckRequest" in schema["components"]["schemas"]
    assert "413" in schema["paths"]["/v1/check"]["post"]["responses"]
    assert client.get("/docs").status_code == 404  # the bundled docs page would load a CDN


def test_model_is_built_from_the_config(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("factjudge.checking.model_pool.build_model",
                        lambda config: ScriptedChatModel(second_is_wrong, name=config.model))
    with TestClient(create_app(config=CheckConfig(model="openai:served")), base_url=LOCAL) as c:
        assert c.get("/v1/info").json()["model"] == "openai:served"
        assert c.post("/v1/check", json=BODY).json()["model"] == "openai:served"


def test_api_key_is_required_when_configured() -> None:
    with client_for(api_key="s3cret") as c:
        assert_error(c.post("/v1/check", json=BODY), 401, "unauthorized", "missing API key")
        assert_error(c.post("/v1/check", json=BODY, headers={"X-API-Key": "wrong"}), 401,
                     "unauthorized", "invalid API key")
        assert c.get("/v1/info").status_code == 401
        assert c.post("/v1/check", json=BODY, headers={"X-API-Key": "s3cret"}).status_code == 200
        assert c.post("/v1/check", json=BODY,
                      headers={"Authorization": "Bearer s3cret"}).status_code == 200
        assert c.get("/healthz").status_code == 200 and c.get("/").status_code == 200


def test_oversized_body_is_413_declared_or_streamed() -> None:
    with client_for(max_body=1000) as c:
        big = {**BODY, "answer": "x" * 2000}
        assert_error(c.post("/v1/check", json=big), 413, "payload_too_large", "1,000 bytes")
        chunks = (b"x" * 300 for _ in range(5))  # chunked: no Content-Length to trust
        assert_error(c.post("/v1/check", content=chunks, headers={"Content-Type": "application/json"}),
                     413, "payload_too_large", "larger than the limit")
        assert c.post("/v1/check", json=BODY).status_code == 200


def test_slow_check_is_a_504_json_error() -> None:
    slow = ScriptedChatModel(second_is_wrong, delay=1.0)
    with client_for(model=slow, timeout=0.2) as c:
        assert_error(c.post("/v1/check", json=BODY), 504, "timeout", "did not finish within 0.2 s")


def test_concurrency_limit_makes_waiters_fail_with_503_when_no_slot_frees() -> None:
    slow = ScriptedChatModel(second_is_wrong, delay=1.0)
    app = create_app(model=slow, timeout=0.3, max_concurrency=1)

    async def two_at_once() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=LOCAL) as c:
            first = asyncio.create_task(c.post("/v1/check", json=BODY))
            await asyncio.sleep(0.05)
            second = asyncio.create_task(c.post("/v1/check", json=BODY))
            return list(await asyncio.gather(first, second))

    first, second = asyncio.run(two_at_once())
    assert_error(first, 504, "timeout", "did not finish")
    assert_error(second, 503, "busy", "no free slot")


def test_a_timed_out_check_stops_and_frees_its_slot_for_the_next_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    trickles = FaultPlan(rate=1.0, kinds=("trickle",), trickle_seconds=0.2)
    with OpenAIServer(faults=trickles) as server:
        app = create_app(config=CheckConfig(model="openai:m", base_url=server.base_url),
                         timeout=1.0, max_concurrency=1)

        async def one_then_another() -> tuple[httpx.Response, httpx.Response]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=LOCAL, timeout=30) as c:
                first = await c.post("/v1/check", json=BODY)  # the endpoint trickles: a 504
                model_free = {**BODY, "options": {"strategy": "token_f1"}}
                return first, await c.post("/v1/check", json=model_free)

        first, second = asyncio.run(one_then_another())
    assert_error(first, 504, "timeout", "did not finish within 1 s")
    assert second.status_code == 200, second.text
    assert second.json()["strategy"] == "token_f1"


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:8000", "127.0.0.1:8000", "[::1]:8000",
                                  "10.1.2.3", "localhost."])
def test_localhost_and_ip_addresses_are_answered(host: str) -> None:
    with client_for() as c:
        assert c.get("/v1/info", headers={"Host": host}).status_code == 200


def test_a_foreign_host_header_is_refused_everywhere_unless_allowed() -> None:
    with client_for() as c:
        for path in ("/", "/v1/info", "/healthz"):
            assert_error(c.get(path, headers={"Host": "rebound.example:8000"}), 400, "invalid_host",
                         "does not answer to the host 'rebound.example:8000'")
        assert_error(c.post("/v1/check", json=BODY, headers={"Host": "rebound.example"}), 400,
                     "invalid_host", "--allowed-hosts rebound.example")
    with client_for(allowed_hosts=["Judge.Example.org"]) as c:
        assert c.get("/v1/info", headers={"Host": "judge.example.org:443"}).status_code == 200
        assert c.get("/v1/info", headers={"Host": "rebound.example"}).status_code == 400
    with client_for(allowed_hosts=["*"]) as c:
        assert c.get("/v1/info", headers={"Host": "anything.example"}).status_code == 200


def test_a_non_ascii_api_key_accepts_its_utf8_bytes() -> None:
    with client_for(api_key="clé-ünïcode") as c:
        ok = c.post("/v1/check", json=BODY, headers={"X-API-Key": "clé-ünïcode".encode()})
        assert ok.status_code == 200, ok.text
        bearer = {"Authorization": b"Bearer " + "clé-ünïcode".encode()}
        assert c.post("/v1/check", json=BODY, headers=bearer).status_code == 200
        other = c.post("/v1/check", json=BODY, headers={"X-API-Key": "clé-ünïcodé".encode()})
        assert_error(other, 401, "unauthorized", "invalid API key")


@pytest.mark.parametrize("body", [
    {"answer": "The tower \ud800 is in Paris."},
    {"question": "Where\ud800?", "answer": "In Paris."},
    {"answer": "It opened in 1998.", "context": ["Opened \udc00 in 1998."]},
    {"answer": "It opened in 1998.", "context": [{"text": "Opened \udc00 in 1998."}]},
    {"answer": "It opened in 1998.", "context": [{"text": "Opened in 1998.", "title": "\udbff"}]},
    {"answer": "It opened in 1998.", "ref_texts": ["Opened \udc00 in 1998."]},
])
def test_a_lone_surrogate_escape_anywhere_is_a_json_4xx_not_a_500(client: TestClient,
                                                                   body: dict[str, Any]) -> None:
    raw = json.dumps(body).encode()  # json.dumps writes a lone surrogate as its \\u escape
    response = client.post("/v1/check", content=raw, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422), response.text
    assert "surrogate" in response.json()["error"]["message"] or "unicode" in response.text


def test_a_lone_surrogate_in_a_context_passage_is_named() -> None:
    body = '{"answer": "It opened in 1998.", "context": [{"text": "Opened \\udc00 in 1998."}]}'
    with client_for() as c:
        response = c.post("/v1/check", content=body.encode(), headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_input", "context.0.text holds a lone surrogate")


def test_errors_are_json_with_clear_messages(client: TestClient) -> None:
    assert_error(client.post("/v1/check", json={"question": "q"}), 422, "invalid_request",
                 "answer: Field required")
    assert_error(client.post("/v1/check", json={**BODY, "colour": "red"}), 422, "invalid_request",
                 "colour: Extra inputs are not permitted")
    assert_error(client.post("/v1/check", content=b"{not json", headers={"Content-Type": "application/json"}),
                 422, "invalid_request", "JSON")
    assert_error(client.post("/v1/check", json={**BODY, "options": {"strategy": "guess"}}), 400,
                 "invalid_input", "unknown strategy 'guess'")
    assert_error(client.post("/v1/check", json={**BODY, "options": {"domain": "astrology"}}), 422,
                 "invalid_request", "unknown domain 'astrology'; choose from wk, science")
    assert_error(client.post("/v1/check", json={**BODY, "answer": "   "}), 400, "invalid_input",
                 "the answer is empty")
    assert_error(client.get("/v1/nothing"), 404, "not_found", "Not Found")
    assert_error(client.get("/v1/check"), 405, "method_not_allowed", "Method Not Allowed")


def test_model_failure_is_a_502_that_names_its_kind_only() -> None:
    failing = ScriptedChatModel([ModelError("http://10.0.0.5:8000/v1 refused the connection",
                                            "could not connect")])
    with client_for(model=failing) as c:
        response = c.post("/v1/check", json=BODY)
    assert_error(response, 502, "upstream_error", "the model endpoint failed: could not connect")
    assert "10.0.0.5" not in response.text


def test_web_page_and_its_assets_are_served_without_external_references(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<form id=\"check-form\"" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "style.css"):
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200
        assert "http://" not in asset.text and "https://" not in asset.text
    assert "https://" not in page.text.replace("https://…", "")
    assert_error(client.get("/static/../http.py"), 404, "not_found", "")


@pytest.mark.parametrize(("body", "headers", "status", "text"), [
    (b"\x00\xff\xfe\x89PNG binary", {}, 415, "Content-Type: application/json (got none)"),
    (json.dumps(BODY).encode(), {}, 415, "Content-Type: application/json (got none)"),
    (json.dumps(BODY).encode(), {"Content-Type": "text/plain"}, 415, "(got text/plain)"),
    (json.dumps(BODY).encode("utf-16"), {"Content-Type": "application/json"}, 400, "not UTF-8"),
])
def test_a_body_not_declared_json_or_not_utf8_is_refused(client: TestClient, body: bytes,
                                                         headers: dict[str, str], status: int,
                                                         text: str) -> None:
    response = client.post("/v1/check", content=body, headers=headers)
    code = "unsupported_media_type" if status == 415 else "invalid_input"
    assert_error(response, status, code, text)


def test_a_json_body_with_a_charset_is_accepted(client: TestClient) -> None:
    response = client.post("/v1/check", content=json.dumps(BODY).encode(),
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 200, response.text


def test_an_empty_context_is_refused_as_the_verifier_refuses_it() -> None:
    # Before: [] was read as no context, and the answer was checked against Wikipedia.
    model = ScriptedChatModel([], name="scripted:judge")
    with client_for(model=model) as client:
        response = client.post("/v1/check", json={**BODY, "context": []})
    assert_error(response, 400, "invalid_input", "the context is empty")
    assert model.calls == []


def first_true_second_unread(messages: list[Any]) -> str:
    """A Yes/No judge whose reply about the north bank cannot be read: 1 true and 1 unparseable item."""
    return "Maybe" if "north bank" in messages[0]["content"] else "Yes"


@pytest.mark.parametrize(("served", "asked", "successful"), [(0.5, None, True), (0.6, None, False),
                                                              (0.6, 0.5, True), (0.5, 0.9, False)])
def test_the_threshold_is_the_services_unless_the_request_sets_one(served: float, asked: float | None,
                                                                   successful: bool) -> None:
    from factjudge.llm.registry import LOCAL_DEFAULT

    model = ScriptedChatModel(first_true_second_unread, name=LOCAL_DEFAULT)
    body = {**BODY, "options": {} if asked is None else {"threshold": asked}}
    with client_for(model=model, config=CheckConfig(values=0), threshold=served) as client:
        data = client.post("/v1/check", json=body).json()
        assert client.get("/v1/info").json()["threshold"] == served
    assert [v["label"] for v in data["segment_verdicts"]] == ["true", "unparseable", "not_checkable"]
    assert data["threshold"] == (served if asked is None else asked) and data["successful"] is successful


@pytest.mark.parametrize("bad", [1.5, -0.1, "0.5", True])
def test_a_request_threshold_that_is_not_a_share_is_refused(client: TestClient, bad: object) -> None:
    response = client.post("/v1/check", json={**BODY, "options": {"threshold": bad}})
    assert_error(response, 422, "invalid_request", "options.threshold")


@pytest.mark.parametrize("body", ['{"answer": "It opened in 1998.", "answer": "It opened in 1999."}',
                                  '{"answer": "x", "options": {"strategy": "cot", "strategy": "vanilla"}}'])
def test_a_key_named_twice_is_refused_not_read_as_the_last(client: TestClient, body: str) -> None:
    # Issue 44 (low): the last of two "answer" keys was checked, the first silently dropped.
    response = client.post("/v1/check", content=body, headers={"content-type": "application/json"})
    assert_error(response, 422, "invalid_request", "twice in one object")
