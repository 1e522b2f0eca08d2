"""The one code path behind the CLI, the Python API and the services: answer in, CheckResult out."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.agents.checkability import is_checkable
from factjudge.agents.extractor import NO_EXTRACTION_DOMAINS, extract_claims
from factjudge.agents.segmenter import segment
from factjudge.config import MAX_ANSWER_CHARS, CheckConfig
from factjudge.errors import InputError
from factjudge.gather import Gatherer
from factjudge.judges.aggregate import combine_error_scores, combine_labels, supported_share
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.strategies import Strategy, strategy_named
from factjudge.llm.base import ChatModel
from factjudge.records import CheckResult, Claim, Evidence, Segment, Target, Trace, Usage, Verdict
from factjudge.retrieval.evidence import reference_evidence
from factjudge.version import package_version


def validate_answer(answer: str) -> None:
    """Refuse answers that cannot be checked, with a message a person can act on."""
    if not answer or not answer.strip():
        raise InputError("the answer is empty: nothing to check")
    if len(answer) > MAX_ANSWER_CHARS:
        raise InputError(
            f"the answer has {len(answer):,} characters; the limit is {MAX_ANSWER_CHARS:,}"
        )


class Checker:
    """Checks answers with one model and one configuration; reusable across answers."""

    def __init__(self, config: CheckConfig, model: ChatModel) -> None:
        self.config = config
        self.model = model

    def item_evidence(self, items: Sequence[Item], traces: list[Trace]) -> list[Item]:
        """The items with their own evidence from the configured sources (kb, web, llm)."""
        cfg = self.config
        if not cfg.evidence or not strategy_named(cfg.strategy).reads_passages:
            return list(items)
        gatherer = Gatherer.from_config(cfg, self.model)
        return [dataclasses.replace(item, evidence=tuple(gatherer.gather(item.text, traces)))
                for item in items]

    def effective_strategy(self, refs: Sequence[str], evidence: Sequence[Evidence]) -> Strategy:
        """FELM's fallback: link and doc without references are vanilla."""
        strategy = strategy_named(self.config.strategy)
        if strategy.without_refs and not refs:
            return strategy_named(strategy.without_refs)
        if strategy.without_evidence and not evidence:
            return strategy_named(strategy.without_evidence)
        if strategy.needs_evidence and not evidence:
            raise InputError(f"the {strategy.name} strategy judges against evidence and has none: give "
                             "a context, references or an evidence source")
        return strategy

    def check(
        self,
        question: str,
        answer: str,
        *,
        refs: Sequence[str] = (),
        ref_texts: Sequence[str] = (),
        context: Sequence[Evidence] = (),
        segments: Sequence[str] | None = None,
        judge_all: bool = False,
    ) -> CheckResult:
        """Segment, extract, gather evidence, judge and aggregate one answer.

        ``judge_all`` judges personal statements too: in the TRUE setting a human label
        says whether the whole text is supported by its grounding, chit-chat included.
        """
        validate_answer(answer)
        cfg = self.config
        traces: list[Trace] = []
        segs = segment(answer, separator=cfg.separator,
                       segments=list(segments) if segments is not None else None)

        granularity = cfg.granularity
        claims: tuple[Claim, ...] = ()
        if granularity == "claim" and cfg.domain in NO_EXTRACTION_DOMAINS:
            granularity = "segment"
        if granularity == "claim":
            extracted = extract_claims(self.model, question, segs, domain=cfg.domain,
                                       language=cfg.language, traces=traces,
                                       max_attempts=cfg.max_attempts)
            if extracted is None:
                granularity = "segment"  # the failed extraction stays in the traces
            else:
                claims = extracted

        evidence = list(context)
        if strategy_named(cfg.strategy).reads_passages and (refs or ref_texts):
            found, failures = reference_evidence(
                f"{question}\n{answer}", refs, ref_texts, allow_private=cfg.allow_private_links
            )
            evidence += found
            traces += [Trace("fetch", "", "", (), "", error=failure) for failure in failures]
        if granularity == "claim":
            where = {s.id: (s.start, s.end) for s in segs}
            items = [Item("claim", c.id, c.text, c.segment_id, *where[c.segment_id])
                     for c in claims if judge_all or c.checkable]
        else:
            items = [Item("segment", s.id, s.text, s.id, s.start, s.end)
                     for s in segs if judge_all or is_checkable(s.text)]
        items = self.item_evidence(items, traces)
        strategy = self.effective_strategy(refs, [*evidence, *(e for item in items for e in item.evidence)])
        judge = strategy.judge(self.model, cfg)

        judged: dict[int, Verdict] = {}
        if items:
            job = JudgeInput(question, tuple(items), tuple(evidence), tuple(refs), answer,
                             cfg.evidence_tokens)
            judged = {v.target_id: v for v in judge.judge(job, traces)}

        if granularity == "claim":
            claim_verdicts = tuple(judged.get(c.id) or _not_checkable("claim", c.id, judge.name)
                                   for c in claims)
            segment_verdicts = tuple(_from_claims(s, claims, claim_verdicts, judge.name) for s in segs)
        else:
            claim_verdicts = ()
            segment_verdicts = tuple(judged.get(s.id) or _not_checkable("segment", s.id, judge.name)
                                     for s in segs)

        item_verdicts = claim_verdicts or segment_verdicts
        usage = sum((t.usage for t in traces), Usage())
        return CheckResult(
            question=question,
            answer=answer,
            segments=tuple(segs),
            claims=claims,
            segment_verdicts=segment_verdicts,
            claim_verdicts=claim_verdicts,
            label=combine_labels(v.label for v in segment_verdicts),
            score=supported_share(item_verdicts),
            error_score=combine_error_scores(v.error_score for v in segment_verdicts),
            model=self.model.name,
            strategy=strategy.name,
            granularity=granularity,
            domain=cfg.domain,
            demo_model=self.model.demo and strategy.uses_model,
            traces=tuple(traces),
            usage=usage,
            version=package_version(),
        )


def _not_checkable(target: Target, target_id: int, judge: str,
                   why: str = "a personal statement or opinion, not a checkable fact") -> Verdict:
    return Verdict(target, target_id, "not_checkable", None, judge, rationale=why)


def _from_claims(
    seg: Segment, claims: Sequence[Claim], verdicts: Sequence[Verdict], judge: str
) -> Verdict:
    """A segment's verdict from its claims': false when any claim is false."""
    own = [v for c, v in zip(claims, verdicts, strict=False) if c.segment_id == seg.id]
    if not own:
        return _not_checkable("segment", seg.id, judge, "no factual claim was extracted from it")
    evidence = own[0].evidence
    false_ids = [str(v.target_id) for v in own if v.label == "false"]
    rationale = f"claims {', '.join(false_ids)} false" if false_ids else ""
    return Verdict("segment", seg.id, combine_labels(v.label for v in own),
                   combine_error_scores(v.error_score for v in own), judge, evidence, rationale,
                   own[0].prompt_hash)
