"""Batches for ``Verifier.verify_many``: rows as dicts or a DataFrame, under our names or Ragas'.

A row that cannot be checked (no answer, an empty context, a model that failed) becomes a
``Failure`` naming the row; the other rows are checked all the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from factjudge.errors import FactJudgeError, InputError
from factjudge.records import CheckResult, Failure

# A row's fields under our names or Ragas' (SingleTurnSample: user_input, response, retrieved_contexts).
ROW_KEYS = {"question": ("question", "user_input"), "answer": ("answer", "response"),
            "context": ("context", "retrieved_contexts")}

# question, answer, context -> result: Verifier.verify with the batch's settings.
VerifyRow = Callable[[str, str, Any], CheckResult]


def _given(value: Any) -> bool:
    # A DataFrame fills a missing cell with NaN, or with pd.NA / pd.NaT in nullable columns: all
    # are no value, told by their type's name so pandas is not imported for it.
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return False
    return type(value).__name__ not in ("NAType", "NaTType")


def row_field(row: Mapping[str, Any], name: str) -> Any:
    """A row's ``question``, ``answer`` or ``context`` under either name; None when absent or NaN.

    A row that gives both names of one field (``answer`` and ``response``) is an InputError:
    which one to check would be a guess.
    """
    given = [key for key in ROW_KEYS[name] if _given(row.get(key))]
    if len(given) > 1:
        raise InputError(f"the row gives both {' and '.join(map(repr, given))}: keep one")
    return row[given[0]] if given else None


def batch_rows(rows: Any) -> Iterable[Any]:
    """The rows of a list (or any iterable) of dicts, or of a DataFrame, which is not imported for it."""
    if hasattr(rows, "to_dict") and not isinstance(rows, Mapping):
        rows = _frame_rows(rows)
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        raise InputError(f"verify_many takes a list of rows (dicts) or a DataFrame, not a "
                         f"{type(rows).__name__}")
    return rows


def _frame_rows(frame: Any) -> list[dict[Any, Any]]:
    """A DataFrame's rows as dicts; a Series, or columns named twice, are one clear error."""
    columns = getattr(frame, "columns", None)
    if columns is None:
        raise InputError(f"verify_many takes a DataFrame or a list of rows, not a {type(frame).__name__}: "
                         "a Series is one column or one row; for one row pass [series.to_dict()]")
    named = [str(c) for c in columns]
    twice = sorted({c for c in named if named.count(c) > 1})
    if twice:
        raise InputError(f"the DataFrame has more than one column named {', '.join(map(repr, twice))}: "
                         "keep one, or the last would silently win")
    both = [keys for keys in ROW_KEYS.values() if all(k in named for k in keys)]
    if both:
        raise InputError("the DataFrame has both " + "; both ".join(" and ".join(map(repr, k)) for k in both)
                         + " columns: keep one of each")
    records: list[dict[Any, Any]] = frame.to_dict("records")
    return records


def verify_rows(verify: VerifyRow, rows: Any) -> list[CheckResult | Failure]:
    """One result per row, in order: a CheckResult, or a Failure for a row that could not be checked."""
    results: list[CheckResult | Failure] = []
    for index, row in enumerate(batch_rows(rows)):
        try:
            results.append(_verify_row(verify, row))
        except FactJudgeError as error:  # one bad row or failed call must not lose the others
            results.append(Failure(index, f"row {index}: {error}", type(error).__name__))
    return results


def _verify_row(verify: VerifyRow, row: Any) -> CheckResult:
    if not isinstance(row, Mapping):
        raise InputError(f"a {type(row).__name__}, not a dict with question, answer and context")
    answer = row_field(row, "answer")
    if answer is None:
        raise InputError("no 'answer' (or 'response') to check")
    if not isinstance(answer, str):
        raise InputError(f"the answer is a {type(answer).__name__}, not text")
    question = row_field(row, "question")
    return verify("" if question is None else str(question), answer, row_field(row, "context"))
