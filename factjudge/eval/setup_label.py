"""Set-up ids for people: ``granularity=segment,model=local,strategy=fact`` reads ``fact · segment · local``.

The id (``grid.setup_id``) stays the run's key in results and CSV files; only what a person
reads (report tables, plot legends, the report page's selector) goes through ``setup_label``.
"""

from __future__ import annotations

import re

import pandas as pd

ENSEMBLE = "ensemble of "
SEP = " · "
# The settings a set-up is mostly told apart by, first and in this order; the rest follow by name.
_FIRST = ("strategy", "granularity", "model")
# Booleans read as words: (when true, when false)
_FLAGS = {"grounded": ("only the context", "context and knowledge"), "use_refs": ("refs", "no refs"),
          "logprobs": ("logprobs", "no logprobs"), "use_cache": ("cache", "no cache")}
_TERM = re.compile(r"^[a-z_]+=")


def _terms(setup: str) -> dict[str, str] | None:
    """``key=value`` terms of an id, or None when ``setup`` is not one (a name given by hand)."""
    terms = setup.split(",")
    if not all(_TERM.match(t) for t in terms):
        return None
    return dict(t.split("=", 1) for t in terms)


def _planned(value: str) -> str:
    """``fact→fact/supported`` (asked fact; the planner ran fact on some items, supported on others)
    as ``fact → fact or supported``."""
    asked, arrow, ran = value.rpartition("→")
    ran = ran.replace("/", " or ")
    return f"{asked} → {ran}" if arrow else ran


def _parts(terms: dict[str, str]) -> dict[str, str]:
    """Each setting as it reads, keyed by setting, in reading order."""
    out: dict[str, str] = {}
    for key in (*_FIRST, *sorted(k for k in terms if k not in _FIRST)):
        if key not in terms:
            if key == "model":  # setup_id leaves the model out when none is called
                out[key] = "no model"
            continue
        value = terms[key]
        if key in _FLAGS and value in ("True", "False"):
            out[key] = _FLAGS[key][value == "False"]
        elif key in _FIRST:
            out[key] = _planned(value) if key != "model" else value
        elif value in ("True", "False"):
            out[key] = key.replace("_", " ") if value == "True" else "no " + key.replace("_", " ")
        else:
            out[key] = f"{key.replace('_', ' ')} {value}"
    return out


def setup_label(setup: str) -> str:
    """A set-up id as one readable line; a name that is not an id is returned as it is.

    An ensemble names its members by what tells them apart and says once what they share:
    ``ensemble of bm25 + token_f1 (segment · no model)``.
    """
    if setup.startswith(ENSEMBLE):
        members = [_terms(m) for m in setup[len(ENSEMBLE):].split(" + ")]
        if any(m is None for m in members):
            return setup
        parts = [_parts(m) for m in members if m is not None]
        shared = {k: v for k, v in parts[0].items() if all(p.get(k) == v for p in parts[1:])}
        own = [[v for k, v in p.items() if k not in shared] or ["?"] for p in parts]
        # Each member by as few of its own settings as tell it from the others (its strategy, mostly):
        # the rows above name each in full.
        for n in range(1, max(len(o) for o in own) + 1):
            names = [SEP.join(o[:n]) for o in own]
            if len(set(names)) == len(names):
                break
        common = f" ({SEP.join(shared.values())})" if shared else ""
        return ENSEMBLE + " + ".join(names) + common
    terms = _terms(setup)
    return setup if terms is None else SEP.join(_parts(terms).values())


def readable_setups(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its set-up ids (a ``setup`` index or column) as ``setup_label`` writes them."""
    if table.index.name == "setup":
        table = table.rename(index=lambda s: setup_label(str(s)))
    if "setup" in table.columns:
        table = table.assign(setup=[setup_label(str(s)) for s in table["setup"]])
    return table
