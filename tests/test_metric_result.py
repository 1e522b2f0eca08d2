"""CheckResult as a metric: faithfulness, a plain reason, a threshold and is_successful()."""

from __future__ import annotations

import dataclasses
import math

import pytest

from factjudge import explain
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.grounds import Grounds
from factjudge.llm.base import Message
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Claim, ErrorSpan, Evidence, Segment, Verdict
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong

CTX = (Evidence("context", "The bridge opened to traffic in May 1937."),)
CUT = Grounds("cut", 0.5, true_below=0.41, false_from=0.41)


def result(*verdicts: Verdict, claims: tuple[Claim, ...] = (), claim_verdicts: tuple[Verdict, ...] = (),
           score: float | None = None) -> CheckResult:
    segments = tuple(Segment(v.target_id, f"Sentence {v.target_id}.", 0, 1) for v in verdicts)
    return CheckResult("q", "a", segments, claims, verdicts, claim_verdicts, "false", score, None,
                       "m", "supported", "segment", "wk")


def verdict(n: int, label: str, grounds: Grounds = CUT, evidence: tuple[Evidence, ...] = CTX,
            spans: tuple[ErrorSpan, ...] = ()) -> Verdict:
    return Verdict("segment", n, label, 0.5, "supported@m", evidence, grounds, spans=spans)  # type: ignore[arg-type]


def test_faithfulness_is_the_score_and_success_needs_the_threshold() -> None:
    r = dataclasses.replace(result(verdict(1, "true"), verdict(2, "true"), verdict(3, "unverified"),
                                   score=1.0), label="unverified")
    assert r.faithfulness == 1.0 and r.threshold == 0.5 and r.successful and r.is_successful()
    assert not dataclasses.replace(r, threshold=0.7).successful  # 2 shown true of 3 checked


def test_a_result_labelled_false_is_never_successful() -> None:
    # Issue 44, point 14: faithfulness 0.5 at the default threshold 0.5 was labelled false and successful.
    r = result(verdict(1, "true"), verdict(2, "false"), score=0.5)
    assert r.label == "false" and r.faithfulness == 0.5 and r.threshold == 0.5
    assert not r.successful and not r.is_successful() and explain.result_dict(r)["successful"] is False
    assert not dataclasses.replace(r, threshold=0.0).successful


def test_an_answer_with_nothing_to_check_passes() -> None:
    # Issue 44, point 14: an opinion-only answer was counted as not successful.
    nothing = dataclasses.replace(result(verdict(1, "not_checkable"), verdict(2, "not_checkable")),
                                  label="not_checkable")
    assert nothing.faithfulness is None and nothing.successful
    assert explain.result_dict(nothing)["successful"] is True
    assert dataclasses.replace(nothing, threshold=1.0).successful
    assert explain.reason(nothing).startswith("Nothing was checked")


def test_python_reads_the_same_fields_the_json_has() -> None:
    band = Grounds("band", 0.77, true_below=0.41, false_from=0.5)
    r = result(verdict(1, "true"), verdict(2, "false", band), score=0.5)
    data = explain.result_dict(r)  # the JSON's words are explain's, for Python as for JSON
    assert data["successful"] is r.successful
    for made, shown in zip(r.segment_verdicts, data["segment_verdicts"], strict=True):
        assert shown["why"] == explain.why(made) and shown["score_note"] == explain.score_note(made)
    assert explain.score_note(r.segment_verdicts[1]).startswith("error score 0.50")


def test_threshold_round_trips_and_old_results_load_with_the_default() -> None:
    r = dataclasses.replace(result(verdict(1, "true"), score=1.0), threshold=0.8)
    assert CheckResult.from_json(explain.result_json(r)) == r
    old = r.to_dict()
    del old["threshold"]
    assert CheckResult.from_dict(old).threshold == 0.5


