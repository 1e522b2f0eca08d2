"""The nouns of factjudge: segments, claims, evidence, verdicts and check results.

All records are frozen dataclasses of plain data. ``to_dict``/``from_dict`` turn them into JSON
values and back; the JSON that the CLI, result files and the HTTP API write is ``explain``'s view
of a result: these values plus the words made from them (``why``, ``reason``) for readers.
What an answer's items are (``CheckResult.item_verdicts``) and which of its words are false
(``CheckResult.false_spans``) is decided here, once, for every reader of a result.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

from factjudge.grounds import Grounds
from factjudge.threshold import checked_threshold


@dataclass(frozen=True)
class ReadAs:
    """A word of the user's text read otherwise than written: ``written`` (at ``start:end`` of the
    ``where`` text) was read as ``read``, for the reasons in ``why`` ("cyrillic", "greek", "latin":
    a letter of that script folded; "invisible": a character that shows nothing removed;
    "compatibility": a letter's compatibility form, as full-width letters)."""

    where: str
    start: int
    end: int
    written: str
    read: str
    why: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)}, "why": list(self.why)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReadAs:
        """Rebuild from ``to_dict`` output."""
        names = {f.name for f in fields(cls)}
        return cls(**{**{k: v for k, v in data.items() if k in names}, "why": tuple(data.get("why") or ())})


# unverified: the evidence neither supports nor contradicts it (or there was none).
Label = Literal["true", "false", "unverified", "not_checkable", "unparseable"]
Target = Literal["segment", "claim"]

T = TypeVar("T")

# How near the edge that made its label an error score must lie for the label to be a close call.
UNCERTAIN_MARGIN = 0.1


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A record class's field names, found once (dataclasses.fields() on every call costs as much as
    the copy or the construction it serves: a report reads thousands of results)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """Build ``cls`` from a dict, ignoring keys this version does not know."""
    names = _field_names(cls)
    return cls(**{k: v for k, v in data.items() if k in names})


def shallow_fields(record: Any) -> dict[str, Any]:
    """Field name to value, shallow: ``dataclasses.asdict`` deep-copies, which costs more than the rest."""
    return {name: getattr(record, name) for name in _field_names(type(record))}


R = TypeVar("R", bound="_Plain")


class _Plain:
    """``to_dict``/``from_dict`` for records whose fields are all plain JSON values."""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return shallow_fields(self)

    @classmethod
    def from_dict(cls: type[R], data: dict[str, Any]) -> R:
        """Rebuild from ``to_dict`` output, ignoring keys this version does not know."""
        return _from_dict(cls, data)


@dataclass(frozen=True)
class Segment(_Plain):
    """A span of the answer (usually a sentence) with its character offsets; -1 when not ``located``."""

    id: int
    text: str
    start: int
    end: int
    located: bool = True

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Segment:
        """Rebuild from ``to_dict`` output; a record older than ``located`` tells it by its offsets."""
        return _from_dict(cls, {"located": data.get("start", -1) >= 0, **data})


@dataclass(frozen=True)
class Claim(_Plain):
    """An atomic factual claim extracted from one segment."""

    id: int
    segment_id: int
    text: str
    checkable: bool = True


@dataclass(frozen=True)
class Evidence(_Plain):
    """A passage the judge saw; ``verified`` is False for model-generated knowledge."""

    source: str
    text: str
    url: str | None = None
    title: str | None = None
    score: float | None = None
    verified: bool = True


@dataclass(frozen=True)
class ErrorSpan(_Plain):
    """Words of the answer a judge quoted as wrong (or, under ``supported``/``grounded`` without a
    quote, that no passage contains); offsets -1 when they were not found in the answer."""

    start: int
    end: int
    text: str
    probability: float | None = None
    located: bool = True


