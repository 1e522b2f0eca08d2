"""Judge agent: labels segments or claims true or false, with a graded error score.

Strategies (FELM): ``vanilla`` lists the wrong ids, ``cot`` reasons first, ``link``
sees the reference links, ``doc`` sees passages from the references. ``fact``
(FActScore) asks True/False about one claim at a time against its passages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import zip_longest
from typing import Protocol

from factjudge.agents.calling import ask
from factjudge.agents.confidence import id_list_error_scores, true_false_error_score
from factjudge.agents.parsing import parse_id_list, parse_true_false
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import ErrorSpan, Evidence, Label, Target, Trace, Verdict
from factjudge.retrieval.budget import trim_evidence
from factjudge.text.spans import locate

LIST_STRATEGIES = ("vanilla", "cot", "link", "doc", "grounded")
LLM_STRATEGIES = (*LIST_STRATEGIES, "fact")
# Judges that need no model (agents/scorer_judge.py): TRUE's simple metrics and constant floors.
SCORER_STRATEGIES = ("token_f1", "bm25", "embedding", "always_true", "always_false")
STRATEGIES = (*LLM_STRATEGIES, *SCORER_STRATEGIES)
# Their prompts show no passages, so evidence gathered for them would be paid for and unseen.
PASSAGE_BLIND_STRATEGIES = ("vanilla", "cot", "link")

# Output budgets: FELM used 100 tokens for a verdict; reasoning needs room to think.
# Quotes of the wrong words need room beyond FELM's 100 tokens for a bare id list.
MAX_TOKENS = {"vanilla": 200, "link": 200, "doc": 200, "grounded": 200, "cot": 1000, "fact": 10}


@dataclass(frozen=True)
class Item:
    """One thing to judge: a segment, or a claim with the segment it came from."""

    target: Target
    id: int
    text: str
    segment_id: int
    start: int = -1  # the segment's offsets in the answer, where a quoted error is searched first
    end: int = -1


@dataclass(frozen=True)
class JudgeInput:
    """The items of one answer and the evidence the judge may use."""

    question: str
    items: tuple[Item, ...]
    evidence: tuple[Evidence, ...] = ()
    refs: tuple[str, ...] = ()
    answer: str = ""
    # Evidence gathered for one item (kb, web, llm); the fact judge shows each item its own.
    item_evidence: dict[int, tuple[Evidence, ...]] = field(default_factory=dict)
    evidence_tokens: int | None = None  # the budget of one call's passages

    def evidence_for(self, items: Sequence[Item]) -> tuple[Evidence, ...]:
        """What one call about ``items`` shows: shared evidence, then the items' own, within the budget."""
        own = [self.item_evidence.get(item.id, ()) for item in items]
        # In turns, so that every item's best passage is in before any item's second one.
        turns = tuple(ev for rank in zip_longest(*own) for ev in rank if ev is not None)
        return trim_evidence(tuple(dict.fromkeys(self.evidence + turns)), self.evidence_tokens)


