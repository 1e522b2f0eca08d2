"""Load test of the HTTP service: N concurrent POST /v1/check on 127.0.0.1, scripted backend.

    python benchmarks/service.py                       # 200 requests, all at once
    python benchmarks/service.py --requests 400 --model-delay 0.05 --max-concurrency 16

The service runs under a real uvicorn in a child process (so client and server do not
share a GIL); the judge is a ScriptedChatModel, optionally with a simulated model latency.
The client is plain asyncio streams speaking HTTP/1.1, one connection per request:
httpx's pool, at 200 simultaneous connections, costs more than the service it measures.
Prints p50/p95/p99 latency, requests/s and the status counts; exits 1 on any error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import socket
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence

from factjudge.integrations.http import create_app
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.live import loopback_socket

QUESTION = "When did the city museum open, and where is it?"
ANSWER = ("The city museum opened in 1998. It stands on the north bank of the river. "
          "It was a power station before. I hope you enjoy your visit!")
CONTEXT = ["The city museum opened its doors in 1998 in a former power station on the south bank "
           "of the river. Entry is free on Sundays."]


def serve(sock: socket.socket, max_concurrency: int, model_delay: float) -> None:
    """Child process: the service with a scripted judge, on the inherited socket."""
    import uvicorn

    model = ScriptedChatModel(lambda messages: "Answer: 2", name="scripted:bench", delay=model_delay)
    app = create_app(model=model, max_concurrency=max_concurrency, timeout=60.0)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])


async def request(port: int, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
    """One HTTP/1.1 request on a fresh connection to 127.0.0.1; returns status and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        writer.write(head.encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    header, _, payload = raw.partition(b"\r\n\r\n")
    return int(header.split(b" ", 2)[1]), payload


async def wait_ready(port: int, deadline: float) -> None:
    """Poll /healthz until the child answers."""
    while True:
        try:
            if (await request(port, "GET", "/healthz"))[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the service did not start within the deadline")
        await asyncio.sleep(0.05)


async def fire(port: int, requests: int) -> tuple[list[float], Counter[int | str], float]:
    """Send ``requests`` checks at once; return latencies, status counts and wall time."""
    await wait_ready(port, time.monotonic() + 20)
    body = json.dumps({"question": QUESTION, "answer": ANSWER, "context": CONTEXT}).encode()
    await request(port, "POST", "/v1/check", body)  # warm-up: imports, first prompt load

    async def one() -> tuple[float, int | str]:
        started = time.perf_counter()
        try:
            status, payload = await asyncio.wait_for(request(port, "POST", "/v1/check", body), 120)
            ok = status == 200 and json.loads(payload)["label"] == "false"
            outcome: int | str = status if ok else f"bad {status}"
        except (OSError, ValueError, asyncio.TimeoutError) as exc:
            outcome = type(exc).__name__
        return time.perf_counter() - started, outcome

    started = time.perf_counter()
    results = await asyncio.gather(*(one() for _ in range(requests)))
    wall = time.perf_counter() - started
    return [r[0] for r in results], Counter(r[1] for r in results), wall


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load test and print the figures."""
    parser = argparse.ArgumentParser(description="Load-test POST /v1/check on 127.0.0.1.")
    parser.add_argument("--requests", type=int, default=200, help="requests, all sent at once")
    parser.add_argument("--max-concurrency", type=int, default=8, help="the service's check slots")
    parser.add_argument("--model-delay", type=float, default=0.0, help="simulated seconds per model call")
    args = parser.parse_args(argv)
    if args.requests < 2:
        parser.error("--requests must be at least 2 for percentiles")

    sock = loopback_socket()
    port = sock.getsockname()[1]
    child = multiprocessing.get_context("fork").Process(
        target=serve, args=(sock, args.max_concurrency, args.model_delay), daemon=True)
    child.start()
    try:
        latencies, statuses, wall = asyncio.run(fire(port, args.requests))
    finally:
        child.terminate()
        child.join(10)
        sock.close()

    errors = sum(n for status, n in statuses.items() if status != 200)
    ms = [x * 1000 for x in latencies]
    print(f"POST /v1/check x {args.requests} concurrent, {args.max_concurrency} check slots, "
          f"model delay {args.model_delay * 1000:.0f} ms (scripted backend, uvicorn on 127.0.0.1)")
    print(f"  errors: {errors}   statuses: {dict(statuses)}")
    print(f"  latency ms: p50 {percentile(ms, 50):.1f}   p95 {percentile(ms, 95):.1f}   "
          f"p99 {percentile(ms, 99):.1f}   max {max(ms):.1f}")
    print(f"  throughput: {args.requests / wall:.1f} requests/s  (wall {wall:.2f} s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
