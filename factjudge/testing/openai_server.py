"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks, faults included.

It speaks ``POST /v1/chat/completions``: each request gets the next scripted step
(status, headers, body, delay, or a named fault) or, when the script is empty, the reply
of a responder function of the messages, unless a ``FaultPlan`` injects a fault into it
at random (seeded). Requests are counted so tests can assert "zero calls", and every
well-formed completion sent is counted per request, so a benchmark can tell a call paid
twice from a retry of a failed one.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from factjudge.prompts.contracts import ID_LIST

Responder = Callable[[list[dict[str, str]]], str]

# What a misbehaving endpoint does. Statuses are retried by any sane client; a hang outlasts
# the client's timeout; drop closes without a reply, truncate half-way through the body;
# garbage and empty_choices are 200s that are not chat completions; bad_usage is a good
# reply with a broken usage block; wrong_content a reply that breaks the output contract;
# huge a reply far beyond any max_tokens; trickle a good reply, status line, headers and body
# sent a byte at a time, each byte well within any timeout between two reads.
FAULTS = ("429", "500", "503", "hang", "drop", "truncate", "garbage", "empty_choices", "bad_usage",
          "wrong_content", "huge", "trickle")
WRONG_CONTENT = "I'm sorry, but I can't help with that."
# What a FELM list judge answers when nothing is wrong: a well-formed default reply.
DEFAULT_REPLY = f"{ID_LIST.answer} {ID_LIST.all_correct}"


@dataclass
class Step:
    """One scripted response; ``fault`` (one of FAULTS) overrides the rest."""

    status: int = 200
    reply: str = DEFAULT_REPLY
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body: dict[str, Any] | None = None
    usage: bool = True
    logprobs: list[dict[str, Any]] | None = None
    fault: str | None = None


@dataclass
class FaultPlan:
    """Inject a fault into a share ``rate`` of the unscripted requests, drawn from ``kinds``.

    ``rotate`` makes it regular instead of random: exactly one request in 1/rate is faulty,
    the kinds taken in turn, so a short run sees every kind at the rate asked.
    """

    rate: float = 0.2
    kinds: tuple[str, ...] = FAULTS
    seed: int = 0
    hang_seconds: float = 3.0
    huge_chars: int = 2_000_000
    trickle_seconds: float = 0.2  # between two bytes of a trickled reply
    rotate: bool = False

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults {sorted(unknown)}; known: {FAULTS}")
        self.rng = random.Random(self.seed)
        self._requests = self._faults = 0

    def draw(self) -> str | None:
        """The fault for the next request, or None (call under the server's lock)."""
        if not self.rotate:
            return self.rng.choice(self.kinds) if self.rng.random() < self.rate else None
        self._requests += 1
        if int(self._requests * self.rate) == self._faults:
            return None
        self._faults += 1
        return self.kinds[(self._faults - 1) % len(self.kinds)]


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


def request_key(request: dict[str, Any]) -> str:
    """What identifies a call: everything in the request body."""
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


class _ThreadingServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 refuses connections under 32-way load

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a killed client is no server error
            super().handle_error(request, client_address)


