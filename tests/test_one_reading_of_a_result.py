"""One reading of a result (issue 41, point 1): the items of an answer and its false spans are the
``CheckResult``'s, whoever reads them — faithfulness, eval's FActScore, ``Verifier``'s unsupported
items, the report's page and the Mu-SHROOM span score.

Before, eval and the Verifier took ``claim_verdicts or segment_verdicts`` as the items: with claim
granularity a segment whose extraction gave no claims is judged whole, faithfulness counted that
verdict, and eval's FActScore and ``unsupported`` dropped it (FActScore 100 beside faithfulness 0.5).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.checking.verifier import unsupported
from factjudge.config import CheckConfig
from factjudge.eval.report_html import item_record
from factjudge.eval.report_tables import prediction_rows
from factjudge.eval.summary import metric_rows, predicted_spans
from factjudge.eval.tables.lines import predicted_facts, unverified_items
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Claim, ErrorSpan, Segment, Verdict

QUESTION = "Which is the smallest ocean in the world?"
ANSWER = ("The smallest ocean in the world is the Arctic Ocean. "
          "It covers about 30 million square kilometres. "
          "I hope you visit it one day!")
# Segment 2 gets no claims: it is judged whole, among segment 1's claim, and judged false.
EXTRACTION = ("Segment 1:\nClaim 1. The Arctic Ocean is the smallest ocean in the world.\n"
              "Segment 2:\nNo claims\nSegment 3:\nNo claims\n")


def line_of(result: CheckResult) -> dict[str, Any]:
    """A bench result line, as the runner writes it and the report reads it back."""
    return {"example_id": "x-1", "setup": "claims", "dataset": "demo", "domain": "wk", "language": "en",
            "gold": {"response_label": None, "segment_labels": [None] * len(result.segments)},
            "result": json.loads(explain.result_json(result))}


@pytest.fixture()
def result() -> CheckResult:
    model = ScriptedChatModel([EXTRACTION, "Answer: 2"])
    return Checker(CheckConfig(granularity="claim"), model).check(QUESTION, ANSWER)


def test_a_segment_judged_whole_among_claims_is_an_item_for_every_reader(result: CheckResult) -> None:
    assert [(v.target, v.label) for _, v in result.item_verdicts()] == [
        ("claim", "true"), ("segment", "false"), ("segment", "not_checkable")]
    assert result.faithfulness == pytest.approx(0.5)
    line = line_of(result)
    # eval's FActScore counts the same two facts faithfulness does (it read one, FActScore 100, before)
    assert predicted_facts(line["result"]) == predicted_facts(result) == [True, False]
    [row] = metric_rows([line]).query("domain == 'wk'").to_dict("records")
    assert row["factscore"] == 50.0 == 100 * result.faithfulness
    assert prediction_rows([line])["predicted_factscore"].tolist() == [50.0]
    # the Verifier names the false segment as unsupported (it named nothing before)
    assert [(item["target"], item["text"]) for item in unsupported(result)] == [
        ("segment", "It covers about 30 million square kilometres.")]
    assert "It covers about 30 million" in explain.reason(result)


def test_unverified_items_are_the_same_items(result: CheckResult) -> None:
    open_ = CheckResult.from_dict({**result.to_dict(), "segment_verdicts": [
        v.to_dict() | {"label": "unverified"} if v.target_id == 2 else v.to_dict()
        for v in result.segment_verdicts]})
    assert unverified_items(open_) == 1 and predicted_facts(open_) == [True, False]


def hand_made() -> CheckResult:
    """Two segments judged through claims, one whole: quotes located and not, false and true."""
    answer = "Paris is in Spain. It has 90 million people. The Moon is cheese."
    segments = (Segment(1, "Paris is in Spain.", 0, 18), Segment(2, "It has 90 million people.", 19, 44),
                Segment(3, "The Moon is cheese.", 45, 64))
    claims = (Claim(1, 1, "Paris is in Spain."), Claim(2, 2, "Paris has 90 million people."))
    claim_verdicts = (
        Verdict("claim", 1, "false", 0.9, "j", spans=(ErrorSpan(12, 17, "Spain", 0.8),)),
        Verdict("claim", 2, "false", 0.7, "j", spans=(ErrorSpan(-1, -1, "90 million", located=False),)))
    segment_verdicts = (Verdict("segment", 1, "false", 0.9, "j"), Verdict("segment", 2, "false", 0.7, "j"),
                        Verdict("segment", 3, "false", 0.6, "j", spans=(ErrorSpan(57, 63, "cheese"),)))
    return CheckResult(QUESTION, answer, segments, claims, segment_verdicts, claim_verdicts, "false", 0.0,
                       0.9, "m", "vanilla", "claim", "wk")


def test_the_false_spans_are_the_results_own_wherever_they_are_shown() -> None:
    result = hand_made()
    line = line_of(result)
    assert [(s.start, s.end) for s in result.spans] == [(12, 17), (57, 63)]  # located quotes only
    assert item_record(line, 0, 0)["marks"] == [[12, 17], [57, 63]]  # the report's page marks them
    # the span score counts the claim none of whose quotes is located by its segment, whole
    assert predicted_spans(line["result"]) == predicted_spans(result) == [
        (12, 17, 0.8), (19, 44, 0.7), (57, 63, 0.6)]
    assert [(s.start, s.end) for s, _ in result.false_spans(whole_segments=True)] == [
        (12, 17), (19, 44), (57, 63)]


def test_the_json_view_is_the_records_data_and_the_words() -> None:
    result = hand_made()
    data = explain.result_dict(result)
    fields = list(result.to_dict())
    at = fields.index("threshold") + 1  # the metric view stands beside the threshold, as it always has
    assert list(data) == [*fields[:at], "faithfulness", "successful", "reason", *fields[at:]]
    assert data["reason"] == explain.reason(result)
    verdict = data["segment_verdicts"][2]
    assert list(verdict)[-4:] == ["cut", "uncertain", "why", "score_note"]
    assert verdict["why"] == explain.why(result.segment_verdicts[2])
    assert CheckResult.from_dict(data) == result  # the words are not data: read back, they are dropped
