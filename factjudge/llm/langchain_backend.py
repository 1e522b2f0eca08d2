"""Wrap any LangChain chat model as a factjudge ChatModel."""

from __future__ import annotations

from typing import Any

from factjudge.errors import ModelError
from factjudge.llm.base import Completion, GenerationParams, Message


def _to_langchain(messages: list[Message]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


class LangChainChatModel:
    """ChatModel over a ``langchain_core`` BaseChatModel; usage from its metadata when present."""

    def __init__(self, chat_model: Any, name: str | None = None) -> None:
        self.chat_model = chat_model
        model_name = getattr(chat_model, "model_name", None) or getattr(chat_model, "model", None)
        self.name = name or f"langchain:{model_name or type(chat_model).__name__}"

    def _completion(self, message: Any, messages: list[Message]) -> Completion:
        text = message.content if isinstance(message.content, str) else str(message.content)
        usage = getattr(message, "usage_metadata", None) or {}
        prompt_tokens = usage.get("input_tokens")
        completion_tokens = usage.get("output_tokens")
        if prompt_tokens is None or completion_tokens is None:
            from factjudge.llm.tokens import count_tokens

            prompt_tokens = sum(count_tokens(m["content"]) for m in messages)
            completion_tokens = count_tokens(text)
        return Completion(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                          model=self.name)

    def _bound(self, params: GenerationParams) -> Any:
        try:
            return self.chat_model.bind(stop=list(params.stop)) if params.stop else self.chat_model
        except (AttributeError, NotImplementedError):
            return self.chat_model

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Invoke the wrapped model."""
        try:
            reply = self._bound(params).invoke(_to_langchain(messages))
        except Exception as exc:  # a LangChain backend may raise anything; keep one error type
            raise ModelError(f"{self.name}: {exc}") from exc
        return self._completion(reply, messages)
