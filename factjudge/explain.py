"""Every text that explains a verdict, made here and only here, from the verdict's grounds; and the
JSON view of a result, which carries these words beside the records' data.

The terminal, JSON's ``why`` and ``reason``, the HTML report and the web page all show these
strings; none of them words a verdict itself, and nothing parses these strings back. The records
(``records.py``) are data only: what is written as JSON is ``result_dict``/``result_json`` here.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from factjudge.grounds import Grounds, ValueCheck
from factjudge.records import CheckResult, Coverage, Evidence, ReadAs, Verdict

_MAX_LISTED = 3
_MAX_QUOTE = 120


def quote(text: str, limit: int = _MAX_QUOTE, marks: str = "“”") -> str:
    """``text`` on one line between ``marks``, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return f"{marks[0]}{text if len(text) <= limit else text[: limit - 1].rstrip() + '…'}{marks[-1]}"


def _read_from(evidence: Sequence[Evidence], singular: bool = False) -> str:
    """What the verdict read, as a reader calls it: the context, or the passage(s)."""
    if evidence and all(ev.source == "context" for ev in evidence):
        return "the context"
    return "the passage" if singular or len(evidence) == 1 else "the passages"


def _values_words(grounds: Grounds, evidence: Sequence[Evidence]) -> str:
    """The comparison that decided: what the passage says against what the answer says."""
    where = _read_from(evidence, singular=True)
    wrong = grounds.contradicted
    if wrong:
        first = wrong[0]
        words = f"{where} says {_read(first)}; the answer says {_stated(first)}"
        if len(wrong) > 1:
            words += f" (and {len(wrong) - 1} more value{'s' if len(wrong) > 2 else ''} differ)"
        return f"{words}; asked {quote(first.question, 100)}" if first.question else words
    confirmed = [v.stated for v in grounds.values if v.outcome == "confirmed"]
    says = "says" if where != "the passages" else "say"
    return f"{where} {says} {_and(confirmed)}, as the answer does"


def _read(value: ValueCheck) -> str:
    """The value as the passage gives it, with the English name it was compared by where that differs."""
    return _with_english(str(value.read), value.read_in_english)


def _stated(value: ValueCheck) -> str:
    """The value as the answer states it, with the English name it was compared by where that differs."""
    return _with_english(value.stated, value.in_english)


def _with_english(name: str, english: str | None) -> str:
    """``name``, with ``english`` after it where that is another spelling ("Estambul (Istanbul in
    English)")."""
    return f"{name} ({english} in English)" if english and english.lower() != name.lower() else name


def _verb(verb: str, plural: bool) -> str:
    """``verb`` agreeing with its subject: "support" / "supports", "do" / "does"."""
    if plural:
        return verb
    return f"{verb}es" if verb.endswith("o") else f"{verb}s"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def why(verdict: Verdict) -> str:
    """The rule that made the label, in plain words (one line; "" when there is nothing to say)."""
    g, label, evidence = verdict.grounds, verdict.label, verdict.evidence
    where = _read_from(evidence)
    plural = where == "the passages"
    if label == "not_checkable":
        return "a personal statement or opinion, not a checkable fact"
    if label == "unparseable":
        reply = verdict.raw_reply.strip()
        return (f"the model's reply could not be read as a verdict: {quote(reply, 200)}" if reply
                else "the model's reply could not be read as a verdict")
    if g.rule == "unjudged":
        return f"not judged: {g.note}" if g.note else "not judged"
    if g.rule == "no_evidence":
        return g.note or "no passage was found for it: not enough evidence"
    if g.rule == "values" and g.values:
        return _values_words(g, evidence)
    if g.rule == "verbatim":
        return f"{where} {_verb('state', plural)} it nearly word for word; {_values_words(g, evidence)}"
    if g.rule == "context_words":
        return f"{where} {_verb('hold', plural)} every word and number of it, and no value read differs"
    if g.rule == "confirmed":
        return _values_words(g, evidence)
    if g.rule == "silent":
        return (f"not enough evidence: {where} {_verb('do', plural)} not state it, and nothing in "
                f"{'them' if plural else 'it'} says otherwise")
    if g.rule in ("cut", "band"):
        if label == "unverified":
            return (f"not enough evidence: {where} neither clearly {_verb('support', plural)} it nor "
                    f"clearly {_verb('fail', plural)} to")
        if label == "true":
            return f"{where} {_verb('support', plural)} it"
        return f"{where} {_verb('do', plural)} not support it"
    if g.rule == "word":
        return f"the model answered {g.word}" if g.word else ""
    if g.rule == "scorer":
        consistency = None if g.score is None else 1.0 - g.score
        cut = None if g.false_from is None else 1.0 - g.false_from
        if consistency is None or cut is None:
            return f"{g.scorer} consistency"
        return (f"{g.scorer} consistency {consistency:.2f}, "
                f"{'below' if label == 'false' else 'at or above'} the cut {cut:.2f}")
    if g.rule == "listed":
        listed = "the judge listed it as wrong" if label == "false" else "the judge did not list it as wrong"
        return f"{listed}: {g.thought}" if g.thought else listed
    if g.rule == "claims":
        ids = [str(i) for i in g.false_claims]
        if not ids:
            return ""
        many = len(ids) > 1
        return f"claim{'s' if many else ''} {', '.join(ids)} of it {'are' if many else 'is'} false"
    if g.thought:
        return g.thought
    reply = verdict.raw_reply.strip()
    return f"the model replied {quote(reply, 200)}" if reply else ""