@dataclass(frozen=True)
class Usage(_Plain):
    """Token counts of one or more model calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    cached_calls: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.calls + other.calls,
            self.cached_calls + other.cached_calls,
            self.cost_usd + other.cost_usd,
        )


@dataclass(frozen=True)
class Trace:
    """One model call as the judge or extractor made it: prompt in, raw reply out."""

    step: str
    prompt_name: str
    prompt_hash: str
    messages: tuple[dict[str, str], ...]
    reply: str
    usage: Usage = field(default_factory=Usage)
    cached: bool = False
    attempt: int = 1
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        data = shallow_fields(self)
        data["messages"] = [dict(m) for m in self.messages]
        data["usage"] = self.usage.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trace:
        """Rebuild from ``to_dict`` output."""
        data = dict(data)
        data["messages"] = tuple(dict(m) for m in data.get("messages", ()))
        data["usage"] = Usage.from_dict(data.get("usage") or {})
        if "threshold" in data:
            data["threshold"] = checked_threshold(data["threshold"])
        return _from_dict(cls, data)


@dataclass(frozen=True)
class Verdict:
    """The judge's decision on one segment or claim.

    ``error_score`` is the graded belief that the item is false, in [0, 1]
    (None when unparseable or not checkable); ``grounds`` is what decided it, as data
    (``explain.why`` words it for people); ``trace`` indexes ``CheckResult.traces`` so the
    prompt and raw reply behind it can be found. ``evidence_note`` says, for people, why
    evidence asked for is missing (the model asked for knowledge replied UNKNOWN).
    """

    target: Target
    target_id: int
    label: Label
    error_score: float | None
    judge: str
    evidence: tuple[Evidence, ...] = ()
    grounds: Grounds = field(default_factory=Grounds)
    prompt_hash: str = ""
    raw_reply: str = ""
    trace: int | None = None
    spans: tuple[ErrorSpan, ...] = ()
    evidence_note: str | None = None

    @property
    def is_false(self) -> bool:
        """True when the judge labelled the item false."""
        return self.label == "false"

    @property
    def cut(self) -> float | None:
        """The error score from which the judge labels an item false (None when the label is not a cut
        of the score, as a list judge's)."""
        return self.grounds.false_from

    @property
    def deciding_edge(self) -> float | None:
        """The edge of the score that made the label: true below ``true_below``, false from ``false_from``."""
        if self.label == "true":
            return self.grounds.true_below
        return self.grounds.false_from if self.label == "false" else None

    @property
    def uncertain(self) -> bool:
        """Whether the error score lies so near the edge that made the label that it is a close call."""
        edge, score = self.deciding_edge, self.error_score
        graded = self.grounds.rule in ("word", "cut", "band", "scorer")
        return graded and edge is not None and score is not None and abs(score - edge) < UNCERTAIN_MARGIN

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the fields (``explain.verdict_dict`` adds the words for readers)."""
        data = shallow_fields(self)
        data["evidence"] = [e.to_dict() for e in self.evidence]
        data["spans"] = [s.to_dict() for s in self.spans]
        data["grounds"] = self.grounds.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        """Rebuild from ``to_dict`` output (a record written before grounds keeps its cut and rationale)."""
        data = dict(data)
        data["evidence"] = tuple(Evidence.from_dict(e) for e in data.get("evidence", ()))
        data["spans"] = tuple(ErrorSpan.from_dict(s) for s in data.get("spans", ()))
        if isinstance(data.get("grounds"), dict):
            data["grounds"] = Grounds.from_dict(data["grounds"])
        else:
            cut = data.get("cut")
            data["grounds"] = Grounds(rule="cut" if cut is not None else "none",
                                      score=data.get("error_score"), true_below=cut, false_from=cut,
                                      thought=data.get("rationale") or None)
        return _from_dict(cls, data)


@dataclass(frozen=True)
class Failure(_Plain):
    """A row of a batch (``Verifier.verify_many``) that could not be checked, and why."""

    index: int  # the row's position in the batch, from 0
    error: str  # one line a person can act on
    kind: str = "InputError"  # the factjudge error behind it (InputError, ModelError ...)


@dataclass(frozen=True)
class Planned(_Plain):
    """What the planner decided before a check ran: the strategy and granularity, and what runs if
    no passage is found (None: the check is refused) or the claim extraction fails."""

    strategy: str = ""
    granularity: str = ""
    if_no_evidence: str | None = None
    if_extraction_fails: str | None = None


@dataclass(frozen=True)
class Coverage(_Plain):
    """What the Wikipedia source of a check covered of its answer (retrieval/wiki/reading).

    ``items`` were read there; ``with_article`` of them in their subject's own article;
    ``searched`` by a search, the answer naming nothing; ``without`` are the subjects the
    source has no article about (their items are unverified).
    """

    source: str
    items: int
    with_article: int
    searched: int = 0
    without: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Coverage:
        """Rebuild from ``to_dict`` output."""
        return _from_dict(cls, {**data, "without": tuple(data.get("without") or ())})


@dataclass(frozen=True)
class CheckResult:
    """Everything one check decided about one answer, and how."""

    question: str
    answer: str
    segments: tuple[Segment, ...]
    claims: tuple[Claim, ...]
    segment_verdicts: tuple[Verdict, ...]
    claim_verdicts: tuple[Verdict, ...]
    label: Label
    score: float | None  # higher is better: share of judged items labelled true (None: none judged)
    error_score: float | None  # higher is worse: the largest item error score, P(some item is false)
    model: str
    strategy: str
    granularity: str
    domain: str
    model_note: str | None = None  # the caveat about the model that judged, for people
    fallbacks: tuple[str, ...] = ()  # why another strategy or granularity ran than the one asked for
    plan: Planned = field(default_factory=Planned)  # what the planner decided before the run
    traces: tuple[Trace, ...] = ()
    usage: Usage = field(default_factory=Usage)
    version: str = ""
    threshold: float = 0.5  # the share of checked items shown true ``successful`` asks for (Verifier)
    coverage: Coverage | None = None  # what the Wikipedia read had an article for (None: none read)
    read_as: tuple[ReadAs, ...] = ()  # words of the user's text read otherwise than written (ReadAs)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict of the fields (``explain.result_dict`` adds the figures and words
        a reader reads: faithfulness, success, the reason and each verdict's ``why``)."""
        return {
            "question": self.question,
            "answer": self.answer,
            "segments": [s.to_dict() for s in self.segments],
            "claims": [c.to_dict() for c in self.claims],
            "segment_verdicts": [v.to_dict() for v in self.segment_verdicts],
            "claim_verdicts": [v.to_dict() for v in self.claim_verdicts],
            "label": self.label,
            "score": self.score,
            "error_score": self.error_score,
            "model": self.model,
            "strategy": self.strategy,
            "granularity": self.granularity,
            "domain": self.domain,
            "model_note": self.model_note,
            "fallbacks": list(self.fallbacks),
            "plan": self.plan.to_dict(),
            "traces": [t.to_dict() for t in self.traces],
            "usage": self.usage.to_dict(),
            "version": self.version,
            "threshold": self.threshold,
            "coverage": None if self.coverage is None else self.coverage.to_dict(),
            "read_as": [r.to_dict() for r in self.read_as],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckResult:
        """Rebuild from ``to_dict`` output."""
        data = dict(data)
        data["segments"] = tuple(Segment.from_dict(s) for s in data.get("segments", ()))
        data["claims"] = tuple(Claim.from_dict(c) for c in data.get("claims", ()))
        for key in ("segment_verdicts", "claim_verdicts"):
            data[key] = tuple(Verdict.from_dict(v) for v in data.get(key, ()))
        data["traces"] = tuple(Trace.from_dict(t) for t in data.get("traces", ()))
        data["usage"] = Usage.from_dict(data.get("usage") or {})
        data["plan"] = Planned.from_dict(data.get("plan") or {})
        # A result written before ``fallbacks`` joined them into one string.
        old = data.pop("fallback", None)
        data["fallbacks"] = tuple(data.get("fallbacks") or ([old] if old else []))
        if "threshold" in data:
            data["threshold"] = checked_threshold(data["threshold"])
        data["coverage"] = Coverage.from_dict(data["coverage"]) if data.get("coverage") else None
        data["read_as"] = tuple(ReadAs.from_dict(r) for r in data.get("read_as") or ())
        return _from_dict(cls, data)

    @classmethod
    def from_json(cls, text: str) -> CheckResult:
        """Parse JSON text (``explain.result_json``'s, or ``to_dict``'s dumped)."""
        return cls.from_dict(json.loads(text))

    @property
    def spans(self) -> tuple[ErrorSpan, ...]:
        """The words of the answer the judge quoted as wrong, located, in answer order (``false_spans``)."""
        return tuple(span for span, _ in self.false_spans())

    def false_spans(self, *, whole_segments: bool = False) -> list[tuple[ErrorSpan, Verdict]]:
        """The answer's false words, in answer order, each once with the false item's verdict.

        The located quotes of every item judged false (``item_verdicts``). With ``whole_segments``,
        as span scores count them, a false item none of whose quotes is located marks its segment
        whole (the verdict is about the segment's words, so that is what it claims), at the item's
        error score.
        """
        segments = {s.id: s for s in self.segments}
        segment_of = {c.id: c.segment_id for c in self.claims}
        found: dict[tuple[int, int], tuple[ErrorSpan, Verdict]] = {}
        for _, verdict in self.item_verdicts():
            if not verdict.is_false:
                continue
            located = [s for s in verdict.spans if s.located]
            for span in located:
                found.setdefault((span.start, span.end), (span, verdict))
            seg = segments.get(verdict.target_id if verdict.target == "segment"
                               else segment_of.get(verdict.target_id, -1))
            if whole_segments and not located and seg is not None and seg.located:
                found.setdefault((seg.start, seg.end),
                                 (ErrorSpan(seg.start, seg.end, seg.text, verdict.error_score), verdict))
        return [found[key] for key in sorted(found)]

    @property
    def faithfulness(self) -> float | None:
        """Share of judged (true or false) items labelled true, higher is better; None when none was judged.

        The same figure as ``score`` (FActScore's unit score; Ragas' and DeepEval's faithfulness).
        """
        return self.score

    @property
    def successful(self) -> bool:
        """Whether the answer passes, one definition for Python, JSON and HTTP (``successful``).

        Never when an item is false (the answer is labelled false). An answer with nothing to check
        (only opinions or personal statements) passes: nothing in it is unsupported (its
        faithfulness is None). Otherwise the items shown true must reach ``threshold`` of the items
        checked, an unverified or unparseable item counting against it (it was not shown supported):
        1 true and 3 unverified items pass up to threshold 0.25, and no true item never passes.
        """
        labels = [verdict.label for _, verdict in self.item_verdicts()]
        if self.label == "false" or "false" in labels:
            return False
        checked = sum(label in ("true", "unverified", "unparseable") for label in labels)
        if not checked:
            return True
        true = labels.count("true")
        return true > 0 and true / checked >= self.threshold

    def is_successful(self) -> bool:
        """``successful``, as a call (the name metric frameworks use)."""
        return self.successful

    def item_verdicts(self) -> list[tuple[str, Verdict]]:
        """The answer's items, text and verdict, in answer order: each segment's claims, or the segment
        itself when it has none (judged whole, as when the extraction gave no claims).

        The one definition of an answer's items: faithfulness and success, FActScore in eval, the
        Verifier's unsupported items, the false spans and the reason all read these.
        """
        claim_verdicts = {v.target_id: v for v in self.claim_verdicts}
        pairs: list[tuple[str, Verdict]] = []
        for seg, verdict in zip(self.segments, self.segment_verdicts, strict=False):
            own = [(c.text, claim_verdicts[c.id]) for c in self.claims
                   if c.segment_id == seg.id and c.id in claim_verdicts]
            pairs += own or [(seg.text, verdict)]
        return pairs
