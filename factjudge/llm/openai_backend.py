"""Any OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp's server)."""

from __future__ import annotations

import json
import os
from typing import Any

import openai

from factjudge.errors import ModelError
from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob
from factjudge.llm.retry import Retrier, RetryPolicy

CHAT_PATH = "/chat/completions"


def _logprobs(choice: dict[str, Any]) -> tuple[TokenLogprob, ...] | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return tuple(
        TokenLogprob(t["token"], t["logprob"],
                     {alt["token"]: alt["logprob"] for alt in (t.get("top_logprobs") or [])})
        for t in content
    )


class OpenAIChatModel:
    """ChatModel over the ``openai`` SDK; our own retry policy replaces the SDK's."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        name: str | None = None,
    ) -> None:
        base_url = base_url or os.environ.get("OPENAI_BASE_URL")
        # Local servers (vLLM, llama.cpp, Ollama) take any key; the SDK insists on one.
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or ("not-needed" if base_url else None)
        self.model = model
        self.name = name or f"openai:{model}"
        self.timeout = timeout
        options: dict[str, Any] = {"base_url": base_url, "api_key": api_key, "timeout": timeout,
                                   "max_retries": 0}
        try:
            self._client = openai.OpenAI(**options)
            self._aclient = openai.AsyncOpenAI(**options)
        except openai.OpenAIError as exc:
            from factjudge.errors import InputError

            raise InputError(f"{self.name}: {exc}") from None
        self._retrier = Retrier(retry or RetryPolicy(), str(self._client.base_url).rstrip("/"), timeout)

    def _request(self, messages: list[Message], params: GenerationParams) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
        }
        if params.seed is not None:
            request["seed"] = params.seed
        if params.stop:
            request["stop"] = list(params.stop)
        if params.logprobs:
            request["logprobs"] = True
            request["top_logprobs"] = params.top_logprobs
        return request

    def _completion(self, body: bytes, messages: list[Message]) -> Completion:
        try:
            data = json.loads(body)
            choice = data["choices"][0]
            text = choice["message"].get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ModelError(f"{self.name}: the endpoint's reply is not a chat completion "
                             f"({type(exc).__name__}: {exc}): {body[:200]!r}") from None
        usage = data.get("usage")
        if usage:
            prompt_tokens, completion_tokens = usage["prompt_tokens"], usage["completion_tokens"]
        else:  # some servers omit usage: count it ourselves so cost reports stay whole
            from factjudge.llm.tokens import count_tokens

            prompt_tokens = sum(count_tokens(m["content"], self.model) + 4 for m in messages)
            completion_tokens = count_tokens(text, self.model)
        return Completion(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                          logprobs=_logprobs(choice), model=data.get("model") or self.model,
                          finish_reason=choice.get("finish_reason"))

    # The SDK's generic ``post`` with ``cast_to=bytes`` keeps its auth, headers, timeouts and
    # typed errors but skips walking the request through its TypedDict transform and building
    # pydantic models of the reply: about a millisecond of CPU per call, which at high
    # concurrency is what stands between the endpoint and the next request.
    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """One chat completion, retried on transient failures."""
        request = self._request(messages, params)
        body = self._retrier.call(lambda: self._client.post(CHAT_PATH, body=request, cast_to=bytes))
        return self._completion(body, messages)

    async def acomplete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Async twin of ``complete``."""
        request = self._request(messages, params)

        async def create() -> bytes:
            return await self._aclient.post(CHAT_PATH, body=request, cast_to=bytes)

        body = await self._retrier.acall(create)
        return self._completion(body, messages)
