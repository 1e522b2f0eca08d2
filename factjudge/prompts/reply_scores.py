"""Graded error scores from a reply's token log-probabilities, read where a contract says to look.

A label alone cannot be ranked by ROC AUC (TRUE); where the backend returns
log-probabilities we read how much probability the model put on calling each
item wrong. The answer marker and the decision words come from the contract.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache
from typing import TypeGuard

from factjudge.llm.base import TokenLogprob
from factjudge.llm.reply_check import logprobs_problem


@cache
def _marker_pattern(marker: str) -> re.Pattern[str]:
    """``marker`` in any case, spaces allowed before its colon, a full-width colon too."""
    word = re.escape(marker.rstrip(":：").strip())
    return re.compile(rf"{word}\s*[:：]", re.IGNORECASE)


def _usable(tokens: Sequence[TokenLogprob] | None) -> TypeGuard[Sequence[TokenLogprob]]:
    """True when there are log-probabilities and every one is well formed."""
    # A malformed one (a string, a number beyond any probability) means the reply has none:
    # no score is better than one read from junk.
    return bool(tokens) and logprobs_problem(tokens) is None


def _probs(token: TokenLogprob) -> dict[str, float]:
    """The chosen token and its alternatives as stripped, lower-cased text → probability."""
    probs: dict[str, float] = {}
    for text, logprob in [*token.top.items(), (token.token, token.logprob)]:
        key = text.strip().lower()
        probs[key] = max(probs.get(key, 0.0), math.exp(logprob))
    return probs


def _answer_region(tokens: Sequence[TokenLogprob], marker: str) -> Sequence[TokenLogprob]:
    """Tokens after the last answer ``marker`` (all tokens when there is none)."""
    text = ""
    start = 0
    ends = []
    for token in tokens:
        text += token.token
        ends.append(len(text))
    matches = list(_marker_pattern(marker).finditer(text))
    if not matches:
        return tokens
    cut = matches[-1].end()
    for i, end in enumerate(ends):
        if end >= cut:
            start = i + 1
            break
    return tokens[start:]


def id_list_scores(tokens: Sequence[TokenLogprob] | None, n_items: int, *,
                   answer: str) -> dict[int, float] | None:
    """Error score per item id for a reply listing wrong ids after the ``answer`` marker.

    The score of item ``i`` is the largest probability the model gave the token
    ``i`` at any position of the answer line, counting the alternatives it did not
    pick: a listed id scores at least its own token's probability, an unlisted one
    the mass that went to it instead. None when the reply has no log-probabilities.
    """
    if not _usable(tokens):
        return None
    region = _answer_region(tokens, answer)
    scores = dict.fromkeys(range(1, n_items + 1), 0.0)
    for token in region:
        for text, p in _probs(token).items():
            if text.isdigit() and int(text) in scores:
                scores[int(text)] = max(scores[int(text)], p)
    return scores


def decision_score(tokens: Sequence[TokenLogprob] | None, words: tuple[str, str]) -> float | None:
    """P(no) / (P(yes) + P(no)) at the first position where either word of ``words`` is on offer."""
    if not _usable(tokens):
        return None
    yes, no = (w.lower() for w in words)
    for token in tokens:
        probs = _probs(token)
        p_yes = probs.get(yes, 0.0)
        p_no = probs.get(no, 0.0)
        if p_yes + p_no > 0:
            return p_no / (p_yes + p_no)
    return None