def score_note(verdict: Verdict) -> str:
    """The error score and the edges it was read against, for people ("" when there is no score)."""
    g, score = verdict.grounds, verdict.error_score
    if score is None:
        return ""
    edges = ""
    if g.rule in ("values", "verbatim", "context_words", "confirmed"):  # the words decided, not the edges
        edges = ""
    elif g.true_below is not None and g.false_from is not None and g.true_below != g.false_from:
        edges = f"; true below {g.true_below:.2f}, false from {g.false_from:.2f}"
    elif g.false_from is not None:
        edges = f"; false from {g.false_from:.2f}"
    close = ", a close call" if verdict.uncertain else ""
    return f"error score {score:.2f}{close}{edges}"


def reading(verdict: Verdict) -> str:
    """How the item was read, when in parts: its deciding sentence and the window it rests on."""
    g = verdict.grounds
    pieces = []
    if g.part is not None and g.parts > 1:
        pieces.append(f"decided by its sentence {quote(g.part, 80)} (the strictest of {g.parts})")
    if g.sentences_read:
        pieces.append(f"read against the {g.sentences_read} of the context's {g.sentences} sentences that "
                      "bear on it most")
    if g.windows > 1 and g.window is not None:
        read = ("the first to support it, of the windows sharing most words with it read in turn"
                if verdict.label == "true" else
                f"the best-supporting of the {g.windows_read} sharing most words with it")
        pieces.append(f"read against window {g.window + 1} of the {g.windows} the context was laid out in "
                      f"({read})")
    return "; ".join(pieces)


def checks(verdict: Verdict) -> list[str]:
    """Each value asked about, with what was asked and what the passages said."""
    lines = []
    for value in verdict.grounds.values:
        said = {"confirmed": f"confirmed: {value.read}", "contradicted": f"the passage says {_read(value)}",
                "not_stated": "the passages do not say"}[value.outcome]
        if value.excused:  # a different value read that contradicts nothing, and why
            doubt = f" (P(No) {value.confirm_doubt:.2f})" if value.confirm_doubt is not None else ""
            said = f"read {value.read}, no contradiction: " + {
                "own_subject": "it is what the sentence is about",
                "listed_together": f"the passage lists {value.stated} beside it",
                "place_within": "one place lies inside the other",
                "other_event": "the passage sentence dates something else",
                "other_subject": "the passage sentence is of something else",
                "other_language": f"the passage is in another language and never writes {value.stated}",
                "old_style": "a birth or a death before 1752 is dated Old Style or New Style, a year apart",
                "no_person": f"{value.stated} is a person and that is no person's name",
                "no_nation": f"{value.stated} is a nationality and that is none",
                "made_several": "one makes, writes or finds many things: another read is not the one stated",
                "many_places": "one lives, works, studies or explores in many places: another read is "
                               "not the one stated",
                "no_name": f"the passage writes {value.read} in lower case, a word of another slot, no name",
                "longer_form": "one name is the other with a land's ending, most often the same place",
                "named_too": f"the passage sentence names {value.stated} so too",
                "inside_a_name": f"{value.read} is part of a longer name there, and the passage writes "
                                 f"{value.stated} too",
                "narrower": f"{value.stated} may lie inside {value.read}, which says nothing narrower",
                "region": f"{value.stated} is a region, which {value.read} may lie in or hold",
                "sea_and_land": "one is a sea, the other a land: a place may lie in both",
                "both_said": f"the passage sentence gives {value.stated} too",
                "unconfirmed": f"the passage sentence does not say {quote(value.confirm or '', 100)}{doubt}",
            }.get(value.excused, value.excused)
        # A rank is read from the passage's words, not asked: nothing to show as asked.
        asked = f" (asked: {quote(value.question, 100)})" if value.question else ""
        lines.append(f"{_stated(value)}: {said}{asked}")
    return lines


