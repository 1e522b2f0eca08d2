"""Set-up names: a set-up's settings as data, its id (the run's key) and the line a person reads.

A grid set-up is named once, from its configuration and plan (``grid.setup_name``), and its
settings are recorded in the run's manifest: results and CSV files key on the id
(``granularity=segment,model=local,strategy=fact``), tables and legends show the label
(``fact · segment · local``), and neither is ever parsed back into the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import pandas as pd

from factjudge.errors import InputError

ENSEMBLE = "ensemble of "
SEP = " · "
# The settings a set-up is mostly told apart by, first and in this order; the rest follow by name.
_FIRST = ("strategy", "granularity", "model")
# Booleans read as words: (when true, when false)
_FLAGS = {"grounded": ("only the context", "context and knowledge"), "use_refs": ("refs", "no refs"),
          "logprobs": ("logprobs", "no logprobs"), "use_cache": ("cache", "no cache")}


@dataclass(frozen=True)
class Planned:
    """A setting the planner decides per example: what was asked (None: the default) and what ran,
    most frequent first."""

    asked: str | None
    ran: tuple[str, ...] = ()

    def _said(self, ran: str, arrow: str) -> str:
        if self.asked is None or not self.ran:
            return ran or str(self.asked)
        return self.asked if self.ran == (self.asked,) else f"{self.asked}{arrow}{ran}"

    @property
    def term(self) -> str:
        """As an id writes it: ``fact``, ``fact/supported`` (nothing asked) or ``fact→fact/supported``."""
        return self._said("/".join(self.ran), "→")

    @property
    def words(self) -> str:
        """As a person reads it: ``fact``, ``fact or supported`` or ``fact → fact or supported``."""
        return self._said(" or ".join(self.ran), " → ")


Setting: TypeAlias = Planned | str | bool | int | float | tuple[str, ...] | None


def _term(value: Setting) -> str:
    """A setting as a grid term writes it: ``kb+llm`` for several sources."""
    if isinstance(value, Planned):
        return value.term
    return "+".join(value) if isinstance(value, tuple) else str(value)


@dataclass(frozen=True)
class SetupName:
    """A grid set-up's named settings, key → value (strategy and granularity as planned); a set-up
    that calls no model has no ``model``, as naming one would mislead."""

    settings: Mapping[str, Setting]

    @property
    def id(self) -> str:
        """The run's key for the set-up: ``key=value`` terms by key (runs resume by it: never reworded)."""
        return ",".join(f"{key}={_term(self.settings[key])}" for key in sorted(self.settings))

    def parts(self) -> dict[str, str]:
        """Each setting as it reads, keyed by setting, in reading order."""
        out: dict[str, str] = {}
        for key in (*_FIRST, *sorted(k for k in self.settings if k not in _FIRST)):
            if key not in self.settings:
                if key == "model":
                    out[key] = "no model"
                continue
            value, spaced = self.settings[key], key.replace("_", " ")
            if isinstance(value, Planned):
                out[key] = value.words
            elif isinstance(value, bool):
                out[key] = _FLAGS[key][not value] if key in _FLAGS else spaced if value else f"no {spaced}"
            elif key in _FIRST:
                out[key] = _term(value)
            else:
                out[key] = f"{spaced} {_term(value)}"
        return out

    @property
    def label(self) -> str:
        """The set-up as one readable line: ``fact → fact or supported · segment · local``."""
        return SEP.join(self.parts().values())

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON data: a planned one as ``{"asked": …, "ran": […]}``, sources as a list."""
        return {key: {"asked": value.asked, "ran": list(value.ran)} if isinstance(value, Planned)
                else list(value) if isinstance(value, tuple) else value
                for key, value in self.settings.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SetupName:
        """Read back what ``to_dict`` wrote."""
        return cls({key: Planned(value["asked"], tuple(value["ran"])) if isinstance(value, dict)
                    else tuple(value) if isinstance(value, list) else value
                    for key, value in data.items()})


def ensemble_id(members: Sequence[str]) -> str:
    """The key of an ensemble of the set-ups ``members`` (their ids)."""
    return ENSEMBLE + " + ".join(members)


def ensemble_label(members: Sequence[SetupName]) -> str:
    """An ensemble as one line: each member by what tells it apart, what they share said once,
    ``ensemble of bm25 + token_f1 (segment · no model)``."""
    parts = [m.parts() for m in members]
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


MANIFEST_KEY = "setup_names"


@dataclass(frozen=True)
class SetupLabels:
    """What a person reads for each set-up id: its recorded name's label, an ensemble's made from its
    members' names, and the id itself for a set-up named by hand or recorded before names were."""

    names: Mapping[str, SetupName] = field(default_factory=dict)
    ensembles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # id -> its members' ids

    @classmethod
    def recorded(cls, manifest: Mapping[str, Any]) -> SetupLabels:
        """The labels of a run's set-ups, from the names its manifest records."""
        try:
            return cls({setup: SetupName.from_dict(data)
                        for setup, data in (manifest.get(MANIFEST_KEY) or {}).items()})
        except (AttributeError, KeyError, TypeError) as exc:
            raise InputError(f"cannot read the set-up names a run recorded: {exc!r}") from None

    def with_ensembles(self, ensembles: Mapping[str, tuple[str, ...]]) -> SetupLabels:
        """These labels and those of ``ensembles`` (id -> its members' ids)."""
        return replace(self, ensembles={**self.ensembles, **ensembles})

    def __call__(self, setup: str) -> str:
        """The label of the set-up ``setup``."""
        members = self.ensembles.get(setup)
        if members is not None:
            named = [self.names.get(m) for m in members]
            return ensemble_label([n for n in named if n is not None]) if None not in named else setup
        name = self.names.get(setup)
        return setup if name is None else name.label

    def tables(self, table: pd.DataFrame) -> pd.DataFrame:
        """``table`` with its set-up ids (a ``setup`` index or column) as labels."""
        if table.index.name == "setup":
            table = table.rename(index=lambda s: self(str(s)))
        if "setup" in table.columns:
            table = table.assign(setup=[self(str(s)) for s in table["setup"]])
        return table
