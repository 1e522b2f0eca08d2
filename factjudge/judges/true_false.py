"""Per-item decision judges: one call per item, a two-word verdict (True/False, Yes/No).

FActScore's judge asks True/False about each fact; the grounded judge asks whether the
passages support each item. The graded score is the probability of the negative word
at the decision position; where a model's scores are measured to lean one way, the
strategy's calibrated threshold (chosen on dev data) turns the score into the label. The two
words, their parser and their score reader are the template's decision contract
(``factjudge.prompts.contracts``).
"""

from __future__ import annotations

import dataclasses

from factjudge.agents.calling import ask
from factjudge.errors import InputError
from factjudge.judges.base import (
    Item,
    JudgeInput,
    Origin,
    PromptedJudge,
    render_passages,
    with_unsupported_words,
)
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.prompts.contracts import DecisionContract
from factjudge.records import Evidence, Trace, Verdict
from factjudge.retrieval.budget import best_windows
from factjudge.text.checkability import checkable_sentences
from factjudge.text.segmenter import split_sentences

# Windows of a long grounding asked about per part: the ones sharing most words with it.
WINDOWS_READ = 3


class TrueFalseJudge(PromptedJudge):
    """Asks the ``prompt`` template (placeholders ``passages`` and ``statement``) about each item alone.

    The two words are the template's contract's; ``words``, when given, must be the same.
    """

    def __init__(self, model: ChatModel, name: str, *, prompt: str, max_tokens: int,
                 words: tuple[str, str] | None = None, threshold: float | None = None,
                 max_attempts: int = 3, logprobs: bool = True, mark_unsupported: bool = False,
                 per_sentence: bool = False, chunk_tokens: int | None = None) -> None:
        super().__init__(model, name, prompt=prompt, max_tokens=max_tokens, max_attempts=max_attempts,
                         logprobs=logprobs)
        self.contract = load_prompt(prompt).contract_of(DecisionContract)
        if words is not None and words != self.contract.words:
            raise InputError(f"prompt {prompt} asks for {'/'.join(self.contract.words)}, "
                             f"not {'/'.join(words)}")
        self.threshold = threshold  # None: the label is the word the model chose
        # Judged by the passages alone: a false item's words they lack become its spans.
        self.mark_unsupported = mark_unsupported
        # A multi-sentence item is asked about sentence by sentence (those that state facts) and is
        # as false as its strictest sentence (TRUE's minimum over parts): one unsupported sentence
        # cannot hide.
        self.per_sentence = per_sentence
        # A grounding longer than this is read in windows, each part as true as its best-supporting
        # window (SummaC's maximum over chunks): a small model reads a short grounding better.
        self.chunk_tokens = chunk_tokens

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own (sentence by sentence with ``per_sentence``; a long grounding
        window by window with ``chunk_tokens``)."""
        verdicts = []
        for item in job.items:
            windows = (job.windows_for([item], self.chunk_tokens) if self.chunk_tokens
                       else [job.evidence_for([item])])
            sentences = split_sentences(item.text) if self.per_sentence else []
            # A greeting, a question or a "Me too." beside a fact states nothing to support: asked
            # about alone it reads as unsupported, so only sentences that state facts are parts.
            parts = checkable_sentences(sentences) if len(sentences) > 1 else []
            if not parts:
                verdicts.append(self._judge_part(item, item.text, windows, job.answer, traces))
                continue
            judged = [self._judge_part(item, part, windows, job.answer, traces) for part in parts]
            worst = _deciding(judged, strictest=True)
            which = ("its one sentence that states facts" if len(parts) == 1
                     else f"the strictest of its {len(parts)} sentences that state facts")
            verdicts.append(judged[worst] if judged[worst].label == "unparseable" else dataclasses.replace(
                judged[worst], rationale=f"{which}, {parts[worst]!r}: "
                                         f"{judged[worst].rationale}"))
        return verdicts

    def _judge_part(self, item: Item, text: str, windows: list[tuple[Evidence, ...]], answer: str,
                    traces: list[Trace]) -> Verdict:
        """The verdict on ``text`` read against its best-supporting window (the one window, when the
        grounding fits); the windows read are the ones sharing most words with it."""
        if len(windows) == 1:
            return self._judge_text(item, text, windows[0], answer, traces)
        read = best_windows(windows, text, WINDOWS_READ)
        judged = [self._judge_text(item, text, window, answer, traces) for window in read]
        best = _deciding(judged, strictest=False)
        if judged[best].label == "unparseable":
            return judged[best]
        return dataclasses.replace(judged[best], rationale=(
            f"the best-supporting of the {len(read)} windows read (of {len(windows)} in the "
            f"grounding): {judged[best].rationale}"))

    def _judge_text(self, item: Item, text: str, evidence: tuple[Evidence, ...], answer: str,
                    traces: list[Trace]) -> Verdict:
        """The verdict on ``item`` from asking about ``text`` (the item, or one of its sentences)."""
        prompt, contract = load_prompt(self.prompt), self.contract
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs, choices=contract.words)
        values = {"passages": fence("passages", render_passages(evidence)),
                  "statement": fence("statement", text)}
        asked = ask(self.model, prompt, values, params, contract.parse, step="judge",
                    traces=traces, max_attempts=self.max_attempts)
        origin = Origin(self.name, evidence, prompt.hash, traces, asked.trace)
        if asked.value is None or asked.completion is None:
            return origin.verdict(item, "unparseable", None)
        graded = contract.scores(asked.completion.logprobs)
        holds = asked.value
        rationale = f"the model answered {contract.yes if asked.value else contract.no}"
        cut = None if graded is None else 0.5  # the word the model chose is the likelier one
        if graded is not None and self.threshold is not None:
            holds, cut = graded < self.threshold, self.threshold
            rationale = (f"P({contract.no}) {graded:.3f} against the calibrated threshold "
                         f"{self.threshold:.2f}: {'true' if holds else 'false'}")
        score = graded if graded is not None else float(not asked.value)
        verdict = origin.verdict(item, "true" if holds else "false", score, rationale, cut=cut)
        if self.mark_unsupported:
            verdict = with_unsupported_words(verdict, item, answer)
        return verdict


def _deciding(judged: list[Verdict], *, strictest: bool) -> int:
    """The index of the verdict that decides: an unparseable one (the whole is not judged either),
    else the highest error score (``strictest``) or the lowest (the best-supporting window)."""
    for i, verdict in enumerate(judged):
        if verdict.label == "unparseable":
            return i
    scores = [v.error_score or 0.0 for v in judged]
    return max(range(len(judged)), key=scores.__getitem__) if strictest else min(
        range(len(judged)), key=scores.__getitem__)
