"""A scripted search server on 127.0.0.1 that answers in each provider's real JSON shape."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from factjudge.retrieval.web_search import HttpSearchProvider, make_search_provider

Hit = tuple[str, str, str]  # title, url, snippet


@dataclass
class Reply:
    """What the server sends back for one request."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    at: float

    def json(self) -> Any:
        return json.loads(self.body)


class LocalSearchServer:
    """Threaded HTTP server replying from a script (a list, or a function of the request)."""

    def __init__(self, replies: Iterable[Reply] | Callable[[Seen], Reply] = ()) -> None:
        self.requests: list[Seen] = []
        self._lock = threading.Lock()
        self._responder = replies if callable(replies) else None
        self._queue: list[Reply] = [] if callable(replies) else list(replies)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                seen = Seen(self.command, parts.path, parse_qs(parts.query),
                            {k.lower(): v for k, v in self.headers.items()},
                            self.rfile.read(length) if length else b"", time.monotonic())
                reply = server._next(seen)
                if reply.delay:
                    time.sleep(reply.delay)
                body = reply.body
                if isinstance(body, (dict, list)):
                    body = json.dumps(body)
                data = body.encode() if isinstance(body, str) else (body or b"")
                try:
                    self.send_response(reply.status)
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True)

    def _next(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            if self._responder is not None:
                return self._responder(seen)
            if self._queue:
                return self._queue.pop(0)
        return Reply({"error": "script ran out"}, status=599)

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def __enter__(self) -> LocalSearchServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


# Real response shapes, trimmed to representative fields.

def serper_payload(hits: list[Hit], query: str = "q") -> dict[str, Any]:
    return {
        "searchParameters": {"q": query, "type": "search", "engine": "google"},
        "organic": [{"title": t, "link": u, "snippet": s, "position": i, "date": "Jan 2, 2024"}
                    for i, (t, u, s) in enumerate(hits, start=1)],
        "peopleAlsoAsk": [{"question": "Why?", "snippet": "Because.", "link": "https://x.example/paa"}],
        "relatedSearches": [{"query": query + " facts"}],
        "credits": 1,
    }


def brave_payload(hits: list[Hit], query: str = "q") -> dict[str, Any]:
    return {
        "type": "search",
        "query": {"original": query, "more_results_available": True},
        "mixed": {"type": "mixed", "main": [{"type": "web", "index": 0, "all": False}]},
        "web": {
            "type": "search",
            "results": [{"title": t, "url": u, "description": s, "is_source_local": False,
                         "is_source_both": False, "language": "en", "family_friendly": True,
                         "type": "search_result", "subtype": "generic",
                         "profile": {"name": "Example", "url": u}, "meta_url": {"scheme": "https"}}
                        for t, u, s in hits],
            "family_friendly": True,
        },
    }


def google_payload(hits: list[Hit], query: str = "q") -> dict[str, Any]:
    payload: dict[str, Any] = {
        "kind": "customsearch#search",
        "queries": {"request": [{"searchTerms": query, "count": len(hits), "startIndex": 1}]},
        "searchInformation": {"searchTime": 0.2, "totalResults": str(len(hits))},
    }
    if hits:  # the API leaves ``items`` out when nothing matched
        payload["items"] = [{"kind": "customsearch#result", "title": t, "htmlTitle": f"<b>{t}</b>",
                             "link": u, "displayLink": urlsplit(u).netloc, "snippet": s,
                             "htmlSnippet": f"<b>{s}</b>"} for t, u, s in hits]
    return payload


def searxng_payload(hits: list[Hit], query: str = "q") -> dict[str, Any]:
    return {
        "query": query,
        "number_of_results": 0,
        "results": [{"url": u, "title": t, "content": s, "engine": "duckduckgo",
                     "engines": ["duckduckgo", "bing"], "positions": [i], "score": 2.0 / i,
                     "category": "general", "parsed_url": ["https", urlsplit(u).netloc, "", "", "", ""]}
                    for i, (t, u, s) in enumerate(hits, start=1)],
        "answers": [], "corrections": [], "infoboxes": [], "suggestions": [], "unresponsive_engines": [],
    }


PAYLOADS: dict[str, Callable[..., dict[str, Any]]] = {
    "serper": serper_payload, "brave": brave_payload, "google": google_payload, "searxng": searxng_payload,
}

# The path each provider's real endpoint has, so the test can check it was kept.
PATHS = {"serper": "/search", "brave": "/res/v1/web/search", "google": "/customsearch/v1",
         "searxng": "/search"}


def provider_for(name: str, server: LocalSearchServer, **kw: Any) -> HttpSearchProvider:
    """A provider of ``name`` pointed at ``server``, with fake keys and fast retries."""
    kw.setdefault("rate", 1000.0)
    kw.setdefault("backoff", 0.01)
    kw.setdefault("timeout", 2.0)
    if name == "searxng":
        return make_search_provider(name, base_url=server.base_url, **kw)
    keys: dict[str, Any] = {"api_key": f"{name}-key"}
    if name == "google":
        keys["cse_id"] = "cse-id"
    return make_search_provider(name, endpoint=server.base_url + PATHS[name], **keys, **kw)
