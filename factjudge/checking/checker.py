"""The one code path behind the CLI, the Python API, the services and bench: answer in, CheckResult out."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.agents.extractor import extract_claims
from factjudge.checking.context import Context
from factjudge.checking.gather import Gatherer
from factjudge.checking.plan import Plan, plan_check
from factjudge.config import CheckConfig, within_item_cap
from factjudge.judges.aggregate import combine_error_scores, combine_labels, supported_share
from factjudge.judges.base import Item, JudgeInput
from factjudge.llm.base import ChatModel
from factjudge.llm.deadline import call_budget, deadline
from factjudge.llm.registry import model_note
from factjudge.records import CheckResult, Claim, Evidence, Segment, Target, Trace, Usage, Verdict
from factjudge.retrieval.evidence import page_cache_dir, reference_evidence
from factjudge.retrieval.wiki.base import title_candidates
from factjudge.text.checkability import is_checkable
from factjudge.text.segmenter import segment
from factjudge.version import package_version


class Checker:
    """Checks answers with one model and one configuration; reusable across answers."""

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
        """Plan the check (``plan.plan_check``), then run it (``api.check`` and bench plan, then ``run``)."""
        return self.run(plan_check(self.config, question, answer, context=context, refs=refs,
                                   ref_texts=ref_texts, segments=segments,
                                   judge_all=judge_all, model_name=self.model.name))

    def run(self, plan: Plan) -> CheckResult:
        """Segment, extract, gather evidence, judge and aggregate one planned check, within its deadline."""
        with deadline(plan.config.deadline), call_budget(plan.config.max_calls):
            return self._run(plan)

    def _run(self, plan: Plan) -> CheckResult:
        cfg = plan.config
        traces: list[Trace] = []
        segs = segment(plan.answer, separator=cfg.separator,
                       segments=list(plan.segments) if plan.segments is not None else None)
        within_item_cap(len(segs), "segments", cfg.max_items)  # refused before any model call

        granularity = plan.granularity
        notes: list[str] = []
        claims: tuple[Claim, ...] = ()
        if granularity == "claim":
            extracted = extract_claims(self.model, plan.question, segs, domain=cfg.domain,
                                       language=cfg.language, traces=traces,
                                       max_attempts=cfg.max_attempts)
            if extracted is None:  # the failed extraction stays in the traces
                granularity = plan.if_extraction_fails
                notes.append(f"claims ran as {granularity}s: the claim extraction failed")
            else:
                claims = extracted

        evidence: list[Evidence] = list(plan.context)
        failures: list[str] = []
        if plan.read_refs:
            found, failures = reference_evidence(
                f"{plan.question}\n{plan.answer}", plan.refs, plan.ref_texts,
                allow_private=cfg.allow_private_links,
                cache_dir=page_cache_dir(cfg.cache) if cfg.use_cache else False)
            evidence += found
            traces += [Trace("fetch", "", "", (), "", error=failure) for failure in failures]
        items = _items(segs, claims, plan.judge_all)
        within_item_cap(len(items), "items", cfg.max_items)
        if plan.sources:
            gatherer = Gatherer.from_config(cfg, self.model, plan.sources, plan.wiki)
            topics = title_candidates([plan.question])
            items = [_gathered(gatherer, item, traces, topics) for item in items]
        strategy = plan.strategy_for(found_evidence=bool(evidence) or any(i.evidence for i in items))
        if strategy.name != plan.strategy.name:
            why = _no_passage(plan.refs, failures)
            notes.insert(0, f"{plan.strategy.name} ran as {strategy.name}: {why}")
        fallback = "; ".join(([plan.fallback] if plan.fallback else []) + notes) or None
        judge = strategy.judge(self.model, cfg)

        judged: dict[tuple[Target, int], Verdict] = {}
        if items:
            job = JudgeInput(plan.question, tuple(items), tuple(evidence), plan.refs, plan.answer,
                             cfg.evidence_tokens)
            judged = {(v.target, v.target_id): v for v in judge.judge(job, traces)}

        claim_verdicts = tuple(judged.get(("claim", c.id)) or _not_checkable("claim", c.id, judge.name)
                               for c in claims)
        # A segment judged whole (no claims) has its own verdict; the others combine their claims'.
        segment_verdicts = tuple(judged.get(("segment", s.id))
                                 or _from_claims(s, claims, claim_verdicts, judge.name) for s in segs)
        usage = sum((t.usage for t in traces), Usage())
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
            model=self.model.name if strategy.uses_model else "none",
            strategy=strategy.name,
            granularity=granularity,
            domain=cfg.domain,
            model_note=model_note(self.model.name) if strategy.uses_model else None,
            fallback=fallback,
            plan=plan.summary(),
            traces=tuple(traces),
            usage=usage,
            version=package_version(),
        )


def _gathered(gatherer: Gatherer, item: Item, traces: list[Trace], topics: Sequence[str]) -> Item:
    """``item`` with its own evidence, and a note when a source said it had none."""
    notes: list[str] = []
    evidence = gatherer.gather(item.text, traces, topics, notes)
    return dataclasses.replace(item, evidence=tuple(evidence), evidence_note="; ".join(notes) or None)


def _no_passage(refs: Sequence[str], failures: Sequence[str]) -> str:
    """Why no passage came from the references, for a result's ``fallback``."""
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


def _not_checkable(target: Target, target_id: int, judge: str,
                   why: str = "a personal statement or opinion, not a checkable fact") -> Verdict:
    return Verdict(target, target_id, "not_checkable", None, judge, rationale=why)


def _from_claims(
    seg: Segment, claims: Sequence[Claim], verdicts: Sequence[Verdict], judge: str
) -> Verdict:
    """A segment's verdict from its claims': false when any claim is false (not checkable without any)."""
    own = [v for c, v in zip(claims, verdicts, strict=False) if c.segment_id == seg.id]
    if not own:
        return _not_checkable("segment", seg.id, judge)
    evidence = own[0].evidence
    false_ids = [str(v.target_id) for v in own if v.label == "false"]
    rationale = f"claims {', '.join(false_ids)} false" if false_ids else ""
    return Verdict("segment", seg.id, combine_labels(v.label for v in own),
                   combine_error_scores(v.error_score for v in own), judge, evidence, rationale,
                   own[0].prompt_hash)
