"""Verifier.verify_many: rows as dicts or a DataFrame, our names or Ragas'; a bad row never sinks it."""

from __future__ import annotations

import pytest

from factjudge import CheckResult, Failure, Verifier
from factjudge.errors import InputError, ModelError
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong


def verifier(threshold: float = 0.5) -> Verifier:
    return Verifier(model=ScriptedChatModel(second_is_wrong, name="scripted:judge"), threshold=threshold)


def test_a_list_of_rows_with_our_names_and_ragas_names() -> None:
    rows = [{"question": QUESTION, "answer": ANSWER, "context": CONTEXT},
            {"user_input": QUESTION, "response": ANSWER, "retrieved_contexts": CONTEXT}]
    first, second = verifier(threshold=0.4).verify_many(rows)
    assert isinstance(first, CheckResult) and isinstance(second, CheckResult)
    assert first.strategy == second.strategy == "grounded"
    assert first.faithfulness == second.faithfulness == 0.5 and first.threshold == 0.4
    assert not first.successful and first.segment_verdicts == second.segment_verdicts  # one item is false


def test_a_bad_row_is_a_failure_naming_the_row_and_the_rest_are_checked() -> None:
    rows = [{"question": QUESTION, "context": CONTEXT}, "not a row", {"answer": 42},
            {"answer": ANSWER, "context": ["  "]}, {"answer": ANSWER, "context": CONTEXT}]
    results = verifier().verify_many(rows)
    assert [type(r).__name__ for r in results] == ["Failure"] * 4 + ["CheckResult"]
    assert results[0] == Failure(0, "row 0: no 'answer' (or 'response') to check", "InputError")
    assert results[1].error == "row 1: a str, not a dict with question, answer and context"  # type: ignore[union-attr]
    assert results[2].error == "row 2: the answer is a int, not text"  # type: ignore[union-attr]
    assert "context is empty" in results[3].error  # type: ignore[union-attr]


def test_a_model_error_fails_only_its_row() -> None:
    def judge(messages: list[Message]) -> str:
        if "museum closed" in messages[0]["content"]:
            raise ModelError("endpoint timed out", kind="timed out")
        return second_is_wrong(messages)

    rows = [{"answer": "The city museum closed in 1990.", "context": CONTEXT},
            {"answer": ANSWER, "context": CONTEXT}]
    failed, checked = Verifier(model=ScriptedChatModel(judge, name="scripted:judge")).verify_many(rows)
    assert isinstance(failed, Failure) and failed.kind == "ModelError" and "timed out" in failed.error
    assert isinstance(checked, CheckResult) and checked.label == "false"


def test_a_dataframe_is_read_row_by_row() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"user_input": [QUESTION, None], "response": [ANSWER, None],
                          "retrieved_contexts": [CONTEXT, CONTEXT]})
    result, failure = verifier().verify_many(frame)
    assert isinstance(result, CheckResult) and result.question == QUESTION and result.faithfulness == 0.5
    assert isinstance(failure, Failure) and "no 'answer'" in failure.error


def test_not_a_batch_is_an_input_error_and_failures_round_trip() -> None:
    with pytest.raises(InputError, match="list of rows"):
        verifier().verify_many({"answer": ANSWER})
    failure = Failure(3, "row 3: no 'answer' (or 'response') to check")
    assert Failure.from_dict(failure.to_dict()) == failure


def test_bad_threshold_is_an_input_error() -> None:
    with pytest.raises(InputError, match="between 0 and 1"):
        Verifier(threshold=1.5)


def test_an_empty_retrieval_is_its_rows_distinct_failure_never_a_check_against_wikipedia() -> None:
    # Issue 35, point 3: retrieved_contexts=[] ran evidence-first against Wikipedia (fallback None).
    model = ScriptedChatModel(second_is_wrong, name="scripted:judge")
    rows = [{"user_input": QUESTION, "response": ANSWER, "retrieved_contexts": []},
            {"answer": ANSWER, "context": ["", "  "]}, {"answer": ANSWER, "context": CONTEXT}]
    empty, blank, checked = Verifier(model=model).verify_many(rows)
    for failure in (empty, blank):
        assert isinstance(failure, Failure) and failure.kind == "EmptyContextError"
        assert "empty retrieval" in failure.error and "retriever" in failure.error
    assert isinstance(checked, CheckResult) and checked.strategy == "grounded"
    assert len(model.calls) == 1  # only the row with passages reached the judge


def test_a_context_that_is_no_context_fails_its_row_not_the_batch() -> None:
    # Issue 34, point 8: 5, 2.5 or True as a context was a TypeError that lost the whole batch.
    rows = [{"answer": ANSWER, "context": 5}, {"answer": ANSWER, "context": 2.5},
            {"answer": ANSWER, "context": True}, {"answer": ANSWER, "context": b"bytes"},
            {"answer": ANSWER, "context": CONTEXT}]
    *failures, checked = verifier().verify_many(rows)
    assert [f.error for f in failures] == [  # type: ignore[union-attr]
        "row 0: the context is 5 (int), not text or a list of passages",
        "row 1: the context is 2.5 (float), not text or a list of passages",
        "row 2: the context is True (bool), not text or a list of passages",
        "row 3: the context is b'bytes' (bytes), not text or a list of passages"]
    assert all(isinstance(f, Failure) and f.kind == "InputError" for f in failures)
    assert isinstance(checked, CheckResult)


def test_a_series_and_a_frame_naming_the_answer_twice_are_one_clear_error() -> None:
    pd = pytest.importorskip("pandas")
    with pytest.raises(InputError, match="not a Series"):
        verifier().verify_many(pd.Series([ANSWER]))
    with pytest.raises(InputError, match="more than one column named 'answer'"):
        verifier().verify_many(pd.DataFrame([[ANSWER, "other"]], columns=["answer", "answer"]))
    with pytest.raises(InputError, match="both 'answer' and 'response'"):
        verifier().verify_many(pd.DataFrame({"answer": [ANSWER], "response": ["other"]}))
    [failure] = verifier().verify_many([{"answer": ANSWER, "response": "other"}])
    assert isinstance(failure, Failure) and "both 'answer' and 'response'" in failure.error


def test_a_missing_context_is_none_whether_pandas_wrote_nan_or_na() -> None:
    # Issue 44 (low): a NaN context was no context while pd.NA failed its row as "not text".
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"answer": [ANSWER] * 4, "context": [float("nan"), pd.NA, pd.NaT, None]})
    results = verifier().verify_many(frame)
    assert all(isinstance(r, CheckResult) for r in results), results
    assert len({(r.strategy, r.label) for r in results if isinstance(r, CheckResult)}) == 1
    assert all(r.strategy == "vanilla" for r in results if isinstance(r, CheckResult))
