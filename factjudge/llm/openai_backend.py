"""Any OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp's server)."""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import urlsplit

import openai

from factjudge.errors import InputError
from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob, not_utf8
from factjudge.llm.deadline import call_timeout
from factjudge.llm.retry import BadReply, Retrier, RetryPolicy

CHAT_PATH = "/chat/completions"
# Bytes of a reply body, beyond the text limit: log-probabilities take about 1 KB a token.
BODY_BYTES_PER_TOKEN = 2_000
MIN_BODY_BYTES = 4_000_000


def _check_base_url(base_url: str) -> None:
    """Refuse a base URL no request could reach, at once rather than after every retry."""
    try:
        parts = urlsplit(base_url)
        usable = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:  # a malformed IPv6 literal or port
        usable = False
    if not usable:
        raise InputError(f"base URL {base_url!r} is not an http(s) URL, e.g. http://localhost:8000/v1")


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
        if base_url is not None:
            _check_base_url(base_url)
        # Local servers (vLLM, llama.cpp, Ollama) take any key; the SDK insists on one.
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or ("not-needed" if base_url else None)
        self.model = model
        self.name = name or f"openai:{model}"
        self.timeout = timeout
        options: dict[str, Any] = {"base_url": base_url, "api_key": api_key, "timeout": timeout,
                                   "max_retries": 0}
        try:
            self._client = openai.OpenAI(**options)
        except openai.OpenAIError as exc:
            raise InputError(f"{self.name}: {exc}") from None
        # Part of the call cache key: the same model name on two endpoints is two models.
        self.endpoint = str(self._client.base_url).rstrip("/")
        self._retrier = Retrier(retry or RetryPolicy(), self.endpoint, timeout)

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
        if len(body) > max(MIN_BODY_BYTES, BODY_BYTES_PER_TOKEN * params.max_tokens):
            raise BadReply(f"sent a reply of {len(body):,} bytes for max_tokens={params.max_tokens}")
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

    # The SDK's generic ``post`` with ``cast_to=bytes`` keeps its auth, headers, timeouts and
    # typed errors but skips walking the request through its TypedDict transform and building
    # pydantic models of the reply: about a millisecond of CPU per call, which at high
    # concurrency is what stands between the endpoint and the next request.
    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """One chat completion, retried on transient failures."""
        request = self._request(messages, params)
        try:
            # Read inside the retried call, so a 200 that is not a completion is tried again.
            return self._retrier.call(lambda: self._completion(
                self._client.post(CHAT_PATH, body=request, cast_to=bytes,
                                  options={"timeout": call_timeout(self.timeout)}), messages, params))
        except UnicodeEncodeError as exc:
            raise not_utf8(exc) from None
