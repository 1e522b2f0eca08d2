"""Records survive JSON and ignore unknown keys from newer versions."""

from __future__ import annotations

from factjudge.grounds import Grounds, ValueCheck
from factjudge.records import Evidence, Segment, Trace, Usage, Verdict


def test_verdict_round_trip_with_evidence() -> None:
    grounds = Grounds("listed", 0.8, thought="because", passage="text",
                      values=(ValueCheck("1950", "year", "In which year?", "1949", "contradicted", 3, 7),))
    verdict = Verdict("claim", 3, "false", 0.8, "cot@x", (Evidence("link", "text", url="http://a"),),
                      grounds, "abc", "Answer: 3", 0)
    assert Verdict.from_dict(verdict.to_dict()) == verdict


def test_from_dict_ignores_unknown_keys() -> None:
    data = Evidence("kb", "passage").to_dict() | {"new_field": 1}
    assert Evidence.from_dict(data) == Evidence("kb", "passage")


def test_usage_adds_up() -> None:
    total = Usage(10, 2, 1, 0, 0.5) + Usage(5, 1, 0, 1, 0.0)
    assert total == Usage(15, 3, 1, 1, 0.5)


def test_trace_round_trip() -> None:
    trace = Trace("judge", "judge_fact", "h", ({"role": "user", "content": "hi"},), "True", Usage(1, 1, 1))
    assert Trace.from_dict(trace.to_dict()) == trace


def test_segment_located_round_trips_and_old_records_tell_it_by_their_offsets() -> None:
    lost = Segment(2, "Not there.", -1, -1, located=False)
    assert lost.to_dict()["located"] is False and Segment.from_dict(lost.to_dict()) == lost
    assert Segment.from_dict({"id": 2, "text": "x", "start": -1, "end": -1}).located is False
    assert Segment.from_dict({"id": 1, "text": "x", "start": 0, "end": 1}).located is True
