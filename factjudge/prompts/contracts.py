"""Reply contracts: one object per shape of a judge's reply, its tokens named here and nowhere else.

As DSPy's Adapter formats a signature and parses the reply in one place, a contract holds
what the model is shown (``format_values``, filled into the placeholders of the templates
bound to it), how decoding is constrained (``grammar``), how the reply is read (``parse``)
and where its graded scores are (``scores``). A template writes ``{answer_marker}``, never
the marker itself, so the prompt, the grammar, the parser and the score reader cannot drift
apart. ``load_prompt`` fills a template's contract values and hands the judge its contract.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from factjudge.errors import ParseError
from factjudge.llm.base import TokenLogprob
from factjudge.prompts.replies import IdListReply, read_decision, read_id_list
from factjudge.prompts.reply_scores import decision_score, id_list_scores
from factjudge.text.value_match import NOT_STATED as SAYS_NOT_STATED

# The contract tokens. A reply's verdict follows the answer marker; CoT reasons after the
# Thought marker first; a FELM list reply with no wrong item says the all-correct token.
ANSWER = "Answer:"
THOUGHT = "Thought:"
ALL_CORRECT = "ALL_CORRECT"
# A value reader's reply when the passages do not give the value asked for.
NOT_STATED = "NOT STATED"
# Lines of user data that read like these are quoted by ``fence``: they cannot pass for a reply.
MARKERS = (ANSWER, THOUGHT)


def _judge_templates(*prompts: str) -> tuple[str, ...]:
    """The FELM templates of ``prompts`` at both granularities: ``judge_segment_cot``, ``judge_claim_cot``."""
    return tuple(f"judge_{target}_{prompt}" for prompt in prompts for target in ("segment", "claim"))


@dataclass(frozen=True)
class ListContract:
    """FELM's reply: the wrong ids after the answer marker, each with its wrong words, or all correct.

    ``Answer: 2 ["born in 1879"], 3 ["Paris"]`` or ``Answer: ALL_CORRECT``; with
    ``thought_first`` (CoT) a ``Thought:`` line comes first and the answer marker is mandatory.
    """

    templates: tuple[str, ...] = ()
    thought_first: bool = False
    answer: ClassVar[str] = ANSWER
    thought: ClassVar[str] = THOUGHT
    all_correct: ClassVar[str] = ALL_CORRECT

    def format_values(self) -> dict[str, str]:
        """The placeholder values a template needs to show this contract to the model."""
        return {"answer_marker": self.answer, "thought_marker": self.thought, "all_correct": self.all_correct}

    def grammar(self, n_items: int) -> str:
        """GBNF for the answer line with ids n..1, each with its quoted words (after a Thought for CoT)."""
        ids = " | ".join(f'"{i}"' for i in range(n_items, 0, -1))
        head = "root ::= answer\n"
        if self.thought_first:
            head = f'root ::= "{self.thought} " [^\\n]+ "\\n" answer\n'
        return head + (f'answer ::= "{self.answer} " ("{self.all_correct}" | wrong (", " wrong)*)\n'
                       f'wrong ::= id " [\\"" [^"\\n]+ "\\"]"\nid ::= {ids}\n')

    def parse(self, reply: str, n_items: int) -> IdListReply:
        """The wrong ids of ``reply`` (1..n_items), or all correct; ParseError when unclear."""
        return read_id_list(reply, n_items, answer=self.answer, thought=self.thought,
                            all_correct=self.all_correct, require_thought=self.thought_first)

    def scores(self, tokens: Sequence[TokenLogprob] | None, n_items: int) -> dict[int, float] | None:
        """Error score per item id: the probability put on listing it after the last answer marker."""
        return id_list_scores(tokens, n_items, answer=self.answer)


@dataclass(frozen=True)
class DecisionContract:
    """A one-word verdict: ``yes`` (the item holds) or ``no``; ``Answer: no`` and markdown are read too."""

    yes: str
    no: str
    templates: tuple[str, ...] = ()
    answer: ClassVar[str] = ANSWER

    @property
    def words(self) -> tuple[str, str]:
        """(yes, no): the only replies decoding allows (``GenerationParams.choices``)."""
        return (self.yes, self.no)

    def format_values(self) -> dict[str, str]:
        """The placeholder values a template needs to show this contract to the model."""
        return {"yes": self.yes, "no": self.no}

    def grammar(self) -> str:
        """GBNF that allows exactly one of the two words (what a local backend makes of ``choices``)."""
        from factjudge.llm.local import choice_grammar  # numpy and llama.cpp glue: only when asked

        return choice_grammar(self.words)

    def parse(self, reply: str) -> bool:
        """True for the yes word, False for the no word; ParseError for neither, both or a negated one."""
        return read_decision(reply, self.words, answer=self.answer)

    def scores(self, tokens: Sequence[TokenLogprob] | None) -> float | None:
        """P(no) / (P(yes) + P(no)) where the decision is made; None without log-probabilities."""
        return decision_score(tokens, self.words)


@dataclass(frozen=True)
class ValueReply:
    """A value read from passages (``value``), or None: the passages do not give it."""

    value: str | None


@dataclass(frozen=True)
class ValueContract:
    """A value read from passages, in a few words copied from them, or the not-stated token."""

    templates: tuple[str, ...] = ()
    not_stated: ClassVar[str] = NOT_STATED
    answer: ClassVar[str] = ANSWER
    max_chars: ClassVar[int] = 200  # a value is a few words; a paragraph is no reading of one

    def format_values(self) -> dict[str, str]:
        """The placeholder values a template needs to show this contract to the model."""
        return {"not_stated": self.not_stated}

    def grammar(self) -> str:
        """GBNF for one line of text: the value or the not-stated token."""
        return "root ::= [^\\n]+\n"

    def parse(self, reply: str) -> ValueReply:
        """The value of ``reply`` (its first line, markdown, quotes and an answer marker taken off), or
        None for the not-stated token (or words saying so); ParseError for an empty or rambling reply."""
        line = next((ln for ln in reply.splitlines() if ln.strip()), "")
        line = re.sub(rf"^\W*{re.escape(self.answer.rstrip(':'))}\s*:", "", line.strip(), flags=re.IGNORECASE)
        value = line.strip(" \t*_`\"'“”«»").rstrip(".").strip(" \t*_`\"'“”«»")
        if not value:
            raise ParseError("the reply holds no value")
        if len(value) > self.max_chars:
            raise ParseError(f"the reply is {len(value)} characters, not a value in a few words")
        if value.upper().startswith(self.not_stated) or SAYS_NOT_STATED.match(value):
            return ValueReply(None)
        return ValueReply(value)


Contract: TypeAlias = ListContract | DecisionContract | ValueContract

ID_LIST = ListContract(_judge_templates("vanilla", "link", "doc", "grounded"))
ID_LIST_COT = ListContract(_judge_templates("cot"), thought_first=True)
TRUE_FALSE = DecisionContract("True", "False", ("judge_fact",))
YES_NO = DecisionContract("Yes", "No", ("judge_supported", "judge_evidence_supported"))
VALUE = ValueContract(("read_value_cloze", "read_value_question"))
CONTRACTS: tuple[Contract, ...] = (ID_LIST, ID_LIST_COT, TRUE_FALSE, YES_NO, VALUE)


def contract_for(template: str) -> Contract | None:
    """The contract the template ``template`` shows the model; None for prompts whose reply is no verdict."""
    return next((contract for contract in CONTRACTS if template in contract.templates), None)