class Judge(Protocol):
    """Maps items and evidence to one verdict per item, appending its model calls to traces."""

    name: str

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Return one verdict per item of ``job``, in order."""
        ...


def render_items(items: Sequence[Item]) -> str:
    """Number items 1..n; claims are grouped under the segment they come from."""
    lines: list[str] = []
    segment = None
    for number, item in enumerate(items, start=1):
        if item.target == "claim" and item.segment_id != segment:
            segment = item.segment_id
            lines.append(f"Segment {segment}:")
        lines.append(f"{number}. {item.text}")
    return "\n".join(lines)


def render_passages(evidence: Sequence[Evidence]) -> str:
    """Passages as ``[n] source`` headers followed by their text."""
    if not evidence:
        return "(no passages)"
    blocks = []
    for n, ev in enumerate(evidence, start=1):
        origin = ev.url or ev.title or ev.source
        note = "" if ev.verified else " (model-generated, unverified)"
        blocks.append(f"[{n}] {origin}{note}\n{ev.text}")
    return "\n\n".join(blocks)


@dataclass(frozen=True)
class _Origin:
    """Where a batch of verdicts came from: judge, evidence, prompt and model call."""

    judge: str
    evidence: tuple[Evidence, ...]
    prompt_hash: str
    traces: list[Trace]
    trace: int | None

    def verdict(self, item: Item, label: Label, score: float | None, rationale: str = "",
                spans: tuple[ErrorSpan, ...] = ()) -> Verdict:
        raw = self.traces[self.trace].reply if self.trace is not None else ""
        return Verdict(item.target, item.id, label, score, self.judge, self.evidence, rationale,
                       self.prompt_hash, raw, self.trace, spans)


def id_list_grammar(n_items: int, thought: bool = False) -> str:
    """GBNF for ``Answer: 1, 3`` / ``Answer: ALL_CORRECT`` with ids 1..n (after a Thought for CoT)."""
    ids = " | ".join(f'"{i}"' for i in range(n_items, 0, -1))
    head = 'root ::= "Thought: " [^\\n]+ "\\n" answer\n' if thought else "root ::= answer\n"
    return head + (f'answer ::= "Answer: " ("ALL_CORRECT" | wrong (", " wrong)*)\n'
                   f'wrong ::= id " [\\"" [^"\\n]+ "\\"]"\nid ::= {ids}\n')


TRUE_FALSE_GRAMMAR = 'root ::= "True" | "False"\n'


def _batches(items: Sequence[Item], size: int | None) -> list[Sequence[Item]]:
    if not size or size >= len(items):
        return [items]
    return [items[i : i + size] for i in range(0, len(items), size)]


class ListJudge:
    """FELM-style judge: one call lists the wrong items of a batch (all items by default)."""

    def __init__(
        self,
        model: ChatModel,
        strategy: str = "vanilla",
        *,
        batch_size: int | None = None,
        max_attempts: int = 3,
        logprobs: bool = True,
    ) -> None:
        if strategy not in LIST_STRATEGIES:
            raise InputError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
        self.model = model
        self.strategy = strategy
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.logprobs = logprobs
        self.name = f"{strategy}@{model.name}"

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge every item of ``job``, batch by batch."""
        verdicts: list[Verdict] = []
        for batch in _batches(job.items, self.batch_size):
            verdicts.extend(self._judge_batch(job, batch, traces))
        return verdicts

    def _judge_batch(self, job: JudgeInput, batch: Sequence[Item], traces: list[Trace]) -> list[Verdict]:
        target = batch[0].target
        prompt = load_prompt(f"judge_{target}_{self.strategy}")
        evidence = job.evidence_for(batch)
        values = {
            "question": fence("question", job.question),
            "items": fence(f"{target}s", render_items(batch)),
            "references": fence("references", "\n".join(job.refs)),
            "passages": fence("passages", render_passages(evidence)),
        }
        cot = self.strategy == "cot"
        params = GenerationParams(max_tokens=MAX_TOKENS[self.strategy], logprobs=self.logprobs,
                                  grammar=id_list_grammar(len(batch), cot))
        parse = partial(parse_id_list, n_items=len(batch), require_thought=cot)
        asked = ask(self.model, prompt, values, params, parse, step="judge", traces=traces,
                    max_attempts=self.max_attempts)
        origin = _Origin(self.name, evidence, prompt.hash, traces, asked.trace)
        if asked.value is None or asked.completion is None:
            return [origin.verdict(item, "unparseable", None) for item in batch]
        wrong = set(asked.value.wrong_ids)
        graded = id_list_error_scores(asked.completion.logprobs, len(batch))
        verdicts = []
        for number, item in enumerate(batch, start=1):
            is_false = number in wrong
            score = graded[number] if graded is not None else float(is_false)
            if graded is not None and is_false:
                score = max(score, 0.5)  # the model did list it: never rank it below "unsure"
            label: Label = "false" if is_false else "true"
            quote = asked.value.quotes.get(number)
            spans: tuple[ErrorSpan, ...] = ()
            if is_false and quote and job.answer:
                spans = (locate(quote, job.answer, item.start, item.end,
                                score if graded is not None else None),)
            verdicts.append(origin.verdict(item, label, score, asked.value.thought, spans))
        return verdicts


class FactJudge:
    """FActScore-style judge: one True/False call per item against its passages."""

    def __init__(self, model: ChatModel, *, max_attempts: int = 3, logprobs: bool = True) -> None:
        self.model = model
        self.max_attempts = max_attempts
        self.logprobs = logprobs
        self.name = f"fact@{model.name}"

    def judge(self, job: JudgeInput, traces: list[Trace]) -> list[Verdict]:
        """Judge each item on its own."""
        prompt = load_prompt("judge_fact")
        params = GenerationParams(max_tokens=MAX_TOKENS["fact"], logprobs=self.logprobs,
                                  grammar=TRUE_FALSE_GRAMMAR)
        verdicts = []
        for item in job.items:
            evidence = job.evidence_for([item])
            values = {
                "passages": fence("passages", render_passages(evidence)),
                "statement": fence("statement", item.text),
            }
            asked = ask(self.model, prompt, values, params, parse_true_false, step="judge",
                        traces=traces, max_attempts=self.max_attempts)
            origin = _Origin(self.name, evidence, prompt.hash, traces, asked.trace)
            if asked.value is None or asked.completion is None:
                verdicts.append(origin.verdict(item, "unparseable", None))
                continue
            graded = true_false_error_score(asked.completion.logprobs)
            score = graded if graded is not None else float(not asked.value)
            verdicts.append(origin.verdict(item, "true" if asked.value else "false", score))
        return verdicts


def make_judge(
    model: ChatModel,
    strategy: str,
    *,
    batch_size: int | None = None,
    max_attempts: int = 3,
    logprobs: bool = True,
) -> Judge:
    """Build the judge a strategy name selects."""
    if strategy in SCORER_STRATEGIES:
        from factjudge.agents.scorer_judge import ScorerJudge

        return ScorerJudge(strategy)
    if strategy == "fact":
        return FactJudge(model, max_attempts=max_attempts, logprobs=logprobs)
    return ListJudge(model, strategy, batch_size=batch_size, max_attempts=max_attempts, logprobs=logprobs)
