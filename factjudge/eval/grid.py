"""Benchmark grids: ``strategy=vanilla,cot granularity=segment,claim`` to a list of set-ups."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.judges.strategies import strategy_named

# Fields a grid may vary; the rest come from the base configuration.
_TYPES = {f.name: f.type for f in fields(CheckConfig)}
_INT_FIELDS = {"batch_size", "max_attempts", "evidence_tokens"}
_FLOAT_FIELDS = {"timeout", "deadline"}
_BOOL_FIELDS = {"logprobs"}


def _convert(key: str, value: str) -> Any:
    if key in _INT_FIELDS:
        if value in ("all", "none"):
            return None
        try:
            return int(value)
        except ValueError:
            raise InputError(f"grid value {key}={value!r} is not a whole number") from None
    if key in _FLOAT_FIELDS:
        try:
            return float(value)
        except ValueError:
            raise InputError(f"grid value {key}={value!r} is not a number") from None
    if key in _BOOL_FIELDS:
        return value.lower() in ("1", "true", "yes", "on")
    return value


def parse_grid(terms: Sequence[str]) -> dict[str, list[Any]]:
    """Parse ``key=v1,v2`` terms; unknown keys and empty values are input errors."""
    grid: dict[str, list[Any]] = {}
    for term in terms:
        key, sep, values = term.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not values.strip():
            raise InputError(f"grid term {term!r} is not of the form key=value1,value2")
        if key not in _TYPES or key in ("domain", "language"):
            raise InputError(f"grid key {key!r} is unknown; the dataset sets domain and language")
        grid[key] = [_convert(key, v.strip()) for v in values.split(",") if v.strip()]
    return grid


def expand(base: CheckConfig, grid: dict[str, list[Any]]) -> list[CheckConfig]:
    """Every combination of the grid's values applied to ``base`` (validated)."""
    keys = sorted(grid)
    combos = itertools.product(*(grid[k] for k in keys))
    return [base.replace(**dict(zip(keys, combo, strict=True))) for combo in combos]


def setup_id(config: CheckConfig, keys: Sequence[str]) -> str:
    """A stable, readable name for a set-up: the varied keys and the always-relevant ones."""
    shown = {"model", "strategy", "granularity", *keys}
    if not strategy_named(config.strategy_name()).uses_model and config.granularity == "segment":
        shown.discard("model")  # no model call is made: naming one would mislead
    named = {**{k: getattr(config, k) for k in shown}, "strategy": config.strategy_name()}
    return ",".join(f"{k}={named[k]}" for k in sorted(shown))
