"""Per-item decision judges: one call per item, a two-word verdict (True/False, Yes/No).

FActScore's judge asks True/False about each fact; the grounded judge asks whether the
passages support each item. The graded score is the probability of the negative word
at the decision position; where a model's scores are measured to lean one way, the
strategy's calibrated threshold (chosen on dev data) turns the score into the label. The two
words, their parser and their score reader are the template's decision contract
(``factjudge.prompts.contracts``).
"""

from __future__ import annotations

import dataclasses

from factjudge.agents.calling import ask
from factjudge.errors import InputError
from factjudge.judges.base import (
    Item,
    JudgeInput,
    Origin,
    PromptedJudge,
    render_passages,
    with_unsupported_words,
)
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.prompts.contracts import DecisionContract
from factjudge.records import Evidence, Trace, Verdict
from factjudge.text.segmenter import split_sentences


class TrueFalseJudge(PromptedJudge):
    """Asks the ``prompt`` template (placeholders ``passages`` and ``statement``) about each item alone.

    The two words are the template's contract's; ``words``, when given, must be the same.
    """

    def __init__(self, model: ChatModel, name: str, *, prompt: str, max_tokens: int,
                 words: tuple[str, str] | None = None, threshold: float | None = None,
                 max_attempts: int = 3, logprobs: bool = True, mark_unsupported: bool = False,
                 per_sentence: bool = False) -> None:
        super().__init__(model, name, prompt=prompt, max_tokens=max_tokens, max_attempts=max_attempts,
                         logprobs=logprobs)
        self.contract = load_prompt(prompt).contract_of(DecisionContract)
        if words is not None and words != self.contract.words:
            raise InputError(f"prompt {prompt} asks for {'/'.join(self.contract.words)}, "
                             f"not {'/'.join(words)}")
        self.threshold = threshold  # None: the label is the word the model chose
        # Judged by the passages alone: a false item's words they lack become its spans.
        self.mark_unsupported = mark_unsupported
        # A multi-sentence item is asked about sentence by sentence and is as false as its
        # strictest sentence (TRUE's minimum over parts): one unsupported sentence cannot hide.
        self.per_sentence = per_sentence

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own (sentence by sentence with ``per_sentence``)."""
        verdicts = []
        for item in job.items:
            evidence = job.evidence_for([item])
            parts = split_sentences(item.text) if self.per_sentence else []
            if len(parts) < 2:
                verdicts.append(self._judge_text(item, item.text, evidence, job.answer, traces))
                continue
            judged = [self._judge_text(item, part, evidence, job.answer, traces) for part in parts]
            if any(v.label == "unparseable" for v in judged):  # a part not judged: the item is not
                verdicts.append(next(v for v in judged if v.label == "unparseable"))
                continue
            worst = max(range(len(parts)), key=lambda i: judged[i].error_score or 0.0)
            strictest = judged[worst]
            verdicts.append(dataclasses.replace(strictest, rationale=(
                f"its strictest of {len(parts)} sentences, {parts[worst]!r}: {strictest.rationale}")))
        return verdicts

    def _judge_text(self, item: Item, text: str, evidence: tuple[Evidence, ...], answer: str,
                    traces: list[Trace]) -> Verdict:
        """The verdict on ``item`` from asking about ``text`` (the item, or one of its sentences)."""
        prompt, contract = load_prompt(self.prompt), self.contract
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=contract.words)
        values = {"passages": fence("passages", render_passages(evidence)),
                  "statement": fence("statement", text)}
        asked = ask(self.model, prompt, values, params, contract.parse, step="judge",
                    traces=traces, max_attempts=self.max_attempts)
        origin = Origin(self.name, evidence, prompt.hash, traces, asked.trace)
        if asked.value is None or asked.completion is None:
            return origin.verdict(item, "unparseable", None)
        graded = contract.scores(asked.completion.logprobs)
        holds = asked.value
        rationale = f"the model answered {contract.yes if asked.value else contract.no}"
        cut = None if graded is None else 0.5  # the word the model chose is the likelier one
        if graded is not None and self.threshold is not None:
            holds, cut = graded < self.threshold, self.threshold
            rationale = (f"P({contract.no}) {graded:.3f} against the calibrated threshold "
                         f"{self.threshold:.2f}: {'true' if holds else 'false'}")
        score = graded if graded is not None else float(not asked.value)
        verdict = origin.verdict(item, "true" if holds else "false", score, rationale, cut=cut)
        if self.mark_unsupported:
            verdict = with_unsupported_words(verdict, item, answer)
        return verdict
