"""Judges that need no model: evidence-based scorers (TRUE's simple metrics) and constant floors.

They share the Judge interface and the Verdict record with the LLM strategies, so the
same runner, result files and metrics serve both. A scorer gives a consistency score
in [0, 1]; the verdict's error score is its complement and the label uses a threshold.
"""

from __future__ import annotations

from collections.abc import Callable

from factjudge.agents.judge import JudgeInput
from factjudge.eval import scorers
from factjudge.records import Label, Trace, Verdict

Scorer = Callable[[str, str], float]

SCORERS: dict[str, Scorer] = {
    "token_f1": scorers.token_f1,
    "bm25": scorers.bm25_score,
    "embedding": scorers.embedding_score,
    "always_true": lambda grounding, text: 1.0,
    "always_false": lambda grounding, text: 0.0,
}


class ScorerJudge:
    """Scores each item against the concatenated evidence; no model call, no trace."""

    def __init__(self, scorer: str, threshold: float = 0.5) -> None:
        self.scorer = SCORERS[scorer]
        self.threshold = threshold
        self.name = scorer

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Label each item false when its consistency score falls below the threshold."""
        grounding = "\n".join(ev.text for ev in job.evidence)
        verdicts = []
        for item in job.items:
            consistency = self.scorer(grounding, item.text)
            label: Label = "false" if consistency < self.threshold else "true"
            verdicts.append(Verdict(item.target, item.id, label, 1.0 - consistency, self.name,
                                    job.evidence, f"{self.name} consistency {consistency:.3f}"))
        return verdicts