def test_reason_names_what_is_not_supported_in_plain_words() -> None:
    r = result(verdict(1, "true"), verdict(2, "true"),
               verdict(3, "false", spans=(ErrorSpan(0, 4, "1950"),)), score=2 / 3)
    assert explain.reason(r) == ("2 of 3 checked sentences are supported by the context; not supported: "
                        "'Sentence 3.' (not supported by the context; flagged: '1950').")
    assert "P(" not in explain.reason(r) and "threshold" not in explain.reason(r)


def test_reason_drops_probability_notes_keeps_words_and_counts_open_items() -> None:
    r = result(verdict(1, "false", Grounds("band", 0.77, true_below=0.41, false_from=0.5)),
               verdict(2, "unverified"), verdict(3, "unparseable"), score=0.0)
    assert explain.reason(r) == ("0 of 1 checked sentence is supported by the context; not supported: "
                        "'Sentence 1.' (not supported by the context). 1 more could not be decided "
                        "(not enough evidence) and 1 more could not be judged (the model's reply could "
                        "not be read).")
    scorer = result(verdict(1, "false", Grounds("scorer", 0.88, true_below=0.5, false_from=0.5,
                                                scorer="token_f1")), score=0.0)
    assert explain.reason(scorer).endswith("'Sentence 1.' (not supported by the context).")


def test_reason_without_evidence_and_with_nothing_judged() -> None:
    r = result(verdict(1, "true", evidence=()), verdict(2, "false", evidence=()), score=0.5)
    assert explain.reason(r) == ("1 of 2 checked sentences is judged true by the model (no evidence read); "
                        "judged false: 'Sentence 2.'.")
    assert explain.reason(result(verdict(1, "not_checkable"))).startswith("Nothing was checked")
    assert explain.reason(result(verdict(1, "unverified"))) == (
        "No sentence could be judged: 1 could not be decided (not enough evidence).")


def test_reason_counts_claims_and_lists_at_most_three() -> None:
    claims = tuple(Claim(i, 1, f"Claim {i}.") for i in range(1, 6))
    cvs = tuple(Verdict("claim", i, "false", 0.9, "j", CTX) for i in range(1, 6))
    r = result(verdict(1, "false"), claims=claims, claim_verdicts=cvs, score=0.0)
    assert explain.reason(r).startswith("0 of 5 checked claims are supported by the context; not supported: "
                               "'Claim 1.' (not supported by the context); 'Claim 2.'")
    assert explain.reason(r).endswith("; and 2 more.")


def test_verifier_threshold_is_on_the_result() -> None:
    model = ScriptedChatModel(second_is_wrong, name="scripted:judge")
    r = Verifier(model=model, threshold=0.7).verify(QUESTION, ANSWER, context=CONTEXT)
    assert r.threshold == 0.7 and r.faithfulness == 0.5 and not r.is_successful()
    assert explain.reason(r).startswith(
        "1 of 2 checked sentences is supported by the context; not supported: "
        "'It stands on the north bank of the river.'")


def test_supported_strategy_reason_is_plain() -> None:
    model = ScriptedChatModel(["Yes", "No"], name=LOCAL_DEFAULT)
    r = Verifier(CheckConfig(values=0), model=model).verify(QUESTION, ANSWER, context=CONTEXT)
    assert r.strategy == "supported"
    reason = explain.reason(r)
    assert "north bank" in reason and "P(" not in reason and "answered" not in reason


def test_the_readme_rag_example_prints_what_the_code_does() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## In a RAG app"):].split("```python\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    at = lines.index("print(explain.reason(result))")
    documented = " ".join(line.removeprefix("# ") for line in lines[at + 1 : at + 4])
    context = ["The Golden Gate Bridge opened to traffic in May 1937. Its main span is 1,280 metres long."]

    def judge(messages: list[Message]) -> str:
        asked = messages[-1]["content"]
        if "___" in asked:  # a value read from the context
            return "1,280" if "span" in asked else "1937"
        return "No" if "4,200" in asked else "Yes"

    model = ScriptedChatModel(judge, name=LOCAL_DEFAULT)
    r = Verifier(model=model, threshold=0.7).verify(
        "When did the Golden Gate Bridge open, and how long is it?",
        "The Golden Gate Bridge opened in 1937. Its main span is about 4,200 metres long.", context=context)
    assert explain.reason(r) == documented
    assert f"# {r.faithfulness} {r.threshold} {r.is_successful()}" in block
    assert f"# 2 {[s.text for s in r.segment_verdicts[1].spans]}" in block


