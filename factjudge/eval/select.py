"""Which examples of a dataset a bench runs: ``--domain``, ``--language``, ``--per-*`` and ``--limit``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from factjudge.errors import InputError
from factjudge.eval.datasets import Example


def _first_per(examples: list[Example], key: str, n: int) -> list[Example]:
    """The first ``n`` examples of each value of ``key`` (domain, language), in dataset order."""
    counts: dict[str, int] = {}
    kept = []
    for example in examples:
        value = getattr(example, key)
        counts[value] = counts.get(value, 0) + 1
        if counts[value] <= n:
            kept.append(example)
    return kept


def filter_values(flag: str, given: str | Sequence[str] | None) -> list[str]:
    """``--domain wk,math`` and a repeated ``--domain`` as one list of values, each once, in order."""
    if given is None:
        return []
    items = [given] if isinstance(given, str) else list(given)
    values = list(dict.fromkeys(v.strip() for item in items for v in item.split(",") if v.strip()))
    if not values:
        raise InputError(f"{flag} needs a value, such as {flag} wk or {flag} wk,math")
    return values


def _only(examples: list[Example], key: str, values: Sequence[str], dataset: str) -> list[Example]:
    """The examples whose ``key`` is one of ``values``; a value the dataset lacks is an input error."""
    known = sorted({getattr(e, key) for e in examples})
    missing = [v for v in values if v not in known]
    if missing:
        raise InputError(f"{dataset} has no examples of {key} {', '.join(map(repr, missing))}; its {key}s: "
                         f"{', '.join(map(repr, known))}")
    return [e for e in examples if getattr(e, key) in values]


# The filters that choose a bench's examples (flags and ``select_examples`` arguments), in order.
SELECTION = ("domain", "language", "per_language", "per_domain", "limit")


def resumed_selection(given: Mapping[str, Any], manifest: Mapping[str, Any] | None) -> dict[str, Any]:
    """The filters a bench runs with: those given (``domain``/``language`` as lists), or, when a resumed
    run's command line gives none, the ones its manifest recorded."""
    selection = {key: given.get(key) for key in SELECTION}
    for key in ("domain", "language"):
        selection[key] = filter_values(f"--{key}", selection[key]) or None
    recorded = (manifest or {}).get("selection")
    if isinstance(recorded, Mapping) and all(value is None for value in selection.values()):
        return {key: recorded.get(key) for key in SELECTION}
    return selection


def select_examples(
    examples: Sequence[Example],
    dataset: str,
    *,
    domain: str | Sequence[str] | None = None,
    language: str | Sequence[str] | None = None,
    per_language: int | None = None,
    per_domain: int | None = None,
    limit: int | None = None,
) -> list[Example]:
    """The examples a bench runs, filtered in flag order; bad filters are refused before any run.

    ``domain`` and ``language`` take one value, a comma-separated list or a list of either.
    """
    for flag, value in (("--per-language", per_language), ("--per-domain", per_domain), ("--limit", limit)):
        if value is not None and value < 1:
            raise InputError(f"{flag} must be at least 1, not {value}")
    selected = list(examples)
    for key, given in (("domain", domain), ("language", language)):
        values = filter_values(f"--{key}", given)
        if values:
            selected = _only(selected, key, values, dataset)
    if per_language is not None:
        selected = _first_per(selected, "language", per_language)
    if per_domain is not None:
        selected = _first_per(selected, "domain", per_domain)
    if limit is not None:
        selected = selected[:limit]
    if not selected:
        raise InputError("no examples left to run after the filters")
    return selected
