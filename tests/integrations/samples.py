"""Shared inputs for the entry-point tests: a RAG answer, its context and a scripted judge."""

from __future__ import annotations

from factjudge.llm.base import Message

QUESTION = "When did the city museum open, and where is it?"
ANSWER = (
    "The city museum opened in 1998. "
    "It stands on the north bank of the river. "
    "I hope you enjoy your visit!"
)
CONTEXT = [
    "The city museum opened its doors in 1998 in a former power station on the south bank of the river."
]


def second_is_wrong(messages: list[Message]) -> str:
    """A judge that always finds item 2 wrong and quotes "north bank": verdicts and spans flow through."""
    return 'Answer: 2 ["north bank"]'
