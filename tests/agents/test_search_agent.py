"""Search agent: scripted model, real local search server (Serper's reply shape)."""

from __future__ import annotations

import pytest

from factjudge.agents.search_agent import (
    SearchStep,
    WebSearchResult,
    parse_search_step,
    render_results,
    search_web,
)
from factjudge.errors import InputError, ParseError, RetrievalError
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.retrieval.web_search import SearchHit
from factjudge.transcript import Transcript
from tests.retrieval.local_search_server import LocalSearchServer, Reply, Seen, provider_for, serper_payload

CLAIM = "The Arctic Ocean covers about 30 million square kilometres."
WIKI = ("Arctic Ocean - Wikipedia", "https://en.wikipedia.org/wiki/Arctic_Ocean",
        "The Arctic Ocean is the smallest of the five oceans.")
BRIT = ("Arctic Ocean | Britannica", "https://www.britannica.com/place/Arctic-Ocean",
        "Area: about 14,060,000 square km.")
NOAA = ("How big is the Arctic?", "https://oceanservice.noaa.gov/facts/arctic.html",
        "The Arctic Ocean has an area of about 5.4 million square miles.")
RESULTS = {
    "arctic ocean area": [WIKI, BRIT],
    # The same Wikipedia page again, spelt with a fragment and a trailing slash.
    "arctic ocean size km2": [("Arctic Ocean", "https://en.wikipedia.org/wiki/Arctic_Ocean/#Geography",
                               "Another snippet."), NOAA],
}


def serve(seen: Seen) -> Reply:
    query = seen.json()["q"]
    return Reply(serper_payload(RESULTS.get(query, []), query))


def run(replies: list[str], server: LocalSearchServer, **kw: int) -> tuple[
        WebSearchResult, ScriptedChatModel]:
    model = ScriptedChatModel(replies)
    result = search_web(CLAIM, model=model, provider=provider_for("serper", server), **kw)
    return result, model


def test_the_agent_searches_reads_and_stops_when_done(transcript: Transcript) -> None:
    traces = transcript.traces
    with LocalSearchServer(serve) as server:
        result, model = run(["Query: arctic ocean area", "Query: arctic ocean size km2", "DONE"],
                            server)
    assert result.stop == "done"
    assert [s.query for s in result.steps] == ["arctic ocean area", "arctic ocean size km2"]
    assert [seen.json()["q"] for seen in server.requests] == ["arctic ocean area", "arctic ocean size km2"]
    assert list(result.evidence) == [
        Evidence(source="web", text=WIKI[2], url=WIKI[1], title=WIKI[0]),
        Evidence(source="web", text=BRIT[2], url=BRIT[1], title=BRIT[0]),
        Evidence(source="web", text=NOAA[2], url=NOAA[1], title=NOAA[0]),
    ]
    first, second, third = (call[0]["content"] for call in model.calls)
    assert f"<statement>\n{CLAIM}\n</statement>" in first
    assert "<results>\n(no searches yet)\n</results>" in first
    assert f"Query 1: arctic ocean area\n[1] {WIKI[0]} ({WIKI[1]})\n{WIKI[2]}\n[2]" in second
    assert BRIT[2] in second and "Query 2" not in second
    assert "Query 2: arctic ocean size km2" in third and NOAA[2] in third
    assert [(t.step, t.prompt_name, t.error) for t in traces] == [("search", "search_query", None)] * 3


def test_the_step_bound_is_honoured() -> None:
    with LocalSearchServer(serve) as server:
        # A fourth model call would run the script out and raise.
        result, model = run(["Query: q1", "Query: q2", "Query: q3"], server, max_steps=3)
    assert result.stop == "max_steps" and len(model.calls) == 3 and len(server.requests) == 3
    with LocalSearchServer(serve) as server:
        result, model = run(["Query: arctic ocean area"], server, max_steps=1)
    assert result.stop == "max_steps" and len(model.calls) == 1 and len(result.evidence) == 2
    with pytest.raises(InputError):
        run([], server, max_steps=0)


def test_a_bad_reply_is_retried_with_a_correction(transcript: Transcript) -> None:
    traces = transcript.traces
    replies = ["Sure! Here is a good query:\nQuery: arctic ocean area", "Query: arctic ocean area", "DONE"]
    with LocalSearchServer(serve) as server:
        result, model = run(replies, server)
    assert result.stop == "done" and len(result.evidence) == 2
    retry = model.calls[1]
    assert retry[1] == {"role": "assistant", "content": replies[0]}
    assert "expected exactly one line" in retry[2]["content"]
    assert [t.attempt for t in traces] == [1, 2, 1] and traces[0].error is not None


def test_done_before_any_search_and_a_repeated_query_are_rejected(transcript: Transcript) -> None:
    traces = transcript.traces
    replies = ["DONE", "Query: arctic ocean area", "Query: Arctic Ocean Area", "DONE"]
    with LocalSearchServer(serve) as server:
        result, _ = run(replies, server)
    assert len(server.requests) == 1 and result.stop == "done"
    errors = [t.error for t in traces]
    assert errors[0] is not None and "a 'Query: ...' line is required" in errors[0]
    assert errors[2] is not None and "already searched" in errors[2]


def test_unreadable_replies_are_reported_never_guessed(transcript: Transcript) -> None:
    traces = transcript.traces
    with LocalSearchServer(serve) as server:
        result, _ = run(["I would search for the area.", "", "Search: arctic ocean area"], server)
    assert result == WebSearchResult((), (), "unparseable")
    assert server.requests == [] and len(traces) == 3 and all(t.error for t in traces)


def test_evidence_found_before_an_unreadable_step_is_kept() -> None:
    with LocalSearchServer(serve) as server:
        result, _ = run(["Query: arctic ocean area", "hmm", "still thinking", "no idea"], server)
    assert result.stop == "unparseable" and [e.url for e in result.evidence] == [WIKI[1], BRIT[1]]


def test_a_provider_failure_is_raised() -> None:
    with LocalSearchServer([Reply({"message": "Unauthorized."}, status=401)]) as server, \
            pytest.raises(RetrievalError, match="SERPER_API_KEY"):
        run(["Query: arctic ocean area"], server)


@pytest.mark.parametrize(("reply", "first", "expected"), [
    ("Query: arctic ocean area", True, "arctic ocean area"),
    ("  query:   \"arctic ocean area\"  \n", True, "arctic ocean area"),
    ("DONE", False, None),
    ("Done.", False, None),
])
def test_parse_accepts_the_contract(reply: str, first: bool, expected: str | None) -> None:
    assert parse_search_step(reply, first=first).query == expected


@pytest.mark.parametrize(("reply", "reason"), [
    ("", "empty"),
    ("Here is my query: arctic ocean", "expected a line"),
    ("Query: arctic ocean\nDONE", "exactly one line"),
    ("Query:", "is empty"),
    ("Query: " + "x" * 301, "longer than"),
    ("DONE", "required"),
])
def test_parse_rejects_real_bad_replies(reply: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse_search_step(reply, first=True)


def test_results_render_queries_and_empty_searches() -> None:
    text = render_results([SearchStep("a", (SearchHit("T", "https://u", "S"),)), SearchStep("b", ())])
    assert text == "Query 1: a\n[1] T (https://u)\nS\n\nQuery 2: b\n(no results)"
