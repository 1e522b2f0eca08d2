"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

It speaks ``POST /v1/chat/completions``: each request gets the next scripted step
(status, headers, body, delay) or, when the script is empty, the reply of a responder
function of the messages. Requests are counted so tests can assert "zero calls".
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[list[dict[str, str]]], str]


@dataclass
class Step:
    """One scripted response."""

    status: int = 200
    reply: str = "Answer: ALL_CORRECT"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body: dict[str, Any] | None = None
    usage: bool = True
    logprobs: list[dict[str, Any]] | None = None


def completion_body(reply: str, messages: list[dict[str, str]], *, usage: bool = True,
                    logprobs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A chat.completion JSON body in OpenAI's shape."""
    prompt_tokens = sum(len(m["content"].split()) for m in messages)
    body: dict[str, Any] = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply},
                     "finish_reason": "stop",
                     "logprobs": {"content": logprobs} if logprobs is not None else None}],
    }
    if usage:
        body["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": len(reply.split()),
                         "total_tokens": prompt_tokens + len(reply.split())}
    return body


class _ThreadingServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 refuses connections under 32-way load


class OpenAIServer:
    """Start with ``with OpenAIServer(...) as server:``; ``server.base_url`` ends in /v1."""

    def __init__(self, steps: list[Step] | None = None, responder: Responder | None = None,
                 latency: float = 0.0) -> None:
        self.steps = list(steps or [])
        self.responder = responder
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes; with Nagle on, the client's delayed ACK
            # adds ~40 ms to every keep-alive request.
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                with outer.lock:
                    outer.requests.append(request)
                    step = outer.steps.pop(0) if outer.steps else None
                if step is None:
                    reply = outer.responder(request["messages"]) if outer.responder else "Answer: ALL_CORRECT"
                    step = Step(reply=reply, delay=outer.latency)
                if step.delay:
                    time.sleep(step.delay)
                if step.status == 200:
                    body = step.body or completion_body(step.reply, request["messages"], usage=step.usage,
                                                        logprobs=step.logprobs)
                else:
                    body = step.body or {"error": {"message": f"scripted status {step.status}",
                                                   "type": "test", "code": step.status}}
                data = json.dumps(body).encode()
                try:
                    self.send_response(step.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in step.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to send

        self.httpd = _ThreadingServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
