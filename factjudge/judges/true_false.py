"""FActScore's judge: one True/False call per item, against that item's passages."""

from __future__ import annotations

from factjudge.agents.calling import ask
from factjudge.agents.parsing import parse_true_false
from factjudge.judges.base import JudgeInput, Origin, PromptedJudge, render_passages
from factjudge.judges.confidence import true_false_error_score
from factjudge.llm.base import GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import Trace, Verdict

TRUE_FALSE_GRAMMAR = 'root ::= "True" | "False"\n'


class TrueFalseJudge(PromptedJudge):
    """Asks the ``prompt`` template (placeholders ``passages`` and ``statement``) about each item alone."""

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own."""
        prompt = load_prompt(self.prompt)
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs,
                                  grammar=TRUE_FALSE_GRAMMAR)
        verdicts = []
        for item in job.items:
            evidence = job.evidence_for([item])
            values = {
                "passages": fence("passages", render_passages(evidence)),
                "statement": fence("statement", item.text),
            }
            asked = ask(self.model, prompt, values, params, parse_true_false, step="judge",
                        traces=traces, max_attempts=self.max_attempts)
            origin = Origin(self.name, evidence, prompt.hash, traces, asked.trace)
            if asked.value is None or asked.completion is None:
                verdicts.append(origin.verdict(item, "unparseable", None))
                continue
            graded = true_false_error_score(asked.completion.logprobs)
            score = graded if graded is not None else float(not asked.value)
            verdicts.append(origin.verdict(item, "true" if asked.value else "false", score))
        return verdicts
