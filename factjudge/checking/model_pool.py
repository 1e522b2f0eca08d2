"""Chat models built from configs, each built once per pool and shared by the checks that name it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable

from factjudge.config import CheckConfig
from factjudge.llm.base import ChatModel
from factjudge.llm.registry import make_model


def build_model(config: CheckConfig) -> ChatModel:
    """The chat model a config names, behind the call cache unless the config turns it off."""
    return make_model(
        config.model,
        base_url=config.base_url,
        timeout=config.timeout,
        cache_path=config.cache if config.use_cache else False,
    )


def model_key(config: CheckConfig) -> Hashable:
    """The config fields ``build_model`` reads: configs that agree on them share one model."""
    return (config.model, config.base_url, config.timeout, config.cache, config.use_cache)


class ModelPool:
    """One model per ``model_key``, built on first use; thread-safe (the service and bench share it)."""

    def __init__(self, factory: Callable[[CheckConfig], ChatModel] | None = None) -> None:
        self._factory = factory
        self._models: dict[Hashable, ChatModel] = {}
        self._lock = threading.Lock()

    def get(self, config: CheckConfig) -> ChatModel:
        """The pool's model for ``config``."""
        key = model_key(config)
        with self._lock:  # loading a local model twice would double its memory
            if key not in self._models:
                self._models[key] = (self._factory or build_model)(config)
            return self._models[key]

    def close(self) -> None:
        """Close every model built (those with a ``close``: connections, a cache file, a loaded model)
        and forget them."""
        with self._lock:
            models, self._models = self._models, {}
        for model in models.values():
            close = getattr(model, "close", None)
            if callable(close):
                close()
