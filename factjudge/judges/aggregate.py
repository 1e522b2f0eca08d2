"""From parts to a whole: the one rule by which the strictest part decides (FELM: an answer is false
when any part is; TRUE: the minimum over parts), and its mirror for the best-supporting window."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from factjudge.records import Label, Verdict

# How strongly a part's label speaks against the whole: a false part makes it false; one that could
# not be read leaves it unjudged; one the evidence left open leaves it open. Not checkable parts
# (opinions) do not count.
_SEVERITY: dict[str, int] = {"false": 4, "unparseable": 3, "unverified": 2, "true": 1, "not_checkable": 0}


def _severity(verdict: Verdict) -> tuple[int, float]:
    return _SEVERITY[verdict.label], verdict.error_score or 0.0


def strictest(verdicts: Sequence[Verdict]) -> int:
    """The index of the part that decides the whole: the most severe label, then the highest error score."""
    return max(range(len(verdicts)), key=lambda i: _severity(verdicts[i]))


def most_lenient(verdicts: Sequence[Verdict]) -> int:
    """The index of the best-supporting reading (of one part against several windows): the least
    severe label, then the lowest error score (SummaC's maximum over chunks)."""
    return min(range(len(verdicts)), key=lambda i: _severity(verdicts[i]))


def combine_labels(labels: Iterable[Label]) -> Label:
    """The strictest label of the parts that are checkable; not checkable when none is."""
    checked = [label for label in labels if label != "not_checkable"]
    if not checked:
        return "not_checkable"
    return max(checked, key=_SEVERITY.__getitem__)


def combine_error_scores(scores: Iterable[float | None]) -> float | None:
    """The largest error score: one wrong part makes the whole wrong (TRUE's strict min)."""
    known = [s for s in scores if s is not None]
    return max(known) if known else None


def supported_share(verdicts: Sequence[Verdict]) -> float | None:
    """Share of judged items labelled true (FActScore's unit score, before any penalty)."""
    judged = [v for v in verdicts if v.label in ("true", "false")]
    if not judged:
        return None
    return sum(v.label == "true" for v in judged) / len(judged)
