"""A MediaWiki reply nested deeper than Python's JSON reader recurses is one error line, not a
RecursionError traceback (issue 44.8)."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from factjudge.errors import RetrievalError
from factjudge.retrieval.wiki.mediawiki import MediaWikiApi
from factjudge.testing.live import serve_handler

DEPTH = 200_000


@pytest.mark.parametrize("where", ["reply", "query"])
def test_a_deeply_nested_reply_is_one_retrieval_error_line(where: str) -> None:
    nested = "[" * DEPTH + "]" * DEPTH
    body = (nested if where == "reply" else '{"query": ' + nested + "}").encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with serve_handler(Handler) as base:
        wiki = MediaWikiApi(f"{base}/{where}/w/api.php", cache_dir=None, allow_loopback=True, per_second=100)
        with pytest.raises(RetrievalError, match="nested too deeply") as caught:
            wiki.search("Madrid is the capital of Spain", 2, topics=["Spain"])
    assert "\n" not in str(caught.value)
