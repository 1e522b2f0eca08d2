"""Graded error scores from a reply's token log-probabilities, under the names callers know.

Each reply contract (``factjudge.prompts.contracts``) reads its own scores; these are the
list contract's and a decision contract's ``scores``.
"""

from __future__ import annotations

from collections.abc import Sequence

from factjudge.llm.base import TokenLogprob
from factjudge.prompts.contracts import ID_LIST, TRUE_FALSE, DecisionContract


def id_list_error_scores(tokens: Sequence[TokenLogprob] | None, n_items: int) -> dict[int, float] | None:
    """Error score per item id of a FELM list reply (None without log-probabilities)."""
    return ID_LIST.scores(tokens, n_items)


def decision_error_score(tokens: Sequence[TokenLogprob] | None,
                         words: tuple[str, str] = TRUE_FALSE.words) -> float | None:
    """P(no) / (P(yes) + P(no)) for the two ``words`` = (yes, no) of a decision reply."""
    return DecisionContract(*words).scores(tokens)
