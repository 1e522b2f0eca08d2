"""The per-item decision judge: one two-word question per item (True/False, Yes/No), and a band.

FActScore's judge asks True/False about each fact; ``supported`` asks whether the caller's
passages support each item; ``evidence`` asks the same of gathered passages and may leave an
item open. The graded score is the probability of the negative word at the decision position;
a band turns it into a label (true below one edge, false from the other, unverified between; a
calibrated threshold is a band whose edges are equal), and without a band the label is the word
the model chose. The two words, their parser and their score reader are the template's decision
contract (``factjudge.prompts.contracts``).

How an item is read is separate from how one text is decided: sentence by sentence (the
strictest sentence decides, TRUE's minimum over parts) and, for a long grounding, window by
window (the best-supporting window decides, SummaC's maximum over chunks). A sentence's values are read
only where the judge doubts it in every window read, in the best of them: there they give the reason
("the context says 1,280") or confirm a sentence the context states word for word; read in a window
the question found support in as well, they cost a third of a RAG pair's calls and caught one
hallucinated answer in 40 (docs/rag.md, "Values where the judge doubts").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from factjudge.agents.calling import ask
from factjudge.agents.in_english import read_in_english
from factjudge.agents.read_value import (
    ValueReading,
    check_values,
    given_to_another,
    gives_it_too,
    relation_said,
)
from factjudge.grounds import Grounds, ValueCheck
from factjudge.judges.aggregate import most_lenient, strictest
from factjudge.judges.base import (
    Item,
    JudgeInput,
    Origin,
    PromptedJudge,
    deciding_sentence,
    with_unsupported_words,
)
from factjudge.judges.verbatim import answer_unread, confirmed_by_values, stated_in_context, stated_verbatim
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt, render_passages
from factjudge.prompts.contracts import DecisionContract
from factjudge.records import Evidence, Label, Verdict
from factjudge.retrieval.budget import Windows, passage_tokens, surely_fits
from factjudge.text.checkability import checkable_sentences
from factjudge.text.contradiction import DATES, in_the_other_life_event
from factjudge.text.nationality import written_nationality
from factjudge.text.segmenter import split_sentences
from factjudge.text.spans import locate
from factjudge.text.value_match import in_stated_unit
from factjudge.text.values import modifies_a_noun

# A definite article the text writes before a value, which a value read may open with too.
_THE = re.compile(r"(?:\b(?:the|el|la|los|las|le|les)\s+|\bl['’]\s*)$", re.IGNORECASE)
_OPENS_WITH_THE = re.compile(r"^(?:(?:the|el|la|los|las|le|les)\s+|l['’]\s*)", re.IGNORECASE)

# Windows of a long grounding asked about per part: the ones sharing most words with it.
WINDOWS_READ = 3
# An item's words no passage contains are shown as phrases: flagged words with at most this many words
# the passages contain between them are one span. Chosen on RAGTruth's summary and data2txt answers (dev;
# `benchmarks/ragtruth_words.py`): the span F1 of the phrases beats the single words and the whole
# sentence once a judge flags some sentences wrongly.
PHRASE_JOIN: int | None = 2  # None: each word its own span
# A long grounding's windows: an item's values are read in the window that decides it when none supports
# it (they give the reason, or confirm a sentence stated word for word), not in a window the question found
# support in: on RAGTruth dev (40 pairs) that read a third fewer calls and 29% fewer prompt tokens, and
# passed one hallucinated answer more (docs/rag.md, "Values where the judge doubts").
VALUES_WHERE_DOUBTED = True


@dataclass(frozen=True)
class Band:
    """Where the doubt (P(negative word)) turns into a label: true below ``true_below``, false from
    ``false_from``, unverified between (the two equal: a threshold, no unverified band)."""

    true_below: float = 0.5
    false_from: float = 0.5
    # The more a judge reads, the more it doubts what its passages support (README, "Long contexts"):
    # edges tuned on short passages rise by ``rise`` as the passages read grow across ``ramp``
    # (tokens), and stay risen past it.
    rise: float = 0.0
    ramp: tuple[int, int] = (0, 1)

    def label(self, doubt: float) -> Label:
        """The label of an item the judge has ``doubt`` about."""
        if doubt < self.true_below:
            return "true"
        return "false" if doubt >= self.false_from else "unverified"

    def reading(self, evidence: Sequence[Evidence]) -> Band:
        """The band for an item asked about against ``evidence``: its edges risen for what it read."""
        low, high = self.ramp
        if not self.rise or surely_fits(evidence, low):
            return self
        up = round(self.rise * min(1.0, (passage_tokens(evidence) - low) / (high - low)), 2)
        if up <= 0:
            return self
        return Band(round(self.true_below + up, 2), round(self.false_from + up, 2))


@dataclass(frozen=True)
class Reading:
    """How a decision judge reads an item: per sentence, in windows, and what it does with no passage."""

    per_sentence: bool = False  # a multi-sentence item is asked about sentence by sentence
    chunk_tokens: int | None = None  # a grounding longer than this is read in windows of it
    # A grounding longer than chunk_tokens is read in one window of the sentences bearing on each part
    # (and the one before each), not in the fixed windows sharing most words with it.
    focus: bool = False
    unverified_without_evidence: bool = False  # no passage: unverified, no call
    # Judged by the passages alone: a false item's words they lack become its spans.
    mark_unsupported: bool = False
    # Values of each part (names, places, dates, numbers) read from its passages and compared with the
    # ones it states, at most this many (0: none); a contradicted value makes it false.
    values: int = 0
    # Passages that do not support an item but say nothing against it (no value they contradict) leave
    # it unverified: false needs a reason a reader can check in the passage (gathered evidence, not a
    # caller's context, where what the context does not state is what is not supported).
    silence_unverified: bool = False
    # A value read that differs from the stated one contradicts the item only when the passage sentence it
    # was read from states the same relation of the same subject: it says the item's words for it and its
    # years, or else the judge, asked about the item with that value put in against that sentence, would
    # call it true ("It opened in 2009" is not what "since its topping out in 2009" says). One call, only
    # when a value differs in a sentence that does not say the relation in the item's words.
    confirm_values: bool = False


class DecisionJudge(PromptedJudge):
    """Asks the ``prompt`` template (placeholders ``passages`` and ``statement``) about each item alone."""

    def __init__(self, model: ChatModel, name: str, *, prompt: str, max_tokens: int,
                 band: Band | None = None, reading: Reading = Reading(), max_attempts: int = 3,
                 logprobs: bool = True) -> None:
        super().__init__(model, name, prompt=prompt, max_tokens=max_tokens, max_attempts=max_attempts,
                         logprobs=logprobs)
        self.contract = load_prompt(prompt).contract_of(DecisionContract)
        self.band = band  # None: the label is the word the model chose
        self.reading = reading

    def judge(self, job: JudgeInput) -> Iterator[Verdict]:
        """Judge each item on its own (its sentences and windows as ``reading`` says), one at a time."""
        for item in job.items:
            yield self.judge_item(job, item)

    def judge_item(self, job: JudgeInput, item: Item) -> Verdict:
        """One item's verdict: the strictest of its sentences that state facts, each read against its
        best-supporting window."""
        windows = (job.windows_for([item], self.reading.chunk_tokens) if self.reading.chunk_tokens
                   else Windows([job.evidence_for([item])]))
        if self.reading.unverified_without_evidence and not any(windows.windows):
            return Origin(self.name, (), load_prompt(self.prompt).hash).verdict(
                item, "unverified", None, Grounds("no_evidence"))
        sentences = split_sentences(item.text) if self.reading.per_sentence else []
        # A greeting, a question or a "Me too." beside a fact states nothing to support: asked
        # about alone it reads as unsupported, so only sentences that state facts are parts.
        parts = checkable_sentences(sentences) if len(sentences) > 1 else []
        if not parts:
            return self._judge_part(job, item, item.text, windows)
        judged = [self._judge_part(job, item, part, windows) for part in parts]
        worst = strictest(judged)
        grounds = dataclasses.replace(judged[worst].grounds, part=parts[worst], parts=len(parts))
        return dataclasses.replace(judged[worst], grounds=grounds)

    def _judge_part(self, job: JudgeInput, item: Item, text: str, windows: Windows) -> Verdict:
        """The verdict on ``text`` read against its best-supporting window (the one window, when the
        grounding fits); the windows read are the ones sharing most words with it, most first, until
        one supports it, or in focus, one window of the sentences bearing on it. Its values are read
        in the best window when none supports it (``VALUES_WHERE_DOUBTED``)."""
        if len(windows) == 1:
            return self._in_context(job, item, text, [self.decide(job, item, text, windows.windows[0])])
        if self.reading.focus:
            return self._in_context(job, item, text, [self._judge_focused(job, item, text)])
        read = windows.best(text, WINDOWS_READ)
        asked: list[Verdict] = []
        judged: list[Verdict] = []
        for index in read:
            asked.append(self.ask_window(job, item, text, windows.windows[index]))
            judged.append(self.finish(job, item, text, asked[-1], values=not VALUES_WHERE_DOUBTED))
            if judged[-1].label == "true":
                break  # the most lenient label there is: no further window can change it
        best = most_lenient(judged)
        # Doubted in every window read: the deciding one has its values read (they may hand the lead on).
        unread = set(range(len(judged))) if VALUES_WHERE_DOUBTED and self.reading.values else set()
        while best in unread and judged[best].label != "true":
            unread.discard(best)
            judged[best] = self.finish(job, item, text, asked[best])
            best = most_lenient(judged)
        grounds = dataclasses.replace(judged[best].grounds, window=read[best], windows_read=len(judged),
                                      windows=len(windows))
        deciding = dataclasses.replace(judged[best], grounds=grounds)
        return self._in_context(job, item, text, [deciding, *judged])

    def _in_context(self, job: JudgeInput, item: Item, text: str, judged: list[Verdict]) -> Verdict:
        """The first of ``judged`` (the readings of ``text``, the deciding one first), made true when the
        whole context holds every word of ``text`` and no reading contradicted a value of it
        (``verbatim.stated_in_context``): for a judge of the caller's context that reads values."""
        verdict = judged[0]
        if not (self.reading.values and self.reading.mark_unsupported):
            return verdict
        contradicted = any(v.grounds.contradicted for v in judged)
        return stated_in_context(verdict, text, job.all_evidence_for([item]), contradicted, job.language)

    def _judge_focused(self, job: JudgeInput, item: Item, text: str) -> Verdict:
        """The verdict on ``text`` read against the grounding's sentences that bear on it."""
        assert self.reading.chunk_tokens is not None
        focus = job.focus_for([item])
        size = min(self.reading.chunk_tokens, job.evidence_tokens or self.reading.chunk_tokens)
        window, read = focus.window(text, size)
        verdict = self.decide(job, item, text, window)
        grounds = dataclasses.replace(verdict.grounds, sentences_read=read, sentences=len(focus.sentences))
        return dataclasses.replace(verdict, grounds=grounds)

    def decide(self, job: JudgeInput, item: Item, text: str, evidence: tuple[Evidence, ...]) -> Verdict:
        """The verdict on ``item`` from asking about ``text`` (the item, or one of its sentences), and
        reading its values from the passages where ``reading`` asks for them."""
        return self.finish(job, item, text, self.ask_window(job, item, text, evidence))

    def ask_window(self, job: JudgeInput, item: Item, text: str, evidence: tuple[Evidence, ...], *,
                   step: str = "judge") -> Verdict:
        """The verdict the question about ``text`` against ``evidence`` gives, before any value is read
        (``step`` names the call in the transcript)."""
        prompt, contract = load_prompt(self.prompt), self.contract
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=contract.words)
        values = {"passages": fence("passages", render_passages(evidence)),
                  "statement": fence("statement", text)}
        asked = ask(self.model, prompt, values, params, contract.parse, step=step,
                    max_attempts=self.max_attempts)
        origin = Origin(self.name, evidence, prompt.hash, asked.trace, asked.reply)
        passage = deciding_sentence(evidence, text)
        if asked.value is None or asked.completion is None:
            return origin.verdict(item, "unparseable", None, Grounds("unparseable", passage=passage))
        word = contract.yes if asked.value else contract.no
        doubt = contract.scores(asked.completion.logprobs)
        label: Label = "true" if asked.value else "false"
        if doubt is None:  # no log-probabilities: the word is all there is
            grounds = Grounds("word", word=word, passage=passage)
            score = float(not asked.value)
        elif self.band is None:  # the word the model chose is the likelier one: a cut at 0.5
            grounds = Grounds("word", score=doubt, word=word, true_below=0.5, false_from=0.5, passage=passage)
            score = doubt
        else:
            band = self.band.reading(evidence)
            label, score = band.label(doubt), doubt
            edges = band.true_below, band.false_from
            grounds = Grounds("cut" if edges[0] == edges[1] else "band", score=doubt, word=word,
                              true_below=edges[0], false_from=edges[1], calibrated=True, passage=passage)
        return origin.verdict(item, label, score, grounds)

    def finish(self, job: JudgeInput, item: Item, text: str, verdict: Verdict, *,
               values: bool = True) -> Verdict:
        """``verdict`` (``ask_window``'s) with the values of ``text`` read from its passages (unless not
        ``values``) and the rules that follow: a contradicted value, a sentence stated nearly verbatim,
        silence, the unsupported words marked."""
        if verdict.label == "unparseable":
            return verdict
        evidence = verdict.evidence
        if values and self.reading.values and evidence:
            verdict = self._compare_values(job, item, text, verdict)
            verdict = stated_verbatim(verdict, text, evidence, job.language)
        if self.reading.silence_unverified and verdict.label == "false" and verdict.grounds.rule != "values":
            verdict = dataclasses.replace(verdict, label="unverified",
                                          grounds=dataclasses.replace(verdict.grounds, rule="silent"))
        if self.reading.silence_unverified:
            verdict = answer_unread(confirmed_by_values(verdict, text), text)
        if self.reading.mark_unsupported:
            verdict = self._mark_unsupported(job, item, text, verdict)
        return verdict

    def _confirmed(self, job: JudgeInput, item: Item, reading: ValueReading, text: str,
                   evidence: tuple[Evidence, ...]) -> ValueReading:
        """``reading``, its contradiction kept where the passage sentence it was read from says the relation
        (``relation_said``) or the judge's question finds ``text`` with the value read put in supported by
        that sentence alone (true: below the band's lower edge), else excused as ``unconfirmed``; excused
        as ``other_event``, unasked, where the sentence gives the date read to another named thing; excused
        as ``both_said`` where the sentence gives the stated value too and supports ``text`` as stated
        (``_both_said``), once confirmed, or where the relation is said and the sentence writes the value read
        as a modifier. The statement asked and the doubt are kept on the check."""
        check = reading.check
        # A rank read from the passage's own words ("la segunda más grande"), a record's value or a work's
        # maker is its relation: nothing to ask.
        if check.outcome != "contradicted" or check.kind in ("rank", "record", "maker") or not check.read \
                or not check.passage or reading.passage is None \
                or not 0 <= check.start < check.end <= len(text):
            return reading
        article = evidence[reading.passage]
        titles = [ev.title for ev in evidence if ev.title]
        sentence = Evidence(article.source, check.passage, url=article.url, title=article.title)
        # A country read where the sentence describes its subject by that country's nationality ("was a German
        # inventor"): the sentence says where it is from.
        if check.kind == "place" and written_nationality(check.read, check.passage):
            return reading
        if relation_said(text, check.start, check.end, check.read, check.passage, titles):
            # The relation is said; but a word read that the sentence writes as a modifier ("a Catholic
            # church") describes the subject, and the stated name may fill the slot there too ("… in
            # Barcelona"). A name read as a name ("Its capital is Ottawa, and its largest city is Toronto")
            # is kept unasked: the judge believed such swaps.
            if modifies_a_noun(check.passage, check.read):
                return dataclasses.replace(reading, check=self._both_said(job, item, text, check, sentence))
            return reading
        # A date the sentence gives another named thing, of whose words the item says none: that thing's
        # event, which the judge, asked, took for the item's ("co-founded … AT&T in 1885").
        if check.kind in DATES and given_to_another(text, check.read, check.passage, titles):
            excused = dataclasses.replace(check, outcome="not_stated", excused="other_event")
            return dataclasses.replace(reading, check=excused)
        statement = put_in(text, check.start, check.end, in_stated_unit(check.read, check.stated))
        asked = self.ask_window(job, item, statement, (sentence,), step="confirm")
        if asked.label == "unparseable":  # reported in the transcript; the reading stands
            return reading
        checked = dataclasses.replace(check, confirm=statement, confirm_doubt=asked.grounds.score)
        if asked.label != "true":
            checked = dataclasses.replace(checked, outcome="not_stated", excused="unconfirmed")
        else:
            checked = self._both_said(job, item, text, checked, sentence)
        return dataclasses.replace(reading, check=checked)

    def _both_said(self, job: JudgeInput, item: Item, text: str, check: ValueCheck,
                   sentence: Evidence) -> ValueCheck:
        """``check``, excused as ``both_said`` where ``sentence`` gives the stated value too
        (``gives_it_too``) and the judge finds ``text`` as stated supported by it: an event in other words
        ("paru en 1857, après une préparution en 1856"), or the stated place in another slot than the one
        read ("a Catholic church … in Barcelona" for "una basílica de Barcelona")."""
        if not gives_it_too(text, check.stated, check.passage or "", check.kind) \
                or in_the_other_life_event(text, check.stated, check.read or "", check.passage or ""):
            return check
        stated = self.ask_window(job, item, text, (sentence,), step="confirm")
        if stated.label != "true":
            return check
        return dataclasses.replace(check, outcome="not_stated", excused="both_said")

    def _mark_unsupported(self, job: JudgeInput, item: Item, text: str, verdict: Verdict) -> Verdict:
        """A false ``verdict`` on ``text`` with the phrases of ``text`` that no passage of the whole
        context contains as its spans (not those its window lacks: a long context's other windows state
        them), where it quoted none."""
        offset = item.text.find(text)
        located = item.start >= 0 and offset >= 0
        part = dataclasses.replace(item, text=text, start=item.start + offset if located else -1,
                                   end=item.start + offset + len(text) if located else -1)
        return with_unsupported_words(verdict, part, job.answer, passages=job.all_evidence_for([item]),
                                      join=PHRASE_JOIN)

    def _compare_values(self, job: JudgeInput, item: Item, text: str, verdict: Verdict) -> Verdict:
        """``verdict`` with the values of ``text`` read from its passages and compared: a value they
        contradict makes it false (TRUE's Q²: the model answers from the passages, then the answers are
        compared), and the contradicted words are its error spans. A value the model read from the
        wrong slot, or one no passage holds, is asked again in the other form (``read_value``'s retry):
        a swap the Yes/No question believed is caught only by its value."""
        readings = check_values(self.model, text, verdict.evidence, question=job.question, lang=job.language,
                                limit=self.reading.values, retry=True)
        readings = [read_in_english(self.model, r, text, job.language) for r in readings]
        if self.reading.confirm_values:
            readings = [self._confirmed(job, item, r, text, verdict.evidence) for r in readings]
        spans = [locate(r.check.stated, job.answer, item.start, item.end) for r in readings]
        checks = tuple(dataclasses.replace(r.check, start=s.start, end=s.end)
                       for r, s in zip(readings, spans, strict=True))
        wrong = [(c, s) for c, s in zip(checks, spans, strict=True) if c.outcome == "contradicted"]
        if not wrong:
            # Not false: shown on the sentence a value was read and confirmed in, where one was.
            read_in = next((c.passage for c in checks if c.outcome == "confirmed" and c.passage), None) \
                if verdict.label != "false" else None
            return dataclasses.replace(verdict, grounds=dataclasses.replace(
                verdict.grounds, values=checks, passage=read_in or verdict.grounds.passage))
        # Above every doubt that did not decide, in the order of the doubt (graded for ROC AUC).
        score = 0.5 + 0.5 * (verdict.error_score or 0.0)
        grounds = dataclasses.replace(verdict.grounds, rule="values", values=checks,
                                      passage=wrong[0][0].passage or verdict.grounds.passage)
        return dataclasses.replace(verdict, label="false", error_score=score, grounds=grounds,
                                   spans=tuple(s for _, s in wrong))


def put_in(text: str, start: int, end: int, read: str) -> str:
    """``text`` with ``read`` in place of its value at ``start:end``, its article dropped where the text
    writes one before the value: "It rises in the Black Forest", not "in the The Black Forest", which
    the judge asked doubts."""
    if _THE.search(text[:start]):
        read = _OPENS_WITH_THE.sub("", read, count=1) or read
    return text[:start] + read + text[end:]