def source_name(passage: Evidence) -> str:
    """Where a passage is from: source · title · address."""
    return " · ".join(dict.fromkeys(x for x in (passage.source, passage.title, passage.url) if x))


def rests_on(verdict: Verdict) -> str:
    """The passage sentence the verdict rests on and where it is from; "" when it read none."""
    if not verdict.evidence:
        return ""
    first = verdict.evidence[0]
    sentence = verdict.grounds.passage or " ".join(first.text.split())
    # Named by the passage that holds the sentence (another article, another language's) where one does.
    holder = next((ev for ev in verdict.evidence if sentence in " ".join(ev.text.split())), first)
    more = f" (+{len(verdict.evidence) - 1} more)" if len(verdict.evidence) > 1 else ""
    return f"{source_name(holder)}{more}: {quote(sentence, 220)}"


def no_evidence(verdict: Verdict) -> str:
    """What a true or false verdict that read nothing rests on ("" for other labels)."""
    if verdict.evidence or verdict.label not in ("true", "false"):
        return ""
    if verdict.grounds.rule == "scorer":  # a constant floor: no model, no belief
        return f"no passage: {verdict.grounds.scorer} gives every item this label, reading nothing"
    return "no passage: the model's own belief, checked against no source"


def _why_false(verdict: Verdict) -> str:
    """A false verdict's grounds in plain words, and the words of the item it flags."""
    g = verdict.grounds
    # The comparison or the judge's own reasoning says more than the rule; a score says nothing a
    # reader of a reason can act on.
    said = why(verdict) if g.rule == "values" and g.values else (g.thought or "")
    if not said and verdict.evidence:
        said = f"not supported by {_read_from(verdict.evidence)}"
    if len(said) > 2 * _MAX_QUOTE:
        said = said[: 2 * _MAX_QUOTE - 1].rstrip() + "…"
    flagged = ", ".join(dict.fromkeys(quote(s.text, marks="'") for s in verdict.spans))
    parts = [p for p in (said, f"flagged: {flagged}" if flagged else "") if p]
    return f" ({'; '.join(parts)})" if parts else ""


def reason(checked: CheckResult | Sequence[tuple[str, Verdict]]) -> str:
    """Why an answer got its faithfulness, in a sentence or two a person can act on: of a result (its
    ``item_verdicts``), or of items given as (text, verdict)."""
    items = checked.item_verdicts() if isinstance(checked, CheckResult) else checked

    def count(label: str) -> int:
        return sum(v.label == label for _, v in items)

    true, false = count("true"), count("false")
    unverified, unparseable = count("unverified"), count("unparseable")
    unjudged = sum(v.grounds.rule == "unjudged" for _, v in items)
    noun = "claim" if any(v.target == "claim" for _, v in items) else "sentence"
    sources = {e.source for _, v in items if v.label in ("true", "false") for e in v.evidence}
    where = "the context" if sources == {"context"} else "the evidence"
    judged = true + false
    more = " more" if judged else ""
    open_items = []
    if unjudged:
        open_items.append(f"{unjudged}{more} {'was' if unjudged == 1 else 'were'} not judged (the check "
                          "ran out of time or budget)")
    if unverified - unjudged > 0:
        open_items.append(f"{unverified - unjudged}{more} could not be decided (not enough evidence)")
    if unparseable:
        open_items.append(f"{unparseable}{more} could not be judged (the model's reply could not be read)")
    if not judged:
        if not open_items:
            return ("Nothing was checked: the answer has no checkable statement (only opinions or "
                    "personal statements).")
        return f"No {noun} could be judged: {' and '.join(open_items)}."
    plural = "s" if judged > 1 else ""
    verb = "is" if 1 in (true, judged) else "are"
    if sources:
        head = f"{true} of {judged} checked {noun}{plural} {verb} supported by {where}"
        miss = "not supported"
    else:
        head = f"{true} of {judged} checked {noun}{plural} {verb} judged true by the model (no evidence read)"
        miss = "judged false"
    wrong = [(text, v) for text, v in items if v.label == "false"]
    listed = "; ".join(quote(text, marks="'") + _why_false(v)
                       for text, v in wrong[:_MAX_LISTED])
    if len(wrong) > _MAX_LISTED:
        listed += f"; and {len(wrong) - _MAX_LISTED} more"
    sentence = f"{head}; {miss}: {listed}." if wrong else f"{head}."
    if open_items:
        rest = " and ".join(open_items)
        sentence += f" {rest[0].upper()}{rest[1:]}."
    return sentence


