"""Three outcomes from the evidence: supported, not supported, or not enough evidence to tell.

A passage that does not mention a fact is no evidence against it (FELM with its reference
texts: a Yes/No "supported?" judge called 25 of 26 true segments unsupported). So the judge's
graded doubt, P(No) to "do the passages support every fact of it?", gives three outcomes: below
a lower threshold the item is true, from an upper one false, and between them ``unverified``;
an item with no passage is ``unverified`` without a call. Asking the embedded model a second
question, whether the passages contradict the item, was measured and ranked the errors below the
true items (README, "World knowledge with evidence"), so one question is asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from factjudge.agents.calling import ask
from factjudge.judges.base import Item, JudgeInput, Origin, PromptedJudge, render_passages
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.prompts.contracts import DecisionContract
from factjudge.records import Evidence, Label, Trace, Verdict


@dataclass(frozen=True)
class Band:
    """Where P(not supported) turns into a label: true below ``true_below``, false from
    ``false_from``, unverified between (the two equal: no unverified band)."""

    true_below: float = 0.5
    false_from: float = 0.5

    def label(self, doubt: float) -> Label:
        """The label of an item the passages leave ``doubt`` = P(not supported) about."""
        if doubt < self.true_below:
            return "true"
        return "false" if doubt >= self.false_from else "unverified"


class EvidenceJudge(PromptedJudge):
    """Asks whether the passages support each item; labels it true, false or unverified."""

    def __init__(self, model: ChatModel, name: str, *, max_tokens: int,
                 bands: Mapping[str, Band] | None = None, max_attempts: int = 3,
                 logprobs: bool = True) -> None:
        super().__init__(model, name, prompt="judge_evidence_supported", max_tokens=max_tokens,
                         max_attempts=max_attempts, logprobs=logprobs)
        self.band = (bands or {}).get(model.name)  # None: the word the model chose, no band

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own passages (shared ones first)."""
        # No unsupported-word spans here (judges/base.with_unsupported_words): a false segment marks
        # its whole text, as the Mu-SHROOM figures in the README were measured.
        return [self.judge_one(item, job.evidence_for([item]), traces) for item in job.items]

    def judge_one(self, item: Item, evidence: tuple[Evidence, ...], traces: list[Trace]) -> Verdict:
        """One item's verdict, and its P(not supported) as the error score."""
        prompt = load_prompt(self.prompt)
        contract = prompt.contract_of(DecisionContract)
        if not evidence:
            return Origin(self.name, evidence, prompt.hash, traces).verdict(
                item, "unverified", None, "no passage was found for it: not enough evidence")
        values = {"passages": fence("passages", render_passages(evidence)),
                  "statement": fence("statement", item.text)}
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=contract.words)
        asked = ask(self.model, prompt, values, params, contract.parse, step="judge", traces=traces,
                    max_attempts=self.max_attempts)
        origin = Origin(self.name, evidence, prompt.hash, traces, asked.trace)
        if asked.value is None or asked.completion is None:
            return origin.verdict(item, "unparseable", None)
        doubt = contract.scores(asked.completion.logprobs)
        if doubt is None or self.band is None:
            label: Label = "true" if asked.value else "false"
            word = contract.yes if asked.value else contract.no
            return origin.verdict(item, label, doubt if doubt is not None else float(not asked.value),
                                  f"the model answered {word}: the passages "
                                  f"{'support' if asked.value else 'do not support'} it",
                                  cut=None if doubt is None else 0.5)
        label = self.band.label(doubt)
        why = {"true": "the passages support it",
               "false": "the passages do not support it",
               "unverified": "not enough evidence: the passages neither clearly support it nor clearly "
                             "fail to"}[label]
        return origin.verdict(item, label, doubt, f"{why} (P(not supported) {doubt:.2f}; true below "
                                                  f"{self.band.true_below:.2f}, false from "
                                                  f"{self.band.false_from:.2f})", cut=self.band.false_from)
