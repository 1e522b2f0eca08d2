"""Why a verdict is what it is, kept as data: the rule that decided, what it read, and where.

A judge fills these fields; nothing here is prose for people (``explain`` words every text
from them: the terminal, JSON ``why`` and ``reason``, the report and the page). Keeping the
grounds as data lets each output say as much as it needs without parsing another's wording.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

# What decided a label:
#   word         the word the model chose (Yes/No, True/False), no calibrated cut
#   cut, band    a graded score against a cut (true below, false from the same edge) or a band
#                (true below one edge, false from the other, unverified between)
#   listed       a list judge named it wrong, or did not
#   scorer       a model-free scorer's consistency against its cut
#   values       a value read from the passages and compared with the one the item states
#   verbatim     one passage sentence states the item nearly word for word and every value read from
#                the passages is the item's own: supported, whatever the model's doubt
#   context_words  the whole context holds every content word and number of the item, and no value
#                read from it was contradicted: supported, whatever the model's doubt (it read one window)
#   confirmed    every value the item states was read from the passages as stated, none of them its
#                subject, and it negates nothing: supported where the model was unsure (gathered evidence)
#   claims       a segment, from the verdicts on its claims
#   no_evidence  nothing to read: not enough evidence
#   silent       the passages do not support it, but nothing in them says otherwise (no value they
#                contradict): not enough evidence, unless silence counts as false (``silence``)
#   not_checkable, unparseable, unjudged (the check stopped first), none (kept without grounds)
Rule = Literal["word", "cut", "band", "listed", "scorer", "values", "verbatim", "context_words", "confirmed",
               "claims",
               "no_evidence", "silent", "not_checkable", "unparseable", "unjudged", "none"]
Outcome = Literal["confirmed", "contradicted", "not_stated"]


@dataclass(frozen=True)
class ValueCheck:
    """One value of an item asked about: what the item states, what the passages say instead."""

    stated: str  # the value as the answer states it ("Toronto")
    # What sort of value: name, place, year, date, number, title; rank (a superlative ranked lower), record
    # (a country's currency or neighbour, by its record), maker (a work's, by its own lead).
    kind: str
    question: str  # what was asked of the passages
    read: str | None  # the value the model read from them; None when they do not say
    outcome: Outcome
    start: int = -1  # the stated value's offsets in the answer (-1: not located)
    end: int = -1
    passage: str | None = None  # the passage sentence the value was read from
    # Why a different value read contradicts nothing: own_subject, listed_together, place_within,
    # other_event, other_subject, other_language, old_style, no_person, unconfirmed, both_said, longer_form,
    # named_too, narrower, inside_a_name, no_nation, made_several, many_places, no_name, region, sea_and_land.
    excused: str | None = None
    # A contradiction confirmed before it is called: the item with the value read put in (``confirm``),
    # asked against the passage sentence, and the judge's doubt of it (P(No)); None when not asked.
    confirm: str | None = None
    confirm_doubt: float | None = None
    # The stated name as English writes it, asked of the model where the value was read in an English lead
    # and the answer is in another language ("Istanbul" for "Estambul"); None when not asked.
    in_english: str | None = None
    # The name read put in English, asked of the model where an English answer's value was read in another
    # language's passage ("Canberra" of "Camberra"); None when not asked.
    read_in_english: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Grounds:
    """What decided one verdict: the rule and everything it read."""

    rule: Rule = "none"
    score: float | None = None  # the graded doubt the rule read (P(No), a scorer's 1 − consistency)
    word: str | None = None  # the word the model chose
    true_below: float | None = None  # the edges of the cut or band the score was read against
    false_from: float | None = None
    calibrated: bool = False  # the edges were tuned on dev data for this model
    scorer: str | None = None  # the model-free scorer's name (rule "scorer")
    part: str | None = None  # the item's sentence that decided, when it was read sentence by sentence
    parts: int = 0  # sentences read as parts (0: the item was read whole)
    window: int | None = None  # the window of a long grounding the verdict rests on, from 0
    windows_read: int = 0  # the windows asked about (the ones sharing most words with the part)
    windows: int = 0  # the windows the grounding was laid out in (0: read whole)
    sentences_read: int = 0  # read in focus: the sentences of the grounding shown (0: not in focus)
    sentences: int = 0  # read in focus: the grounding's sentences
    passage: str | None = None  # the passage sentence the verdict rests on
    values: tuple[ValueCheck, ...] = ()  # values read and compared (rule "values", or read beside a score)
    false_claims: tuple[int, ...] = ()  # rule "claims": the claims judged false
    thought: str | None = None  # the judge's own reasoning, in its words (CoT's Thought)
    note: str | None = None  # why the check could not judge it (rule "unjudged", "no_evidence")

    @property
    def contradicted(self) -> tuple[ValueCheck, ...]:
        """The values the passages contradict."""
        return tuple(v for v in self.values if v.outcome == "contradicted")

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["values"] = [v.to_dict() for v in self.values]
        data["false_claims"] = list(self.false_claims)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Grounds:
        """Rebuild from ``to_dict`` output, ignoring keys this version does not know."""
        names = {f.name for f in fields(cls)}
        kept = {k: v for k, v in data.items() if k in names}
        value_names = {f.name for f in fields(ValueCheck)}
        kept["values"] = tuple(ValueCheck(**{k: v for k, v in value.items() if k in value_names})
                               for value in data.get("values", ()))
        kept["false_claims"] = tuple(data.get("false_claims", ()))
        return cls(**kept)
