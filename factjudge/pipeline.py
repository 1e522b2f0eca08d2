"""The one code path behind the CLI, the Python API and the services: answer in, CheckResult out."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, version

from factjudge.agents.aggregate import combine_error_scores, combine_labels, supported_share
from factjudge.agents.extractor import NO_EXTRACTION_DOMAINS, extract_claims
from factjudge.agents.judge import PASSAGE_BLIND_STRATEGIES, SCORER_STRATEGIES, Item, JudgeInput, make_judge
from factjudge.config import MAX_ANSWER_CHARS, CheckConfig
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel
from factjudge.records import CheckResult, Claim, Evidence, Segment, Target, Trace, Usage, Verdict
from factjudge.retrieval.budget import trim_evidence
from factjudge.retrieval.evidence import reference_evidence
from factjudge.text.checkability import is_checkable
from factjudge.text.segmenter import segment


@cache
def package_version() -> str:
    """The installed factjudge version, recorded in every result."""
    try:
        return version("factjudge")
    except PackageNotFoundError:
        return "0+unknown"


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

    def item_evidence(self, items: Sequence[Item], traces: list[Trace]) -> dict[int, tuple[Evidence, ...]]:
        """Evidence per item from the configured sources (kb, web, llm), within the token budget."""
        cfg = self.config
        sources = [s for s in cfg.evidence if s != "links"]  # links come from the references
        if not sources or cfg.strategy in PASSAGE_BLIND_STRATEGIES:
            return {}
        from factjudge.retrieval.gather import gather_evidence
        from factjudge.retrieval.sources import knowledge_retriever, search_provider

        retriever = knowledge_retriever(cfg) if "kb" in sources else None
        provider = search_provider(cfg) if "web" in sources else None
        return {
            item.id: trim_evidence(
                gather_evidence(item.text, sources, model=self.model, traces=traces,
                                kb_retriever=retriever, search_provider=provider, k=cfg.k,
                                translate=cfg.translate or False, language=cfg.language),
                cfg.evidence_tokens)
            for item in items
        }

    def effective_strategy(self, refs: Sequence[str], evidence: Sequence[Evidence]) -> str:
        """FELM's fallback: link and doc without references are vanilla."""
        strategy = self.config.strategy
        if strategy == "link" and not refs:
            return "vanilla"
        if strategy == "doc" and not evidence:
            return "vanilla"
        if strategy == "grounded" and not evidence:
            raise InputError("the grounded strategy needs a context to judge the answer against")
        if strategy in SCORER_STRATEGIES and not evidence:
            raise InputError(f"the {strategy} judge scores against evidence: give a context or references")
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
        if cfg.strategy not in PASSAGE_BLIND_STRATEGIES and (refs or ref_texts):
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
        per_item = self.item_evidence(items, traces)
        strategy = self.effective_strategy(refs, [*evidence, *(e for ev in per_item.values() for e in ev)])
        judge = make_judge(self.model, strategy, batch_size=cfg.batch_size,
                           max_attempts=cfg.max_attempts, logprobs=cfg.logprobs)

        judged: dict[int, Verdict] = {}
        if items:
            job = JudgeInput(question, tuple(items), trim_evidence(evidence, cfg.evidence_tokens),
                             tuple(refs), answer, per_item, cfg.evidence_tokens)
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
            strategy=strategy,
            granularity=granularity,
            domain=cfg.domain,
            demo_model=self.model.demo and strategy not in SCORER_STRATEGIES,
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
