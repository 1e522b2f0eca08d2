"""Every strategy is one record in one registry: how to build its judge and what it needs.

Adding a strategy is adding a record to ``STRATEGIES``; the planner, the pipeline, the
CLI, the service and the reports read its properties from here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from factjudge.errors import InputError
from factjudge.judges.base import Judge, JudgeOptions
from factjudge.judges.consistency import Scorer, bm25_score, embedding_scorer, token_f1
from factjudge.judges.decision import Band, DecisionJudge, Reading
from factjudge.judges.list_judge import ListJudge
from factjudge.judges.scorer_judge import ScorerJudge
from factjudge.llm.base import ChatModel
from factjudge.llm.registry import LOCAL_DEFAULT

# P(No) at or above which the embedded model's `supported` verdict is false: tuned by TRUE's
# sqrt(TPR·(1−FPR)) on BEGIN dev (first 200) + Q² memnet pooled (0.416); the model alone says
# Yes too often (argmax = 0.5). `benchmarks/local_judge.py --parts true` prints the tuning.
SUPPORTED_THRESHOLD = 0.41
# The more passage text it reads, the more the model doubts a supported statement: from 50 tokens
# (longer than 95% of the groundings 0.41 was tuned on) to 200 (a window of a long context) the
# threshold rises by 0.10, tuned by the same criterion on BEGIN dev pairs 20–59 padded to 500 words
# with other dialogues' groundings (README, "Long contexts"; `benchmarks/local_judge.py --parts long`
# prints the tuning).
SUPPORTED_BAND = Band(SUPPORTED_THRESHOLD, SUPPORTED_THRESHOLD, rise=0.1, ramp=(50, 200))

# The embedded model's P(not supported) over Wikipedia passages: false from 0.5, where the model
# itself answers No (the best cut on 54 FELM world-knowledge dev segments, `benchmarks/
# wiki_evidence.py --part tune`), true below the threshold TRUE's dev sets tuned for the same
# question (the model says Yes too often), unverified between: a Yes it does not hold firmly.
EVIDENCE_BAND = Band(true_below=SUPPORTED_THRESHOLD, false_from=0.5)

Builder = Callable[["Strategy", ChatModel, JudgeOptions], Judge]


@dataclass(frozen=True)
class Strategy:
    """A named way of judging and the properties every entry point plans with."""

    name: str
    build: Builder
    max_tokens: int | None  # the verdict's output budget; None for judges that call no model
    uses_model: bool = True
    reads_passages: bool = True  # its prompt shows evidence, so evidence is gathered for it
    needs_evidence: bool = False  # refuses to run without any evidence
    # What it becomes when the caller gives a context (RAG): judged against the context only
    # (grounded, the default) or with the judge's knowledge where the context is silent (open).
    with_context: str | None = None  # None: stays itself
    with_open_context: str | None = None
    # FELM's fallbacks: what runs without reference links, or when no passage was found.
    without_refs: str | None = None
    without_evidence: str | None = None
    # Evidence first: what it becomes, when chosen by default and given no evidence, where
    # Wikipedia is at hand (the embedded judge believes errors; it reads passages well).
    evidence_first: str | None = None

    def judge(self, model: ChatModel, options: JudgeOptions) -> Judge:
        """The judge this strategy runs, for ``model`` with ``options``."""
        return self.build(self, model, options)


def list_judge(prompt: str, *, mark_unsupported: bool = False) -> Builder:
    """A FELM list judge with the ``judge_{segment,claim}_{prompt}`` templates.

    ``mark_unsupported``: its prompt judges by the passages alone, so a false item that quotes
    no words gets those the passages lack as its spans.
    """

    def build(strategy: Strategy, model: ChatModel, options: JudgeOptions) -> Judge:
        assert strategy.max_tokens is not None
        return ListJudge(model, strategy.name, prompt=prompt, max_tokens=strategy.max_tokens,
                         batch_size=options.batch_size,
                         max_attempts=options.max_attempts, logprobs=options.logprobs,
                         mark_unsupported=mark_unsupported)

    return build


def decision_judge(prompt: str, *, calibrated: Mapping[str, Band] | None = None,
                   mark_unsupported: bool = False, decomposes: bool = False,
                   unverified_without_evidence: bool = False, reads_values: bool = False,
                   silence_unverified: bool = False, confirms_values: bool = False) -> Builder:
    """A per-item decision judge with the ``prompt`` template (its contract names the two words).

    ``calibrated`` maps a model name to the band measured for it on dev data (a threshold is a band
    whose edges are equal); other models' labels are the word they chose. ``mark_unsupported`` as in
    ``list_judge``. ``decomposes``: it judges a multi-sentence item per sentence and a long grounding
    window by window when the config asks (``per_sentence``, ``chunk_tokens``).
    ``unverified_without_evidence``: an item with no passage is unverified, with no call.
    ``reads_values``: the item's values are read from its passages and compared (``values`` of them).
    ``silence_unverified``: passages that only fail to support an item (no value they contradict) leave
    it unverified, unless the config's ``silence`` is "false".
    ``confirms_values``: a value read that differs is a contradiction only where the sentence it was read
    from says the relation in the item's words, or the judge finds the item with that value supported by
    that sentence (``Reading.confirm_values``).
    """

    def build(strategy: Strategy, model: ChatModel, options: JudgeOptions) -> Judge:
        assert strategy.max_tokens is not None
        reading = Reading(per_sentence=decomposes and options.per_sentence,
                          chunk_tokens=options.chunk_tokens if decomposes else None,
                          focus=decomposes and options.focus,
                          values=options.values if reads_values else 0,
                          unverified_without_evidence=unverified_without_evidence,
                          mark_unsupported=mark_unsupported,
                          silence_unverified=silence_unverified and options.silence == "unverified",
                          confirm_values=confirms_values and reads_values)
        return DecisionJudge(model, strategy.name, prompt=prompt, max_tokens=strategy.max_tokens,
                             band=(calibrated or {}).get(model.name), reading=reading,
                             max_attempts=options.max_attempts, logprobs=options.logprobs)

    return build


def scorer_judge(scorer: Scorer | None) -> Builder:
    """A model-free judge thresholding ``scorer(grounding, text)``; None: the embedding scorer of
    the config's embedder."""

    def build(strategy: Strategy, model: ChatModel, options: JudgeOptions) -> Judge:
        return ScorerJudge(strategy.name, scorer or embedding_scorer(options.embedder),
                           reads_evidence=strategy.reads_passages)

    return build


