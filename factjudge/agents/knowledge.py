"""LLM-generated knowledge (multilingual FActScore): a question about the claim, then a passage answering it.

The passage joins the retrieved ones as ``Evidence(source="llm", verified=False)``:
it is the model's memory, not a checked source, and reports must say so. When no passage
comes (the model replies UNKNOWN, or its replies stay unreadable), ``Knowledge.note`` says
so, and every verdict on that item carries it (``Verdict.evidence_note``): the item was judged
without this evidence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from factjudge.agents.calling import ask
from factjudge.errors import ParseError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt
from factjudge.records import Evidence
from factjudge.text.tokenize import tokenize

log = logging.getLogger(__name__)

MIN_PASSAGE_WORDS = 5
NO_KNOWLEDGE = "the model knew nothing to use as evidence (it replied UNKNOWN)"
UNREADABLE_KNOWLEDGE = "the model's replies could not be read, so it gave no passage to use as evidence"


@dataclass(frozen=True)
class Knowledge:
    """What the model wrote about a claim: its passages, or a note saying why there is none."""

    passages: list[Evidence]
    note: str | None = None


def parse_question(reply: str) -> str:
    """Read ``Question: <question>`` (one line, nothing else); ParseError otherwise."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    if not lines:
        raise ParseError("the reply is empty")
    if len(lines) > 1:
        raise ParseError(f"expected exactly one line 'Question: ...', got {len(lines)} lines")
    head, sep, question = lines[0].partition(":")
    if not sep or head.strip().lower() != "question":
        raise ParseError("expected a line 'Question: <question>'")
    if not question.strip():
        raise ParseError("the question after 'Question:' is empty")
    return question.strip()


def parse_passage(reply: str) -> str:
    """Read ``Passage: <text>`` (one paragraph) or ``UNKNOWN``, which gives ``""``; ParseError otherwise."""
    text = reply.strip()
    if not text:
        raise ParseError("the reply is empty")
    if text.rstrip(".").upper() == "UNKNOWN":
        return ""
    head, sep, passage = text.partition(":")
    if not sep or head.strip().lower() != "passage":
        raise ParseError("expected the reply to start with 'Passage:' (or to be the single word UNKNOWN)")
    passage = " ".join(passage.split())
    # Words as the one tokenizer counts them: a Chinese passage has no spaces to split on.
    if len(tokenize(passage)) < MIN_PASSAGE_WORDS:
        raise ParseError(f"the passage has fewer than {MIN_PASSAGE_WORDS} words")
    return passage


def generate_knowledge(
    claim_text: str,
    *,
    model: ChatModel,
    language: str | None = None,
    max_attempts: int = 3,
    max_tokens: int = 300,
) -> Knowledge:
    """A model-written passage about ``claim_text``, titled with the question it answers, or a note.

    ``language`` names the passage's language (e.g. "English"); by default it follows
    the question, which follows the claim. No passage when the model does not know or its
    replies stay unreadable (the transcript carries the error; ``Knowledge.note`` says which).
    """
    question = ask(
        model,
        load_prompt("knowledge_question"),
        {"statement": fence("statement", claim_text)},
        GenerationParams(max_tokens=100),
        parse_question,
        step="knowledge_question",
        max_attempts=max_attempts,
    ).value
    if question is None:
        log.warning("knowledge: no readable question after %d attempts for %r", max_attempts, claim_text)
        return Knowledge([], UNREADABLE_KNOWLEDGE)
    passage = ask(
        model,
        load_prompt("knowledge_passage"),
        {"question": fence("question", question),
         "language": language or "the same language as the question"},
        GenerationParams(max_tokens=max_tokens),
        parse_passage,
        step="knowledge_passage",
        max_attempts=max_attempts,
    ).value
    if passage is None:
        log.warning("knowledge: no readable passage after %d attempts for %r", max_attempts, question)
        return Knowledge([], UNREADABLE_KNOWLEDGE)
    if not passage:
        return Knowledge([], NO_KNOWLEDGE)
    return Knowledge([Evidence(source="llm", text=passage, title=question, verified=False)])