def test_unverified_items_count_against_success_not_in_faithfulness() -> None:
    # Issue 34, point 9: 1 true + 3 unverified items said is_successful() at threshold 1.0.
    r = result(verdict(1, "true"), *(verdict(n, "unverified") for n in (2, 3, 4)), score=1.0)
    assert r.faithfulness == 1.0  # the share of judged items, as before
    r = dataclasses.replace(r, label="unverified")
    assert not dataclasses.replace(r, threshold=1.0).is_successful()
    assert not dataclasses.replace(r, threshold=0.5).is_successful()
    assert dataclasses.replace(r, threshold=0.25).is_successful()  # 1 supported of 4 checked
    mostly = dataclasses.replace(result(*(verdict(n, "true") for n in (1, 2, 3)), verdict(4, "unverified"),
                                        score=1.0), label="true")
    assert mostly.is_successful() and not dataclasses.replace(mostly, threshold=0.8).is_successful()
    unread = dataclasses.replace(result(verdict(1, "true"), verdict(2, "unparseable"), score=1.0),
                                 label="unparseable")
    assert not dataclasses.replace(unread, threshold=0.6).is_successful()
    only_open = dataclasses.replace(result(verdict(1, "unverified"), verdict(2, "not_checkable"), score=None),
                                    label="unverified")
    assert not dataclasses.replace(only_open, threshold=0.0).is_successful()


@pytest.mark.parametrize("bad", ["0.5", None, True, False, math.nan, 1.5, -0.1, [0.5]])
def test_a_threshold_that_is_not_a_share_is_one_input_error(bad: object) -> None:
    with pytest.raises(InputError, match="threshold is a faithfulness between 0 and 1"):
        Verifier(threshold=bad)  # type: ignore[arg-type]
    data = result(verdict(1, "true"), score=1.0).to_dict()
    data["threshold"] = bad
    with pytest.raises(InputError, match="threshold is a faithfulness between 0 and 1"):
        CheckResult.from_dict(data)
    assert CheckResult.from_dict({**data, "threshold": 1}).threshold == 1.0


def test_the_services_json_carries_the_metric_fields_of_the_python_result() -> None:
    # Issue 35, point 4: the service's JSON lacked faithfulness, reason, threshold and success.
    pytest.importorskip("fastapi")
    import httpx

    from factjudge.integrations.http import create_app
    from factjudge.testing.live import serve_in_thread

    app = create_app(model=ScriptedChatModel(second_is_wrong, name="scripted:judge"))
    with serve_in_thread(app) as url:
        response = httpx.post(f"{url}/v1/check", timeout=30,
                              json={"question": QUESTION, "answer": ANSWER, "context": CONTEXT})
        schema = httpx.get(f"{url}/openapi.json", timeout=30).json()
    assert response.status_code == 200, response.text
    data = response.json()
    expected = Verifier(model=ScriptedChatModel(second_is_wrong, name="scripted:judge")).verify(
        QUESTION, ANSWER, context=CONTEXT)
    assert data["faithfulness"] == expected.faithfulness == 0.5
    assert data["threshold"] == 0.5 and data["successful"] is expected.successful is False  # an item is false
    assert data["reason"] == explain.reason(expected) and "north bank" in data["reason"]
    assert CheckResult.from_dict(data).faithfulness == 0.5  # the extra fields do not break loading it back
    documented = schema["components"]["schemas"]["CheckResponse"]["properties"]
    assert {"faithfulness", "threshold", "successful", "reason"} <= set(documented)
