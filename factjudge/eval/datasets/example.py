"""The ``Example`` record: one labelled answer or grounded text, the unit every loader returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from factjudge.records import Evidence

_TUPLE_FIELDS = ("segments", "segment_labels", "claims", "claim_labels", "refs", "ref_contents")


@dataclass(frozen=True)
class Example:
    """One labelled answer (or grounded text) with everything a judge and a metric need."""

    id: str
    question: str
    answer: str
    segments: tuple[str, ...] = ()
    segment_labels: tuple[bool | None, ...] = ()
    response_label: bool | None = None
    claims: tuple[str, ...] = ()
    claim_labels: tuple[bool | None, ...] = ()
    domain: str = ""
    language: str = "en"
    dataset: str = ""
    grounding: str = ""
    refs: tuple[str, ...] = ()
    ref_contents: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    soft_spans: tuple[tuple[int, int, float], ...] = ()
    # The grounding as the titled passages a judge reads apart (a JSON record's parts); empty: the
    # grounding is one passage. ``grounding`` still holds all of it, for scorers that read one text.
    passages: tuple[Evidence, ...] = ()
    # Left out of the hash so examples can sit in sets; still compared for equality.
    meta: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def has_gold(self) -> bool:
        """Whether a human labelled anything of it: the answer, a segment, a claim, or spans (Mu-SHROOM,
        whose answers with no span are labelled all correct)."""
        labels = (self.response_label, *self.segment_labels, *self.claim_labels)
        return any(label is not None for label in labels) or bool(self.spans or self.soft_spans) or (
            self.dataset == "mushroom")

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (tuples become lists)."""
        data = asdict(self)
        for key in (*_TUPLE_FIELDS, "spans", "soft_spans"):
            data[key] = [list(v) if isinstance(v, tuple) else v for v in data[key]]
        data["passages"] = [ev.to_dict() for ev in self.passages]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Example:
        """Rebuild from ``to_dict`` output, ignoring unknown keys."""
        names = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        for key in _TUPLE_FIELDS:
            if key in kwargs:
                kwargs[key] = tuple(kwargs[key] or ())
        kwargs["spans"] = tuple((int(s), int(e)) for s, e in kwargs.get("spans") or ())
        kwargs["soft_spans"] = tuple((int(s), int(e), float(p)) for s, e, p in kwargs.get("soft_spans") or ())
        # A table's passages may be plain strings: each one passage of the context.
        kwargs["passages"] = tuple(ev if isinstance(ev, Evidence) else Evidence("context", ev)
                                   if isinstance(ev, str) else Evidence.from_dict(dict(ev))
                                   for ev in kwargs.get("passages") or ())
        kwargs["meta"] = dict(kwargs.get("meta") or {})
        return cls(**kwargs)
