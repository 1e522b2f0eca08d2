"""FELM's list judge: one call lists the wrong items of an answer, or says all are correct.

The prompt decides what the judge sees: FELM's ``vanilla`` (the items only), ``cot``
(reason first, in a Thought line), ``link`` (the reference links), ``doc`` (passages
from the references), and ``grounded`` (only the caller's context counts). The reply's
shape is the template's list contract (``factjudge.prompts.contracts``): its grammar,
parser and score reader.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial

from factjudge.agents.calling import ask
from factjudge.grounds import Grounds
from factjudge.judges.base import (
    Item,
    JudgeInput,
    Origin,
    PromptedJudge,
    batches,
    deciding_sentence,
    render_items,
    with_unsupported_words,
)
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt, render_passages
from factjudge.prompts.contracts import ID_LIST, ID_LIST_COT, ListContract
from factjudge.records import ErrorSpan, Label, Verdict
from factjudge.text.spans import locate


def id_list_grammar(n_items: int, thought: bool = False) -> str:
    """The list contract's GBNF for ids 1..n (its CoT form, a Thought line first, with ``thought``)."""
    return (ID_LIST_COT if thought else ID_LIST).grammar(n_items)


class ListJudge(PromptedJudge):
    """Lists the wrong items of a batch (all items by default), prompted by ``judge_{target}_{prompt}``.

    Whether the reply reasons first (CoT) is the template's contract's to say, not the caller's.
    """

    def __init__(
        self,
        model: ChatModel,
        name: str,
        *,
        prompt: str,
        max_tokens: int,
        batch_size: int | None = None,
        max_attempts: int = 3,
        logprobs: bool = True,
        mark_unsupported: bool = False,
    ) -> None:
        super().__init__(model, name, prompt=prompt, max_tokens=max_tokens, max_attempts=max_attempts,
                         logprobs=logprobs)
        self.batch_size = batch_size
        # Judged by the passages alone: a false item quoting nothing gets the words they lack.
        self.mark_unsupported = mark_unsupported

    def judge(self, job: JudgeInput) -> Iterator[Verdict]:
        """Judge every item of ``job``, batch by batch."""
        for batch in batches(job.items, self.batch_size):
            yield from self._judge_batch(job, batch)

    def _judge_batch(self, job: JudgeInput, batch: Sequence[Item]) -> list[Verdict]:
        # A segment left without claims is judged whole among the claims, with the claim prompt.
        target = "claim" if any(item.target == "claim" for item in batch) else "segment"
        prompt = load_prompt(f"judge_{target}_{self.prompt}")
        contract = prompt.contract_of(ListContract)
        evidence = job.evidence_for(batch)
        values = {
            "question": fence("question", job.question),
            "items": fence(f"{target}s", render_items(batch)),
            "references": fence("references", "\n".join(job.refs)),
            "passages": fence("passages", render_passages(evidence)),
        }
        params = GenerationParams(max_tokens=self.max_tokens, logprobs=self.logprobs,
                                  grammar=contract.grammar(len(batch)))
        parse = partial(contract.parse, n_items=len(batch))
        asked = ask(self.model, prompt, values, params, parse, step="judge", max_attempts=self.max_attempts)
        origin = Origin(self.name, evidence, prompt.hash, asked.trace, asked.reply)
        if asked.value is None or asked.completion is None:
            return [origin.verdict(item, "unparseable", None, Grounds("unparseable")) for item in batch]
        wrong = set(asked.value.wrong_ids)
        graded = contract.scores(asked.completion.logprobs, len(batch))
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
            grounds = Grounds("listed", score=score if graded is not None else None,
                              thought=asked.value.thought or None,
                              passage=deciding_sentence(evidence, item.text) if evidence else None)
            verdict = origin.verdict(item, label, score, grounds, spans)
            if self.mark_unsupported:
                verdict = with_unsupported_words(verdict, item, job.answer)
            verdicts.append(verdict)
        return verdicts
