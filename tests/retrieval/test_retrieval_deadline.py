"""Every fetch and search shares the check's deadline (issue 34.4): slow servers on 127.0.0.1 cannot
stretch a check past it, whether they serve reference links, a MediaWiki API or web search."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from factjudge import explain
from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.errors import RetrievalError
from factjudge.llm.deadline import DeadlinePassed, deadline
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult
from factjudge.retrieval import links
from factjudge.retrieval.links import LinkFetcher, doc_evidence
from factjudge.retrieval.web_search import RateLimiter
from factjudge.retrieval.wiki.mediawiki import MediaWikiApi
from factjudge.testing.live import serve_handler
from tests.retrieval.local_search_server import PAYLOADS, LocalSearchServer, Reply, provider_for
from tests.retrieval.wiki.mediawiki_server import MediaWikiServer, serve

PAGE = b"<html><head><title>Etna</title></head><body><p>Mount Etna is a volcano in Sicily.</p></body></html>"


class Sleeps(list[float]):
    """Records the waits asked for, instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@contextmanager
def slow_site(seconds: float) -> Iterator[tuple[str, list[str]]]:
    """Pages on 127.0.0.1 that each take ``seconds`` to answer; yields the base URL and the paths asked."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            time.sleep(seconds)
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped waiting

        def log_message(self, *args: Any) -> None:
            pass

    with serve_handler(Handler) as base:
        yield base, seen


def test_a_fetch_gets_only_what_is_left_of_the_checks_deadline() -> None:
    with slow_site(3.0) as (base, seen), deadline(0.5):
        with pytest.raises(DeadlinePassed, match=r"deadline of 0\.5 s passed \(fetching .*/slow\)"):
            LinkFetcher(timeout=10, allow_loopback=True).fetch(f"{base}/slow")
        with pytest.raises(DeadlinePassed, match="no time was left to fetch"):
            LinkFetcher(timeout=10, allow_loopback=True).fetch(f"{base}/next")
    # The second fetch never left; on a loaded machine the first may be cut before the server logs it.
    assert "/next" not in seen


def test_the_fetchs_own_timeout_is_still_its_own_error() -> None:
    own = r"^timed out after 0\.3 s$"
    with slow_site(3.0) as (base, _), deadline(30), pytest.raises(RetrievalError, match=own):
        LinkFetcher(timeout=0.3, allow_loopback=True).fetch(f"{base}/slow")


def test_slow_reference_links_stop_at_the_deadline_not_after_each_ones_timeout() -> None:
    # Six links answering in 0.8 s each took 4.8 s whatever the deadline; the API allows 20 of them.
    urls = [f"/page{i}" for i in range(6)]
    # Cut mid-fetch, or (on a loaded machine) before the next fetch began: either way the deadline's error.
    cut = r"fetching|no time was left to fetch"
    with slow_site(0.8) as (base, seen), deadline(1.0), pytest.raises(DeadlinePassed, match=cut):
        doc_evidence("Etna", [base + url for url in urls], LinkFetcher(timeout=10, allow_loopback=True))
    assert 1 <= len(seen) <= 2


def test_a_check_with_slow_references_ends_at_its_deadline_without_a_model_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The check's own fetcher refuses loopback addresses: let it reach the test's server.
    allowed = links.address_problem
    monkeypatch.setattr(links, "address_problem",
                        lambda ip, **kw: allowed(ip, **{**kw, "allow_loopback": True}))
    model = ScriptedChatModel(lambda messages: "Answer: ALL_CORRECT")
    with slow_site(0.8) as (base, seen):
        config = CheckConfig(strategy="doc", deadline=1.0, use_cache=False)
        try:
            result = check("Where is Etna?", "Mount Etna is in Sicily.", config, model=model,
                           refs=[f"{base}/page{i}" for i in range(6)])
        except DeadlinePassed as exc:
            said = str(exc)
        else:  # a checker that keeps what was done says what the deadline left unjudged
            assert isinstance(result, CheckResult)
            said = explain.result_json(result)
    assert "deadline of 1 s passed" in said
    assert len(seen) < 6 and model.calls == []


class SlowMediaWiki(MediaWikiServer):
    """The test MediaWiki, answering every request after ``delay`` seconds."""

    delay: float = 0.6

    def reply(self, params: dict[str, str]) -> dict[str, object]:
        time.sleep(self.delay)
        return super().reply(params)


def test_a_slow_mediawiki_api_stops_at_the_deadline() -> None:
    articles = {"Madrid": "Madrid is the capital of Spain.", "Spain": "Spain is in Europe.",
                "Paris": "Paris is the capital of France."}
    server = SlowMediaWiki(articles)
    with serve(server):
        api = MediaWikiApi(server.url, cache_dir=None, allow_loopback=True, per_second=100.0)
        # Titles and search, then one article a request: four requests, 2.4 s.
        with deadline(1.0), pytest.raises(DeadlinePassed, match="deadline of 1 s passed"):
            api.search("capital cities", 3, topics=["Madrid", "Spain", "Paris"])
        assert len(server.requests) <= 2
        assert len(api.search("capital cities", 3, topics=["Madrid", "Spain", "Paris"])) == 3  # no deadline


def test_a_slow_search_provider_stops_at_the_deadline() -> None:
    script = [Reply(PAYLOADS["serper"]([("t", "https://x.example/", "s")]), delay=3.0)]
    stopped = r"deadline of 0\.5 s passed \(searching serper\)"
    with LocalSearchServer(script) as server, deadline(0.5), pytest.raises(DeadlinePassed, match=stopped):
        provider_for("serper", server, timeout=10, sleep=Sleeps()).search("q", 3)
    assert len(server.requests) == 1


def test_search_retries_stop_when_their_back_off_would_outlast_the_deadline() -> None:
    sleeps = Sleeps()
    script = [Reply({"error": {"message": "backend unavailable"}}, status=503)] * 4
    with LocalSearchServer(script) as server, deadline(2.0), \
            pytest.raises(DeadlinePassed, match="server error HTTP 503"):
        provider_for("serper", server, sleep=sleeps, backoff=4.0, max_attempts=4).search("q", 3)
    assert len(server.requests) == 1 and sleeps == []  # not four requests and 2 + 4 + 8 s of back-off


def test_a_rate_limit_wait_past_the_deadline_is_not_begun_and_leaves_its_slot() -> None:
    sleeps = Sleeps()
    clock = [100.0]
    limiter = RateLimiter(0.1, clock=lambda: clock[0], sleep=sleeps)  # one request every 10 s
    limiter.wait()
    with deadline(1.0), pytest.raises(DeadlinePassed, match=r"rate limit is 10\.0 s away"):
        limiter.wait()
    assert sleeps == []
    limiter.wait()  # without a deadline: the slot the refused caller left, not the one after
    assert sleeps == [10.0]
