"""LangChain integration: the Verifier as a Runnable and as a tool, and factjudge's models as a chat model.

``VerifierRunnable`` takes ``{"question", "answer", "context"}`` (context as strings or
LangChain Documents, the usual output of a retriever) and returns the CheckResult,
so it can close a RAG chain: ``rag_chain | VerifierRunnable()``. ``FactjudgeChatModel``
lets a chain answer with the model a Verifier judges with (the embedded offline one by default).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field

from factjudge.checking.verifier import Verifier, summarize
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.records import CheckResult

_ROLES = {"human": "user", "ai": "assistant", "system": "system"}


def _text(message: BaseMessage) -> str:
    """A message's text; of a list of content blocks, the text ones (``.text`` changed kind in 1.0)."""
    if isinstance(message.content, str):
        return message.content
    return "".join(part if isinstance(part, str) else str(part.get("text", ""))
                   for part in message.content if isinstance(part, str) or part.get("type") == "text")


def _fields(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError(f"the verifier takes a dict with question, answer and context, not "
                         f"{type(data).__name__}")
    if not isinstance(data.get("answer"), str):
        raise InputError("the verifier's input needs an 'answer' string")
    return data


class VerifierRunnable(Runnable[dict[str, Any], CheckResult]):
    """A Runnable over ``Verifier.verify``: {question, answer, context[, refs]} in, CheckResult out."""

    def __init__(
        self,
        verifier: Verifier | None = None,
        *,
        config: CheckConfig | None = None,
        model: ChatModel | None = None,
        grounded: bool | None = None,
    ) -> None:
        self.verifier = verifier or Verifier(config, model=model, grounded=grounded)

    def _verify(self, data: dict[str, Any]) -> CheckResult:
        fields = _fields(data)
        return self.verifier.verify(str(fields.get("question") or ""), fields["answer"],
                                    context=fields.get("context"),
                                    refs=fields.get("refs"), ref_texts=fields.get("ref_texts"))

    async def _averify(self, data: dict[str, Any]) -> CheckResult:
        fields = _fields(data)
        return await self.verifier.averify(str(fields.get("question") or ""), fields["answer"],
                                           context=fields.get("context"),
                                           refs=fields.get("refs"), ref_texts=fields.get("ref_texts"))

    def invoke(self, input: dict[str, Any], config: RunnableConfig | None = None,
               **kwargs: Any) -> CheckResult:
        """Verify one answer (callbacks and tracing see it as one run)."""
        return self._call_with_config(self._verify, input, config, run_type="tool")

    async def ainvoke(self, input: dict[str, Any], config: RunnableConfig | None = None,
                      **kwargs: Any) -> CheckResult:
        """Async twin of ``invoke``."""
        return await self._acall_with_config(self._averify, input, config, run_type="tool")


class VerifyArgs(BaseModel):
    """Check an answer against the context it was written from; lists what is not supported."""

    question: str = Field(default="", description="the question the answer responds to")
    answer: str = Field(description="the answer to check")
    context: list[str] | None = Field(
        default=None, description="the passages the answer should be grounded in; leave it out to check "
        "without one ([] is an empty retrieval, refused)")


def verification_tool(
    verifier: Verifier | None = None,
    *,
    name: str = "verify_answer",
    description: str = ("Check an answer against the context passages it was written from. "
                        "Returns the overall label, the share of supported items, and each "
                        "unsupported segment or claim with the reason."),
) -> BaseTool:
    """The verifier as a LangChain tool returning a compact JSON-ready summary."""
    runnable = VerifierRunnable(verifier)

    def passages(context: Sequence[str] | None) -> list[str] | None:
        return None if context is None else list(context)

    def run(question: str = "", answer: str = "", context: Sequence[str] | None = None) -> dict[str, Any]:
        result = runnable.invoke({"question": question, "answer": answer, "context": passages(context)})
        return summarize(result)

    async def arun(question: str = "", answer: str = "",
                   context: Sequence[str] | None = None) -> dict[str, Any]:
        result = await runnable.ainvoke({"question": question, "answer": answer,
                                         "context": passages(context)})
        return summarize(result)

    return StructuredTool.from_function(func=run, coroutine=arun, name=name, description=description,
                                        args_schema=VerifyArgs)


class FactjudgeChatModel(BaseChatModel):
    """A factjudge ChatModel (the embedded offline model, an endpoint's) as a LangChain chat model.

    ``FactjudgeChatModel.from_verifier(verifier)`` answers with the very model the verifier
    judges with, loaded once; ``from_config`` builds the model a CheckConfig names.
    Decoding is greedy, as factjudge's is everywhere.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: Any  # a factjudge ChatModel
    max_tokens: int = 256

    @classmethod
    def from_verifier(cls, verifier: Verifier, *, max_tokens: int = 256) -> FactjudgeChatModel:
        """The model ``verifier`` judges with (built on first use, then shared)."""
        return cls(model=verifier.model_for(), max_tokens=max_tokens)

    @classmethod
    def from_config(cls, config: CheckConfig | None = None, *, max_tokens: int = 256) -> FactjudgeChatModel:
        """The model ``config`` names (default: factjudge's default model)."""
        return cls.from_verifier(Verifier(config), max_tokens=max_tokens)

    @property
    def _llm_type(self) -> str:
        return "factjudge"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model.name, "max_tokens": self.max_tokens}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        chat = [{"role": _ROLES.get(m.type, "user"), "content": _text(m)} for m in messages]
        completion = self.model.complete(chat, GenerationParams(max_tokens=self.max_tokens,
                                                                stop=tuple(stop or ())))
        usage = {"input_tokens": completion.prompt_tokens, "output_tokens": completion.completion_tokens,
                 "total_tokens": completion.prompt_tokens + completion.completion_tokens}
        message = AIMessage(content=completion.text, usage_metadata=usage)  # type: ignore[arg-type]
        return ChatResult(generations=[ChatGeneration(message=message)])
