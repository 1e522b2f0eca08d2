"""A sentence its context states nearly word for word, with every value read confirmed, is supported.

A value read and confirmed counts as stated whatever its words ("cien grados" where the passage
writes "100 °C"): the passage gives that value in that slot, and the words around it decide.

The more passage text the model reads, the more it doubts what the passages support: a sentence copied
from a 2,000-word context ("Its main span is 1,280 metres long."), its value read and confirmed, was
still judged false at P(No) 0.49. What the model doubts, the words settle: when one sentence of the
passages holds nearly all of the item's content words and numbers and the values read from them are
the item's own, the item is supported whatever the length of the context. An added fact next to a
confirmed value ("... long and painted blue") lowers the share below the bar and stays the model's call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.records import Evidence, Verdict
from factjudge.text.unsupported import stated_share

# The share of an item's content words and numbers one passage sentence must hold. On RAGTruth's
# summary and data2txt answers (dev; `benchmarks/ragtruth_words.py` prints it), 7 of the 514 sentences
# at or above 0.9 hold a marked hallucination (1.4%; 0.3% at 0.95 but a third fewer sentences reached),
# against 6% of summary and 12% of data2txt sentences in all.
NEARLY_VERBATIM = 0.9


def stated_verbatim(verdict: Verdict, text: str, evidence: Sequence[Evidence],
                    lang: str | None = None) -> Verdict:
    """``verdict`` on ``text`` made true when ``evidence`` states it nearly word for word and every
    value read from it was confirmed; as it was otherwise."""
    values = verdict.grounds.values
    if verdict.label == "true" or not values or any(v.outcome != "confirmed" for v in values):
        return verdict
    # A confirmed value is stated, in the passage's own form ("cien grados" where it writes "100 °C"):
    # the share is of the other words.
    for value in values:
        text = text.replace(value.stated, " ", 1)
    share, sentence = stated_share(text, [ev.text for ev in evidence], lang)
    if share < NEARLY_VERBATIM:
        return verdict
    # Below the edge it was read against, in the order of the model's doubt (graded for ROC AUC).
    edge = verdict.grounds.true_below or 0.5
    score = None if verdict.error_score is None else round(verdict.error_score * edge, 6)
    grounds = dataclasses.replace(verdict.grounds, rule="verbatim",
                                  passage=sentence or verdict.grounds.passage)
    return dataclasses.replace(verdict, label="true", error_score=score, grounds=grounds, spans=())
