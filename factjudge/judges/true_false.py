"""Per-item decision judges: one call per item, a two-word verdict (True/False, Yes/No).

FActScore's judge asks True/False about each fact; the grounded judge asks whether the
passages support each item. The graded score is the probability of the negative word
at the decision position; where a model's scores are measured to lean one way, the
strategy's calibrated threshold (chosen on dev data) turns the score into the label.
"""

from __future__ import annotations

from functools import partial

from factjudge.agents.calling import ask
from factjudge.agents.parsing import parse_decision
from factjudge.judges.base import (
    JudgeInput,
    Origin,
    PromptedJudge,
    render_passages,
    with_unsupported_words,
)
from factjudge.judges.confidence import decision_error_score
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import Trace, Verdict


class TrueFalseJudge(PromptedJudge):
    """Asks the ``prompt`` template (placeholders ``passages`` and ``statement``) about each item alone."""

    def __init__(self, model: ChatModel, name: str, *, prompt: str, max_tokens: int,
                 words: tuple[str, str] = ("True", "False"), threshold: float | None = None,
                 max_attempts: int = 3, logprobs: bool = True, mark_unsupported: bool = False) -> None:
        super().__init__(model, name, prompt=prompt, max_tokens=max_tokens, max_attempts=max_attempts,
                         logprobs=logprobs)
        self.words = words
        self.threshold = threshold  # None: the label is the word the model chose
        # Judged by the passages alone: a false item's words they lack become its spans.
        self.mark_unsupported = mark_unsupported

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own."""
        prompt = load_prompt(self.prompt)
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=self.words)
        parse = partial(parse_decision, words=self.words)
        verdicts = []
        for item in job.items:
            evidence = job.evidence_for([item])
            values = {
                "passages": fence("passages", render_passages(evidence)),
                "statement": fence("statement", item.text),
            }
            asked = ask(self.model, prompt, values, params, parse, step="judge",
                        traces=traces, max_attempts=self.max_attempts)
            origin = Origin(self.name, evidence, prompt.hash, traces, asked.trace)
            if asked.value is None or asked.completion is None:
                verdicts.append(origin.verdict(item, "unparseable", None))
                continue
            graded = decision_error_score(asked.completion.logprobs, self.words)
            holds = asked.value
            rationale = ""
            if graded is not None and self.threshold is not None:
                holds = graded < self.threshold
                rationale = (f"P({self.words[1]}) {graded:.3f} against the calibrated threshold "
                             f"{self.threshold:.2f}: {'true' if holds else 'false'}")
            score = graded if graded is not None else float(not asked.value)
            verdict = origin.verdict(item, "true" if holds else "false", score, rationale)
            if self.mark_unsupported:
                verdict = with_unsupported_words(verdict, item, job.answer)
            verdicts.append(verdict)
        return verdicts
