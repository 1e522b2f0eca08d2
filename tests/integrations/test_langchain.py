"""The LangChain Runnable and tool: the same verdicts as the Verifier, from chain-shaped input."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("langchain_core")
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda

from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.integrations.langchain import (
    FactjudgeChatModel,
    VerifierRunnable,
    verification_tool,
)
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION

DOCS = [Document(page_content=CONTEXT[0],
                 metadata={"source": "https://example.org/museum", "title": "Museum"})]


def test_runnable_verifies_documents_as_context(judge_model: ScriptedChatModel) -> None:
    result = VerifierRunnable(model=judge_model).invoke({"question": QUESTION, "answer": ANSWER,
                                                         "context": DOCS})
    assert isinstance(result, CheckResult)
    assert result.strategy == "grounded" and result.label == "false"
    evidence = result.segment_verdicts[1].evidence[0]
    assert evidence.title == "Museum" and evidence.url == "https://example.org/museum"
    assert "[1] https://example.org/museum" in judge_model.calls[0][0]["content"]


def test_runnable_closes_a_chain_and_matches_the_verifier(judge_model: ScriptedChatModel) -> None:
    rag = RunnableLambda(lambda q: {"question": q, "answer": ANSWER, "context": CONTEXT})
    chained = (rag | VerifierRunnable(model=judge_model)).invoke(QUESTION)
    direct = Verifier(model=ScriptedChatModel(["Answer: 2"], name="scripted:judge")).verify(
        QUESTION, ANSWER, context=CONTEXT)
    assert [v.label for v in chained.segment_verdicts] == [v.label for v in direct.segment_verdicts]
    assert chained.traces[0].messages == direct.traces[0].messages


def test_async_and_batch(judge_model: ScriptedChatModel) -> None:
    runnable = VerifierRunnable(Verifier(CheckConfig(strategy="bm25"), model=judge_model))
    item = {"question": QUESTION, "answer": ANSWER, "context": CONTEXT}
    result = asyncio.run(runnable.ainvoke(item))
    assert result.strategy == "bm25"
    assert [r.strategy for r in runnable.batch([item, item])] == ["bm25", "bm25"]


def test_bad_input_is_an_input_error(judge_model: ScriptedChatModel) -> None:
    with pytest.raises(InputError, match="'answer'"):
        VerifierRunnable(model=judge_model).invoke({"question": QUESTION})
    with pytest.raises(InputError, match="a dict"):
        VerifierRunnable(model=judge_model).invoke("just text")  # type: ignore[arg-type]


def test_documents_become_passages_named_by_their_metadata() -> None:
    from factjudge.checking.context import context_passages
    from factjudge.records import Evidence

    assert context_passages(None) == ()
    assert context_passages("plain") == (Evidence("context", "plain"),)
    [passage] = context_passages(Document(page_content="p", metadata={"source": "notes.txt"}))
    assert (passage.text, passage.title, passage.url) == ("p", "notes.txt", None)
    [passage] = context_passages([DOCS[0]])
    assert (passage.title, passage.url) == ("Museum", "https://example.org/museum")


def test_tool_returns_a_summary_of_unsupported_items(judge_model: ScriptedChatModel) -> None:
    tool = verification_tool(Verifier(model=judge_model))
    assert tool.name == "verify_answer" and set(tool.args) == {"question", "answer", "context"}
    summary = tool.invoke({"question": QUESTION, "answer": ANSWER, "context": CONTEXT})
    assert summary["label"] == "false"
    assert [u["text"] for u in summary["unsupported"]] == ["It stands on the north bank of the river."]
    again = asyncio.run(tool.ainvoke({"answer": ANSWER, "context": CONTEXT}))
    assert again["strategy"] == "grounded"


def test_tool_refuses_an_empty_context_as_the_verifier_does() -> None:
    model = ScriptedChatModel([], name="scripted:judge")
    tool = verification_tool(Verifier(model=model))
    with pytest.raises(InputError, match="the context is empty"):
        tool.invoke({"answer": ANSWER, "context": []})
    assert model.calls == []


def test_chat_model_speaks_langchain_messages_to_a_factjudge_model() -> None:
    model = ScriptedChatModel(["Paris.", "Lyon."], name="scripted:chat")
    chat = FactjudgeChatModel(model=model, max_tokens=32)
    reply = chat.invoke([SystemMessage("Be brief."), HumanMessage("Capital of France?"), AIMessage("Paris."),
                         HumanMessage([{"type": "text", "text": "And the third city?"}])], stop=["\n"])
    assert reply.content == "Paris."
    assert model.calls[0] == [{"role": "system", "content": "Be brief."},
                              {"role": "user", "content": "Capital of France?"},
                              {"role": "assistant", "content": "Paris."},
                              {"role": "user", "content": "And the third city?"}]
    assert model.params[0].max_tokens == 32 and model.params[0].stop == ("\n",)
    assert reply.usage_metadata is not None and reply.usage_metadata["output_tokens"] == 1
    prompt = ChatPromptTemplate.from_messages([("human", "Where is {place}?")])
    assert (prompt | chat).invoke({"place": "Lyon"}).content == "Lyon."


def test_chat_model_shares_the_verifiers_model(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def build_model(config: CheckConfig) -> ScriptedChatModel:
        built.append(config.model)
        return ScriptedChatModel(["Answer: 2"], name=config.model)

    monkeypatch.setattr("factjudge.checking.model_pool.build_model", build_model)
    verifier = Verifier(CheckConfig(model="openai:judge"))
    assert FactjudgeChatModel.from_verifier(verifier).model is verifier.model_for()
    assert FactjudgeChatModel.from_config(CheckConfig(model="openai:other")).model.name == "openai:other"
    assert built == ["openai:judge", "openai:other"]