def coverage(covered: Coverage) -> str:
    """What a check's Wikipedia had an article for, in one line: "read: the packaged Wikipedia
    summaries, an article for 0 of 5 items (none about Lanny Flaherty)"."""
    parts = [f"an article for {covered.with_article} of {covered.items} item{'s' * (covered.items != 1)}"]
    if covered.without:
        shown = ", ".join(covered.without[:3]) + (f" and {len(covered.without) - 3} more"
                                                 if len(covered.without) > 3 else "")
        parts.append(f"none about {shown}")
    if covered.searched:
        parts.append(f"{covered.searched} searched for, the answer naming nothing")
    return f"read: {covered.source}, {parts[0]}" + (f" ({'; '.join(parts[1:])})" if parts[1:] else "")


_READ_WHY = {"cyrillic": "a Cyrillic letter", "greek": "a Greek letter", "latin": "a Latin letter",
             "invisible": "an invisible character", "compatibility": "a compatibility form"}


def read_as(changes: Sequence[ReadAs]) -> str:
    """The words of the user's text read otherwise than written, in one line: "read 'Canada' for
    'Cаnada' (a Cyrillic letter, U+0430)"; empty when none was."""
    seen: dict[tuple[str, str], ReadAs] = {}
    for change in changes:
        seen.setdefault((change.written, change.read), change)
    parts = []
    for change in list(seen.values())[:_MAX_LISTED]:
        odd = list(dict.fromkeys(c for c in change.written if c not in change.read))[:3]
        why = " and ".join(_READ_WHY.get(w, w) for w in change.why)
        codes = ", ".join(f"U+{ord(c):04X}" for c in odd)
        parts.append(f"'{change.read}' for '{_shown(change.written)}' ({why}{', ' + codes if codes else ''})")
    if len(seen) > _MAX_LISTED:
        parts.append(f"and {len(seen) - _MAX_LISTED} more")
    return f"read {'; '.join(parts)}" if parts else ""


def _shown(text: str) -> str:
    """``text`` with the characters that show nothing written as escapes, so the reader sees them."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in text)


def verdict_dict(verdict: Verdict) -> dict[str, Any]:
    """A verdict as JSON: its data (``Verdict.to_dict``), then its cut, whether it is a close call, and
    the words made from its grounds (``why``, ``score_note``) for readers."""
    return {**verdict.to_dict(), "cut": verdict.cut, "uncertain": verdict.uncertain, "why": why(verdict),
            "score_note": score_note(verdict)}


def result_dict(result: CheckResult) -> dict[str, Any]:
    """A result as JSON, as the CLI, result files and the HTTP API write it: its data
    (``CheckResult.to_dict``), each verdict with its words, and the faithfulness, success and reason."""
    data: dict[str, Any] = {}
    for key, value in result.to_dict().items():
        data[key] = value
        if key == "threshold":  # the metric view stands beside the threshold it is read against
            data.update(faithfulness=result.faithfulness, successful=result.successful,
                        reason=reason(result))
    data["segment_verdicts"] = [verdict_dict(v) for v in result.segment_verdicts]
    data["claim_verdicts"] = [verdict_dict(v) for v in result.claim_verdicts]
    return data


def result_json(result: CheckResult, indent: int | None = 2) -> str:
    """``result_dict`` as JSON text (read back with ``CheckResult.from_json``)."""
    return json.dumps(result_dict(result), ensure_ascii=False, indent=indent)
