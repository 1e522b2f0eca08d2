"""A small MediaWiki API on 127.0.0.1: titles with redirects, plain-text extracts and search.

It answers from a dict of articles in the API's JSON (``formatversion=2``): ``titles=``
with ``prop=info`` or ``prop=extracts`` (one extract per request, as the real API gives
without ``exintro``), and ``list=search``, whose terms are ANDed unless joined by ``OR``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, quote, urlsplit

from factjudge.testing.live import serve_handler


@dataclass
class Request:
    """One request as the server got it."""

    params: dict[str, str]
    headers: dict[str, str]
    at: float


@dataclass
class MediaWikiServer:
    """Articles by title, redirects by title, and what the server saw."""

    articles: dict[str, str]
    redirects: dict[str, str] = field(default_factory=dict)
    status: int = 200
    requests: list[Request] = field(default_factory=list)
    url: str = ""

    def reply(self, params: dict[str, str]) -> dict[str, object]:
        """The API's JSON for one request."""
        if params.get("action") != "query" or params.get("format") != "json":
            return {"error": {"code": "badvalue", "info": "Unrecognized value for parameter \"action\"."}}
        query: dict[str, object] = {}
        if "titles" in params:
            query |= self._pages(params["titles"].split("|"), "extracts" in params.get("prop", ""),
                                 "url" in params.get("inprop", ""))
        if params.get("list") == "search":
            hits = self._search(params["srsearch"])[: int(params.get("srlimit", "10"))]
            query["search"] = [{"ns": 0, "title": title} for title in hits]
        return {"batchcomplete": True, "query": query}

    def _pages(self, titles: list[str], extracts: bool, urls: bool) -> dict[str, object]:
        normalized, redirected, pages = [], [], []
        for i, asked in enumerate(titles):
            title = asked[:1].upper() + asked[1:]
            if title != asked:
                normalized.append({"from": asked, "to": title})
            if title in self.redirects:
                redirected.append({"from": title, "to": self.redirects[title]})
                title = self.redirects[title]
            if title not in self.articles:
                pages.append({"ns": 0, "title": title, "missing": True})
                continue
            page: dict[str, object] = {"pageid": 100 + i, "ns": 0, "title": title}
            if extracts and i == 0:  # the real API fills one extract per request
                page["extract"] = self.articles[title]
            if urls:
                page["fullurl"] = f"{self.url.rsplit('/w/', 1)[0]}/wiki/{quote(title.replace(' ', '_'))}"
            pages.append(page)
        return {"normalized": normalized, "redirects": redirected, "pages": pages}

    def _search(self, text: str) -> list[str]:
        alternatives = [t.lower() for t in text.split(" OR ")] if " OR " in text else None
        terms = text.lower().split()
        found = []
        for title, body in self.articles.items():
            words = set(f"{title} {body}".lower().replace(".", " ").replace(",", " ").split())
            if (alternatives and words & set(alternatives)) or (not alternatives and set(terms) <= words):
                found.append(title)
        return found


@contextmanager
def serve(server: MediaWikiServer) -> Iterator[MediaWikiServer]:
    """Run ``server`` on a free port of 127.0.0.1; its ``url`` is the api.php address."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            params = {k: v[0] for k, v in parse_qs(parts.query).items()}
            server.requests.append(Request(params, {k.lower(): v for k, v in self.headers.items()},
                                           time.monotonic()))
            body = json.dumps(server.reply(params)).encode() if server.status == 200 else b"down"
            self.send_response(server.status)
            self.send_header("Content-Type", "application/json; charset=utf-8" if server.status == 200
                             else "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with serve_handler(Handler) as base:
        # A path of its own: rate limits are shared per endpoint in a process, and a port can
        # come back in a later test with another test's limiter still attached to it.
        server.url = f"{base}/{uuid.uuid4().hex[:8]}/w/api.php"
        yield server
