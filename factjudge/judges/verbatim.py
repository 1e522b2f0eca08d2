"""A sentence its context states nearly word for word, with every value read confirmed, is supported;
so is one whose words the whole context holds, with no value read contradicted; and, against gathered
evidence, one the model was unsure of whose every value was read as stated. Against gathered evidence, a
sentence naming the subject of the article read as what it describes ("El río más largo del mundo es el
Misisipi"), where that article does not give the name for it, is not supported, whatever the model said.

A value read and confirmed counts as stated whatever its words ("cien grados" where the passage
writes "100 °C"): the passage gives that value in that slot, and the words around it decide.

The more passage text the model reads, the more it doubts what the passages support: a sentence copied
from a 2,000-word context ("Its main span is 1,280 metres long."), its value read and confirmed, was
still judged false at P(No) 0.49. What the model doubts, the words settle: when one sentence of the
passages holds nearly all of the item's content words and numbers and the values read from them are
the item's own, the item is supported whatever the length of the context. An added fact next to a
confirmed value ("... long and painted blue") lowers the share below the bar and stays the model's call.

A context read in windows hides the rest of it from each reading: a sentence that joins facts of two
windows ("... nearly 1000 nuclear warheads by 2030") is doubted in each, though the context holds every
word of it. An addition brings words of its own (RAGTruth marks the added phrase): when the whole
context holds nearly every content word and number of the sentence, and no value read from it was
contradicted, what the model doubted is how the words were put together, and the sentence is supported.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from factjudge.grounds import ValueCheck
from factjudge.records import Evidence, Verdict
from factjudge.retrieval.wiki.names import Names, fold
from factjudge.text.contradiction import NAMED, tells_of_a_life
from factjudge.text.fold import says, words
from factjudge.text.unsupported import affirmed, context_share, stated_share

# The share of an item's content words and numbers one passage sentence must hold. On RAGTruth's
# summary and data2txt answers (dev; `benchmarks/ragtruth_words.py` prints it), 7 of the 514 sentences
# at or above 0.9 hold a marked hallucination (1.4%; 0.3% at 0.95 but a third fewer sentences reached),
# against 6% of summary and 12% of data2txt sentences in all.
NEARLY_VERBATIM = 0.9
# The share of a sentence's content words and numbers the whole context must hold (pooled) for the
# model's doubt to be overruled (None: never). On RAGTruth's summary answers (dev; `benchmarks/
# ragtruth_words.py`), 1,869 of 5,108 sentences reach 0.9 and 2.4% of them hold a marked hallucination
# (1,057 reach 1.0, 2.6% marked; 6.0% of all sentences are), 14% of the marked sentences. Of data2txt's
# 7,935 (11.8% marked), with records rendered in plain words (`eval/datasets/json_record.py`), 290
# reached it and 6.2% were marked, mostly an attribute the record denies ("offers outdoor seating" beside
# "outdoor seating: no"); counting only clauses that do not end in a denial (`affirmed`), 284 reach it
# and 3.2% are marked (summary: 1,868, the same 44 marked).
IN_CONTEXT: float | None = 0.9
# Words that negate what a sentence says (en/es/fr): a sentence holding one is not supported by its
# values ("Fleming did not discover penicillin in 1928" states two values the lead gives).
_NEGATIONS = frozenset("""not never no nor neither none cannot nunca jamás jamais ni ningún ninguna ne pas
aucun aucune""".split())  # noqa: SIM905


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


def stated_in_context(verdict: Verdict, text: str, context: Sequence[Evidence], contradicted: bool,
                      lang: str | None = None) -> Verdict:
    """``verdict`` on ``text``, false by the model's doubt, made true when the whole ``context`` holds
    nearly every content word and number of it (``IN_CONTEXT``) and no value read from it was
    ``contradicted``; as it was otherwise."""
    if verdict.label != "false" or contradicted or verdict.grounds.rule not in ("cut", "band", "word"):
        return verdict
    # Not the words of a denied attribute ("outdoor seating: no"): they are in the context, unstated.
    share = context_share(text, affirmed(text, [ev.text for ev in context]), lang)
    if IN_CONTEXT is None or share is None or share < IN_CONTEXT:
        return verdict
    edge = verdict.grounds.true_below or 0.5
    score = None if verdict.error_score is None else round(verdict.error_score * edge, 6)
    grounds = dataclasses.replace(verdict.grounds, rule="context_words")
    return dataclasses.replace(verdict, label="true", error_score=score, grounds=grounds, spans=())


def confirmed_by_values(verdict: Verdict, text: str) -> Verdict:
    """``verdict`` on ``text``, left unverified by the model's doubt against gathered passages, made true
    when every value it states was read from them as stated and one at least is not its subject ("Zola a
    vu le jour à Paris en 1840": Paris and 1840 read where the lead gives his birth), and it negates
    nothing; as it was otherwise."""
    values = verdict.grounds.values
    if verdict.label != "unverified" or verdict.grounds.rule not in ("band", "silent") or not values \
            or any(v.outcome != "confirmed" for v in values):
        return verdict
    words = set(re.findall(r"[^\W\d_]+", fold(text.replace("’", "'")).replace("n't", " not")))
    if words & _NEGATIONS or "n" in words:  # "n'est pas", "n'a jamais": the elided "ne"
        return verdict
    lead = Names.of(text).leading()
    if lead is not None and all(fold(v.stated) in fold(lead.name) or fold(lead.name) in fold(v.stated)
                                for v in values):
        return verdict
    edge = verdict.grounds.true_below or 0.5
    score = None if verdict.error_score is None else round(min(verdict.error_score, 1.0) * edge, 6)
    grounds = dataclasses.replace(verdict.grounds, rule="confirmed")
    return dataclasses.replace(verdict, label="true", error_score=score, grounds=grounds, spans=())


def answer_unread(verdict: Verdict, text: str) -> Verdict:
    """``verdict`` on ``text``, a true one made unverified when a name it states was read as not stated and is
    the subject of the article read, or is the place of a birth or a death no passage writes, or the
    passage names another value so too: the item says what that subject is ("El río más largo del mundo es
    el Misisipi"), and the subject's own lead, which would say it, does not (the judge had called "un largo
    río del centro de Estados Unidos" support); or the judge called support what never names the place
    ("Murió en Cuba" on "la Revolución cubana"); or the lead gives the slot two values ("Sa capitale
    administrative et politique est Rabat …, sa capitale économique, est Casablanca"), which leaves
    "La capitale du Maroc est Casablanca" open; or the stated place may lie inside the one read, which does
    not say it ("Fiji is located in Suva" on "in Oceania"; "El Orinoco es un río de Venezuela" on "de América
    del Sur que … discurre por Venezuela" says it); as it was otherwise."""
    title = next((ev.title for ev in verdict.evidence if ev.title), None)
    if verdict.label != "true" or verdict.grounds.rule not in ("band", "cut") or not title:
        return verdict
    titled = set(words(title))
    texts = [ev.text for ev in verdict.evidence]
    life = tells_of_a_life(text)
    if not any(v.excused == "named_too" or _narrower_unsaid(v) or (
            v.outcome == "not_stated" and v.excused is None and v.kind in NAMED and set(words(v.stated))
            and (set(words(v.stated)) <= titled
                 or (life and v.kind == "place" and not _written(v.stated, v.in_english, texts))))
               for v in verdict.grounds.values):
        return verdict
    grounds = dataclasses.replace(verdict.grounds, rule="silent")
    return dataclasses.replace(verdict, label="unverified", grounds=grounds, spans=())


def _narrower_unsaid(value: ValueCheck) -> bool:
    """Whether the stated place may lie inside the one read (``narrower``) and the sentence it was read from
    never writes the stated one."""
    return value.excused == "narrower" and not says(value.passage or "", value.stated)


def _written(name: str, in_english: str | None, texts: Sequence[str]) -> bool:
    """Whether a passage writes ``name``, or its English form where one was given."""
    return any(says(text, name) or (in_english is not None and says(text, in_english)) for text in texts)
