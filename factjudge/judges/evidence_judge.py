"""Three outcomes from the evidence: supported, contradicted, or not enough evidence.

A passage that does not mention a fact is no evidence against it (FELM with its reference
texts: a Yes/No "supported?" judge called 25 of 26 true segments unsupported). So an item
the passages do not support is asked a second question, whether they contradict it: only
then is it false. Neither supported nor contradicted, it is ``unverified``; with no passage
at all it is ``unverified`` without a call. Both questions are scored by log-probabilities
and, for a model measured on dev data, labelled by thresholds tuned there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from factjudge.agents.calling import Asked, ask
from factjudge.agents.parsing import parse_decision
from factjudge.judges.base import Item, JudgeInput, Origin, PromptedJudge, render_passages
from factjudge.judges.confidence import decision_error_score
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import Evidence, Trace, Verdict

YES_NO = ("Yes", "No")


@dataclass(frozen=True)
class Thresholds:
    """Where a model's scores turn into labels: P(No) to "supported?", P(Yes) to "contradicted?"."""

    unsupported: float = 0.5
    contradicted: float = 0.5


class EvidenceJudge(PromptedJudge):
    """Asks whether the passages support each item, and if not whether they contradict it."""

    def __init__(self, model: ChatModel, name: str, *, max_tokens: int,
                 thresholds: Mapping[str, Thresholds] | None = None, max_attempts: int = 3,
                 logprobs: bool = True) -> None:
        super().__init__(model, name, prompt="judge_evidence_supported", max_tokens=max_tokens,
                         max_attempts=max_attempts, logprobs=logprobs)
        self.thresholds = (thresholds or {}).get(model.name)  # None: the words the model chose

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own passages (shared ones first)."""
        return [self._judge_one(item, job.evidence_for([item]), traces) for item in job.items]

    def _ask(self, prompt_name: str, evidence: tuple[Evidence, ...], item: Item,
             traces: list[Trace]) -> tuple[Asked[bool], float | None]:
        """One Yes/No question about ``item``: the parsed answer and P(No) where log-probabilities tell."""
        values = {"passages": fence("passages", render_passages(evidence)),
                  "statement": fence("statement", item.text)}
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=YES_NO)
        asked = ask(self.model, load_prompt(prompt_name), values, params,
                    partial(parse_decision, words=YES_NO), step="judge", traces=traces,
                    max_attempts=self.max_attempts)
        p_no = decision_error_score(asked.completion.logprobs, YES_NO) if asked.completion else None
        return asked, p_no

    def _judge_one(self, item: Item, evidence: tuple[Evidence, ...], traces: list[Trace]) -> Verdict:
        prompt = load_prompt(self.prompt)
        if not evidence:
            return Origin(self.name, evidence, prompt.hash).verdict(
                item, "unverified", None, "no passage was found for it: not enough evidence")
        supported, p_unsupported = self._ask(self.prompt, evidence, item, traces)
        origin = Origin(self.name, evidence, prompt.hash, traces, supported.trace)
        if supported.value is None:
            return origin.verdict(item, "unparseable", None)
        cut = self.thresholds.unsupported if self.thresholds else None
        holds = supported.value if p_unsupported is None or cut is None else p_unsupported < cut
        said = _said("supported", p_unsupported, cut)
        if holds:
            return origin.verdict(item, "true", p_unsupported if p_unsupported is not None else 0.0,
                                  f"the passages support it ({said})")
        contradicted, p_no = self._ask("judge_evidence_contradicted", evidence, item, traces)
        origin = Origin(self.name, evidence, load_prompt("judge_evidence_contradicted").hash, traces,
                        contradicted.trace)
        if contradicted.value is None:
            return origin.verdict(item, "unparseable", None)
        p_yes = None if p_no is None else 1.0 - p_no
        cut = self.thresholds.contradicted if self.thresholds else None
        against = contradicted.value if p_yes is None or cut is None else p_yes >= cut
        # Graded as the chance it is false: unsupported and contradicted.
        score = (p_unsupported if p_unsupported is not None else 1.0) * \
            (p_yes if p_yes is not None else float(against))
        why = f"not supported ({said}); {_said('contradicted', p_yes, cut)}"
        if against:
            return origin.verdict(item, "false", score, f"the passages contradict it: {why}")
        return origin.verdict(item, "unverified", score, f"not enough evidence: {why}")


def _said(question: str, p: float | None, cut: float | None) -> str:
    """How one answer was read, for the rationale a person sees."""
    if p is None:
        return f"{question}: the model's word"
    if question == "supported":
        return f"P(not supported) {p:.2f}" + (f", threshold {cut:.2f}" if cut is not None else "")
    return f"P(contradicted) {p:.2f}" + (f", threshold {cut:.2f}" if cut is not None else "")
