"""``factjudge serve``: flags become the app's config, auth and limits; uvicorn gets the app."""

from __future__ import annotations

import argparse
import socket
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from factjudge.errors import InputError
from factjudge.integrations import serve_cli
from factjudge.llm.scripted import ScriptedChatModel
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="factjudge")
    serve_cli.add_serve_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


@pytest.fixture(autouse=True)
def scripted_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("factjudge.checking.model_pool.build_model",
                        lambda config: ScriptedChatModel(second_is_wrong, name=config.model))


def test_flags_configure_model_strategy_limits_and_open_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTJUDGE_API_KEY", raising=False)
    args = parse(["--model", "openai:m", "--strategy", "cot", "--open", "--max-body", "500"])
    with TestClient(serve_cli.build_app(args), base_url="http://localhost") as client:
        info = client.get("/v1/info").json()
        assert (info["model"], info["strategy"], info["grounded"], info["max_body"]) == (
            "openai:m", "cot", False, 500)
        assert info["strategy_with_context"] == "doc"  # --open: the context first, then knowledge
        assert client.post("/v1/check", json={"answer": "x" * 600}).status_code == 413


def test_the_threshold_flag_is_the_services_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTJUDGE_API_KEY", raising=False)
    app = serve_cli.build_app(parse(["--threshold", "0.8"]))
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/v1/info").json()["threshold"] == 0.8
        body = {"question": QUESTION, "answer": ANSWER, "context": CONTEXT}
        data = client.post("/v1/check", json=body).json()
    assert data["threshold"] == 0.8 and data["successful"] is False
    with pytest.raises(InputError, match="threshold is a faithfulness between 0 and 1"):
        serve_cli.build_app(parse(["--threshold", "2"]))


def test_api_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "k1")
    app = serve_cli.build_app(parse(["--api-key-env", "MY_KEY"]))
    with TestClient(app, base_url="http://localhost") as client:
        body = {"question": QUESTION, "answer": ANSWER, "context": CONTEXT}
        assert client.post("/v1/check", json=body).status_code == 401
        assert client.post("/v1/check", json=body, headers={"X-API-Key": "k1"}).status_code == 200


def test_the_bound_host_and_allowed_hosts_are_answered_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTJUDGE_API_KEY", raising=False)
    args = parse(["--host", "judge.internal", "--allowed-hosts", "factjudge.example.org, other.example"])
    with TestClient(serve_cli.build_app(args), base_url="http://localhost") as client:
        for host in ("judge.internal:8000", "factjudge.example.org", "other.example", "localhost:8000"):
            assert client.get("/v1/info", headers={"Host": host}).status_code == 200, host
        refused = client.get("/v1/info", headers={"Host": "rebound.example:8000"})
        assert refused.status_code == 400 and "--allowed-hosts rebound.example" in refused.text


def test_run_serve_hands_the_app_to_uvicorn(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: calls.append({"app": app, **kw}))
    assert serve_cli.run_serve(parse(["--port", "8123"])) == 0
    assert calls[0]["host"] == "127.0.0.1" and calls[0]["port"] == 8123
    assert "serving on http://127.0.0.1:8123/" in capsys.readouterr().out


@pytest.mark.parametrize(("flags", "message"), [
    (["--port", "70000"], "--port must be between 1 and 65535, not 70000"),
    (["--port", "0"], "--port must be between 1 and 65535"),
    (["--max-body", "0"], "--max-body must be positive"),
    (["--request-timeout", "-1"], "--request-timeout must be positive"),
    (["--max-concurrency", "-2"], "--max-concurrency must be positive"),
])
def test_bad_limits_are_refused_before_anything_starts(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str],
                                                       flags: list[str], message: str) -> None:
    calls: list[Any] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: calls.append(kw))
    with pytest.raises(InputError, match=message):
        serve_cli.run_serve(parse(flags))
    assert calls == [] and "serving on" not in capsys.readouterr().out


def test_a_port_in_use_is_refused_before_serving_on_is_printed(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[Any] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: calls.append(kw))
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(InputError, match=f"cannot listen on 127.0.0.1:{port}"):
            serve_cli.run_serve(parse(["--port", str(port)]))
    assert calls == [] and "serving on" not in capsys.readouterr().out
