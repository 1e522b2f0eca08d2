"""The one code path behind the CLI, the Python API, the services and bench: a plan in, a CheckResult out.

The plan (``checking.plan``) has decided everything, fallbacks included; ``run`` executes its
fixed stages (segment → items → evidence → judge → aggregate) inside the check's scope: its
deadline, call budget, transcript and resources (``checking.session``). When the deadline passes
after some items were judged, the result keeps them and labels the rest unverified, saying they
were not judged; before any was, the check fails.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.agents.extractor import extract_claims
from factjudge.checking.context import Context
from factjudge.checking.gather import Gatherer
from factjudge.checking.normalized import read_plan, restore
from factjudge.checking.plan import Plan, plan_check
from factjudge.checking.session import Session, check_scope
from factjudge.config import CheckConfig, within_item_cap
from factjudge.errors import InputError
from factjudge.grounds import Grounds
from factjudge.judges.aggregate import combine_error_scores, combine_labels, strictest, supported_share
from factjudge.judges.base import Item, JudgeInput
from factjudge.llm.base import ChatModel
from factjudge.llm.deadline import DeadlinePassed
from factjudge.llm.registry import model_note
from factjudge.records import CheckResult, Claim, Coverage, Evidence, Segment, Target, Trace, Verdict
from factjudge.retrieval.evidence import page_cache_dir, reference_evidence
from factjudge.text.checkability import is_checkable
from factjudge.text.segmenter import segment
from factjudge.transcript import record
from factjudge.version import package_version


class Checker:
    """Plans checks with one configuration and runs them with one model; reusable across answers."""

    def __init__(self, config: CheckConfig, model: ChatModel) -> None:
        self.config = config
        self.model = model

    def check(
        self,
        question: str,
        answer: str,
        *,
        refs: Sequence[str] = (),
        ref_texts: Sequence[str] = (),
        context: Context | None = None,
        segments: Sequence[str] | None = None,
        judge_all: bool = False,
    ) -> CheckResult:
        """Plan the check with this checker's config (``plan.plan_check``), then ``run`` it."""
        return run(plan_check(self.config, question, answer, context=context, refs=refs,
                              ref_texts=ref_texts, segments=segments, judge_all=judge_all,
                              model_name=self.model.name), self.model)


def run(plan: Plan, model: ChatModel, session: Session | None = None) -> CheckResult:
    """Segment, extract, gather evidence, judge and aggregate one planned check, within its deadline,
    in ``session``'s scope (else the current holder's resources: ``session.check_scope``), on its texts
    normalised (``checking.normalized``); the result speaks of the texts as given."""
    read = read_plan(plan)
    return restore(_run(read.plan, model, session), read)


def _run(plan: Plan, model: ChatModel, session: Session | None) -> CheckResult:
    scope = session.check_scope(plan.config) if session is not None else check_scope(plan.config)
    with scope as transcript:
        cfg = plan.config
        segs = segment(plan.answer, separator=cfg.separator,
                       segments=list(plan.segments) if plan.segments is not None else None)
        within_item_cap(len(segs), "segments", cfg.max_items)  # refused before any model call
        fallbacks = [plan.fallback] if plan.fallback else []
        granularity = plan.granularity
        claims: tuple[Claim, ...] = ()
        if granularity == "claim":
            extracted = extract_claims(model, plan.question, segs, domain=cfg.domain,
                                       language=cfg.language, max_attempts=cfg.max_attempts)
            if extracted is None:  # the failed extraction stays in the transcript
                granularity = plan.if_extraction_fails
                fallbacks.append(f"claims ran as {granularity}s: the claim extraction failed")
            else:
                claims = extracted
        items = _items(segs, claims, plan.judge_all)
        within_item_cap(len(items), "items", cfg.max_items)
        evidence, failures = _shared_evidence(plan)
        items, read = _gathered(plan, model, items)
        try:
            strategy = plan.strategy_for(found_evidence=bool(evidence) or any(i.evidence for i in items))
        except InputError:  # it needs evidence: say why none came from what was given
            if not (plan.refs or plan.ref_texts or plan.sources):
                raise
            raise InputError(f"the {plan.strategy.name} strategy judges against evidence and found none: "
                             f"{_no_passage(plan.refs, failures)}") from None
        if strategy.name != plan.strategy.name:
            why = _no_passage(plan.refs, failures)
            fallbacks.insert(0, f"{plan.strategy.name} ran as {strategy.name}: {why}")
        judge = strategy.judge(model, cfg)
        judged: dict[tuple[Target, int], Verdict] = {}
        if items:
            job = JudgeInput(plan.question, tuple(items), tuple(evidence), plan.refs, plan.answer,
                             cfg.evidence_tokens, cfg.language)
            try:
                for verdict in judge.judge(job):
                    judged[verdict.target, verdict.target_id] = verdict
            except DeadlinePassed as exc:
                if not judged:  # nothing to show: the check failed
                    raise
                for item in items:  # what the deadline left: said, never guessed
                    judged.setdefault((item.target, item.id), _unjudged(item, judge.name, exc.kind))

    claim_verdicts = tuple(judged.get(("claim", c.id)) or _not_checkable("claim", c.id, judge.name)
                           for c in claims)
    # A segment judged whole (no claims) has its own verdict; the others combine their claims'.
    segment_verdicts = tuple(judged.get(("segment", s.id))
                             or _from_claims(s, claims, claim_verdicts, judge.name) for s in segs)
    return CheckResult(
        question=plan.question,
        answer=plan.answer,
        segments=tuple(segs),
        claims=claims,
        segment_verdicts=segment_verdicts,
        claim_verdicts=claim_verdicts,
        label=combine_labels(v.label for v in segment_verdicts),
        score=supported_share(tuple(judged.values())),
        error_score=combine_error_scores(v.error_score for v in segment_verdicts),
        model=model.name if strategy.uses_model else "none",
        strategy=strategy.name,
        granularity=granularity,
        domain=cfg.domain,
        model_note=model_note(model.name) if strategy.uses_model else None,
        fallbacks=tuple(fallbacks),
        plan=plan.summary(),
        traces=tuple(transcript.traces),
        usage=transcript.usage,
        version=package_version(),
        coverage=read,
    )


