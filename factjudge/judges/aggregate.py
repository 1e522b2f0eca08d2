"""From item verdicts to segment and response labels (FELM: false when any part is false)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from factjudge.records import Label, Verdict


def combine_labels(labels: Iterable[Label]) -> Label:
    """False if any part is false; unparseable if any part could not be judged; unverified if
    the evidence left any part open; else true.

    Parts that are not checkable (opinions, personal statements) do not count;
    when nothing is checkable the whole is not checkable.
    """
    checked = [label for label in labels if label != "not_checkable"]
    if not checked:
        return "not_checkable"
    if "false" in checked:
        return "false"
    if "unparseable" in checked:
        return "unparseable"
    if "unverified" in checked:
        return "unverified"
    return "true"


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
