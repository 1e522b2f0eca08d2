"""A check reads its texts normalised (``text.normalize``) and reports on the text the user gave.

The question, the answer, the context's passages, the references' texts and given segments are
normalised once, before anything reads them (the segmenter, the subject finder, the judge), so
"Cаnada" with a Cyrillic а finds the article about Canada. The result speaks of the user's text:
its question and answer as given, and every offset into the answer (segments, error spans, the
values compared) mapped back through the normalisation, with the words read otherwise listed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from factjudge.checking.plan import Plan
from factjudge.grounds import Grounds
from factjudge.records import CheckResult, ErrorSpan, Segment, Verdict
from factjudge.text.normalize import Normalized, ReadAs, normalized


@dataclass(frozen=True)
class ReadPlan:
    """A plan whose texts are normalised, and the answer's normalisation to map its offsets back."""

    plan: Plan
    question: Normalized
    answer: Normalized
    read_as: tuple[ReadAs, ...]
    segments: tuple[str, ...] | None = None  # the segments given, as given


def read_plan(plan: Plan) -> ReadPlan:
    """``plan`` with its question, answer, passages, reference texts and segments normalised."""
    question, answer = normalized(plan.question, "question"), normalized(plan.answer, "answer")
    read_as = [*question.read_as, *answer.read_as]
    context = []
    for n, passage in enumerate(plan.context, start=1):
        text = normalized(passage.text, f"context {n}")
        read_as += text.read_as
        context.append(dataclasses.replace(passage, text=text.text) if text.changed else passage)
    ref_texts = []
    for n, ref in enumerate(plan.ref_texts, start=1):
        text = normalized(ref, f"reference {n}")
        read_as += text.read_as
        ref_texts.append(text.text)
    segments = None if plan.segments is None else tuple(normalized(s).text for s in plan.segments)
    read = dataclasses.replace(plan, question=question.text, answer=answer.text, context=tuple(context),
                               ref_texts=tuple(ref_texts), segments=segments)
    return ReadPlan(read, question, answer, tuple(read_as), plan.segments)


def restore(result: CheckResult, read: ReadPlan) -> CheckResult:
    """``result`` about the text the user gave: its question and answer, its offsets into that answer."""
    if not read.question.changed and not read.answer.changed and not read.read_as:
        return result
    answer = read.answer
    return dataclasses.replace(
        result, question=read.question.original, answer=answer.original,
        segments=tuple(_segment(s, answer, read.segments) for s in result.segments),
        segment_verdicts=tuple(_verdict(v, answer) for v in result.segment_verdicts),
        claim_verdicts=tuple(_verdict(v, answer) for v in result.claim_verdicts),
        read_as=read.read_as)


def _segment(segment: Segment, answer: Normalized, given: tuple[str, ...] | None) -> Segment:
    if not segment.located:  # a given segment not found in the answer keeps its text, as given
        return segment if given is None or not 0 < segment.id <= len(given) else \
            dataclasses.replace(segment, text=given[segment.id - 1].strip())
    if not answer.changed:
        return segment
    start, end = answer.original_span(segment.start, segment.end)
    return dataclasses.replace(segment, start=start, end=end, text=answer.original[start:end])


def _verdict(verdict: Verdict, answer: Normalized) -> Verdict:
    if not answer.changed:
        return verdict
    spans = tuple(_span(s, answer) for s in verdict.spans)
    values = []
    for value in verdict.grounds.values:
        if value.start >= 0:
            start, end = answer.original_span(value.start, value.end)
            value = dataclasses.replace(value, start=start, end=end, stated=answer.original[start:end])
        values.append(value)
    grounds: Grounds = dataclasses.replace(verdict.grounds, values=tuple(values))
    return dataclasses.replace(verdict, spans=spans, grounds=grounds)


def _span(span: ErrorSpan, answer: Normalized) -> ErrorSpan:
    if not span.located:
        return span
    start, end = answer.original_span(span.start, span.end)
    return dataclasses.replace(span, start=start, end=end, text=answer.original[start:end])