def _shared_evidence(plan: Plan) -> tuple[list[Evidence], list[str]]:
    """The caller's context and the references' passages, shared by every item; and the references
    that could not be fetched (each recorded in the transcript)."""
    evidence: list[Evidence] = list(plan.context)
    failures: list[str] = []
    if plan.read_refs:
        found, failures = reference_evidence(
            f"{plan.question}\n{plan.answer}", plan.refs, plan.ref_texts,
            allow_private=plan.config.allow_private_links,
            cache_dir=page_cache_dir(plan.config.cache) if plan.config.use_cache else False)
        evidence += found
        for failure in failures:
            record(Trace("fetch", "", "", (), "", error=failure))
    return evidence, failures


def _gathered(plan: Plan, model: ChatModel, items: list[Item]) -> tuple[list[Item], Coverage | None]:
    """Each item with its own evidence from the plan's sources, and a note when a source had none; and
    what the sources covered (Wikipedia: the items read in their subject's article)."""
    if not plan.sources:
        return items, None
    # Each item's evidence is read about what the answer is about, found once by the gatherer.
    gatherer = Gatherer.for_answer(plan.config, model, plan.question, plan.answer, plan.sources, plan.wiki)
    try:
        gathered = []
        for item in items:
            got = gatherer.gather(item.text)
            gathered.append(dataclasses.replace(item, evidence=got.evidence, evidence_note=got.note))
    finally:
        gatherer.close()
    return gathered, gatherer.coverage()


def _no_passage(refs: Sequence[str], failures: Sequence[str]) -> str:
    """Why no passage came from the references, for a result's ``fallbacks``."""
    if not failures:
        return "no passage was found"
    if len(failures) >= len(refs):
        return f"none of the {len(refs)} references could be fetched ({failures[0]})"
    return (f"{len(failures)} of the {len(refs)} references could not be fetched ({failures[0]}) "
            "and the others gave no passage")


def _items(segs: Sequence[Segment], claims: Sequence[Claim], judge_all: bool) -> list[Item]:
    """What the judge labels: each segment's checkable claims, or the segment itself when it has none.

    A segment left without claims (the extractor said "No claims", or none were asked for)
    is judged whole, so an error cannot hide behind a failed extraction.
    """
    items: list[Item] = []
    for seg in segs:
        own = [c for c in claims if c.segment_id == seg.id]
        if own:
            items += [Item("claim", c.id, c.text, seg.id, seg.start, seg.end)
                      for c in own if judge_all or c.checkable]
        elif judge_all or is_checkable(seg.text):
            items.append(Item("segment", seg.id, seg.text, seg.id, seg.start, seg.end))
    return items


def _unjudged(item: Item, judge: str, why: str) -> Verdict:
    """The verdict on an item the check stopped before: unverified, and why."""
    return Verdict(item.target, item.id, "unverified", None, judge, item.evidence,
                   Grounds("unjudged", note=why), evidence_note=item.evidence_note)


def _not_checkable(target: Target, target_id: int, judge: str) -> Verdict:
    return Verdict(target, target_id, "not_checkable", None, judge, grounds=Grounds("not_checkable"))


def _from_claims(
    seg: Segment, claims: Sequence[Claim], verdicts: Sequence[Verdict], judge: str
) -> Verdict:
    """A segment's verdict from its claims': as false as its strictest claim (not checkable without any)."""
    own = [v for c, v in zip(claims, verdicts, strict=False) if c.segment_id == seg.id]
    judged = [v for v in own if v.label != "not_checkable"]
    if not judged:
        return _not_checkable("segment", seg.id, judge)
    decides = judged[strictest(judged)]
    false_ids = tuple(v.target_id for v in own if v.label == "false")
    return Verdict("segment", seg.id, combine_labels(v.label for v in own),
                   combine_error_scores(v.error_score for v in own), judge, decides.evidence,
                   Grounds("claims", false_claims=false_ids, passage=decides.grounds.passage),
                   decides.prompt_hash)
