"""Every text that explains a verdict is made from its grounds, in one module (``factjudge.explain``).

The terminal, the JSON ``why``/``reason``, the report's "why" column and the web page all show
``explain``'s words; none words a verdict itself, and nothing parses the project's own wording.
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

from rich.console import Console

from factjudge import explain
from factjudge.checking.render import print_result
from factjudge.checking.verifier import Verifier
from factjudge.eval.report_html import item_record
from factjudge.grounds import Grounds, ValueCheck
from factjudge.judges.strategies import SUPPORTED_BAND, SUPPORTED_THRESHOLD
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Evidence, Verdict

PACKAGE = Path(__file__).resolve().parents[1] / "factjudge"
FILLER = [f"Paragraph {i} is about the harbour of Halden and its {i} old cranes, which stand idle." for i in
          range(120)]
FACT = "The museum opened in 1998 on the south bank."
ANSWER = "The museum opened in 1998. It stands on the north bank. I love it!"


def _doubt(messages: list[Message]) -> Completion:
    """P(No) 0.1 where the window holds the opening year and the statement is about it; 0.8 otherwise."""
    prompt = messages[-1]["content"]
    statement = prompt.rsplit("<statement>", 1)[1]
    p_no = 0.1 if "1998" in statement and FACT in prompt else 0.8
    top = {"Yes": math.log(1 - p_no), "No": math.log(p_no)}
    word = "No" if p_no >= 0.5 else "Yes"
    return Completion(word, logprobs=(TokenLogprob(word, top[word], top),), model=LOCAL_DEFAULT)


def _long_context_result() -> CheckResult:
    context = [" ".join(FILLER[:60]), FACT, " ".join(FILLER[60:])]
    model = ScriptedChatModel(_doubt, name=LOCAL_DEFAULT)
    return Verifier(model=model).verify("When did the museum open, and where?", ANSWER, context=context)


def test_every_output_of_a_windowed_per_sentence_check_is_worded_from_its_grounds() -> None:
    result = _long_context_result()
    judged = [v for v in result.segment_verdicts if v.label in ("true", "false")]
    assert [v.label for v in judged] == ["true", "false"]
    assert all(v.grounds.windows > 1 for v in judged)  # read in windows
    # The grounds hold what decided, as data.
    true, false = judged
    assert false.grounds.windows_read == 3 and 1 <= true.grounds.windows_read < 3  # read until supported
    # Judged at the cut for what it read: a window of a long context.
    cut = SUPPORTED_BAND.reading(false.evidence).false_from
    assert cut > SUPPORTED_THRESHOLD
    assert (false.grounds.rule, false.grounds.false_from, false.grounds.calibrated) == ("cut", cut, True)
    assert false.grounds.score == false.error_score and true.grounds.passage == FACT

    data = explain.result_dict(result)
    for verdict, shown in zip(result.segment_verdicts, data["segment_verdicts"], strict=True):
        assert shown["why"] == explain.why(verdict) and shown["score_note"] == explain.score_note(verdict)
        assert Verdict.from_dict(shown) == verdict  # the words are not kept: they are made again
    assert data["reason"] == explain.reason(result) == explain.reason(result.item_verdicts())
    for jargon in ("P(No)", "P(not", "calibrated", "threshold", "window", "0.41"):
        assert jargon not in explain.reason(result)
    # "bank" is in the context (another window's "south bank"): only the word no passage holds is flagged.
    assert explain.reason(result) == ("1 of 2 checked sentences is supported by the context; not supported: "
                             "'It stands on the north bank.' (not supported by the context; flagged: "
                             "'north').")

    out = io.StringIO()
    print_result(result, Console(file=out, width=300, color_system=None))
    text = out.getvalue()
    for verdict in judged:
        assert explain.why(verdict) in text and explain.rests_on(verdict) in text
        assert explain.score_note(verdict) in text
    assert "P(" not in text and "calibrated" not in text

    gold = {"segment_labels": [None] * len(result.segments), "response_label": None}
    line = {"result": data, "gold": gold, "example": {}}
    rows = item_record(line, 0, 0)["segments"]
    assert [row["why"] for row in rows] == [explain.why(v) for v in result.segment_verdicts]


def test_a_contradicted_value_is_worded_as_the_comparison() -> None:
    value = ValueCheck("Toronto", "place", "The capital of Canada is ___ (a place).", "Ottawa",
                       "contradicted", 25, 32, "Its capital is Ottawa.")
    verdict = Verdict("segment", 1, "false", 0.93, "evidence@m",
                      (Evidence("wikipedia", "Canada is a country. Its capital is Ottawa.", title="Canada"),),
                      Grounds("values", 0.3, values=(value,), passage="Its capital is Ottawa."))
    assert explain.why(verdict) == ("the passage says Ottawa; the answer says Toronto; "
                                   "asked “The capital of Canada is ___ (a place).”")
    assert explain.rests_on(verdict) == "wikipedia · Canada: “Its capital is Ottawa.”"
    assert explain.checks(verdict) == [
        "Toronto: the passage says Ottawa (asked: “The capital of Canada is ___ (a place).”)"]
    items = [("The capital of Canada is Toronto.", verdict)]
    assert explain.reason(items) == ("0 of 1 checked sentence is supported by the evidence; not supported: "
                                     "'The capital of Canada is Toronto.' (the passage says Ottawa; the "
                                     "answer says Toronto; asked “The capital of Canada is ___ (a place).”).")


def test_a_rank_read_from_the_passages_words_shows_no_question() -> None:
    # A superlative the passage ranks lower is read from its words: no question was asked.
    value = ValueCheck("largest", "rank", "", "second largest", "contradicted", 4, 11,
                       "Saturn is the second largest in the Solar System, after Jupiter.")
    verdict = Verdict("segment", 1, "false", 0.62, "evidence@m", (), Grounds("values", 0.3, values=(value,)))
    assert explain.checks(verdict) == ["largest: the passage says second largest"]


def test_the_sentence_a_verdict_rests_on_is_named_by_the_passage_that_holds_it() -> None:
    # Read in the English lead after the French one: the address shown is the English article's.
    french = Evidence("wikipedia", "Le Canada est un pays.", url="https://fr.wikipedia.org/wiki/Canada",
                      title="Canada")
    english = Evidence("wikipedia", "Canada is a country. Its capital is Ottawa.",
                       url="https://en.wikipedia.org/wiki/Canada", title="Canada")
    verdict = Verdict("segment", 1, "false", 0.93, "evidence@m", (french, english),
                      Grounds("values", 0.3, passage="Its capital is Ottawa."))
    assert explain.rests_on(verdict) == ("wikipedia · Canada · https://en.wikipedia.org/wiki/Canada "
                                         "(+1 more): “Its capital is Ottawa.”")


def test_the_close_call_is_read_at_the_edge_that_made_the_label() -> None:
    band = Grounds("band", true_below=0.41, false_from=0.5)
    near_true = Verdict("segment", 1, "true", 0.397, "evidence@m", grounds=band)
    far_true = Verdict("segment", 1, "true", 0.2, "evidence@m", grounds=band)
    near_false = Verdict("segment", 1, "false", 0.55, "evidence@m", grounds=band)
    assert near_true.uncertain and not far_true.uncertain and near_false.uncertain
    assert explain.score_note(near_true) == "error score 0.40, a close call; true below 0.41, false from 0.50"


def test_no_module_but_explain_words_a_verdict_or_reads_the_words_back() -> None:
    phrases = ("does not support it", "not enough evidence:", "the model answered ", "listed it as wrong")
    for path in PACKAGE.rglob("*.py"):
        if path.name == "explain.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not any(p in text for p in phrases), path
    records = (PACKAGE / "records.py").read_text(encoding="utf-8")
    assert "import re" not in records and "rationale" not in records.split("def from_dict")[0]
    page = (PACKAGE / "integrations" / "static" / "app.js").read_text(encoding="utf-8")
    assert re.search(r"function why\(verdict\) \{\s*return verdict\.why", page)
    assert "P(" not in page and "threshold" not in page
