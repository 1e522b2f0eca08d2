"""doc that runs as vanilla says so (issue 14 item 13): a note on stderr and ``fallback`` in the result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.checking.checker import Checker
from factjudge.cli import main
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.openai_server import OpenAIServer

ANSWER = "The Eiffel Tower is in Berlin."


def test_check_says_on_stderr_and_in_json_that_doc_ran_as_vanilla(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    config = tmp_path / "check.toml"
    config.write_text("[check]\nallow_private_links = true\n", encoding="utf-8")
    with OpenAIServer(responder=lambda m: "Answer: 1") as server:
        # The model server answers no GET: the reference cannot be fetched.
        page = server.base_url.replace("/v1", "/page.html")
        code = main(["check", "Where is the Eiffel Tower?", ANSWER, "--model", "openai:m", "--base-url",
                     server.base_url, "--strategy", "doc", "--refs", page, "--config", str(config), "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    result = json.loads(out)
    assert result["strategy"] == "vanilla"
    [fallback] = result["fallbacks"]
    assert fallback.startswith("doc ran as vanilla: none of the 1 references could be fetched (")
    assert page in fallback
    assert err == f"factjudge: note: {fallback}\n"
    assert "<passages>" not in server.requests[0]["messages"][0]["content"]  # vanilla's prompt ran


def test_a_strategy_that_ran_as_asked_has_no_fallback_note() -> None:
    checker = Checker(CheckConfig(strategy="doc"), ScriptedChatModel(["Answer: 1"]))
    result = checker.check("Where?", ANSWER, refs=["https://example.org/eiffel"],
                           ref_texts=["The Eiffel Tower is in Paris, France."])
    assert result.strategy == "doc" and result.fallbacks == ()


def test_doc_without_any_reference_records_why_it_ran_as_vanilla() -> None:
    result = Checker(CheckConfig(strategy="doc"), ScriptedChatModel(["Answer: 1"])).check("Where?", ANSWER)
    assert result.strategy == "vanilla"
    assert result.fallbacks == ("doc ran as vanilla: no references, context or evidence source given",)