class OpenAIServer:
    """Start with ``with OpenAIServer(...) as server:``; ``server.base_url`` ends in /v1."""

    def __init__(self, steps: list[Step] | None = None, responder: Responder | None = None,
                 latency: float = 0.0, faults: FaultPlan | None = None) -> None:
        self.steps = list(steps or [])
        self.responder = responder
        self.latency = latency
        self.faults = faults
        self.requests: list[dict[str, Any]] = []
        self.injected: Counter[str] = Counter()
        # Well-formed completions sent, per request key: more than one is a call paid twice.
        self.completions: Counter[str] = Counter()
        self.in_flight = 0
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
                try:
                    request = json.loads(self.rfile.read(length))
                    if not request.get("messages"):
                        raise ValueError("no messages")
                except (ValueError, AttributeError):  # a client killed while sending its request
                    self.close_connection = True
                    return
                with outer.lock:
                    outer.requests.append(request)
                    outer.in_flight += 1
                    step = outer._next_step()
                try:
                    self._answer(request, step)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to send
                finally:
                    with outer.lock:
                        outer.in_flight -= 1

            def _answer(self, request: dict[str, Any], step: Step | None) -> None:
                if step is None:
                    reply = outer.responder(request["messages"]) if outer.responder else DEFAULT_REPLY
                    step = Step(reply=reply, delay=outer.latency)
                if step.delay:
                    time.sleep(step.delay)
                if step.fault is not None:
                    self._fault(request, step)
                    return
                if step.status == 200:
                    body = step.body or completion_body(step.reply, request["messages"], usage=step.usage,
                                                        logprobs=step.logprobs)
                    if step.body is None:
                        outer._paid(request)
                else:
                    body = step.body or {"error": {"message": f"scripted status {step.status}",
                                                   "type": "test", "code": step.status}}
                self._send(step.status, json.dumps(body).encode(), step.headers)

            def _fault(self, request: dict[str, Any], step: Step) -> None:
                kind = step.fault
                with outer.lock:
                    outer.injected[str(kind)] += 1
                plan = outer.faults or FaultPlan()
                messages = request.get("messages", [])
                good = completion_body(step.reply if outer.responder is None else
                                       outer.responder(messages), messages)
                if kind in ("429", "500", "503"):
                    body = {"error": {"message": f"injected {kind}", "type": "test", "code": int(kind)}}
                    self._send(int(kind), json.dumps(body).encode())
                elif kind == "hang":
                    time.sleep(plan.hang_seconds)
                    self.close_connection = True
                elif kind == "drop":
                    self.close_connection = True
                elif kind == "truncate":
                    data = json.dumps(good).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.close_connection = True
                elif kind == "garbage":
                    self._send(200, b"\x00\xff<html>upstream proxy error</html>")
                elif kind == "empty_choices":
                    self._send(200, b'{"id": "x", "object": "chat.completion", "choices": []}')
                elif kind == "bad_usage":
                    good["usage"] = {"prompt_tokens": "many"}
                    outer._paid(request)
                    self._send(200, json.dumps(good).encode())
                elif kind == "wrong_content":
                    outer._paid(request)
                    self._send(200, json.dumps(completion_body(WRONG_CONTENT, messages)).encode())
                elif kind == "trickle":
                    self._trickle(request, json.dumps(good).encode(), plan.trickle_seconds)
                elif kind == "huge":
                    reply = ("All correct. " * (plan.huge_chars // 13 + 1))[: plan.huge_chars]
                    self._send(200, json.dumps(completion_body(reply, messages)).encode())
                else:
                    raise ValueError(f"unknown fault {kind!r}")

            def _trickle(self, request: dict[str, Any], data: bytes, seconds: float) -> None:
                head = (f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                        f"content-length: {len(data)}\r\n\r\n").encode()
                self.close_connection = True
                for i, byte in enumerate(head + data):
                    if i:
                        time.sleep(seconds)
                    self.wfile.write(bytes([byte]))  # BrokenPipe once the client gave up
                outer._paid(request)  # the client waited for all of it

            def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        self.httpd = _ThreadingServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def _next_step(self) -> Step | None:
        """The scripted step, else a random fault by the plan, else None (the responder answers)."""
        if self.steps:
            return self.steps.pop(0)
        fault = self.faults.draw() if self.faults is not None else None
        return Step(fault=fault, delay=self.latency) if fault else None

    def _paid(self, request: dict[str, Any]) -> None:
        with self.lock:
            self.completions[request_key(request)] += 1

    def paid_twice(self) -> int:
        """Requests that got a well-formed completion more than once."""
        with self.lock:
            return sum(1 for n in self.completions.values() if n > 1)

    def __enter__(self) -> OpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