def _constant(value: float) -> Scorer:
    def score(grounding: str, text: str) -> float:
        return value

    return score


def _scorer(name: str, scorer: Scorer | None) -> Strategy:
    """TRUE's simple metrics: no model call, always against evidence."""
    return Strategy(name, scorer_judge(scorer), None, uses_model=False, needs_evidence=True)


def _floor(name: str, value: float) -> Strategy:
    """A constant floor: the same label for every item, so it reads and needs no evidence."""
    return Strategy(name, scorer_judge(_constant(value)), None, uses_model=False, reads_passages=False)


# List judges become `grounded` with a caller's context (or `doc` in open mode): their prompts
# would otherwise never show it. Output budgets: FELM used 100 tokens for a bare id list; quoting
# the wrong words needs more, and reasoning needs room to think.
STRATEGIES: dict[str, Strategy] = {s.name: s for s in (
    Strategy("vanilla", list_judge("vanilla"), 200, reads_passages=False,
             with_context="grounded", with_open_context="doc"),
    Strategy("cot", list_judge("cot"), 1000, reads_passages=False,
             with_context="grounded", with_open_context="doc"),
    Strategy("link", list_judge("link"), 200, reads_passages=False, without_refs="vanilla",
             with_context="grounded", with_open_context="doc"),
    Strategy("doc", list_judge("doc"), 200, without_evidence="vanilla",
             with_context="grounded", with_open_context="doc"),
    Strategy("grounded", list_judge("grounded", mark_unsupported=True), 200, needs_evidence=True,
             with_context="grounded", with_open_context="doc"),
    # FActScore's judge: passages first, then the judge's knowledge; against a caller's context
    # alone it becomes `supported`.
    Strategy("fact", decision_judge("judge_fact"), 10, with_context="supported", evidence_first="evidence"),
    # Does the evidence support every fact of the item? Measured best with the embedded model
    # (README, "Measured with the embedded model"); its threshold was tuned on BEGIN dev + Q2 memnet.
    Strategy("supported", decision_judge("judge_supported",
                                         calibrated={LOCAL_DEFAULT: SUPPORTED_BAND},
                                         mark_unsupported=True, decomposes=True, reads_values=True),
             10, needs_evidence=True, with_open_context="fact"),
    # Supported, not supported, or not enough evidence (unverified): the embedded judge's default
    # with Wikipedia and no other evidence. Its band: README, "World knowledge with evidence".
    Strategy("evidence", decision_judge("judge_evidence_supported", calibrated={LOCAL_DEFAULT: EVIDENCE_BAND},
                                        unverified_without_evidence=True, reads_values=True,
                                        silence_unverified=True, confirms_values=True), 10,
             with_context="evidence", with_open_context="fact"),
    _scorer("token_f1", token_f1),
    _scorer("bm25", bm25_score),
    _scorer("embedding", None),
    _floor("always_true", 1.0),
    _floor("always_false", 0.0),
)}


def strategy_named(name: str) -> Strategy:
    """The registered strategy ``name``; an InputError naming the choices otherwise."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise InputError(f"unknown strategy {name!r}; choose from {', '.join(STRATEGIES)}") from None

