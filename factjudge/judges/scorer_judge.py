"""Judges that need no model: a consistency score of each item against its evidence, and a threshold.

They share the Judge interface and the Verdict record with the LLM strategies, so the
same runner, result files and metrics serve both. A scorer gives a consistency score
in [0, 1]; the verdict's error score is its complement and the label uses a threshold.
"""

from __future__ import annotations

from collections.abc import Iterator

from factjudge.grounds import Grounds
from factjudge.judges.base import JudgeInput, Origin, deciding_sentence
from factjudge.judges.consistency import Scorer
from factjudge.records import Label, Verdict


class ScorerJudge:
    """Scores each item against its evidence (the shared context, then its own passages); no model call."""

    def __init__(self, name: str, scorer: Scorer, threshold: float = 0.5, *,
                 reads_evidence: bool = True) -> None:
        self.name = name
        self.scorer = scorer
        self.threshold = threshold
        self.reads_evidence = reads_evidence  # False: a constant floor, the same label whatever it reads

    def judge(self, job: JudgeInput) -> Iterator[Verdict]:
        """Label each item false when its consistency score falls below the threshold; unverified when
        there is no passage to score it against (no overlap with nothing is no finding)."""
        for item in job.items:
            evidence = job.evidence_for([item])
            if self.reads_evidence and not any(ev.text.strip() for ev in evidence):
                note = f"no passage was found for it: {self.name} had nothing to score it against"
                yield Origin(self.name, ()).verdict(item, "unverified", None,
                                                    Grounds("no_evidence", note=note))
                continue
            consistency = self.scorer("\n".join(ev.text for ev in evidence), item.text)
            label: Label = "false" if consistency < self.threshold else "true"
            cut = 1.0 - self.threshold
            grounds = Grounds("scorer", score=1.0 - consistency, true_below=cut, false_from=cut,
                              scorer=self.name, passage=deciding_sentence(evidence, item.text))
            yield Origin(self.name, evidence).verdict(item, label, 1.0 - consistency, grounds)
