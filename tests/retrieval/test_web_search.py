"""Web search providers against a real HTTP server on 127.0.0.1, in each provider's reply shape."""

from __future__ import annotations

import socket
import threading
import time
from email.utils import formatdate

import pytest

from factjudge.errors import InputError, RetrievalError
from factjudge.retrieval.web_search import (
    RateLimiter,
    SearchHit,
    make_search_provider,
    parse_retry_after,
    shared_limiter,
)
from tests.retrieval.local_search_server import PATHS, PAYLOADS, LocalSearchServer, Reply, provider_for

PROVIDERS = ["serper", "brave", "google", "searxng"]
HITS = [
    ("Arctic Ocean - Wikipedia", "https://en.wikipedia.org/wiki/Arctic_Ocean",
     "The Arctic Ocean is the smallest and shallowest of the world's five oceanic divisions."),
    ("Arctic Ocean | Britannica", "https://www.britannica.com/place/Arctic-Ocean",
     "Arctic Ocean, smallest of the world's oceans, centring approximately on the North Pole."),
    ("Ocean facts", "https://example.org/oceans", "Area about 14 million km2."),
]


class Sleeps(list[float]):
    """Records the waits the retry loop asks for, instead of sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.mark.parametrize("name", PROVIDERS)
def test_results_are_read_from_the_real_reply_shape(name: str) -> None:
    with LocalSearchServer([Reply(PAYLOADS[name](HITS, "smallest ocean"))]) as server:
        hits = provider_for(name, server).search("smallest ocean", 5)
    assert hits == [SearchHit(*hit) for hit in HITS]
    (seen,) = server.requests
    assert seen.path == PATHS[name]
    if name == "serper":
        assert seen.method == "POST" and seen.headers["x-api-key"] == "serper-key"
        assert seen.json() == {"q": "smallest ocean", "num": 5}
    elif name == "brave":
        assert seen.method == "GET" and seen.headers["x-subscription-token"] == "brave-key"
        assert seen.query == {"q": ["smallest ocean"], "count": ["5"]}
    elif name == "google":
        assert seen.method == "GET"
        assert seen.query == {"key": ["google-key"], "cx": ["cse-id"], "q": ["smallest ocean"], "num": ["5"]}
    else:
        assert seen.method == "GET" and seen.query == {"q": ["smallest ocean"], "format": ["json"]}


@pytest.mark.parametrize("name", PROVIDERS)
def test_hits_are_cut_to_k(name: str) -> None:
    with LocalSearchServer([Reply(PAYLOADS[name](HITS))]) as server:
        hits = provider_for(name, server).search("q", 2)
    assert [h.url for h in hits] == [HITS[0][1], HITS[1][1]]


def test_google_caps_num_at_ten_and_an_absent_items_list_means_no_results() -> None:
    with LocalSearchServer([Reply(PAYLOADS["google"]([]))]) as server:
        assert provider_for("google", server).search("nothing matches this", 50) == []
    assert server.requests[0].query["num"] == ["10"]


def test_markup_and_entities_in_snippets_are_removed() -> None:
    marked = [("Arctic &amp; Ocean", "https://a.example/x",
               "The <strong>Arctic Ocean</strong> is the\n smallest &#39;ocean&#39;.")]
    with LocalSearchServer([Reply(PAYLOADS["brave"](marked))]) as server:
        (hit,) = provider_for("brave", server).search("q", 3)
    assert hit == SearchHit("Arctic & Ocean", "https://a.example/x",
                            "The Arctic Ocean is the smallest 'ocean'.")


def test_results_without_a_url_are_dropped() -> None:
    payload = PAYLOADS["serper"](HITS[:1])
    payload["organic"].insert(0, {"title": "no link", "snippet": "x"})
    with LocalSearchServer([Reply(payload)]) as server:
        assert [h.url for h in provider_for("serper", server).search("q", 5)] == [HITS[0][1]]


@pytest.mark.parametrize("name", PROVIDERS)
def test_429_is_retried_after_the_servers_retry_after(name: str) -> None:
    sleeps, held = Sleeps(), Sleeps()
    script = [Reply({"error": "slow down"}, status=429, headers={"Retry-After": "2"}),
              Reply(PAYLOADS[name](HITS))]
    limiter = RateLimiter(1000.0, sleep=held)
    with LocalSearchServer(script) as server:
        hits = provider_for(name, server, sleep=sleeps, limiter=limiter).search("q", 3)
    assert len(hits) == 3 and len(server.requests) == 2
    assert sleeps == [2.0]
    # The limiter was pushed back too, so other threads do not hit the server meanwhile.
    assert len(held) == 1 and 1.9 <= held[0] <= 2.0


def test_brave_rate_limit_headers_say_how_long_to_wait() -> None:
    sleeps = Sleeps()
    per_second = {"X-RateLimit-Limit": "1, 15000", "X-RateLimit-Remaining": "0, 950",
                  "X-RateLimit-Reset": "1, 1419704"}
    script = [Reply({"type": "ErrorResponse"}, status=429, headers=per_second),
              Reply(PAYLOADS["brave"](HITS))]
    limiter = RateLimiter(1000.0, sleep=Sleeps())
    with LocalSearchServer(script) as server:
        provider_for("brave", server, sleep=sleeps, limiter=limiter).search("q", 1)
    assert sleeps == [1.0]
    monthly = {**per_second, "X-RateLimit-Remaining": "0, 0"}
    with LocalSearchServer([Reply({}, status=429, headers=monthly)]) as server, \
            pytest.raises(RetrievalError, match="1419704s"):
        provider_for("brave", server, sleep=sleeps).search("q", 1)


def test_retry_after_really_waits() -> None:
    script = [Reply({}, status=429, headers={"Retry-After": "1"}), Reply(PAYLOADS["serper"](HITS))]
    with LocalSearchServer(script) as server:
        assert len(provider_for("serper", server).search("q", 3)) == 3
    first, second = server.requests
    assert second.at - first.at >= 0.95


def test_a_retry_after_beyond_the_limit_fails_at_once_with_one_line() -> None:
    script = [Reply({}, status=429, headers={"Retry-After": "3600"})]
    with LocalSearchServer(script) as server, pytest.raises(RetrievalError) as info:
        provider_for("brave", server, sleep=Sleeps(), max_retry_after=60).search("q", 3)
    assert "3600" in str(info.value) and "\n" not in str(info.value)
    assert len(server.requests) == 1


@pytest.mark.parametrize("name", PROVIDERS)
def test_500_is_retried_with_backoff(name: str) -> None:
    sleeps = Sleeps()
    script = [Reply("<html>Internal Server Error</html>", status=500), Reply(PAYLOADS[name](HITS))]
    with LocalSearchServer(script) as server:
        assert len(provider_for(name, server, sleep=sleeps, backoff=0.5).search("q", 3)) == 3
    assert len(sleeps) == 1 and 0.25 <= sleeps[0] <= 0.5


def test_persistent_5xx_gives_up_with_one_clear_line() -> None:
    sleeps = Sleeps()
    script = [Reply({"error": {"message": "backend unavailable"}}, status=503)] * 3
    with LocalSearchServer(script) as server, pytest.raises(RetrievalError) as info:
        provider_for("google", server, sleep=sleeps, max_attempts=3).search("q", 3)
    message = str(info.value)
    assert message.startswith("google: server error HTTP 503: backend unavailable")
    assert "3 attempts" in message and "\n" not in message
    assert len(server.requests) == 3 and len(sleeps) == 2


@pytest.mark.parametrize(("name", "hint"), [("serper", "SERPER_API_KEY"), ("brave", "BRAVE_API_KEY"),
                                            ("google", "GOOGLE_API_KEY"), ("searxng", "settings.yml")])
def test_401_is_not_retried_and_says_what_to_check(name: str, hint: str) -> None:
    body = {"type": "ErrorResponse", "error": {"status": 401, "code": "SUBSCRIPTION_TOKEN_INVALID",
                                               "detail": "The provided subscription token is invalid."}}
    with LocalSearchServer([Reply(body, status=401)]) as server, pytest.raises(RetrievalError) as info:
        provider_for(name, server, sleep=Sleeps()).search("q", 3)
    message = str(info.value)
    assert f"{name}: HTTP 401" in message and hint in message and "\n" not in message
    assert "subscription token is invalid" in message
    assert len(server.requests) == 1


def test_other_4xx_reports_the_providers_message() -> None:
    body = {"error": {"code": 400, "message": "Request contains an invalid argument.", "status": "INVALID"}}
    with LocalSearchServer([Reply(body, status=400)]) as server, pytest.raises(RetrievalError) as info:
        provider_for("google", server).search("q", 3)
    assert str(info.value) == "google: HTTP 400: Request contains an invalid argument."


def test_a_timeout_is_retried_then_reported() -> None:
    sleeps = Sleeps()
    script = [Reply(PAYLOADS["serper"](HITS), delay=1.0)] * 2
    with LocalSearchServer(script) as server, pytest.raises(RetrievalError) as info:
        provider_for("serper", server, timeout=0.2, max_attempts=2, sleep=sleeps).search("q", 3)
    message = str(info.value)
    assert "no reply within 0.2s" in message and "2 attempts" in message and "\n" not in message
    assert len(server.requests) == 2


def test_a_refused_connection_is_reported() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = make_search_provider("searxng", base_url=f"http://127.0.0.1:{port}", rate=1000.0,
                                    max_attempts=2, sleep=Sleeps())
    with pytest.raises(RetrievalError, match=r"searxng: could not reach http://127\.0\.0\.1:\d+/search"):
        provider.search("q", 3)


@pytest.mark.parametrize("body", ["<html>not json</html>", '{"organic": [', ""])
def test_malformed_json_is_a_clear_error(body: str) -> None:
    with LocalSearchServer([Reply(body)]) as server, pytest.raises(RetrievalError) as info:
        provider_for("serper", server).search("q", 3)
    assert str(info.value).startswith("serper: reply is not JSON") and "\n" not in str(info.value)


@pytest.mark.parametrize(("name", "body", "where"), [
    ("serper", {"organic": {"title": "x"}}, "organic is not a list"),
    ("brave", {"web": ["x"]}, "web.results is not reachable"),
    ("searxng", ["results"], "not an object"),
])
def test_an_unexpected_shape_is_a_clear_error(name: str, body: object, where: str) -> None:
    with LocalSearchServer([Reply(body)]) as server, pytest.raises(RetrievalError, match=where):
        provider_for(name, server).search("q", 3)


def test_requests_are_spaced_by_the_rate_limit_even_from_threads() -> None:
    payload = PAYLOADS["brave"](HITS)
    with LocalSearchServer(lambda seen: Reply(payload)) as server:
        provider = provider_for("brave", server, rate=10.0)
        workers = [threading.Thread(target=provider.search, args=(f"q{i}", 3)) for i in range(5)]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.monotonic() - started
    # At 10 requests/s the fifth request may not start before 0.4 s: a lower bound that
    # scheduling jitter on a busy machine cannot break (arrival gaps can).
    assert len(server.requests) == 5
    assert elapsed >= 0.4


def test_rate_limiter_reserves_slots_in_order_and_defers_after_a_429() -> None:
    now = [100.0]
    waits: list[float] = []
    limiter = RateLimiter(2.0, clock=lambda: now[0], sleep=waits.append)
    for _ in range(3):
        limiter.wait()
    assert waits == [0.5, 1.0]
    limiter.defer(5.0)
    limiter.wait()
    assert waits[-1] == 5.0
    with pytest.raises(InputError):
        RateLimiter(0)


def test_instances_of_one_endpoint_share_a_limiter() -> None:
    a = make_search_provider("searxng", base_url="http://127.0.0.1:9/")
    b = make_search_provider("searxng", base_url="http://127.0.0.1:9")
    assert a.limiter is b.limiter is shared_limiter("searxng", "http://127.0.0.1:9/search", 1.0)


@pytest.mark.parametrize(("name", "env"), [("serper", "SERPER_API_KEY"), ("brave", "BRAVE_API_KEY"),
                                           ("google", "GOOGLE_API_KEY"), ("searxng", "SEARXNG_URL")])
def test_a_missing_key_names_the_environment_variable(
    name: str, env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("SERPER_API_KEY", "BRAVE_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CSE_ID", "SEARXNG_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(InputError, match=env):
        make_search_provider(name)


def test_google_needs_the_engine_id_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "k")
    monkeypatch.delenv("GOOGLE_CSE_ID", raising=False)
    with pytest.raises(InputError, match="GOOGLE_CSE_ID"):
        make_search_provider("google")


def test_keys_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERPER_API_KEY", "from-env")
    with LocalSearchServer([Reply(PAYLOADS["serper"](HITS))]) as server:
        make_search_provider("serper", endpoint=server.base_url + "/search", rate=1000.0).search("q", 1)
    assert server.requests[0].headers["x-api-key"] == "from-env"


def test_unknown_provider_and_empty_query_are_input_errors() -> None:
    with pytest.raises(InputError, match="serper, brave, google, searxng"):
        make_search_provider("bing")
    with pytest.raises(InputError):
        make_search_provider("searxng", base_url="http://127.0.0.1:9").search("  ", 3)


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    later = time.time() + 30
    assert parse_retry_after(formatdate(later, usegmt=True)) == pytest.approx(30, abs=1.5)
    assert parse_retry_after(formatdate(time.time() - 100, usegmt=True)) == 0.0
