"""Benchmark grids: ``strategy=vanilla,cot granularity=segment,claim`` to a list of set-ups."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Mapping, Sequence
from typing import Any, get_args, get_type_hints

from factjudge.config import CheckConfig, evidence_sources
from factjudge.errors import InputError
from factjudge.eval.setup_name import Planned, Setting, SetupName
from factjudge.judges.strategies import strategy_named

# The kinds of the fields a grid may vary (domain and language come from the dataset).
_KINDS = {name: {kind, *get_args(kind)} for name, kind in get_type_hints(CheckConfig).items()
          if name not in ("domain", "language")}
_BOOLS = {"true": True, "yes": True, "on": True, "1": True,
          "false": False, "no": False, "off": False, "0": False}


def _convert(key: str, value: str) -> Any:
    kinds = _KINDS[key]
    if type(None) in kinds and value in ("all", "none"):
        return None
    if bool in kinds:
        if value.lower() not in _BOOLS:
            raise InputError(f"grid value {key}={value!r} is not true or false")
        return _BOOLS[value.lower()]
    for kind, what in ((int, "a whole number"), (float, "a number")):
        if kind in kinds:
            try:
                return kind(value)
            except ValueError:
                raise InputError(f"grid value {key}={value!r} is not {what}") from None
    if key == "evidence":
        return evidence_sources(value.replace("+", ","))  # kb+llm: both sources in one set-up
    return value


def parse_grid(terms: Sequence[str]) -> dict[str, list[Any]]:
    """Parse ``key=v1,v2`` terms; unknown keys and empty values are input errors."""
    grid: dict[str, list[Any]] = {}
    for term in terms:
        key, sep, values = term.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not values.strip():
            raise InputError(f"grid term {term!r} is not of the form key=value1,value2")
        if key not in _KINDS:
            close = difflib.get_close_matches(key, list(_KINDS), n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            where = "the dataset sets domain and language; " if key in ("domain", "language") else ""
            raise InputError(f"grid key {key!r} is unknown; {hint}{where}the keys a grid may vary: "
                             f"{', '.join(sorted(_KINDS))}")
        if key in grid:
            raise InputError(f"grid key {key!r} is given twice; list its values once: {key}=V1,V2")
        grid[key] = [_convert(key, v.strip()) for v in values.split(",") if v.strip()]
    return grid


def expand(base: CheckConfig, grid: dict[str, list[Any]]) -> list[CheckConfig]:
    """Every combination of the grid's values applied to ``base`` (validated)."""
    keys = sorted(grid)
    combos = itertools.product(*(grid[k] for k in keys))
    return [base.replace(**dict(zip(keys, combo, strict=True))) for combo in combos]


def setup_name(config: CheckConfig, keys: Sequence[str],
               planned: Mapping[str, Sequence[str]] | None = None) -> SetupName:
    """A set-up's name, as data: the varied keys and the always-relevant ones (``SetupName``).

    ``planned``: the strategies and granularities the planner decided for the set-up's examples
    (most frequent first), so the name says what runs: a default strategy reads as the one the
    model and the data make it, a chosen one that is switched as ``fact→supported``.
    """
    planned = planned or {}
    strategies = planned.get("strategy") or [config.strategy_name()]
    named: dict[str, Setting] = {k: getattr(config, k) for k in {"model", "granularity", *keys}}
    named["strategy"] = Planned(config.strategy, tuple(strategies))
    named["granularity"] = Planned(config.granularity, tuple(planned.get("granularity") or ()))
    if not any(strategy_named(s).uses_model for s in strategies) and config.granularity == "segment":
        del named["model"]  # no model call is made: naming one would mislead
    return SetupName(named)
