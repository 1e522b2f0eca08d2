"""Keep a judge prompt's evidence within a token budget, counted with tiktoken."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.llm.tokens import get_encoding
from factjudge.records import Evidence


def trim_evidence(evidence: Sequence[Evidence], max_tokens: int | None) -> tuple[Evidence, ...]:
    """Passages in order until the budget is spent; the last one cut to what is left.

    Order is kept because retrievers put the most relevant passage first. The trimmed
    tuple is what the judge sees and what the verdict records as its evidence.
    """
    if max_tokens is None or not evidence:
        return tuple(evidence)
    # A token is at least one byte, so passages of fewer UTF-8 bytes than the budget are
    # fewer tokens too: the loop below would keep them all uncut. Skipping it spares a
    # small RAG context the count, and a fresh process the encoding's build.
    if sum(len(ev.text.encode()) for ev in evidence) < max_tokens:
        return tuple(evidence)
    encoding = get_encoding()
    kept: list[Evidence] = []
    left = max_tokens
    for ev in evidence:
        if left <= 0:
            break
        tokens = encoding.encode_ordinary(ev.text)
        if len(tokens) > left:
            ev = dataclasses.replace(ev, text=encoding.decode(tokens[:left]).rstrip() + " …")
        kept.append(ev)
        left -= len(tokens)
    return tuple(kept)
