"""Model specs (``local``, ``openai:MODEL``) to ChatModels, wrapped in the call cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.llm.cache import CachedChatModel


def _local(arg: str, base_url: str | None, api_key: str | None, timeout: float) -> ChatModel:
    """``local`` is the embedded Qwen judge, ``local:smollm2`` the 135M test model, else a GGUF path."""
    from factjudge.llm.local import LocalChatModel, smollm2_path
    from factjudge.llm.model_file import QWEN_1_5B, ensure_model_file, models_dir

    prefixes = models_dir() / "prefixes"
    if not arg:
        return LocalChatModel(ensure_model_file(QWEN_1_5B), name=LOCAL_DEFAULT, prefix_dir=prefixes)
    if arg == "smollm2":
        return LocalChatModel(smollm2_path(), name=SMOLLM2, prefix_dir=prefixes)
    return LocalChatModel(arg, prefix_dir=prefixes)  # check_model_spec saw the file


def _openai(arg: str, base_url: str | None, api_key: str | None, timeout: float) -> ChatModel:
    from factjudge.llm.openai_backend import OpenAIChatModel

    return OpenAIChatModel(arg, base_url=base_url, api_key=api_key, timeout=timeout)


LOCAL_DEFAULT = "local:qwen2.5-coder-1.5b-instruct-q4_k_m"
SMOLLM2 = "local:smollm2-135m"

# What human-facing output says about a model whose verdicts need a caveat (README, "Measured
# with the embedded model" holds the figures and the command that reproduces them).
MODEL_NOTES = {
    LOCAL_DEFAULT: (
        "Judged by Qwen2.5-Coder-1.5B-Instruct, the small model that runs offline. Measured: good at "
        "checking an answer against a given context (--context; ROC AUC 88-94 on three dialogue "
        "dev sets), worse than chance on world knowledge from its own belief (FELM), so without a context "
        "it checks against Wikipedia (--wiki) and says unverified where the passages are silent. For "
        "a stronger judge use --model openai:MODEL."
    ),
    SMOLLM2: "Judged by SmolLM2-135M, a test model: its verdicts mean nothing.",
}
# The note in one line, for the terminal (``check --verbose`` prints the whole note).
MODEL_HEADLINES = {
    LOCAL_DEFAULT: ("Judged offline by Qwen2.5-Coder-1.5B: reliable against a given context, and it checks "
                    "world knowledge against Wikipedia, not its own belief (--verbose: what was measured)."),
}


@dataclass(frozen=True)
class ModelInfo:
    """What factjudge knows of a model by its name: every entry point reads these facts here."""

    name: str
    local: bool  # runs in this process (llama.cpp): one call at a time, no key, no cost
    default_strategy: str  # what a check runs with it when no strategy is chosen
    note: str | None  # the caveat human-facing output shows (None for an endpoint's model)
    concurrency: int  # items bench checks at once with it by default
    logprobs: bool | None  # whether its replies carry log-probabilities (None: the endpoint decides)


def model_name(spec: str) -> str:
    """The name the model ``spec`` builds will carry, without building it."""
    kind, _, arg = spec.partition(":")
    if kind != "local":
        return spec
    if not arg:
        return LOCAL_DEFAULT
    return SMOLLM2 if arg == "smollm2" else f"local:{Path(arg).stem}"


def model_info(name: str) -> ModelInfo:
    """The facts about the model called ``name`` (a built model's name, or a spec such as ``local``).

    The embedded model follows one-decision prompts far better than FELM's list prompts
    (README, "Measured with the embedded model"), so it defaults to ``fact``; others to FELM's
    ``vanilla``. llama.cpp answers one call at a time: more workers only interleave prompts.
    """
    name = model_name(name) if name in ("local", "local:smollm2") else name
    local = name.partition(":")[0] == "local"
    note = MODEL_NOTES.get(name)
    if note is None and local:
        note = f"Judged by the local model {name[6:]}; factjudge has not measured its accuracy."
    return ModelInfo(name, local, "fact" if local else "vanilla", note, 1 if local else 4,
                     True if local else None)


def model_headline(name: str) -> str | None:
    """The model's caveat in one line, for people at a terminal (None: no caveat)."""
    return MODEL_HEADLINES.get(name) or model_note(name)


def model_note(name: str) -> str | None:
    """The caveat human-facing output shows for the model ``name`` (None for an endpoint's model)."""
    return model_info(name).note


BACKENDS: dict[str, Callable[[str, str | None, str | None, float], ChatModel]] = {
    "local": _local,
    "openai": _openai,
}


def check_model_spec(spec: str) -> None:
    """Refuse a model spec no backend can build, without building (or loading) it."""
    kind, _, arg = spec.partition(":")
    if kind not in BACKENDS:
        raise InputError(f"unknown model {spec!r}; use local, local:smollm2, local:PATH.gguf or openai:MODEL")
    if kind == "openai" and not arg:
        raise InputError("openai needs a model name: openai:MODEL, e.g. openai:gpt-4o-mini")
    if kind == "local" and arg not in ("", "smollm2") and not Path(arg).is_file():
        raise InputError(f"no GGUF model file at {arg}; use local, local:smollm2 or local:PATH.gguf")


def make_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 60.0,
    cache_path: str | Path | bool | None = None,
) -> ChatModel:
    """Build the model ``spec`` names; cached unless ``cache_path`` is False."""
    check_model_spec(spec)
    kind, _, arg = spec.partition(":")
    model = BACKENDS[kind](arg, base_url, api_key, timeout)
    if cache_path is False:
        return model
    return CachedChatModel(model, None if cache_path in (None, True) else cache_path)  # type: ignore[arg-type]
