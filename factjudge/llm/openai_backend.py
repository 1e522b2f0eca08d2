"""Any OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp's server)."""

from __future__ import annotations

import json
from typing import Any

from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob, not_utf8
from factjudge.llm.deadline import call_timeout
from factjudge.llm.endpoint import EndpointClient, TooLarge
from factjudge.llm.reply_check import logprobs_problem
from factjudge.llm.retry import BadReply, Retrier, RetryPolicy

CHAT_PATH = "/chat/completions"
# Bytes of a reply body, beyond the text limit: log-probabilities take about 1 KB a token.
BODY_BYTES_PER_TOKEN = 2_000
MIN_BODY_BYTES = 4_000_000


def _logprobs(choice: dict[str, Any]) -> tuple[TokenLogprob, ...] | None:
    """The reply's log-probabilities; ValueError when any is not text with a log-probability."""
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    tokens = tuple(
        TokenLogprob(t["token"], t["logprob"],
                     {alt["token"]: alt["logprob"] for alt in (t.get("top_logprobs") or [])})
        for t in content
    )
    problem = logprobs_problem(tokens)
    if problem:
        raise ValueError(problem)
    return tokens


class OpenAIChatModel:
    """ChatModel over an OpenAI-compatible ``/chat/completions`` endpoint, with our own retry policy."""

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
        self.model = model
        self.name = name or f"openai:{model}"
        self.timeout = timeout
        self._client = EndpointClient.for_openai(self.name, base_url, api_key, timeout)
        # Part of the call cache key: the same model name on two endpoints is two models.
        self.endpoint = self._client.base_url
        self._retrier = Retrier(retry or RetryPolicy(), self.endpoint, timeout)

    def close(self) -> None:
        """Close the endpoint's pooled connections."""
        self._client.close()

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

    def _completion(self, body: bytes, messages: list[Message], params: GenerationParams) -> Completion:
        """The completion in ``body``; BadReply (retried) when it is not one or is far too large."""
        try:
            data = json.loads(body)
            choice = data["choices"][0]
            text = choice["message"].get("content") or ""
            if not isinstance(text, str):
                raise TypeError(f"content is {type(text).__name__}")
            logprobs = _logprobs(choice)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as exc:
            raise BadReply(f"replied with something that is not a chat completion "
                           f"({type(exc).__name__}: {exc}): {body[:200]!r}") from None
        if len(text) > params.reply_limit():
            raise BadReply(f"sent a reply of {len(text):,} characters for max_tokens={params.max_tokens}")
        prompt_tokens, completion_tokens = self._usage(data.get("usage"), messages, text)
        return Completion(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                          logprobs=logprobs, model=str(data.get("model") or self.model),
                          finish_reason=choice.get("finish_reason"))

    def _usage(self, usage: Any, messages: list[Message], text: str) -> tuple[int, int]:
        """Prompt and completion tokens as the endpoint reported them, else counted here."""
        if isinstance(usage, dict):
            prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
            if type(prompt) is int and type(completion) is int and min(prompt, completion) >= 0:
                return prompt, completion
        # Some servers omit usage and some send junk: count it ourselves so cost reports stay whole.
        from factjudge.llm.tokens import count_tokens

        prompt_tokens = sum(count_tokens(m["content"], self.model) + 4 for m in messages)
        return prompt_tokens, count_tokens(text, self.model)

    def _post(self, request: dict[str, Any], params: GenerationParams) -> bytes:
        """The reply body, refused unread past what ``max_tokens`` can explain."""
        try:
            return self._client.post(CHAT_PATH, request,
                                     max(MIN_BODY_BYTES, BODY_BYTES_PER_TOKEN * params.max_tokens),
                                     timeout=call_timeout(self.timeout))
        except TooLarge as exc:
            raise BadReply(f"{exc} for max_tokens={params.max_tokens}") from None

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """One chat completion, retried on transient failures."""
        request = self._request(messages, params)
        try:
            # Read inside the retried call, so a 200 that is not a completion is tried again.
            return self._retrier.call(lambda: self._completion(self._post(request, params), messages, params))
        except UnicodeEncodeError as exc:
            raise not_utf8(exc) from None
